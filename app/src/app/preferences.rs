//! The Preferences window: autosave interval, level of detail, fly speed, file prompts and key
//! bindings (every command of the keymap, rebound by pressing the new keys). Changes are made on a
//! draft and take effect with Apply.

use eframe::egui::{self, Event, Key, KeyboardShortcut};

use crate::app::action::Action;
use crate::app::keymap::{shortcut_text, Command, Keymap};
use crate::app::panel::{Panel, Placement, View};
use crate::app::prefs::Prefs;

/// The window's name.
pub const NAME: &str = "Preferences";

/// The Preferences window.
#[derive(Default)]
pub struct PreferencesWindow {
    /// The preferences the draft was made from.
    base: Option<Prefs>,
    draft: Prefs,
    keymap: Keymap,
    /// The command waiting for its new keys.
    recording: Option<Command>,
}

impl PreferencesWindow {
    fn sync(&mut self, prefs: &Prefs) {
        if self.base.as_ref() != Some(prefs) {
            self.base = Some(prefs.clone());
            self.draft = prefs.clone();
            self.keymap = Keymap::default();
            // Unknown entries were reported when the editor started.
            let _ = self.keymap.apply_overrides(&prefs.key_bindings);
        }
    }

    /// The keys pressed this frame, if any (a key with its modifiers; Escape cancels).
    fn recorded(ui: &egui::Ui) -> Option<Option<KeyboardShortcut>> {
        ui.input(|i| {
            i.events.iter().find_map(|e| match e {
                Event::Key {
                    key: Key::Escape,
                    pressed: true,
                    ..
                } => Some(None),
                Event::Key {
                    key,
                    pressed: true,
                    modifiers,
                    ..
                } => {
                    let mut m = *modifiers;
                    // Ctrl and Cmd are one "command" modifier in the keymap.
                    m.command |= m.ctrl;
                    m.ctrl = false;
                    m.mac_cmd = false;
                    Some(Some(KeyboardShortcut::new(m, *key)))
                }
                _ => None,
            })
        })
    }

    fn bindings(&mut self, ui: &mut egui::Ui, out: &mut Vec<Action>) {
        if let Some(command) = self.recording {
            match Self::recorded(ui) {
                Some(Some(keys)) => {
                    self.keymap.rebind(command, keys);
                    self.recording = None;
                    out.push(Action::CaptureKeys(false));
                }
                Some(None) => {
                    self.recording = None;
                    out.push(Action::CaptureKeys(false));
                }
                None => {}
            }
        }
        let mut seen = Vec::new();
        egui::ScrollArea::vertical()
            .max_height(220.0)
            .id_salt("bindings")
            .show(ui, |ui| {
                egui::Grid::new("bindings-grid")
                    .striped(true)
                    .show(ui, |ui| {
                        for b in self.keymap.bindings().to_vec() {
                            if seen.contains(&b.command) {
                                continue;
                            }
                            seen.push(b.command);
                            ui.label(b.command.name());
                            let keys: Vec<String> = self
                                .keymap
                                .bindings()
                                .iter()
                                .filter(|x| x.command == b.command)
                                .map(|x| shortcut_text(&x.keys))
                                .collect();
                            ui.monospace(keys.join(", "));
                            let recording = self.recording == Some(b.command);
                            let text = if recording { "Press keys…" } else { "Change" };
                            if ui.selectable_label(recording, text).clicked() {
                                self.recording = Some(b.command);
                                out.push(Action::CaptureKeys(true));
                            }
                            ui.end_row();
                        }
                    });
            });
        if ui.button("Reset Keys").clicked() {
            self.keymap = Keymap::default();
        }
    }
}

impl Panel for PreferencesWindow {
    fn name(&self) -> &'static str {
        NAME
    }

    fn placement(&self) -> Placement {
        Placement::Window
    }

    fn ui(&mut self, ui: &mut egui::Ui, view: &View<'_>, out: &mut Vec<Action>) {
        self.sync(view.prefs);
        let d = &mut self.draft;
        egui::Grid::new("prefs-grid").num_columns(2).show(ui, |ui| {
            ui.label("Autosave every");
            ui.add(
                egui::DragValue::new(&mut d.autosave_minutes)
                    .range(0..=120)
                    .suffix(" min"),
            )
            .on_hover_text("0 turns autosave off");
            ui.end_row();
            ui.label("Level of detail");
            ui.checkbox(&mut d.lod, "Coarser meshes far away");
            ui.end_row();
            ui.label("Anti-aliasing");
            ui.checkbox(&mut d.antialiasing, "Smooth edges (4× MSAA)")
                .on_hover_text(
                    "Takes effect the next time Strata starts; turn it off on slow or software GL",
                );
            ui.end_row();
            ui.label("LOD distance");
            ui.add(egui::Slider::new(&mut d.lod_distance, 2.0..=32.0).suffix(" chunks"))
                .on_hover_text("Where the first coarser level starts; the next ones at 2× and 4×");
            ui.end_row();
            ui.label("Fly speed");
            ui.add(
                egui::Slider::new(&mut d.fly_speed, 5.0..=400.0)
                    .logarithmic(true)
                    .suffix(" voxels/s"),
            );
            ui.end_row();
            ui.label("File prompts");
            ui.vertical(|ui| {
                ui.radio_value(
                    &mut d.in_app_file_browser,
                    false,
                    "System dialog when available",
                );
                ui.radio_value(
                    &mut d.in_app_file_browser,
                    true,
                    "Always Strata's file browser",
                );
            });
            ui.end_row();
        });
        ui.separator();
        ui.label("Key bindings");
        self.bindings(ui, out);
        ui.separator();
        ui.horizontal(|ui| {
            if ui.button("Apply").clicked() {
                let mut prefs = self.draft.clone();
                prefs.key_bindings = self.keymap.overrides();
                out.push(Action::SetPrefs(Box::new(prefs)));
            }
            if ui.button("Revert").clicked() {
                self.base = None;
            }
        });
    }
}
