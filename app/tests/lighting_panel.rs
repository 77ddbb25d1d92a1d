//! The Lighting panel driven like a user: bake a small world, see the light change with the sun,
//! cancel a bake and keep the old light, and let Live re-bake what an edit made stale.

use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;

use strata::app::action::{Action, BoxEdit};
use strata::app::{EditorApp, Start};
use strata::lighting::lighting_panel::{LightingPanel, NAME};
use strata_engine::gen::{GeneratorSettings, Preset};
use strata_engine::storage::Grid;
use strata_engine::voxel::{Voxel, VoxelBox, VoxelPos};

fn editor(name: &str) -> Harness<'static, EditorApp> {
    editor_on(name, Preset::Flat)
}

fn editor_on(name: &str, preset: Preset) -> Harness<'static, EditorApp> {
    let dir = std::env::temp_dir().join(format!("strata-light-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let settings = GeneratorSettings {
        preset,
        size: [64, 40, 64],
        seed: 1,
    };
    let mut app = EditorApp::new(Start::Generate(settings), false, Some(dir));
    app.wait_for_job();
    if let Some(panel) = app.panels.get_mut::<LightingPanel>() {
        panel.settings.particles = 6;
        panel.settings.steps = 24;
    }
    Harness::builder()
        .with_size([1280.0, 800.0])
        .with_max_steps(1000)
        .build_ui_state(|ui, app: &mut EditorApp| app.run(ui), app)
}

fn panel<'a>(h: &'a mut Harness<'_, EditorApp>) -> &'a mut LightingPanel {
    h.state_mut()
        .panels
        .get_mut::<LightingPanel>()
        .expect("the Lighting panel")
}

/// Light of the ground voxel in the middle of the world.
fn ground_light(h: &Harness<'_, EditorApp>) -> Option<[f32; 3]> {
    let doc = h.state().doc.as_ref().expect("doc");
    let light = doc.light()?;
    let top = (0..40)
        .rev()
        .find(|&y| {
            let v = doc.grid().get(VoxelPos::new(32, y, 32));
            let liquid = doc.materials().get(v.material).is_some_and(|m| m.liquid);
            v.occupancy_f32() >= 0.5 && !liquid
        })
        .expect("ground");
    light.light(VoxelPos::new(32, top, 32))
}

fn bake(h: &mut Harness<'_, EditorApp>) {
    h.get_by_label("Bake").click();
    h.run_steps(1);
    h.state_mut().wait_for_panel_jobs(NAME);
    h.run_steps(2);
}

#[test]
fn bake_from_the_panel_changes_the_light_and_cancel_keeps_it() {
    let mut h = editor_on("bake", Preset::Hills);
    h.run_steps(2);
    h.get_by_label("Not baked yet");
    assert!(ground_light(&h).is_none());
    bake(&mut h);
    let high = ground_light(&h).expect("the ground is lit after the bake");
    assert!(high[0] > 0.1, "{high:?}");
    assert!(h.state().doc.as_ref().expect("doc").is_modified());
    // A dimmer sun gives dimmer ground.
    panel(&mut h).settings.sun_color = [0.2, 0.2, 0.2];
    bake(&mut h);
    let dim = ground_light(&h).expect("lit");
    assert!(dim[0] < high[0], "{dim:?} vs {high:?}");
    // A slow bake, cancelled: the light stays as it was.
    let before: Vec<_> = h
        .state()
        .doc
        .as_ref()
        .and_then(|d| d.light())
        .expect("light")
        .entries()
        .collect();
    // Many long walks over hills: far longer than a frame.
    panel(&mut h).settings.particles = 65536;
    panel(&mut h).settings.steps = 500;
    h.get_by_label("Bake").click();
    h.run_steps(2);
    assert!(panel(&mut h).busy(), "the bake runs in the background");
    h.get_by_label("Cancel").click();
    h.run_steps(1);
    h.state_mut().wait_for_panel_jobs(NAME);
    h.run_steps(2);
    let after: Vec<_> = h
        .state()
        .doc
        .as_ref()
        .and_then(|d| d.light())
        .expect("light")
        .entries()
        .collect();
    assert_eq!(before, after, "a cancelled bake keeps the previous light");
    h.get_by_label_contains("Bake cancelled");
}

