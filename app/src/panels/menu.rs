//! The menu bar: File, Edit (undo/redo with the step names and the history list), View and Help.

use eframe::egui::{self, Button};

use crate::app::{EditorApp, Guarded};
use crate::viewport::camera::AxisView;

/// Show the menu bar.
pub fn show(app: &mut EditorApp, ui: &mut egui::Ui) {
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| file_menu(app, ui));
        ui.menu_button("Edit", |ui| edit_menu(app, ui));
        ui.menu_button("View", |ui| view_menu(app, ui));
        ui.menu_button("Help", |ui| {
            if ui.button("Keyboard Shortcuts").clicked() {
                app.dialogs.shortcuts = true;
            }
        });
    });
}

fn file_menu(app: &mut EditorApp, ui: &mut egui::Ui) {
    let has_doc = app.doc.is_some();
    let idle = !app.busy();
    if ui
        .add_enabled(idle, Button::new("New World…").shortcut_text("Ctrl+N"))
        .clicked()
    {
        app.guard(Guarded::New);
    }
    if ui
        .add_enabled(idle, Button::new("Open…").shortcut_text("Ctrl+O"))
        .clicked()
    {
        app.guard(Guarded::Open(None));
    }
    if ui.add_enabled(idle, Button::new("Recent Files…")).clicked() {
        app.dialogs.recent = true;
    }
    ui.separator();
    if ui
        .add_enabled(has_doc && idle, Button::new("Save").shortcut_text("Ctrl+S"))
        .clicked()
    {
        app.save();
    }
    if ui
        .add_enabled(
            has_doc && idle,
            Button::new("Save As…").shortcut_text("Ctrl+Shift+S"),
        )
        .clicked()
    {
        app.save_as();
    }
    ui.separator();
    if ui
        .add_enabled(idle, Button::new("Import Heightmap…"))
        .clicked()
    {
        app.import_heightmap();
    }
    if ui
        .add_enabled(idle, Button::new("Import godot_voxel Regions…"))
        .clicked()
    {
        app.import_vxr();
    }
    if ui
        .add_enabled(has_doc && idle, Button::new("Export Mesh (OBJ / glTF)…"))
        .clicked()
    {
        app.export_mesh();
    }
    if ui
        .add_enabled(has_doc && idle, Button::new("Export godot_voxel Regions…"))
        .clicked()
    {
        app.export_vxr();
    }
    ui.separator();
    if ui.button("Quit").clicked() {
        app.guard(Guarded::Quit);
    }
}

fn edit_menu(app: &mut EditorApp, ui: &mut egui::Ui) {
    let (undo_name, redo_name, steps) = match &app.doc {
        Some(doc) => {
            let h = &doc.project.history;
            (
                h.undo_names().last().map(str::to_owned),
                h.redo_names().last().map(str::to_owned),
                h.undo_names().map(str::to_owned).collect::<Vec<_>>(),
            )
        }
        None => (None, None, Vec::new()),
    };
    let undo_label = undo_name.map_or_else(|| "Undo".to_owned(), |n| format!("Undo {n}"));
    let redo_label = redo_name
        .as_ref()
        .map_or_else(|| "Redo".to_owned(), |n| format!("Redo {n}"));
    if ui
        .add_enabled(
            !steps.is_empty(),
            Button::new(undo_label).shortcut_text("Ctrl+Z"),
        )
        .clicked()
    {
        app.undo();
    }
    if ui
        .add_enabled(
            redo_name.is_some(),
            Button::new(redo_label).shortcut_text("Ctrl+Y"),
        )
        .clicked()
    {
        app.redo();
    }
    ui.separator();
    ui.label(format!("History ({} steps)", steps.len()));
    for name in steps.iter().rev().take(20) {
        ui.weak(name);
    }
}

fn view_menu(app: &mut EditorApp, ui: &mut egui::Ui) {
    for (label, view) in [
        ("Front (Alt+1)", AxisView::Front),
        ("Right (Alt+3)", AxisView::Right),
        ("Top (Alt+7)", AxisView::Top),
    ] {
        if ui.button(label).clicked() {
            app.viewport.camera.axis_view(view);
        }
    }
    if ui.button("Reset Camera").clicked() {
        if let Some(doc) = &app.doc {
            let saved =
                strata_engine::format::project::Camera::overview(&doc.project.header.bounds);
            app.viewport.camera = crate::viewport::camera::EditorCamera::from_saved(&saved);
        }
    }
    ui.separator();
    ui.checkbox(&mut app.viewport.show_grid, "Ground Grid and Axes");
    let mut lod = app.viewport.meshes.lod_enabled;
    if ui.checkbox(&mut lod, "Level of Detail").changed() {
        app.viewport.meshes.lod_enabled = lod;
        app.save_prefs();
    }
    ui.add(
        egui::Slider::new(&mut app.viewport.fly_speed, 5.0..=400.0)
            .logarithmic(true)
            .text("Fly speed"),
    );
}
