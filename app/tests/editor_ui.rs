//! The editor driven like a user would: egui_kittest finds widgets by their labels, clicks them,
//! presses keys and drags in the viewport. No window and no GL: picking and strokes run on the CPU,
//! exactly as in the desktop editor.

use eframe::egui::{self, Key, Pos2};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;

use strata::app::{EditorApp, Start};
use strata_engine::gen::{GeneratorSettings, Preset};
use strata_engine::tools::ToolKind;

const SIZE: [f32; 2] = [1280.0, 800.0];

fn config(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("strata-ui-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn editor(name: &str) -> Harness<'static, EditorApp> {
    let settings = GeneratorSettings {
        preset: Preset::Flat,
        size: [96, 48, 96],
        seed: 1,
    };
    let mut app = EditorApp::new(Start::Generate(settings), false, Some(config(name)));
    app.wait_for_job();
    assert!(app.doc.is_some(), "the start-up world was generated");
    Harness::builder()
        .with_size(SIZE)
        .with_max_steps(1000)
        .build_ui_state(|ui, app: &mut EditorApp| app.run(ui), app)
}

/// The middle of the 3D view (right of the tools panel, between menu and status bars).
fn viewport_center(h: &Harness<'_, EditorApp>) -> Pos2 {
    let tools = h.get_by_label("Tools").rect();
    Pos2::new((tools.right() + SIZE[0]) / 2.0 + 40.0, SIZE[1] / 2.0)
}

#[test]
fn tools_switch_by_button_and_shortcut() {
    let mut h = editor("switch");
    h.run_steps(2);
    assert_eq!(h.state().tools().state.tool.kind, ToolKind::Add);
    h.get_by_label("Subtract").click();
    h.run_steps(2);
    assert_eq!(h.state().tools().state.tool.kind, ToolKind::Subtract);
    h.get_by_label("Smooth").click();
    h.run_steps(2);
    assert_eq!(h.state().tools().state.tool.kind, ToolKind::Smooth);
    h.key_press(Key::G);
    h.run_steps(2);
    assert_eq!(h.state().tools().state.tool.kind, ToolKind::Paint);
    h.key_press(Key::Num9);
    h.run_steps(2);
    assert_eq!(h.state().tools().state.tool.kind, ToolKind::SeaLevel);
    assert!(
        h.query_by_label("Fill Water").is_some(),
        "sea level options show"
    );
    h.key_press(Key::T);
    h.run_steps(2);
    assert_eq!(h.state().tools().state.tool.kind, ToolKind::Add);
}

#[test]
fn brush_size_changes_with_brackets() {
    let mut h = editor("size");
    h.run_steps(2);
    let before = h.state().tools().state.brush.size;
    h.get_by_label(&format!("Size: {before:.0}"));
    h.key_press(Key::CloseBracket);
    h.run_steps(2);
    let grown = h.state().tools().state.brush.size;
    assert!(grown > before, "{grown} > {before}");
    h.get_by_label(&format!("Size: {grown:.0}"));
    h.key_press(Key::OpenBracket);
    h.key_press(Key::OpenBracket);
    h.run_steps(3);
    assert!(h.state().tools().state.brush.size < before);
}

#[test]
fn a_stroke_edits_the_document_and_undo_redo_restore_it() {
    let mut h = editor("stroke");
    h.run_steps(3);
    let original = h.state().doc.as_ref().expect("doc").grid().clone();
    let at = viewport_center(&h);
    h.hover_at(at);
    h.run_steps(2);
    assert!(
        h.state().viewport.hover.is_some(),
        "the pointer is over terrain"
    );
    h.drag_at(at);
    h.run_steps(4);
    assert!(h.state().tools().state.stroking());
    h.drop_at(at);
    h.run_steps(2);
    assert!(!h.state().tools().state.stroking());
    {
        let doc = h.state().doc.as_ref().expect("doc");
        assert_ne!(*doc.grid(), original, "the stroke changed voxels");
        assert_eq!(doc.history().undo_len(), 1, "one undo step per stroke");
        assert!(doc.is_modified());
    }
    h.get_by_label("Edit").click();
    h.run_steps(2);
    h.get_by_label_contains("Undo Add").click();
    h.run_steps(2);
    assert_eq!(
        *h.state().doc.as_ref().expect("doc").grid(),
        original,
        "undo restores the voxels"
    );
    h.key_press_modifiers(egui::Modifiers::COMMAND, Key::Y);
    h.run_steps(2);
    assert_ne!(*h.state().doc.as_ref().expect("doc").grid(), original);
    h.key_press_modifiers(egui::Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(*h.state().doc.as_ref().expect("doc").grid(), original);
}

#[test]
fn new_world_asks_about_unsaved_changes_then_generates() {
    let mut h = editor("generate");
    h.run_steps(2);
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label_contains("New World…").click();
    h.run_steps(2);
    // The start-up world was never saved, so the editor asks first.
    h.get_by_label("Unsaved changes");
    h.get_by_label("Don't Save").click();
    h.run_steps(2);
    assert!(
        h.state().panels.is_open("New World"),
        "the New World dialog is open"
    );
    // A new window takes a sizing frame before its widgets appear.
    h.run_steps(3);
    // Typing sizes into drag values is not what this test is about; keep the world small.
    if let Some(form) = h
        .state_mut()
        .panels
        .get_mut::<strata::generate::new_world::NewWorldWindow>()
    {
        form.settings.size = [64, 48, 64];
    }
    // One frame: it starts the job; the next would poll it, and a small world can be done by then.
    h.get_by_label("Generate").click();
    h.run_steps(1);
    assert!(h.state().busy(), "generation runs in the background");
    h.state_mut().wait_for_job();
    h.run_steps(2);
    let doc = h.state().doc.as_ref().expect("doc");
    assert_eq!(
        doc.header().generator.as_ref().map(|g| g.preset),
        Some(Preset::Hills),
        "the dialog's default preset"
    );
}

#[test]
fn the_title_marks_unsaved_changes() {
    let mut h = editor("title");
    h.run_steps(2);
    assert!(h.state().title().starts_with('●'), "{}", h.state().title());
}

fn small_project(name: &str) -> strata_engine::format::project::Project {
    use strata_engine::format::project::{Project, ProjectHeader};
    let settings = GeneratorSettings {
        preset: Preset::Hills,
        size: [64, 48, 64],
        seed: 3,
    };
    let table = strata_engine::voxel::MaterialTable::builtin();
    let grid =
        strata_engine::gen::generate(&settings, &table, &strata_engine::progress::Progress::new())
            .expect("generate");
    Project::new(ProjectHeader::new(name, settings.bounds()), grid)
}

#[test]
fn opened_files_appear_in_recent_files_with_a_thumbnail() {
    let cfg = config("recent");
    std::fs::create_dir_all(&cfg).expect("config dir");
    let file = cfg.join("lake.strata");
    small_project("lake").save(&file).expect("save");
    let mut app = EditorApp::new(Start::Open(file.clone()), false, Some(cfg.clone()));
    app.wait_for_job();
    assert!(app.doc.is_some());
    let canonical = file.canonicalize().expect("canonical");
    assert_eq!(app.prefs.recent.first(), Some(&canonical));
    let thumbs: Vec<_> = std::fs::read_dir(cfg.join("thumbs"))
        .expect("thumbs")
        .collect();
    assert_eq!(thumbs.len(), 1, "one thumbnail");
    let mut h = Harness::builder()
        .with_size(SIZE)
        .build_ui_state(|ui, app: &mut EditorApp| app.run(ui), app);
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Recent Files…").click();
    h.run_steps(4);
    h.get_by_label("lake.strata");
    // Preferences persist: a new editor remembers the file.
    let again = EditorApp::new(Start::Open(file), false, Some(cfg));
    assert_eq!(again.prefs.recent.first(), Some(&canonical));
}

#[test]
fn an_autosave_left_by_a_crash_is_offered_and_recovered() {
    let cfg = config("recover");
    let folder = strata::files::autosave::folder(&cfg);
    let project = small_project("crashed");
    let grid = project.grid.clone();
    strata::files::autosave::spawn(folder, project, None, 3)
        .wait()
        .expect("autosave");
    let settings = GeneratorSettings {
        preset: Preset::Flat,
        size: [64, 48, 64],
        seed: 1,
    };
    let app = EditorApp::new(Start::Generate(settings), false, Some(cfg.clone()));
    let mut h = Harness::builder()
        .with_size(SIZE)
        .build_ui_state(|ui, app: &mut EditorApp| app.run(ui), app);
    h.run_steps(3);
    h.get_by_label("Recover unsaved work?");
    h.get_by_label("Recover").click();
    h.run_steps(2);
    h.state_mut().wait_for_job();
    h.run_steps(2);
    let doc = h.state().doc.as_ref().expect("recovered");
    assert_eq!(*doc.grid(), grid);
    assert!(doc.is_modified(), "recovered work is unsaved");
}

#[test]
fn sea_level_fills_a_box_as_one_undo_step() {
    let mut h = editor("sea");
    h.key_press(Key::Num9);
    h.run_steps(3);
    h.get_by_label("Whole World").click();
    h.run_steps(2);
    let area = h.state().tools().state.sea_area.expect("an area");
    assert_eq!(area, [0, 0, 96, 96], "starts as the world's X,Z range");
    h.state_mut().tools_mut().state.sea_area = Some([8, 8, 24, 24]);
    // Flat's ground is lower than this level, so there is air to fill.
    h.state_mut().tools_mut().state.sea_level = 40.0;
    h.get_by_label("Fill Water").click();
    h.run_steps(2);
    let doc = h.state().doc.as_ref().expect("doc");
    let water = doc.materials().require("Water").expect("water");
    let grid = &doc.grid();
    use strata_engine::voxel::VoxelPos;
    assert_eq!(grid.get(VoxelPos::new(10, 38, 10)).material, water);
    assert_ne!(
        grid.get(VoxelPos::new(30, 38, 30)).material,
        water,
        "outside the box"
    );
    assert_eq!(doc.history().undo_names().last(), Some("Fill Water"));
}

#[test]
fn cancelling_a_job_is_not_an_error() {
    let settings = GeneratorSettings {
        preset: Preset::Hills,
        size: [2048, 256, 2048],
        seed: 9,
    };
    let app = EditorApp::new(Start::Generate(settings), false, Some(config("cancel")));
    let mut h = Harness::builder()
        .with_size(SIZE)
        .build_ui_state(|ui, app: &mut EditorApp| app.run(ui), app);
    h.run_steps(3);
    h.get_by_label("Cancel").click();
    h.run_steps(2);
    h.state_mut().wait_for_job();
    h.run_steps(2);
    assert!(h.state().doc.is_none(), "nothing opened");
    assert!(h.state().dialogs.error.is_none(), "no error dialog");
    assert_eq!(h.state().message, "Cancelled");
    h.get_by_label_contains("No world open");
}
