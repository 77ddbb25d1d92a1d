//! The Region panel's controls: the tool button, the selection (typed Min / Max, drag options), the
//! edit buttons with their shortcuts, paste options, Fill, and the selection's files.

use eframe::egui;
use strata_engine::region::{Axis, PasteMode};
use strata_engine::voxel::{MaterialTable, VoxelBox, VoxelPos};

use super::region_commands::{axis_name, box_size, size_text};
use super::region_state::{export_spec, RegionPanel, Waiting, NAME, SNAPS, TAG_EXPORT, TAG_STAMP};
use crate::app::action::Action;
use crate::app::keymap::Command;
use crate::app::panel::panel_path;
use crate::app::panel::View;
use crate::files::file_jobs::PathSpec;

/// Draw the panel.
pub fn show(p: &mut RegionPanel, ui: &mut egui::Ui, view: &View<'_>, out: &mut Vec<Action>) {
    let active = view.active_tool == NAME;
    if ui
        .selectable_label(active, "Region Tool")
        .on_hover_text("Drag a box on the terrain to select it")
        .clicked()
    {
        out.push(Action::ActivateTool(NAME));
    }
    let Some(doc) = view.doc else {
        ui.weak("Open a world to select a region.");
        return;
    };
    size_prompt(p, ui, out);
    selection(p, ui, view, out);
    ui.separator();
    let has_sel = doc.selection().is_some();
    let idle = !view.busy;
    let keys = |c: Command| view.keymap.text_of(c).unwrap_or_default();
    let button = |ui: &mut egui::Ui, enabled: bool, text: &str, c: Command, hint: &str| {
        ui.add_enabled(enabled, egui::Button::new(text))
            .on_hover_text(format!("{hint} ({})", keys(c)))
            .clicked()
    };
    ui.horizontal_wrapped(|ui| {
        if button(
            ui,
            has_sel,
            "Copy",
            Command::RegionCopy,
            "Copy the selection",
        ) {
            p.copy_action(doc, out);
        }
        if button(
            ui,
            has_sel && idle,
            "Cut Selection",
            Command::RegionCut,
            "Copy, then delete",
        ) {
            p.cut(doc, out);
        }
        let can_paste = p.clip.is_some();
        if button(
            ui,
            can_paste,
            "Paste",
            Command::RegionPaste,
            "Float the copy under the cursor; click places it",
        ) {
            p.paste(doc, out);
            out.push(Action::ActivateTool(NAME));
        }
        if button(
            ui,
            has_sel && idle,
            "Delete",
            Command::RegionDelete,
            "Turn the selection to Air",
        ) {
            p.delete(doc, "Delete", out);
        }
        if button(
            ui,
            has_sel && idle,
            "Duplicate",
            Command::RegionDuplicate,
            "Place a copy beside the selection",
        ) {
            p.duplicate(doc, out);
        }
        if ui
            .add_enabled(has_sel && idle, egui::Button::new("Move"))
            .on_hover_text(
                "Float the selection under the cursor; a click moves it there (one undo step)",
            )
            .clicked()
        {
            p.move_selection(doc, out);
            out.push(Action::ActivateTool(NAME));
        }
    });
    let can_turn = idle && (has_sel || p.floating.is_some());
    ui.horizontal(|ui| {
        if button(
            ui,
            can_turn,
            "Rotate",
            Command::RegionRotate,
            "A quarter turn of the floating paste, else of the selection",
        ) {
            p.transform(doc, false, out);
        }
        axis_picker(ui, "Turn axis", &mut p.rotate_axis);
    });
    ui.horizontal(|ui| {
        if button(
            ui,
            can_turn,
            "Mirror",
            Command::RegionMirror,
            "Mirror the floating paste, else the selection",
        ) {
            p.transform(doc, true, out);
        }
        axis_picker(ui, "Mirror axis", &mut p.mirror_axis);
    });
    paste_options(p, ui);
    ui.separator();
    fill(p, ui, view, out);
    ui.separator();
    files(p, ui, has_sel, out);
}

