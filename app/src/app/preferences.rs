//! The Preferences window: autosave interval, level of detail, fly speed, file prompts and key
//! bindings (every command of the keymap, rebound by pressing the new keys). Changes are made on a
//! draft and take effect with Apply.

use eframe::egui::{self, Event, Key, KeyboardShortcut};

use crate::app::action::Action;
use crate::app::keymap::{shortcut_text, Command, Keymap};
use crate::app::panel::{Panel, Placement, View};
use crate::app::prefs::Prefs;
use crate::app::software_gl;
use crate::app::viewport_quality::ViewportQuality;

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
    /// Keys recorded for a command that another command already uses, waiting for Swap or Cancel.
    conflict: Option<Conflict>,
}

/// A recorded binding that would take another command's keys.
#[derive(Debug, Clone, Copy)]
struct Conflict {
    command: Command,
    keys: KeyboardShortcut,
    other: Command,
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
                    match self.keymap.conflict(command, keys) {
                        Some(other) => {
                            self.conflict = Some(Conflict {
                                command,
                                keys,
                                other,
                            });
                        }
                        None => self.keymap.rebind(command, keys),
                    }
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
                            ui.label(b.command.label());
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
        self.conflict_ui(ui);
        if ui.button("Reset Keys").clicked() {
            self.keymap = Keymap::default();
            self.conflict = None;
        }
    }

    /// The warning for recorded keys another command uses, with Swap and Cancel.
    fn conflict_ui(&mut self, ui: &mut egui::Ui) {
        let Some(c) = self.conflict else {
            return;
        };
        let mine = self
            .keymap
            .text_of(c.command)
            .unwrap_or_else(|| "no keys".into());
        ui.colored_label(
            ui.visuals().warn_fg_color,
            format!(
                "{} is already used by {}. Swap: {} gets {}, {} gets {mine}.",
                shortcut_text(&c.keys),
                c.other.label(),
                c.command.label(),
                shortcut_text(&c.keys),
                c.other.label(),
            ),
        );
        ui.horizontal(|ui| {
            if ui.button("Swap").clicked() {
                self.keymap.swap(c.command, c.keys);
                self.conflict = None;
            }
            if ui.button("Cancel").clicked() {
                self.conflict = None;
            }
        });
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
            let software = software_gl::predicted_software(d);
            let mut on = software_gl::antialiasing_on(d, software);
            ui.vertical(|ui| {
                let changed = ui
                    .checkbox(&mut on, "Smooth edges (4× MSAA)")
                    .on_hover_text(
                        "Takes effect the next time Strata starts; it costs about 2.6× the \
                         frame time on software GL",
                    )
                    .changed();
                if changed {
                    d.antialiasing = on;
                    d.antialiasing_chosen = true;
                }
                if software && !d.antialiasing_chosen {
                    ui.weak("Software renderer: off for speed unless you turn it on");
                }
            });
            ui.end_row();
            ui.label("Viewport quality");
            ui.vertical(|ui| {
                ui.horizontal(|ui| {
                    for q in ViewportQuality::ALL {
                        ui.radio_value(&mut d.viewport_quality, q, q.label())
                            .on_hover_text(quality_hint(q));
                    }
                });
                // Always one note on one line, so choosing does not move the rows below.
                let note = match (d.viewport_quality, software) {
                    (ViewportQuality::Automatic, true) => "Fast: a software renderer",
                    (ViewportQuality::Automatic, false) => "Full: a hardware renderer",
                    (ViewportQuality::Full, _) => "Full on every renderer",
                    (ViewportQuality::Fast, _) => "Fast on every renderer",
                };
                ui.add(egui::Label::new(egui::RichText::new(note).weak()).truncate())
                    .on_hover_text("Automatic draws Fast on a software renderer, Full on a GPU");
            });
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
            let label = ui.label("Orbit speed");
            ui.add(
                egui::Slider::new(&mut d.orbit_degrees_per_px, 0.05..=2.0)
                    .logarithmic(true)
                    .suffix(" °/pixel"),
            )
            .labelled_by(label.id)
            .on_hover_text("How far a right-drag turns the view (0.3: a 300-pixel drag turns 90°)");
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

/// What choosing `quality` does, for its tooltip.
fn quality_hint(quality: ViewportQuality) -> &'static str {
    match quality {
        ViewportQuality::Automatic => "Fast on a software renderer (llvmpipe), Full otherwise",
        ViewportQuality::Full => {
            "Every material pattern blend, soft sun shadows and highlights, full-detail meshes out \
             to the LOD distance"
        }
        ViewportQuality::Fast => {
            "One pattern lookup and one shadow tap per pixel, no highlights, coarser meshes from \
             half the LOD distance: about 2.5× faster on software GL"
        }
    }
}
