//! The Scripts panel: pick a script (from the `scripts/` folder beside the project, or any file),
//! set its arguments, Run it with a running time and Cancel, and read its console and errors with
//! line numbers.
//!
//! The script runs on a worker thread over a copy of the voxels (`Document::script_world`); the
//! interrupt checks Cancel and the time limit every few instructions, so the UI never waits. A run
//! that finishes is applied as one [`BoxEdit`] named after the script (the document's one edit path);
//! an error or Cancel drops the copy, so the project stays exactly as it was. If the document
//! changed while the script ran, the result is not applied (it was computed on older voxels).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use eframe::egui;
use strata_engine::light::LightMap;
use strata_script::{run, Limits, RunOptions, RunOutcome, Script};

use crate::app::action::{Action, BoxEdit};
use crate::app::jobs::{Inbox, JobKind};
use crate::app::panel::{Panel, View};
use crate::document::script_edit::bake_for_script;
use crate::document::Document;
use crate::AppResult;

/// The panel's name (its tab and View menu entry).
pub const NAME: &str = "Scripts";

/// A run in progress.
struct Running {
    cancel: Arc<AtomicBool>,
    started: Instant,
    revision: u64,
    script: String,
}

/// The Scripts panel.
#[derive(Default)]
pub struct ScriptsPanel {
    /// The script file to run.
    pub path: String,
    /// `KEY=VALUE` lines for `strata.args`.
    pub args: String,
    console: Arc<Mutex<Vec<String>>>,
    status: Option<(bool, String)>,
    running: Option<Running>,
    inbox: Inbox<(RunOutcome, Option<LightMap>)>,
}

/// The `.luau` files of the `scripts/` folder beside `doc`'s file, sorted.
fn project_scripts(doc: &Document) -> Vec<PathBuf> {
    let Some(dir) = scripts_dir(doc) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "luau" || x == "lua"))
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found
}

fn scripts_dir(doc: &Document) -> Option<PathBuf> {
    let dir = doc.path()?.parent()?.join("scripts");
    dir.is_dir().then_some(dir)
}

/// Parse `KEY=VALUE` lines (blank lines skipped).
fn parse_args(text: &str) -> Result<BTreeMap<String, String>, String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| match l.split_once('=') {
            Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_owned(), v.trim().to_owned())),
            _ => Err(format!("argument {l:?}: write KEY=VALUE")),
        })
        .collect()
}

impl ScriptsPanel {
    /// True while a script runs.
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// The console lines so far.
    pub fn console(&self) -> Vec<String> {
        self.console.lock().map(|c| c.clone()).unwrap_or_default()
    }

    /// The last run's result line (`true`: an error).
    pub fn status(&self) -> Option<&(bool, String)> {
        self.status.as_ref()
    }

    fn start(&mut self, doc: &Document, out: &mut Vec<Action>) {
        let args = match parse_args(&self.args) {
            Ok(a) => a,
            Err(e) => {
                self.status = Some((true, e));
                return;
            }
        };
        let script = match Script::load(Path::new(self.path.trim())) {
            Ok(s) => s,
            Err(e) => {
                self.status = Some((true, e.to_string()));
                return;
            }
        };
        let limits = Limits::default();
        let world = doc.script_world(limits.max_voxels_written);
        let cancel = Arc::new(AtomicBool::new(false));
        if let Ok(mut c) = self.console.lock() {
            c.clear();
        }
        let lines = self.console.clone();
        let options = RunOptions {
            limits,
            args,
            scripts_dir: scripts_dir(doc),
            cancel: Some(cancel.clone()),
            sink: Some(Box::new(move |line: &str| {
                if let Ok(mut c) = lines.lock() {
                    c.push(line.to_owned());
                }
            })),
        };
        self.running = Some(Running {
            cancel,
            started: Instant::now(),
            revision: doc.revision(),
            script: script.name.clone(),
        });
        self.status = None;
        let label = format!("Script {}", script.name);
        let (table, lights) = (doc.materials().clone(), doc.project().lights.clone());
        let job = self
            .inbox
            .spawn(label, JobKind::Background, move |progress| {
                let outcome = run(&script, world, options);
                let light = match (&outcome.error, &outcome.bake) {
                    (None, Some(settings)) => Some(bake_for_script(
                        outcome.world.grid(),
                        &table,
                        &lights,
                        settings,
                        progress,
                    )?),
                    _ => None,
                };
                Ok((outcome, light))
            })
            .owned_by(NAME);
        out.push(Action::Start(job));
    }