fn selection(p: &mut RegionPanel, ui: &mut egui::Ui, view: &View<'_>, out: &mut Vec<Action>) {
    let sel = view.doc.and_then(crate::document::Document::selection);
    ui.label(match sel {
        Some(b) => format!(
            "Selection {} ({} voxels)",
            size_text(box_size(b)),
            b.volume()
        ),
        None => "No selection".into(),
    });
    let mut typed = false;
    egui::Grid::new("region-fields")
        .num_columns(4)
        .show(ui, |ui| {
            for (k, axis) in ["X", "Y", "Z"].into_iter().enumerate() {
                for (i, end) in [(k, "Min"), (k + 3, "Max")] {
                    let label = ui.label(format!("{end} {axis}"));
                    typed |= ui
                        .add(egui::DragValue::new(&mut p.fields[i]))
                        .labelled_by(label.id)
                        .changed();
                }
                ui.end_row();
            }
        });
    if typed {
        let f = p.fields;
        let b = VoxelBox::new(
            VoxelPos::new(f[0].min(f[3]), f[1].min(f[4]), f[2].min(f[5])),
            VoxelPos::new(f[0].max(f[3]), f[1].max(f[4]), f[2].max(f[5])),
        );
        out.push(Action::Select(Some(b)));
    }
    ui.horizontal(|ui| {
        if ui
            .button("Select All")
            .on_hover_text("Select the whole world")
            .clicked()
        {
            out.push(Action::Select(
                view.doc.map(crate::document::Document::bounds),
            ));
        }
        if ui
            .add_enabled(sel.is_some(), egui::Button::new("Select None"))
            .on_hover_text("Clear the selection (Esc)")
            .clicked()
        {
            out.push(Action::Select(None));
        }
    });
    egui::Grid::new("region-drag")
        .num_columns(2)
        .show(ui, |ui| {
            let label = ui.label("Height above");
            ui.add(egui::DragValue::new(&mut p.height).range(0..=4096))
                .labelled_by(label.id)
                .on_hover_text("How far a dragged box reaches above the higher corner, voxels");
            ui.end_row();
            let label = ui.label("Depth below");
            ui.add(egui::DragValue::new(&mut p.depth).range(0..=4096))
                .labelled_by(label.id)
                .on_hover_text("How far a dragged box reaches below the lower corner, voxels");
            ui.end_row();
            let label = ui.label("Snap");
            egui::ComboBox::from_id_salt("region-snap")
                .selected_text(format!("{}", p.snap))
                .show_ui(ui, |ui| {
                    for s in SNAPS {
                        ui.selectable_value(&mut p.snap, s, format!("{s}"));
                    }
                })
                .response
                .labelled_by(label.id)
                .on_hover_text("Box corners and paste positions snap to multiples of this, voxels");
            ui.end_row();
        });
}

fn axis_picker(ui: &mut egui::Ui, label: &str, axis: &mut Axis) {
    let l = ui.label(label);
    egui::ComboBox::from_id_salt(label)
        .selected_text(axis_name(*axis))
        .show_ui(ui, |ui| {
            for a in Axis::ALL {
                ui.selectable_value(axis, a, axis_name(a));
            }
        })
        .response
        .labelled_by(l.id);
}

fn paste_options(p: &mut RegionPanel, ui: &mut egui::Ui) {
    ui.horizontal(|ui| {
        ui.label("Paste mode");
        for (mode, text, hint) in [
            (
                PasteMode::Replace,
                "Overwrite",
                "Write every voxel, Air included (replace)",
            ),
            (
                PasteMode::Merge,
                "Merge",
                "Keep the fuller voxel of the two",
            ),
            (
                PasteMode::AirOnly,
                "Into Air",
                "Write only where the world holds Air",
            ),
        ] {
            ui.selectable_value(&mut p.mode, mode, text)
                .on_hover_text(hint);
        }
    });
    ui.checkbox(&mut p.keep_height, "Keep Height")
        .on_hover_text(
            "Paste at the height it was copied from; off: its bottom on the hovered surface",
        );
    if let Some(f) = &p.floating {
        ui.label(format!(
            "Placing {} ({})",
            f.name,
            size_text(f.region.size())
        ));
    } else if let Some(size) = p.clipboard_size() {
        ui.weak(format!("Copied {}", size_text(size)));
    }
}

