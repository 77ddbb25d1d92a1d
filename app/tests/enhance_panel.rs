//! The Enhance panel driven like a user: the preview draws fragments in place of the terrain, and
//! follows edits and undo incrementally, always equal to a fresh enhancement of the current world.

use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;

use strata::app::action::{Action, BoxEdit};
use strata::app::{EditorApp, Start};
use strata::enhance::enhance_panel::{EnhancePanel, MethodKind, NAME};
use strata_engine::enhance::Enhanced;
use strata_engine::gen::{GeneratorSettings, Preset};
use strata_engine::progress::Progress;
use strata_engine::voxel::{EnhanceThreshold, Voxel, VoxelBox, VoxelPos};

fn editor(name: &str) -> Harness<'static, EditorApp> {
    let dir = std::env::temp_dir().join(format!("strata-enhance-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let settings = GeneratorSettings {
        preset: Preset::Hills,
        size: [64, 48, 64],
        seed: 2,
    };
    let mut app = EditorApp::new(Start::Generate(settings), false, Some(dir));
    app.wait_for_job();
    app.apply(Action::ShowPanel(NAME));
    Harness::builder()
        .with_size([1280.0, 1000.0])
        .with_max_steps(1000)
        .build_ui_state(|ui, app: &mut EditorApp| app.run(ui), app)
}

fn panel<'a>(h: &'a mut Harness<'_, EditorApp>) -> &'a mut EnhancePanel {
    h.state_mut()
        .panels
        .get_mut::<EnhancePanel>()
        .expect("the Enhance panel")
}

/// Let the preview catch up: builds finish and dirty chunks are re-meshed.
fn settle(h: &mut Harness<'_, EditorApp>) {
    for _ in 0..50 {
        h.run_steps(1);
        h.state_mut().wait_for_panel_jobs(NAME);
        h.run_steps(1);
        if !panel(h).working() {
            return;
        }
    }
    panic!("the preview never settled");
}

/// The panel's store equals a fresh enhancement of the document's current grid.
fn assert_store_is_fresh(h: &mut Harness<'_, EditorApp>, what: &str) {
    let method = panel(h).form.method();
    let region = panel(h).form.region_box();
    let doc = h.state().doc.as_ref().expect("doc");
    let fresh = Enhanced::build(
        doc.grid(),
        doc.materials(),
        &method,
        region,
        &Progress::new(),
    )
    .expect("build");
    let store = h
        .state()
        .panels
        .get::<EnhancePanel>()
        .and_then(EnhancePanel::store)
        .expect("a store");
    assert!(
        store == &fresh,
        "{what}: the preview equals a full recomputation"
    );
}

fn fill(min: [i32; 3], max: [i32; 3], v: Voxel) -> Action {
    let b = VoxelBox::new(
        VoxelPos::new(min[0], min[1], min[2]),
        VoxelPos::new(max[0], max[1], max[2]),
    );
    Action::Edit(BoxEdit {
        name: "Test fill".into(),
        boxes: vec![b],
        write: Box::new(move |g| g.fill_box(b, v)),
    })
}

#[test]
fn preview_draws_fragments_and_follows_edits_and_undo() {
    let mut h = editor("follow");
    h.run_steps(3);
    assert!(!h.state().viewport.shows_fragments());
    h.get_by_label("Show fragments").click();
    settle(&mut h);
    assert!(
        h.state().viewport.shows_fragments(),
        "fragments replace the terrain"
    );
    let before = h.state().viewport.fragment_quads();
    assert!(before > 1000, "fragments are drawn ({before} faces)");
    assert_store_is_fresh(&mut h, "after the build");
    // A floating block adds faces; the preview follows without a rebuild.
    h.state_mut()
        .apply(fill([20, 40, 20], [27, 45, 26], Voxel::filled(7)));
    settle(&mut h);
    let after = h.state().viewport.fragment_quads();
    assert!(
        after > before,
        "the new block's fragments are drawn ({before} -> {after})"
    );
    assert_store_is_fresh(&mut h, "after an edit");
    // Digging a pit into the ground.
    h.state_mut()
        .apply(fill([40, 0, 40], [46, 47, 46], Voxel::AIR));
    settle(&mut h);
    assert_store_is_fresh(&mut h, "after a dig");
    h.state_mut().apply(Action::Undo);
    settle(&mut h);
    assert_store_is_fresh(&mut h, "after undo");
    h.state_mut().apply(Action::Undo);
    settle(&mut h);
    assert_store_is_fresh(&mut h, "after the second undo");
    assert_eq!(
        h.state().viewport.fragment_quads(),
        before,
        "undo brings the faces back"
    );
    // Resampling over a box: the settings change rebuilds the preview.
    panel(&mut h).form.kind = MethodKind::Resample;
    panel(&mut h).form.region = Some([[8, 0, 8], [40, 48, 40]]);
    settle(&mut h);
    assert_store_is_fresh(&mut h, "resampling a box");
    assert!(h.state().viewport.fragment_quads() > 0);
    h.get_by_label("Show fragments").click();
    h.run_steps(2);
    assert!(
        !h.state().viewport.shows_fragments(),
        "the smooth terrain is back"
    );
    assert_eq!(h.state().viewport.fragment_quads(), 0);
}