#[test]
fn live_rebakes_what_an_edit_made_stale() {
    let mut h = editor("live");
    h.run_steps(2);
    bake(&mut h);
    h.get_by_label("Live").click();
    h.run_steps(1);
    // A tower in the middle: its light, and the ground's next to it, go stale.
    let b = VoxelBox::new(VoxelPos::new(28, 0, 28), VoxelPos::new(36, 38, 36));
    h.state_mut().apply_all(vec![Action::Edit(BoxEdit {
        name: "Tower".into(),
        boxes: vec![b],
        write: Box::new(move |g: &mut Grid| g.fill_box(b, Voxel::new(3, 255))),
    })]);
    let light = h
        .state()
        .doc
        .as_ref()
        .and_then(|d| d.light())
        .expect("light");
    assert!(!light.is_fresh(), "the edit made light stale");
    assert!(light.is_stale(VoxelPos::new(32, 37, 32)));
    // Live starts on the next frame, then installs its patch.
    for _ in 0..3 {
        h.run_steps(1);
        h.state_mut().wait_for_panel_jobs(NAME);
    }
    h.run_steps(2);
    let doc = h.state().doc.as_ref().expect("doc");
    let light = doc.light().expect("light");
    assert!(light.is_fresh(), "Live re-baked the stale light");
    assert!(
        light.light(VoxelPos::new(32, 37, 32)).is_some(),
        "the tower top is lit"
    );
}

#[test]
fn exposure_and_tone_curve_set_the_viewport_and_are_remembered() {
    use strata::viewport::exposure::ToneCurve;
    let dir = std::env::temp_dir().join(format!("strata-light-exposure-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let settings = GeneratorSettings {
        preset: Preset::Flat,
        size: [64, 40, 64],
        seed: 1,
    };
    let mut app = EditorApp::new(Start::Generate(settings.clone()), false, Some(dir.clone()));
    app.wait_for_job();
    let mut h = Harness::builder()
        .with_size([1280.0, 1800.0])
        .with_max_steps(1000)
        .build_ui_state(|ui, app: &mut EditorApp| app.run(ui), app);
    h.run_steps(2);
    assert_eq!(h.state().viewport.exposure.stops, 0.0);
    assert_eq!(h.state().viewport.exposure.curve, ToneCurve::Filmic);
    // The label and the slider it names share the name: the slider comes second.
    h.get_all_by_label("Exposure")
        .last()
        .expect("the Exposure slider")
        .set_value_accesskit(-2.0);
    h.run_steps(2);
    let e = h.state().viewport.exposure;
    assert!((e.stops + 2.0).abs() < 1e-3, "{e:?}");
    assert!((e.scale() - 0.25).abs() < 1e-3, "{e:?}");
    h.get_all_by_label("Tone curve")
        .last()
        .expect("the Tone curve combo box")
        .click();
    h.run_steps(2);
    h.get_by_label("Reinhard").click();
    h.run_steps(2);
    assert_eq!(h.state().viewport.exposure.curve, ToneCurve::Reinhard);
    // Out of range is clamped.
    h.get_all_by_label("Exposure")
        .last()
        .expect("the Exposure slider")
        .set_value_accesskit(50.0);
    h.run_steps(2);
    assert_eq!(
        h.state().viewport.exposure.stops,
        strata::viewport::exposure::MAX_STOPS
    );
    h.get_by_label("Reset exposure").click();
    h.run_steps(2);
    assert_eq!(h.state().viewport.exposure.stops, 0.0);
    h.get_all_by_label("Exposure")
        .last()
        .expect("the Exposure slider")
        .set_value_accesskit(-1.5);
    h.run_steps(2);
    h.state_mut().save_prefs();
    drop(h);
    // The next editor starts with the same exposure, in the viewport and in the panel.
    let mut app = EditorApp::new(Start::Generate(settings), false, Some(dir.clone()));
    let e = app.viewport.exposure;
    assert!((e.stops + 1.5).abs() < 1e-3, "{e:?}");
    assert_eq!(e.curve, ToneCurve::Reinhard);
    let panel = app.panels.get_mut::<LightingPanel>().expect("panel");
    assert_eq!(panel.exposure, e);
    let _ = std::fs::remove_dir_all(&dir);
}
