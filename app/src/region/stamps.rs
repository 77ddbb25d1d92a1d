//! The Stamps panel: the `.strata` stamps in a folder (a preference; by default `stamps` in the
//! config directory), each with a top-down thumbnail. Use floats one under the cursor in the Region
//! tool as a brush: every click places a copy (one undo step each), Esc ends. Save Selection writes
//! the current selection into the folder under the typed name.
//!
//! The folder is listed again every few seconds while the panel shows; thumbnails are rendered in
//! the background (into the config directory's thumbnail folder, like recent files') and stamps
//! load in the background, their materials moved to the world's table by name.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use eframe::egui;
use strata_engine::format::project::Project;
use strata_engine::region::{Region, STAMP_EXTENSION};
use strata_engine::voxel::MaterialTable;

use crate::app::action::Action;
use crate::app::jobs::{Inbox, Job, JobKind};
use crate::app::panel::{panel_path, Panel, View};
use crate::files::file_jobs::PathSpec;
use crate::files::thumbnail_textures::ThumbnailTextures;
use crate::files::thumbnails;
use crate::AppResult;

/// The panel's name.
pub const NAME: &str = "Stamps";

/// How often the folder is listed again while the panel shows.
const RELIST: Duration = Duration::from_secs(3);

/// What a Stamps job hands back.
enum Done {
    /// Thumbnails were written for these stamps.
    Thumbs(Vec<PathBuf>),
    /// A stamp loaded, ready to float.
    Loaded(Arc<Region>, String),
    /// The selection was saved as this stamp.
    Saved(PathBuf),
}

/// The Stamps panel.
pub struct StampsPanel {
    stamps: Vec<PathBuf>,
    listed: Option<(PathBuf, Instant)>,
    textures: ThumbnailTextures,
    thumbs_running: bool,
    name: String,
    chosen_folder: Option<PathBuf>,
    error: Option<String>,
    /// Where this panel's jobs deliver.
    inbox: Inbox<Done>,
}

impl Default for StampsPanel {
    fn default() -> Self {
        Self {
            stamps: Vec::new(),
            listed: None,
            textures: ThumbnailTextures::default(),
            thumbs_running: false,
            name: "stamp".into(),
            chosen_folder: None,
            error: None,
            inbox: Inbox::default(),
        }
    }
}

/// The stamps folder the preferences name, or `stamps` in the config directory.
pub fn folder(view: &View<'_>) -> Option<PathBuf> {
    view.prefs
        .stamps_folder
        .clone()
        .or_else(|| view.config.map(|c| c.join("stamps")))
}

/// The stamp files in `dir`, by name.
fn list(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.is_file()
                && p.extension()
                    .is_some_and(|e| e.eq_ignore_ascii_case(STAMP_EXTENSION))
        })
        .collect();
    out.sort();
    out
}

impl StampsPanel {
    /// The stamps listed.
    pub fn stamps(&self) -> &[PathBuf] {
        &self.stamps
    }

    fn relist(&mut self, dir: &Path, thumbs: Option<PathBuf>, out: &mut Vec<Action>) {
        let fresh = self
            .listed
            .as_ref()
            .is_some_and(|(d, at)| d == dir && at.elapsed() < RELIST);
        if fresh {
            return;
        }
        self.stamps = list(dir);
        self.listed = Some((dir.to_path_buf(), Instant::now()));
        let Some(thumbs) = thumbs else {
            return;
        };
        let missing: Vec<PathBuf> = self
            .stamps
            .iter()
            .filter(|s| !thumbnails::path_of(&thumbs, s).is_file())
            .cloned()
            .collect();
        if missing.is_empty() || self.thumbs_running {
            return;
        }
        self.thumbs_running = true;
        let job = self
            .inbox
            .spawn("Stamp thumbnails", JobKind::Background, move |progress| {
                progress.start(missing.len() as u64);
                let mut done = Vec::new();
                for path in missing {
                    progress.check()?;
                    // An unreadable stamp keeps its blank picture; Use reports why it fails.
                    if let Ok(project) = Project::load(&path) {
                        if thumbnails::write(&thumbs, &path, &project).is_ok() {
                            done.push(path);
                        }
                    }
                    progress.advance(1);
                }
                Ok(Done::Thumbs(done))
            })
            .owned_by(NAME);
        out.push(Action::Start(job));
    }
}

/// Load the stamp at `path` for a world with `table`.
fn load_job(inbox: &Inbox<Done>, path: PathBuf, table: MaterialTable) -> Job {
    let label = format!("Loading stamp {}", path.display());
    inbox
        .spawn(label, JobKind::Background, move |progress| {
            let (mut region, stamp_table) = Region::load_stamp(&path, progress)?;
            region
                .remap_materials(&stamp_table, &table)
                .map_err(|e| e.in_file(&path))?;
            let name = crate::files::file_jobs::stem(&path);
            Ok(Done::Loaded(Arc::new(region), name))
        })
        .owned_by(NAME)
}

/// Save `region` as the stamp `path` with its thumbnail.
fn save_job(
    inbox: &Inbox<Done>,
    path: PathBuf,
    region: Region,
    table: MaterialTable,
    thumbs: Option<PathBuf>,
) -> Job {
    let label = format!("Saving stamp {}", path.display());
    inbox
        .spawn(label, JobKind::Background, move |_| {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(|e| crate::AppError::io(dir, e))?;
            }
            let project = region.to_project(&crate::files::file_jobs::stem(&path), &table)?;
            project.save(&path)?;
            if let Some(dir) = thumbs {
                // A missing thumbnail only costs a picture in the list.
                let _ = thumbnails::write(&dir, &path, &project);
            }
            Ok(Done::Saved(path))
        })
        .owned_by(NAME)
}

