//! The in-app file browser: used when the platform's file dialog cannot be shown (no desktop portal,
//! as on minimal Linux set-ups) or when the preferences ask for it. Folders first, then the files the
//! prompt's filters allow; a path can also be typed. It answers with [`Action::PathChosen`].

use std::path::{Path, PathBuf};

use eframe::egui;

use crate::app::action::Action;
use crate::files::file_jobs::{PathPurpose, PathSpec};

/// One listed folder entry.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Item {
    name: String,
    folder: bool,
}

/// An open browser window.
pub struct FileBrowser {
    purpose: PathPurpose,
    spec: PathSpec,
    dir: PathBuf,
    items: Vec<Item>,
    error: Option<String>,
    /// The selected or typed file name (saves and opens).
    name: String,
    /// The folder path as typed in the location field.
    location: String,
}

/// True when `name` passes the filters of `spec` (no filters: everything).
fn allowed(spec: &PathSpec, name: &str) -> bool {
    if spec.filters.is_empty() {
        return true;
    }
    let ext = Path::new(name)
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    spec.filters
        .iter()
        .flat_map(|(_, exts)| exts)
        .any(|e| ext.as_deref() == Some(e.as_str()))
}

/// The folder listing of `dir` for `spec`: folders, then allowed files, each sorted by name; hidden
/// entries left out.
fn list(dir: &Path, spec: &PathSpec) -> std::io::Result<Vec<Item>> {
    let mut items = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let Ok(entry) = entry else {
            continue;
        };
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let folder = entry.path().is_dir();
        if folder || (!spec.folder && allowed(spec, &name)) {
            items.push(Item { name, folder });
        }
    }
    items.sort_by(|a, b| {
        b.folder
            .cmp(&a.folder)
            .then_with(|| a.name.to_lowercase().cmp(&b.name.to_lowercase()))
    });
    Ok(items)
}

impl FileBrowser {
    /// A browser for `purpose`, starting in `start` (or the current folder).
    pub fn new(purpose: PathPurpose, start: Option<PathBuf>) -> Self {
        let spec = purpose.spec();
        let dir = start
            .filter(|d| d.is_dir())
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_else(|| PathBuf::from("/"));
        let mut browser = Self {
            name: spec.suggested.clone().unwrap_or_default(),
            purpose,
            spec,
            dir: PathBuf::new(),
            items: Vec::new(),
            error: None,
            location: String::new(),
        };
        browser.go(dir);
        browser
    }

