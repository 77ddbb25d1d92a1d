//! What a level designer meets in the first hour, driven like a user with egui_kittest: file
//! prompts without a system dialog, Import Heightmap's options, undo and redo labels, strokes that
//! stay continuous and near their surface, the history panel, preferences, the tool options and the
//! Tools panel's edge. No window and no GL: picking and strokes run on the CPU.

use std::path::{Path, PathBuf};

use eframe::egui::{self, Key, Pos2};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;

use strata::app::action::{Action, BoxEdit};
use strata::app::{EditorApp, Start};
use strata::viewport::overlay::Overlay;
use strata_engine::gen::{GeneratorSettings, Preset};
use strata_engine::storage::Grid;
use strata_engine::tools::ToolKind;
use strata_engine::voxel::{Voxel, VoxelBox, VoxelPos};

const SIZE: [f32; 2] = [1280.0, 800.0];

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("strata-hour-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// An editor on a flat 96×48×96 world whose file prompts use the in-app browser, starting in `dir`.
fn editor(dir: &Path) -> Harness<'static, EditorApp> {
    let settings = GeneratorSettings {
        preset: Preset::Flat,
        size: [96, 48, 96],
        seed: 1,
    };
    let mut app = EditorApp::new(Start::Generate(settings), false, Some(dir.join("config")));
    app.wait_for_job();
    app.prefs.in_app_file_browser = true;
    app.prefs.last_folder = Some(dir.to_path_buf());
    Harness::builder()
        .with_size(SIZE)
        .with_max_steps(1000)
        .build_ui_state(|ui, app: &mut EditorApp| app.run(ui), app)
}

/// A point in the 3D view, `dx` points right of its middle.
fn in_view(h: &Harness<'_, EditorApp>, dx: f32) -> Pos2 {
    let left = h.state().left_panel_width();
    Pos2::new((left + SIZE[0] - 260.0) / 2.0 + dx, SIZE[1] / 2.0 + 60.0)
}

fn grid(h: &Harness<'_, EditorApp>) -> Grid {
    h.state().doc.as_ref().expect("doc").grid().clone()
}

fn surface(h: &mut Harness<'_, EditorApp>, x: f32, z: f32) -> f32 {
    let doc = h.state_mut().doc.as_mut().expect("doc");
    doc.raycast([x, 100.0, z], [0.0, -1.0, 0.0], 200.0)
        .map_or(f32::NAN, |hit| hit.point[1])
}

fn menu(h: &mut Harness<'_, EditorApp>, menu: &str, item: &str) {
    h.get_by_label(menu).click();
    h.run_steps(2);
    h.get_by_label_contains(item).click();
    h.run_steps(3);
}

/// A stroke with the current tool: press at `from`, move to `to` in `steps` frames, release.
fn stroke(h: &mut Harness<'_, EditorApp>, from: Pos2, to: Pos2, steps: usize) {
    h.hover_at(from);
    h.run_steps(2);
    h.drag_at(from);
    h.run_steps(1);
    for i in 1..=steps {
        let t = i as f32 / steps as f32;
        h.hover_at(from + (to - from) * t);
        h.run_steps(1);
    }
    h.drop_at(to);
    h.run_steps(2);
}

