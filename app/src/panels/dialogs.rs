//! Dialog windows: New World (generator), progress of the running job with Cancel, the
//! unsaved-changes prompt, crash recovery, errors and the shortcut list.

use eframe::egui::{self, Align2};

use strata_engine::gen::{GeneratorSettings, Preset};

use crate::app::{default_world, EditorApp};

/// The New World form.
#[derive(Debug, Clone, PartialEq)]
pub struct GeneratorForm {
    /// Terrain preset.
    pub preset: Preset,
    /// Size X, Y (up), Z in voxels.
    pub size: [u32; 3],
    /// Random seed.
    pub seed: u32,
}

impl Default for GeneratorForm {
    fn default() -> Self {
        let d = default_world();
        Self {
            preset: d.preset,
            size: d.size,
            seed: d.seed,
        }
    }
}

impl GeneratorForm {
    fn settings(&self) -> GeneratorSettings {
        GeneratorSettings {
            preset: self.preset,
            size: self.size,
            seed: self.seed,
        }
    }
}

/// Show whichever dialogs are open.
pub fn show(app: &mut EditorApp, ctx: &egui::Context) {
    generator(app, ctx);
    progress(app, ctx);
    unsaved(app, ctx);
    recover(app, ctx);
    crate::panels::recent::show(app, ctx);
    errors(app, ctx);
    shortcuts(app, ctx);
}

fn centered(title: &str) -> egui::Window<'_> {
    egui::Window::new(title)
        .collapsible(false)
        .resizable(false)
        .anchor(Align2::CENTER_CENTER, [0.0, 0.0])
}

fn generator(app: &mut EditorApp, ctx: &egui::Context) {
    let Some(form) = app.dialogs.generator.as_mut() else {
        return;
    };
    let mut generate = false;
    let mut cancel = false;
    centered("New World").show(ctx, |ui| {
        egui::Grid::new("generator-grid")
            .num_columns(2)
            .show(ui, |ui| {
                let label_id = ui.label("Preset").id;
                egui::ComboBox::from_id_salt("preset")
                    .selected_text(form.preset.name())
                    .show_ui(ui, |ui| {
                        for p in Preset::ALL {
                            ui.selectable_value(&mut form.preset, p, p.name())
                                .on_hover_text(p.description());
                        }
                    })
                    .response
                    .labelled_by(label_id);
                ui.end_row();
                ui.label("Size X");
                ui.add(egui::DragValue::new(&mut form.size[0]).range(32..=4096));
                ui.end_row();
                ui.label("Size Y (up)");
                ui.add(egui::DragValue::new(&mut form.size[1]).range(32..=1024));
                ui.end_row();
                ui.label("Size Z");
                ui.add(egui::DragValue::new(&mut form.size[2]).range(32..=4096));
                ui.end_row();
                ui.label("Seed");
                ui.add(egui::DragValue::new(&mut form.seed));
                ui.end_row();
            });
        ui.weak(form.preset.description());
        if let Err(e) = form.settings().validate() {
            ui.colored_label(ui.visuals().error_fg_color, e.to_string());
        }
        ui.horizontal(|ui| {
            generate = ui.button("Generate").clicked();
            cancel = ui.button("Cancel").clicked();
        });
    });
    if generate {
        let settings = form.settings();
        match settings.validate() {
            Ok(()) => {
                app.dialogs.generator = None;
                app.generate(settings);
            }
            Err(e) => app.dialogs.error = Some(e.to_string()),
        }
    } else if cancel {
        app.dialogs.generator = None;
    }
}

fn progress(app: &mut EditorApp, ctx: &egui::Context) {
    let Some(job) = app.job.as_ref() else {
        return;
    };
    let mut cancel = false;
    egui::Modal::new(egui::Id::unique("progress")).show(ctx, |ui| {
        ui.set_min_width(320.0);
        ui.label(job.label());
        ui.add(
            egui::ProgressBar::new(job.fraction())
                .show_percentage()
                .animate(true),
        );
        ui.weak(format!("{:.1} s", job.elapsed_secs()));
        cancel = ui.button("Cancel").clicked();
    });
    if cancel {
        job.cancel();
    }
}