#[test]
fn bad_settings_are_refused_or_clamped() {
    let mut h = editor("bad");
    h.run_steps(3);
    panel(&mut h).form.region = Some([[10, 0, 10], [10, 48, 40]]);
    h.run_steps(2);
    h.get_by_label_contains("The box is empty");
    panel(&mut h).form.region = None;
    panel(&mut h).form.kind = MethodKind::Resample;
    panel(&mut h).form.resample.fraction = 1.5;
    h.run_steps(2);
    // The form keeps values in range: the slider clamps what was typed or set.
    assert!(panel(&mut h).form.resample.fraction <= 1.0);
    assert!(panel(&mut h).form.method().validate().is_ok());
}

#[test]
fn fragments_are_lit_at_fragment_resolution_and_relit_after_an_edit() {
    let mut h = editor("lit");
    panel(&mut h).form.subdivide.levels = 1;
    panel(&mut h).form.region = Some([[8, 0, 8], [40, 48, 40]]);
    h.run_steps(3);
    h.get_by_label("Show fragments").click();
    settle(&mut h);
    h.get_by_label("Light fragments").click();
    settle(&mut h);
    let fresh_light = |h: &mut Harness<'_, EditorApp>| {
        let method = panel(h).form.method();
        let region = panel(h).form.region_box().expect("a box");
        let doc = h.state().doc.as_ref().expect("doc");
        let store = Enhanced::build(
            doc.grid(),
            doc.materials(),
            &method,
            Some(region),
            &Progress::new(),
        )
        .expect("build");
        let settings = strata_engine::light::LightSettings::default();
        strata_engine::enhance::bake_fragments(
            &store.volume(doc.grid()),
            region,
            &settings,
            &Progress::new(),
        )
        .expect("bake")
        .0
    };
    let expected = fresh_light(&mut h);
    let got: Vec<_> = panel(&mut h)
        .fragment_light()
        .expect("the fragments are lit")
        .entries()
        .collect();
    assert!(!got.is_empty());
    assert_eq!(
        got,
        expected.entries().collect::<Vec<_>>(),
        "the panel's light is the engine's bake"
    );
    // An edit makes the light stale until Re-light.
    h.state_mut()
        .apply(fill([20, 30, 20], [26, 36, 26], Voxel::filled(7)));
    settle(&mut h);
    h.get_by_label("Re-light").click();
    settle(&mut h);
    let expected = fresh_light(&mut h);
    let got: Vec<_> = panel(&mut h)
        .fragment_light()
        .expect("lit")
        .entries()
        .collect();
    assert_eq!(
        got,
        expected.entries().collect::<Vec<_>>(),
        "re-lit after the edit"
    );
}

#[test]
fn per_material_thresholds_change_the_fragments() {
    let mut h = editor("thresholds");
    h.run_steps(3);
    h.get_by_label("Show fragments").click();
    settle(&mut h);
    let before = h.state().viewport.fragment_quads();
    let grass = h
        .state()
        .doc
        .as_ref()
        .expect("doc")
        .materials()
        .materials
        .iter()
        .position(|m| m.name == "Grass")
        .expect("grass");
    // Grass needs only one solid neighbour of four: it grows, and the preview rebuilds.
    panel(&mut h).form.material_thresholds[grass] = EnhanceThreshold { even: 1, odd: 1 };
    settle(&mut h);
    let after = h.state().viewport.fragment_quads();
    assert_ne!(
        before, after,
        "the grass fragments changed ({before} -> {after})"
    );
    let form = panel(&mut h).form.clone();
    let doc = h.state().doc.as_ref().expect("doc");
    let table = form.table(doc.materials());
    let fresh =
        Enhanced::build(doc.grid(), &table, &form.method(), None, &Progress::new()).expect("build");
    let store = h
        .state()
        .panels
        .get::<EnhancePanel>()
        .and_then(EnhancePanel::store)
        .expect("store");
    assert!(store == &fresh, "the preview uses the edited thresholds");
}