    fn finish(
        &mut self,
        (outcome, light): (RunOutcome, Option<LightMap>),
        doc: Option<&Document>,
        out: &mut Vec<Action>,
    ) {
        let Some(running) = self.running.take() else {
            return;
        };
        if let Some(e) = &outcome.error {
            let text = match e {
                strata_script::Error::Cancelled => "Cancelled: the project is unchanged".to_owned(),
                e => format!("{e}\nThe project is unchanged."),
            };
            self.status = Some((true, text));
            return;
        }
        if doc.map(Document::revision) != Some(running.revision) {
            self.status = Some((
                true,
                "The project changed while the script ran; nothing was applied. Run it again."
                    .into(),
            ));
            return;
        }
        let boxes = outcome.world.changed_boxes();
        self.status = Some((
            false,
            format!(
                "{}: {} voxels written in {:.2} s{}",
                running.script,
                outcome.voxels_written,
                outcome.elapsed.as_secs_f64(),
                if boxes.is_empty() {
                    ", nothing changed".to_owned()
                } else {
                    format!(" (undo step \"{}\")", outcome.step_name)
                }
            ),
        ));
        if let Some(light) = light {
            out.push(Action::InstallLight(Box::new(light)));
        }
        if boxes.is_empty() {
            return;
        }
        let world = outcome.world;
        let write_boxes = boxes.clone();
        out.push(Action::Edit(BoxEdit {
            name: outcome.step_name,
            boxes,
            write: Box::new(move |grid| {
                for b in &write_boxes {
                    grid.write_box(*b, &world.read_box(*b));
                }
            }),
        }));
    }

    fn picker(&mut self, ui: &mut egui::Ui, doc: &Document) {
        let found = project_scripts(doc);
        if found.is_empty() {
            ui.weak("No scripts/ folder beside the project: give a file.");
            return;
        }
        egui::ComboBox::from_label("Project scripts")
            .selected_text(Path::new(&self.path).file_name().map_or_else(
                || "Choose…".to_owned(),
                |n| n.to_string_lossy().into_owned(),
            ))
            .show_ui(ui, |ui| {
                for p in found {
                    let name = p
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default();
                    let text = p.display().to_string();
                    if ui.selectable_label(self.path == text, name).clicked() {
                        self.path = text;
                    }
                }
            });
    }
}

impl Panel for ScriptsPanel {
    fn name(&self) -> &'static str {
        NAME
    }

    fn open_by_default(&self) -> bool {
        false
    }

    fn ui(&mut self, ui: &mut egui::Ui, view: &View<'_>, out: &mut Vec<Action>) {
        let Some(doc) = view.doc else {
            ui.weak("Open a project to run scripts on it.");
            return;
        };
        self.picker(ui, doc);
        let label = ui.label("Script file");
        ui.horizontal(|ui| {
            let width = (ui.available_width() - 80.0).max(80.0);
            ui.add(egui::TextEdit::singleline(&mut self.path).desired_width(width))
                .labelled_by(label.id)
                .on_hover_text("A .luau file: Roblox's terrain API and the strata module");
            if ui.button("Browse…").clicked() {
                if let Some(p) = rfd::FileDialog::new()
                    .add_filter("Luau script", &["luau", "lua"])
                    .pick_file()
                {
                    self.path = p.display().to_string();
                }
            }
        });
        let label = ui.label("Arguments (KEY=VALUE per line)");
        ui.add(egui::TextEdit::multiline(&mut self.args).desired_rows(2))
            .labelled_by(label.id);
        ui.horizontal(|ui| match &self.running {
            Some(r) => {
                ui.spinner();
                ui.label(format!("Running {} s", r.started.elapsed().as_secs()));
                if ui.button("Cancel").clicked() {
                    r.cancel.store(true, Ordering::Relaxed);
                }
                ui.ctx().request_repaint();
            }
            None => {
                let ready = !self.path.trim().is_empty() && !view.busy;
                if ui.add_enabled(ready, egui::Button::new("Run")).clicked() {
                    self.start(doc, out);
                }
            }
        });
        if let Some((error, text)) = &self.status {
            if *error {
                ui.colored_label(ui.visuals().error_fg_color, text);
            } else {
                ui.label(text);
            }
        }
        ui.separator();
        ui.label("Console");
        let lines = self.console();
        egui::ScrollArea::vertical()
            .max_height(200.0)
            .stick_to_bottom(true)
            .show(ui, |ui| {
                for l in lines {
                    ui.monospace(l);
                }
            });
    }

    fn tick(&mut self, view: &View<'_>, out: &mut Vec<Action>) {
        if let Some(outcome) = self.inbox.take() {
            self.finish(outcome, view.doc, out);
        }
    }

    fn on_document(&mut self, _doc: Option<&Document>) {
        if let Some(r) = self.running.take() {
            r.cancel.store(true, Ordering::Relaxed);
        }
    }

    fn on_job(&mut self, result: AppResult<()>, _out: &mut Vec<Action>) {
        if let Err(e) = result {
            self.running = None;
            self.status = Some((true, e.to_string()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn args_parse() {
        let a = parse_args("size=64\n\n seed = 3 ").expect("args");
        assert_eq!(a.get("size").map(String::as_str), Some("64"));
        assert_eq!(a.get("seed").map(String::as_str), Some("3"));
        assert!(parse_args("novalue").is_err());
    }
}
