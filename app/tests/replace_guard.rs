//! Every action that replaces the document asks about unsaved changes first: Import Heightmap and
//! Import godot_voxel Regions as New World and Open already did. Cancel keeps the world and its
//! history; Don't Save goes on; one answer covers the world as it was (no second prompt for the
//! Generate that follows New World's Don't Save, unless the world was edited in between).

use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;

use strata::app::action::{Action, BoxEdit};
use strata::app::panel::panel_path;
use strata::app::{EditorApp, Start};
use strata::files::file_jobs::PathSpec;
use strata_engine::gen::{GeneratorSettings, Preset};
use strata_engine::storage::Grid;
use strata_engine::voxel::{Voxel, VoxelBox, VoxelPos};

const SIZE: [f32; 2] = [1280.0, 800.0];

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("strata-guard-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

fn editor(dir: &std::path::Path) -> Harness<'static, EditorApp> {
    let settings = GeneratorSettings {
        preset: Preset::Flat,
        size: [64, 32, 64],
        seed: 1,
    };
    let mut app = EditorApp::new(Start::Generate(settings), false, Some(dir.join("config")));
    app.wait_for_job();
    let mut h = Harness::builder()
        .with_size(SIZE)
        .with_max_steps(1000)
        .build_ui_state(|ui, app: &mut EditorApp| app.run(ui), app);
    h.run_steps(2);
    h
}

/// One undo step: a block of Rock in the air.
fn edit(h: &mut Harness<'_, EditorApp>) {
    let block = VoxelBox::new(VoxelPos::new(4, 20, 4), VoxelPos::new(8, 24, 8));
    h.state_mut().apply_all(vec![Action::Edit(BoxEdit {
        name: "Block".into(),
        boxes: vec![block],
        write: Box::new(move |g: &mut Grid| g.fill_box(block, Voxel::new(1, 255))),
    })]);
    h.run_steps(1);
}

/// A 32 × 32 grayscale ramp.
fn heightmap(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("ramp.png");
    image::GrayImage::from_fn(32, 32, |x, y| image::Luma([((x + y) * 4) as u8]))
        .save(&path)
        .expect("writes the PNG");
    path
}

/// File ▸ Import Heightmap…, the ramp chosen, Import clicked.
fn import_clicked(h: &mut Harness<'_, EditorApp>, map: &std::path::Path) {
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Import Heightmap…").click();
    h.run_steps(3);
    let name = strata::files::import_heightmap::NAME;
    let purpose = panel_path(name, 0, PathSpec::default());
    h.state_mut()
        .apply(Action::PathChosen(purpose, map.to_path_buf()));
    h.run_steps(2);
    h.get_by_label("Import").click();
    h.run_steps(2);
}

#[test]
fn import_heightmap_asks_before_replacing_unsaved_work() {
    let dir = scratch("heightmap");
    let map = heightmap(&dir);
    let mut h = editor(&dir);
    // An edit in the history of the unsaved start-up world.
    edit(&mut h);
    let revision = h.state().doc.as_ref().expect("doc").revision();
    import_clicked(&mut h, &map);
    h.get_by_label("Unsaved changes");
    assert!(!h.state().busy(), "nothing runs before the answer");
    h.get_by_label("Cancel").click();
    h.run_steps(2);
    let doc = h.state().doc.as_ref().expect("doc");
    assert_eq!(doc.revision(), revision, "Cancel keeps the world");
    assert_eq!(doc.history().undo_len(), 1, "and its history");
    assert_eq!(doc.bounds().size(), [64, 32, 64]);
    // Again, and Don't Save: the heightmap's world replaces it.
    import_clicked(&mut h, &map);
    // One frame: it starts the job; the next would poll it, and a 32 × 32 import can be done by then.
    h.get_by_label("Don't Save").click();
    h.run_steps(1);
    assert!(h.state().busy(), "the import runs");
    h.state_mut().wait_for_job();
    h.run_steps(2);
    let doc = h.state().doc.as_ref().expect("doc");
    assert_eq!(doc.bounds().size()[0], 32, "the heightmap's world is open");
    assert_eq!(doc.history().undo_len(), 0);
}

#[test]
fn import_regions_asks_before_replacing_unsaved_work() {
    let dir = scratch("vxr");
    let mut h = editor(&dir);
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Import godot_voxel Regions…").click();
    h.run_steps(2);
    h.get_by_label("Unsaved changes");
    h.get_by_label("Cancel").click();
    h.run_steps(2);
    assert!(
        h.state().dialogs.browser.is_none(),
        "no folder prompt after Cancel"
    );
}

#[test]
fn generate_asks_when_the_world_changed_since_the_answer() {
    let dir = scratch("generate");
    let mut h = editor(&dir);
    let settings = strata_engine::gen::WorldSettings::from_preset(&GeneratorSettings {
        preset: Preset::Flat,
        size: [32, 32, 32],
        seed: 2,
    });
    // The New World window's Generate, straight after Don't Save on New World: no second prompt.
    h.state_mut().apply(Action::New);
    h.run_steps(2);
    h.get_by_label("Don't Save").click();
    h.run_steps(2);
    // Checked before any frame runs: a 32³ Flat world can finish generating within one frame, and
    // the frame that sees it done ends the modal job (a race the check once lost on CI).
    h.state_mut().apply(Action::Generate(settings.clone()));
    assert!(h.state().busy(), "generates without asking twice");
    h.state_mut().wait_for_job();
    h.run_steps(2);
    // The new world is unsaved; it is edited, then Generate asks again.
    h.state_mut().apply(Action::New);
    h.run_steps(2);
    h.get_by_label("Don't Save").click();
    h.run_steps(2);
    edit(&mut h);
    h.state_mut().apply(Action::Generate(settings));
    h.run_steps(2);
    assert!(!h.state().busy());
    h.get_by_label("Unsaved changes");
}
