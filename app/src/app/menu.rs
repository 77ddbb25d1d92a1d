//! The menu bar: File, Edit (undo and redo named after their steps), View (camera, display and every
//! panel) and Help. It reads the editor and returns actions; only the viewport's own display settings
//! are changed in place.

use eframe::egui::{self, Button};

use super::panel::{Placement, View};
use super::panel_registry::Panels;
use crate::app::action::Action;
use crate::app::keymap::Command;
use crate::files::file_jobs::PathPurpose;
use crate::viewport::camera::AxisView;
use crate::viewport::Viewport;

/// Show the menu bar.
pub fn show(
    ui: &mut egui::Ui,
    view: &View<'_>,
    panels: &Panels,
    viewport: &mut Viewport,
    out: &mut Vec<Action>,
) {
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| file_menu(ui, view, out));
        ui.menu_button("Edit", |ui| edit_menu(ui, view, out));
        ui.menu_button("View", |ui| view_menu(ui, view, panels, viewport, out));
        ui.menu_button("Help", |ui| {
            if ui.button("Keyboard Shortcuts").clicked() {
                out.push(Action::ShowPanel(crate::app::shortcuts::NAME));
            }
            if ui.button("Statistics").clicked() {
                out.push(Action::ShowPanel(crate::app::statistics::NAME));
            }
        });
    });
}

fn keys(view: &View<'_>, command: Command) -> String {
    view.keymap.text_of(command).unwrap_or_default()
}

fn file_menu(ui: &mut egui::Ui, view: &View<'_>, out: &mut Vec<Action>) {
    let has_doc = view.doc.is_some();
    let idle = !view.busy;
    let name = view
        .doc
        .map_or_else(String::new, crate::files::file_jobs::export_name);
    let item = |ui: &mut egui::Ui, enabled: bool, text: &str, command: Option<Command>| {
        let mut button = Button::new(text);
        if let Some(c) = command {
            button = button.shortcut_text(keys(view, c));
        }
        ui.add_enabled(enabled, button).clicked()
    };
    if item(ui, idle, "New World…", Some(Command::New)) {
        out.push(Action::New);
    }
    if item(ui, idle, "Open…", Some(Command::Open)) {
        out.push(Action::Open(None));
    }
    if item(ui, idle, "Recent Files…", None) {
        out.push(Action::ShowPanel(crate::files::recent::NAME));
    }
    ui.separator();
    if item(ui, has_doc && idle, "Save", Some(Command::Save)) {
        out.push(Action::Save);
    }
    if item(ui, has_doc && idle, "Save As…", Some(Command::SaveAs)) {
        out.push(Action::SaveAs);
    }
    ui.separator();
    if item(ui, idle, "Import Heightmap…", None) {
        out.push(Action::ShowPanel(crate::files::import_heightmap::NAME));
    }
    if item(ui, idle, "Import godot_voxel Regions…", None) {
        out.push(Action::AskPath(PathPurpose::ImportVxr));
    }
    if item(ui, has_doc && idle, "Export Mesh (OBJ / glTF)…", None) {
        out.push(Action::AskPath(PathPurpose::ExportMesh(name.clone())));
    }
    if item(ui, has_doc && idle, "Export Scene (glTF)…", None) {
        out.push(Action::ShowPanel(crate::files::export_scene::NAME));
    }
    if item(ui, has_doc && idle, "Export godot_voxel Regions…", None) {
        out.push(Action::AskPath(PathPurpose::ExportVxr));
    }
    if item(ui, has_doc && idle, "Export Heightmap…", None) {
        out.push(Action::ShowPanel(crate::files::export_heightmap::NAME));
    }
    ui.separator();
    let selected = view
        .doc
        .and_then(crate::document::Document::selection)
        .is_some();
    if item(ui, selected && idle, "Export Selection…", None) {
        let spec = crate::region::export_spec();
        let tag = crate::region::region_state::TAG_EXPORT;
        out.push(Action::AskPath(crate::app::panel::panel_path(
            crate::region::NAME,
            tag,
            spec,
        )));
    }
    if item(ui, has_doc && idle, "Import as Stamp…", None) {
        let spec = crate::region::import_spec();
        let tag = crate::region::region_state::TAG_IMPORT;
        out.push(Action::AskPath(crate::app::panel::panel_path(
            crate::region::NAME,
            tag,
            spec,
        )));
    }
    ui.separator();
    if ui.button("Preferences…").clicked() {
        out.push(Action::ShowPanel(crate::app::preferences::NAME));
    }
    ui.separator();
    if ui.button("Quit").clicked() {
        out.push(Action::Quit);
    }
}