fn fill(p: &mut RegionPanel, ui: &mut egui::Ui, view: &View<'_>, out: &mut Vec<Action>) {
    let table = view
        .doc
        .map_or_else(MaterialTable::builtin, |d| d.materials().clone());
    crate::brush::brush_panel::material_picker(ui, &table, "Fill material", &mut p.fill_material)
        .on_hover_text("The material Fill writes");
    ui.horizontal(|ui| {
        let label = ui.label("Occupancy");
        ui.add(egui::Slider::new(&mut p.fill_occupancy, 0.004..=1.0).fixed_decimals(2))
            .labelled_by(label.id)
            .on_hover_text("How full each filled voxel is (1 = solid)");
    });
    ui.checkbox(&mut p.only_air, "Only Air")
        .on_hover_text("Fill only where the world holds Air");
    let enabled = !view.busy
        && view
            .doc
            .and_then(crate::document::Document::selection)
            .is_some();
    if ui
        .add_enabled(enabled, egui::Button::new("Fill Selection"))
        .on_hover_text("Fill the selection (one undo step)")
        .clicked()
    {
        if let Some(doc) = view.doc {
            p.fill(doc, out);
        }
    }
}

fn files(p: &mut RegionPanel, ui: &mut egui::Ui, has_sel: bool, out: &mut Vec<Action>) {
    ui.horizontal_wrapped(|ui| {
        if ui
            .add_enabled(has_sel, egui::Button::new("Save as Stamp…"))
            .on_hover_text("Save the selection as a .strata stamp (the Stamps panel lists them)")
            .clicked()
        {
            let spec = PathSpec {
                title: "Save Selection as Stamp".into(),
                filters: vec![("Strata stamp".into(), vec!["strata".into()])],
                save: true,
                suggested: Some("stamp.strata".into()),
                ..Default::default()
            };
            out.push(Action::AskPath(panel_path(NAME, TAG_STAMP, spec)));
        }
        if ui
            .add_enabled(has_sel, egui::Button::new("Export…"))
            .on_hover_text("Export the selection: stamp, godot_voxel v4 block, RLE or raw")
            .clicked()
        {
            out.push(Action::AskPath(panel_path(NAME, TAG_EXPORT, export_spec())));
        }
    });
    if let Some(note) = &p.note {
        ui.weak(note);
    }
}

/// The size prompt of an RLE or raw import without a sidecar.
fn size_prompt(p: &mut RegionPanel, ui: &mut egui::Ui, out: &mut Vec<Action>) {
    let Some((path, mut size)) = p.size_prompt.clone() else {
        return;
    };
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let mut answer = None;
    ui.group(|ui| {
        ui.label(format!("{name} has no size sidecar: its size in voxels?"));
        ui.horizontal(|ui| {
            for (v, axis) in size.iter_mut().zip(["Size X", "Size Y", "Size Z"]) {
                let label = ui.label(axis);
                ui.add(egui::DragValue::new(v).range(1..=16384))
                    .labelled_by(label.id);
            }
        });
        ui.horizontal(|ui| {
            if ui.button("Import").clicked() {
                answer = Some(true);
            } else if ui.button("Cancel").clicked() {
                answer = Some(false);
            }
        });
    });
    match answer {
        Some(true) => {
            p.waiting.push(Waiting::Read(path, Some(size)));
            p.size_prompt = None;
        }
        Some(false) => {
            p.size_prompt = None;
            out.push(Action::Message("Import cancelled".into()));
        }
        None => p.size_prompt = Some((path, size)),
    }
}