/// A file name from what the user typed: letters, digits, `-`, `_`, spaces and dots kept.
fn file_name(typed: &str) -> Option<String> {
    let name: String = typed
        .trim()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' ' | '.'))
        .collect();
    let name = name.trim_matches('.').trim().to_owned();
    (!name.is_empty()).then(|| format!("{name}.{STAMP_EXTENSION}"))
}

impl Panel for StampsPanel {
    fn name(&self) -> &'static str {
        NAME
    }

    fn ui(&mut self, ui: &mut egui::Ui, view: &View<'_>, out: &mut Vec<Action>) {
        let Some(dir) = folder(view) else {
            ui.label("No config folder: choose a stamps folder.");
            return;
        };
        let thumbs = view.config.map(thumbnails::folder);
        self.relist(&dir, thumbs.clone(), out);
        ui.horizontal(|ui| {
            ui.weak(dir.display().to_string());
            if ui
                .small_button("Folder…")
                .on_hover_text("Choose the folder the stamps are listed from")
                .clicked()
            {
                let spec = PathSpec {
                    title: "Stamps folder".into(),
                    folder: true,
                    ..Default::default()
                };
                out.push(Action::AskPath(panel_path(NAME, 0, spec)));
            }
        });
        let selection = view.doc.and_then(crate::document::Document::selection);
        ui.horizontal(|ui| {
            let label = ui.label("Name");
            ui.add(egui::TextEdit::singleline(&mut self.name).desired_width(90.0))
                .labelled_by(label.id);
            let enabled = selection.is_some() && !view.busy;
            if ui
                .add_enabled(enabled, egui::Button::new("Save Selection"))
                .on_hover_text("Save the Region tool's selection into this folder as a stamp")
                .clicked()
            {
                match (file_name(&self.name), view.doc, selection) {
                    (Some(name), Some(doc), Some(sel)) => match Region::copy(doc.grid(), sel) {
                        Ok(region) => out.push(Action::Start(save_job(
                            &self.inbox,
                            dir.join(name),
                            region,
                            doc.materials().clone(),
                            thumbs.clone(),
                        ))),
                        Err(e) => self.error = Some(e.to_string()),
                    },
                    _ => self.error = Some("Type a name for the stamp".into()),
                }
            }
        });
        if let Some(e) = &self.error {
            ui.colored_label(ui.visuals().warn_fg_color, e);
        }
        if self.stamps.is_empty() {
            ui.weak("No stamps yet: select a box with the Region tool and save it.");
        }
        let stamps = self.stamps.clone();
        for path in &stamps {
            ui.horizontal(|ui| {
                let thumb = thumbs
                    .as_deref()
                    .and_then(|d| self.textures.get(ui.ctx(), d, path));
                match thumb {
                    Some(t) => {
                        ui.add(egui::Image::new(&t).max_size(egui::vec2(48.0, 48.0)));
                    }
                    None => {
                        ui.allocate_exact_size(egui::vec2(48.0, 48.0), egui::Sense::hover());
                    }
                }
                let name = crate::files::file_jobs::stem(path);
                ui.label(&name);
                let enabled = view.doc.is_some();
                if ui
                    .add_enabled(enabled, egui::Button::new(format!("Use {name}")))
                    .on_hover_text(
                        "Float this stamp under the cursor: each click places a copy, Esc ends",
                    )
                    .clicked()
                {
                    if let Some(doc) = view.doc {
                        out.push(Action::Start(load_job(
                            &self.inbox,
                            path.clone(),
                            doc.materials().clone(),
                        )));
                    }
                }
            });
        }
    }

    fn tick(&mut self, view: &View<'_>, out: &mut Vec<Action>) {
        if let Some(dir) = self.chosen_folder.take() {
            let mut prefs = view.prefs.clone();
            prefs.stamps_folder = Some(dir);
            out.push(Action::SetPrefs(Box::new(prefs)));
            self.listed = None;
        }
    }

    fn on_path(&mut self, _tag: u32, path: &Path, _out: &mut Vec<Action>) {
        self.chosen_folder = Some(path.to_path_buf());
    }

    fn on_job(&mut self, result: AppResult<()>, out: &mut Vec<Action>) {
        match result {
            Ok(()) => {}
            Err(e) => {
                self.thumbs_running = false;
                self.error = Some(e.to_string());
                return;
            }
        };
        let Some(done) = self.inbox.take() else {
            return;
        };
        match done {
            Done::Thumbs(paths) => {
                self.thumbs_running = false;
                for p in paths {
                    self.textures.forget(&p);
                }
            }
            Done::Loaded(region, name) => {
                self.error = None;
                out.push(Action::PasteBrush { region, name });
            }
            Done::Saved(path) => {
                self.error = None;
                self.listed = None;
                self.textures.forget(&path);
                out.push(Action::Message(format!("Saved stamp {}", path.display())));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_names_become_safe_file_names() {
        assert_eq!(file_name("hill").as_deref(), Some("hill.strata"));
        assert_eq!(file_name(" ../../etc/x ").as_deref(), Some("etcx.strata"));
        assert_eq!(file_name("..."), None);
        assert_eq!(file_name(""), None);
    }
}