/// The Edit menu's undo and redo labels: the step each would undo or redo ("Undo Smooth").
pub fn undo_redo_labels(view: &View<'_>) -> (String, String, bool, bool) {
    let (undo, redo) = match view.doc {
        Some(doc) => {
            let h = doc.history();
            (
                h.undo_names().next().map(str::to_owned),
                h.redo_names().next().map(str::to_owned),
            )
        }
        None => (None, None),
    };
    (
        undo.as_ref()
            .map_or_else(|| "Undo".to_owned(), |n| format!("Undo {n}")),
        redo.as_ref()
            .map_or_else(|| "Redo".to_owned(), |n| format!("Redo {n}")),
        undo.is_some(),
        redo.is_some(),
    )
}

fn edit_menu(ui: &mut egui::Ui, view: &View<'_>, out: &mut Vec<Action>) {
    let (undo, redo, can_undo, can_redo) = undo_redo_labels(view);
    let idle = !view.busy;
    let undo_button = Button::new(undo).shortcut_text(keys(view, Command::Undo));
    if ui.add_enabled(idle && can_undo, undo_button).clicked() {
        out.push(Action::Undo);
    }
    let redo_button = Button::new(redo).shortcut_text(keys(view, Command::Redo));
    if ui.add_enabled(idle && can_redo, redo_button).clicked() {
        out.push(Action::Redo);
    }
    ui.separator();
    if ui.button("History…").clicked() {
        out.push(Action::ShowPanel(crate::app::history_panel::NAME));
    }
}

fn view_menu(
    ui: &mut egui::Ui,
    view: &View<'_>,
    panels: &Panels,
    viewport: &mut Viewport,
    out: &mut Vec<Action>,
) {
    for (label, axis, command) in [
        ("Front", AxisView::Front, Command::FrontView),
        ("Right", AxisView::Right, Command::RightView),
        ("Top", AxisView::Top, Command::TopView),
    ] {
        let button = Button::new(label).shortcut_text(keys(view, command));
        if ui.add(button).clicked() {
            viewport.camera.axis_view(axis);
            ui.close();
        }
    }
    if ui
        .button("Reset Camera")
        .on_hover_text("The three-quarter view of the whole world")
        .clicked()
    {
        if view.doc.is_some() {
            viewport.reset_camera();
        }
        ui.close();
    }
    ui.separator();
    ui.checkbox(&mut viewport.show_grid, "Ground Grid and Axes");
    if ui
        .checkbox(&mut viewport.meshes.lod_enabled, "Level of Detail")
        .changed()
    {
        out.push(Action::Message(if viewport.meshes.lod_enabled {
            "Level of detail on".into()
        } else {
            "Level of detail off".into()
        }));
    }
    ui.add(
        egui::Slider::new(&mut viewport.fly_speed, 5.0..=400.0)
            .logarithmic(true)
            .text("Fly speed"),
    );
    ui.separator();
    for e in panels.entries() {
        if e.panel.placement() == Placement::Window {
            continue;
        }
        let mut open = e.open;
        if ui.checkbox(&mut open, e.panel.name()).changed() {
            out.push(Action::TogglePanel(e.panel.name()));
        }
    }
}