    /// The folder shown.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn go(&mut self, dir: PathBuf) {
        match list(&dir, &self.spec) {
            Ok(items) => {
                self.items = items;
                self.error = None;
                self.location = dir.display().to_string();
                self.dir = dir;
            }
            Err(e) => self.error = Some(format!("{}: {e}", dir.display())),
        }
    }

    /// The path the OK button would answer with, if any.
    pub fn chosen(&self) -> Option<PathBuf> {
        if self.spec.folder {
            return Some(self.dir.clone());
        }
        let name = self.name.trim();
        if name.is_empty() {
            return None;
        }
        let mut path = self.dir.join(name);
        if self.spec.save {
            let first_ext = self.spec.filters.first().and_then(|(_, e)| e.first());
            if let (None, Some(ext)) = (path.extension(), first_ext) {
                path.set_extension(ext);
            }
            return Some(path);
        }
        path.is_file().then_some(path)
    }

    /// Draw the window; false once it closed (chosen or cancelled).
    pub fn show(&mut self, ctx: &egui::Context, out: &mut Vec<Action>) -> bool {
        let mut open = true;
        let mut done = false;
        egui::Window::new(format!("{} (Strata file browser)", self.spec.title))
            .id(egui::Id::unique("file-browser"))
            .collapsible(false)
            .default_size([520.0, 420.0])
            .show(ctx, |ui| done = self.contents(ui, out));
        if done {
            open = false;
        }
        open
    }

    fn contents(&mut self, ui: &mut egui::Ui, out: &mut Vec<Action>) -> bool {
        let mut go_to = None;
        ui.horizontal(|ui| {
            if ui.button("Up").on_hover_text("The folder above").clicked() {
                go_to = self.dir.parent().map(Path::to_path_buf);
            }
            let field = ui.add(
                egui::TextEdit::singleline(&mut self.location)
                    .desired_width(f32::INFINITY)
                    .hint_text("Folder"),
            );
            if field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                go_to = Some(PathBuf::from(self.location.trim()));
            }
        });
        if let Some(e) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        let mut choose_now = false;
        egui::ScrollArea::vertical()
            .max_height(280.0)
            .auto_shrink([false, false])
            .show(ui, |ui| {
                for item in &self.items {
                    let label = if item.folder {
                        format!("{}/", item.name)
                    } else {
                        item.name.clone()
                    };
                    let selected = !item.folder && item.name == self.name;
                    let response = ui.selectable_label(selected, label);
                    if item.folder && (response.double_clicked() || response.clicked()) {
                        go_to = Some(self.dir.join(&item.name));
                    } else if response.clicked() {
                        self.name = item.name.clone();
                    }
                    if !item.folder && response.double_clicked() {
                        self.name = item.name.clone();
                        choose_now = true;
                    }
                }
                if self.items.is_empty() {
                    ui.weak("Nothing here");
                }
            });
        if let Some(dir) = go_to {
            self.go(dir);
        }
        if !self.spec.folder {
            ui.horizontal(|ui| {
                ui.label("File name");
                ui.add(egui::TextEdit::singleline(&mut self.name).desired_width(f32::INFINITY));
            });
        }
        let chosen = self.chosen();
        if self.spec.save && chosen.as_ref().is_some_and(|p| p.exists()) {
            ui.weak("The file exists: it will be replaced (the old one is kept as .bak).");
        }
        let ok_text = if self.spec.folder {
            "Choose This Folder"
        } else if self.spec.save {
            "Save"
        } else {
            "Open"
        };
        let mut done = false;
        ui.horizontal(|ui| {
            let ok = ui.add_enabled(chosen.is_some(), egui::Button::new(ok_text));
            if ok.clicked() || (choose_now && chosen.is_some()) {
                if let Some(path) = chosen {
                    out.push(Action::PathChosen(self.purpose.clone(), path));
                    done = true;
                }
            }
            if ui.button("Cancel").clicked() {
                done = true;
            }
        });
        done
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("strata-browser-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(d.join("sub")).expect("dir");
        for f in ["b.strata", "A.strata", "notes.txt", ".hidden.strata"] {
            std::fs::write(d.join(f), b"x").expect("file");
        }
        d
    }

    #[test]
    fn lists_folders_first_and_only_allowed_files() {
        let d = temp("list");
        let spec = PathPurpose::OpenProject.spec();
        let names: Vec<String> = list(&d, &spec)
            .expect("list")
            .into_iter()
            .map(|i| i.name)
            .collect();
        assert_eq!(names, ["sub", "A.strata", "b.strata"]);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn save_adds_the_extension_and_open_needs_an_existing_file() {
        let d = temp("save");
        let mut save = FileBrowser::new(PathPurpose::SaveProject("w".into()), Some(d.clone()));
        assert_eq!(save.chosen(), Some(d.join("w.strata")));
        save.name = "other".into();
        assert_eq!(save.chosen(), Some(d.join("other.strata")));
        let mut open = FileBrowser::new(PathPurpose::OpenProject, Some(d.clone()));
        assert_eq!(open.chosen(), None);
        open.name = "missing.strata".into();
        assert_eq!(open.chosen(), None);
        open.name = "A.strata".into();
        assert_eq!(open.chosen(), Some(d.join("A.strata")));
        let folder = FileBrowser::new(PathPurpose::ExportVxr, Some(d.clone()));
        assert_eq!(folder.chosen(), Some(d.clone()));
        let _ = std::fs::remove_dir_all(&d);
    }
}