#[test]
fn save_as_without_a_system_dialog_uses_the_in_app_browser() {
    let dir = temp("save");
    let mut h = editor(&dir);
    h.run_steps(2);
    menu(&mut h, "File", "Save As…");
    h.get_by_label_contains("Strata file browser");
    h.get_by_label("Save").click();
    h.run_steps(2);
    h.state_mut().wait_for_job();
    h.run_steps(2);
    let saved = dir.join("flat.strata");
    assert!(
        saved.is_file(),
        "the world was saved to {}",
        saved.display()
    );
    let doc = h.state().doc.as_ref().expect("doc");
    assert_eq!(doc.path(), Some(saved.as_path()));
    assert!(!doc.is_modified());
    // Open goes through the same browser: a click on the file and Open.
    menu(&mut h, "File", "Open…");
    h.get_by_label("flat.strata").click();
    h.run_steps(2);
    h.get_by_label("Open").click();
    h.run_steps(2);
    h.state_mut().wait_for_job();
    h.run_steps(2);
    assert!(
        h.state().message.starts_with("Opened"),
        "{}",
        h.state().message
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn import_heightmap_shows_its_options_before_importing() {
    let dir = temp("heightmap");
    let (w, d) = (64u32, 48u32);
    let rgba: Vec<u8> = (0..w * d)
        .flat_map(|i| {
            let v = ((i % w) * 4) as u8;
            [v, v, v, 255]
        })
        .collect();
    let png = strata::files::png::encode_rgba(&rgba, w, d, Path::new("map.png")).expect("png");
    std::fs::write(dir.join("map.png"), png).expect("write");
    let mut h = editor(&dir);
    h.run_steps(2);
    menu(&mut h, "File", "Import Heightmap…");
    h.get_by_label("Colour map");
    h.get_by_label("Height");
    h.get_by_label_contains("Choose a grayscale PNG");
    h.get_all_by_label("Choose…")
        .next()
        .expect("a Choose button")
        .click();
    h.run_steps(3);
    h.get_by_label("map.png").click();
    h.run_steps(2);
    h.get_by_label("Open").click();
    h.run_steps(3);
    h.get_by_label("The image is 64 × 48 pixels.");
    h.get_by_label("Import").click();
    h.run_steps(2);
    h.state_mut().wait_for_job();
    h.run_steps(2);
    let doc = h.state().doc.as_ref().expect("doc");
    assert_eq!(doc.bounds().size(), [64, 128, 48]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The labels the Edit menu shows, read from the open menu.
fn check_edit_labels(h: &mut Harness<'_, EditorApp>) {
    let (undo, redo) = {
        let history = h.state().doc.as_ref().expect("doc").history();
        (
            history.undo_names().next().map(str::to_owned),
            history.redo_names().next().map(str::to_owned),
        )
    };
    h.get_by_label("Edit").click();
    h.run_steps(2);
    // Menu buttons read with their shortcut.
    let undo_label = undo.map_or_else(|| "Undo".to_owned(), |n| format!("Undo {n}")) + " Ctrl+Z";
    let redo_label =
        redo.map_or_else(|| "Redo".to_owned(), |n| format!("Redo {n}")) + " Ctrl+Shift+Z";
    h.get_by_label(&undo_label);
    h.get_by_label(&redo_label);
    h.get_by_label("Edit").click();
    h.run_steps(2);
    assert!(h.query_by_label(&undo_label).is_none(), "the menu closed");
}

#[test]
fn undo_and_redo_labels_name_the_steps_they_act_on() {
    let dir = temp("labels");
    let mut h = editor(&dir);
    h.run_steps(2);
    let at = in_view(&h, 0.0);
    stroke(&mut h, at, at, 3);
    h.get_by_label("Subtract").click();
    h.run_steps(2);
    let other = in_view(&h, 80.0);
    stroke(&mut h, other, other, 3);
    let names: Vec<String> = h
        .state()
        .doc
        .as_ref()
        .expect("doc")
        .history()
        .undo_names()
        .map(str::to_owned)
        .collect();
    assert_eq!(names, ["Subtract", "Add"], "two strokes, newest first");
    check_edit_labels(&mut h);
    h.get_by_label("Edit").click();
    h.run_steps(2);
    h.get_by_label("Undo Subtract Ctrl+Z").click();
    h.run_steps(2);
    check_edit_labels(&mut h);
    h.get_by_label("Edit").click();
    h.run_steps(2);
    h.get_by_label("Redo Subtract Ctrl+Shift+Z").click();
    h.run_steps(2);
    check_edit_labels(&mut h);
    h.key_press_modifiers(egui::Modifiers::COMMAND, Key::Z);
    h.key_press_modifiers(egui::Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    check_edit_labels(&mut h);
    // Ctrl+Shift+Z redoes (it used to undo), Ctrl+Y too.
    h.key_press_modifiers(egui::Modifiers::COMMAND | egui::Modifiers::SHIFT, Key::Z);
    h.run_steps(2);
    let history = h.state().doc.as_ref().expect("doc").history();
    assert_eq!((history.undo_len(), history.redo_len()), (1, 1));
    check_edit_labels(&mut h);
    h.key_press_modifiers(egui::Modifiers::COMMAND, Key::Y);
    h.run_steps(2);
    let history = h.state().doc.as_ref().expect("doc").history();
    assert_eq!((history.undo_len(), history.redo_len()), (2, 0));
    check_edit_labels(&mut h);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_fast_drag_is_one_continuous_stroke() {
    let dir = temp("fast");
    let mut h = editor(&dir);
    h.run_steps(2);
    let (a, b) = (in_view(&h, -150.0), in_view(&h, 150.0));
    h.hover_at(a);
    h.run_steps(2);
    let start = h.state().viewport.hover.expect("terrain at a").point;
    h.hover_at(b);
    h.run_steps(2);
    let end = h.state().viewport.hover.expect("terrain at b").point;
    let ground = surface(&mut h, start[0], start[2]);
    // The whole drag happens between two frames.
    stroke(&mut h, a, b, 1);
    for i in 0..=10 {
        let t = i as f32 / 10.0;
        let x = start[0] + (end[0] - start[0]) * t;
        let z = start[2] + (end[2] - start[2]) * t;
        let top = surface(&mut h, x, z);
        assert!(
            top > ground + 1.0,
            "gap in the stroke at {t}: {top} vs ground {ground}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_held_brush_stays_near_the_surface_and_never_digs_the_floor() {
    let dir = temp("held");
    let mut h = editor(&dir);
    h.run_steps(2);
    let at = in_view(&h, 0.0);
    h.hover_at(at);
    h.run_steps(2);
    let hit = h.state().viewport.hover.expect("terrain").point;
    let ground = surface(&mut h, hit[0], hit[2]);
    let radius = h.state().tools().state.brush.radius();
    // Add held still for three seconds at 60 frames per second.
    stroke(&mut h, at, at, 180);
    let top = surface(&mut h, hit[0], hit[2]);
    assert!(top > ground + 1.0, "the brush added matter");
    assert!(
        top <= ground + 2.0 * radius + 1.0,
        "the column grew to {top} from {ground} (radius {radius})"
    );
    // A huge Subtract held for three seconds leaves the world's bottom layer.
    h.get_by_label("Subtract").click();
    h.run_steps(2);
    h.state_mut().tools_mut().state.brush.size = 64.0;
    stroke(&mut h, at, at, 180);
    let g = grid(&h);
    let bottom = g.read_box_vec(VoxelBox::new(
        VoxelPos::new(0, 0, 0),
        VoxelPos::new(96, 1, 96),
    ));
    assert!(bottom.iter().all(|v| !v.is_air()), "a hole in the floor");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_history_panel_lists_steps_and_jumps_to_one() {
    let dir = temp("history");
    let mut h = editor(&dir);
    h.run_steps(2);
    for (i, name) in ["First fill", "Second fill", "Third fill"]
        .iter()
        .enumerate()
    {
        let b = VoxelBox::new(
            VoxelPos::new(10 + 20 * i as i32, 20, 10),
            VoxelPos::new(16 + 20 * i as i32, 30, 16),
        );
        h.state_mut().apply_all(vec![Action::Edit(BoxEdit {
            name: (*name).to_owned(),
            boxes: vec![b],
            write: Box::new(move |g: &mut Grid| g.fill_box(b, Voxel::new(3, 255))),
        })]);
    }
    h.run_steps(2);
    h.get_by_label("First fill").click();
    h.run_steps(2);
    let history = h.state().doc.as_ref().expect("doc").history();
    assert_eq!((history.undo_len(), history.redo_len()), (1, 2));
    h.get_by_label("Third fill").click();
    h.run_steps(2);
    let history = h.state().doc.as_ref().expect("doc").history();
    assert_eq!((history.undo_len(), history.redo_len()), (3, 0));
    h.get_by_label("Start").click();
    h.run_steps(2);
    assert_eq!(h.state().doc.as_ref().expect("doc").history().undo_len(), 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn preferences_apply_persist_and_rebind_keys() {
    let dir = temp("prefs");
    let mut h = editor(&dir);
    h.state_mut().prefs.in_app_file_browser = false;
    h.run_steps(2);
    menu(&mut h, "File", "Preferences…");
    h.get_by_label("Always Strata's file browser").click();
    h.run_steps(2);
    // Rebind New World (the first command) to Ctrl+B.
    h.get_all_by_label("Change")
        .next()
        .expect("a Change button")
        .click();
    h.run_steps(2);
    h.get_by_label("Press keys…");
    h.key_press_modifiers(egui::Modifiers::COMMAND, Key::B);
    h.run_steps(2);
    h.get_by_label("Apply").click();
    h.run_steps(2);
    assert!(h.state().prefs.in_app_file_browser);
    let saved = strata::app::prefs::Prefs::load(Some(&dir.join("config")));
    assert!(saved.in_app_file_browser, "saved to the config folder");
    assert_eq!(
        h.state()
            .keymap
            .text_of(strata::app::keymap::Command::New)
            .as_deref(),
        Some("Ctrl+B")
    );
    // The new binding works and the old one does not.
    h.key_press_modifiers(egui::Modifiers::COMMAND, Key::N);
    h.run_steps(2);
    assert!(!h.state().panels.is_open("New World"));
    h.key_press_modifiers(egui::Modifiers::COMMAND, Key::B);
    h.run_steps(2);
    assert!(
        h.state().dialogs.unsaved.is_some() || h.state().panels.is_open("New World"),
        "Ctrl+B asks for a new world"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tool_options_show_what_applies_with_previews() {
    let dir = temp("options");
    let mut h = editor(&dir);
    h.run_steps(2);
    assert!(h.query_all_by_label("Strength").count() > 0);
    h.get_by_label("Paint").click();
    h.run_steps(2);
    assert_eq!(
        h.query_all_by_label("Strength").count(),
        0,
        "Paint has no strength"
    );
    h.get_by_label("Replace").click();
    h.run_steps(2);
    let tools = &h.state().tools().state;
    assert_ne!(tools.tool.source_material, 0, "Replace's source is not Air");
    h.get_by_label("Source");
    h.get_by_label("Target");
    h.get_by_label("Flatten").click();
    h.run_steps(2);
    h.get_by_label("Cut and fill");
    h.get_by_label("Cut");
    h.get_by_label("Fill");
    h.get_by_label("Fixed Plane").click();
    h.run_steps(2);
    h.get_by_label("Normal");
    assert_eq!(h.state().tools().state.tool.kind, ToolKind::Flatten);
    // Plane Lock previews its plane under the cursor; Sea Level previews the water level.
    h.get_by_label("Plane Lock").click();
    h.hover_at(in_view(&h, 0.0));
    h.run_steps(2);
    assert!(h
        .state()
        .overlays()
        .iter()
        .any(|o| matches!(o, Overlay::Plane { .. })));
    h.key_press(Key::Num9);
    h.run_steps(2);
    let level = h.state().tools().state.sea_level;
    assert!(h
        .state()
        .overlays()
        .iter()
        .any(|o| matches!(o, Overlay::Level { y, .. } if *y == level)));
    // The material picker lists materials with their looks.
    h.key_press(Key::T);
    h.run_steps(2);
    h.get_by_label("Material").click();
    h.run_steps(2);
    h.get_by_label("Rock").click();
    h.run_steps(2);
    let table = h.state().doc.as_ref().expect("doc").materials().clone();
    assert_eq!(
        h.state().tools().state.tool.material,
        table.require("Rock").expect("rock")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn dragging_the_tools_panel_edge_resizes_it_and_does_not_sculpt() {
    let dir = temp("edge");
    let mut h = editor(&dir);
    h.run_steps(3);
    let before = grid(&h);
    let width = h.state().left_panel_width();
    let y = SIZE[1] - 120.0;
    let edge = Pos2::new(width, y);
    stroke(&mut h, edge, Pos2::new(width + 80.0, y), 8);
    assert!(
        h.state().left_panel_width() > width + 40.0,
        "{} -> {}",
        width,
        h.state().left_panel_width()
    );
    assert_eq!(grid(&h), before, "the drag did not sculpt");
    assert_eq!(h.state().doc.as_ref().expect("doc").history().undo_len(), 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_status_bar_speaks_to_designers() {
    let dir = temp("status");
    let mut h = editor(&dir);
    h.run_steps(2);
    h.hover_at(in_view(&h, 0.0));
    h.run_steps(2);
    h.get_by_label_contains("Brush 6 · ");
    h.get_by_label_contains("above sea level · slope");
    menu(&mut h, "Help", "Statistics");
    h.get_by_label("Bytes per voxel");
    let _ = std::fs::remove_dir_all(&dir);
}