fn unsaved(app: &mut EditorApp, ctx: &egui::Context) {
    let Some(action) = app.dialogs.unsaved.clone() else {
        return;
    };
    let name = app
        .doc
        .as_ref()
        .map_or_else(String::new, |d| d.display_name());
    let mut choice = None;
    egui::Modal::new(egui::Id::unique("unsaved")).show(ctx, |ui| {
        ui.heading("Unsaved changes");
        ui.label(format!("Save the changes to {name} first?"));
        ui.horizontal(|ui| {
            if ui.button("Save").clicked() {
                choice = Some(0);
            }
            if ui.button("Don't Save").clicked() {
                choice = Some(1);
            }
            if ui.button("Cancel").clicked() {
                choice = Some(2);
            }
        });
    });
    match choice {
        Some(0) => {
            app.dialogs.unsaved = None;
            app.after_save = Some(action);
            app.save();
            if !app.busy() {
                // No file chosen: nothing was saved, so nothing happens.
                app.after_save = None;
            }
        }
        Some(1) => {
            app.dialogs.unsaved = None;
            app.run_guarded(action);
        }
        Some(2) => app.dialogs.unsaved = None,
        _ => {}
    }
}

fn recover(app: &mut EditorApp, ctx: &egui::Context) {
    let Some(info) = app.dialogs.recover.clone() else {
        return;
    };
    let mut choice = None;
    egui::Modal::new(egui::Id::unique("recover")).show(ctx, |ui| {
        ui.heading("Recover unsaved work?");
        let from = info
            .original
            .as_ref()
            .map_or_else(|| info.name.clone(), |p| p.display().to_string());
        ui.label(format!(
            "Strata did not close normally. An autosave of {from} is available."
        ));
        ui.horizontal(|ui| {
            if ui.button("Recover").clicked() {
                choice = Some(true);
            }
            if ui.button("Discard").clicked() {
                choice = Some(false);
            }
        });
    });
    match choice {
        Some(true) => {
            app.dialogs.recover = Some(info);
            if let Some(job) = app.job.take() {
                // The start-up world is not needed: the recovered one replaces it.
                job.cancel();
            }
            app.recover();
        }
        Some(false) => {
            app.dialogs.recover = None;
            app.discard_autosave();
        }
        None => {}
    }
}

fn errors(app: &mut EditorApp, ctx: &egui::Context) {
    let Some(message) = app.dialogs.error.clone() else {
        return;
    };
    let mut close = false;
    centered("Error").show(ctx, |ui| {
        ui.label(message);
        close = ui.button("OK").clicked();
    });
    if close {
        app.dialogs.error = None;
    }
}

const SHORTCUTS: &[(&str, &str)] = &[
    ("Right drag", "Orbit around the point under the cursor"),
    ("Middle drag", "Pan"),
    ("Wheel", "Zoom toward the cursor"),
    (
        "Right button + W A S D",
        "Fly (Q / E down / up, Shift faster)",
    ),
    ("F", "Focus the hovered point"),
    ("Alt+1 / Alt+3 / Alt+7", "Front / right / top view"),
    ("T / R / G", "Add / Subtract / Paint"),
    ("1 – 9", "Tools in panel order"),
    ("[ / ]", "Smaller / larger brush"),
    ("Ctrl (held)", "Invert Add/Subtract, Grow/Erode"),
    ("Shift (held)", "Smooth"),
    ("Alt+click", "Pick the hovered material"),
    ("Ctrl+Z / Ctrl+Y / Ctrl+Shift+Z", "Undo / redo / redo"),
    (
        "Ctrl+N / Ctrl+O / Ctrl+S / Ctrl+Shift+S",
        "New / open / save / save as",
    ),
];

fn shortcuts(app: &mut EditorApp, ctx: &egui::Context) {
    let mut open = app.dialogs.shortcuts;
    egui::Window::new("Keyboard Shortcuts")
        .open(&mut open)
        .show(ctx, |ui| {
            egui::Grid::new("shortcut-grid")
                .striped(true)
                .show(ui, |ui| {
                    for (keys, what) in SHORTCUTS {
                        ui.monospace(*keys);
                        ui.label(*what);
                        ui.end_row();
                    }
                });
        });
    app.dialogs.shortcuts = open;
}
