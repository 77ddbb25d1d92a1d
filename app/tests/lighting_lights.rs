//! The Lighting panel's lights and bake options driven like a user: add, bake and remove a point
//! light (each one undo step), add a spot, pick the Final preset.

mod common;

use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;

use common::editor::flat_app;
use strata::app::EditorApp;
use strata::lighting::lighting_panel::{LightingPanel, NAME};
use strata_engine::voxel::VoxelPos;

fn editor(name: &str) -> Harness<'static, EditorApp> {
    let mut app = flat_app(&format!("lamps-{name}"));
    if let Some(panel) = app.panels.get_mut::<LightingPanel>() {
        panel.settings.particles = 6;
        panel.settings.steps = 24;
        // Light from the placed lights alone, so the test sees them.
        panel.settings.sun_color = [0.0; 3];
        panel.settings.sky_color = [0.0; 3];
    }
    Harness::builder()
        .with_size([1280.0, 1000.0])
        .with_max_steps(1000)
        .build_ui_state(|ui, app: &mut EditorApp| app.run(ui), app)
}

fn bake(h: &mut Harness<'_, EditorApp>) {
    h.get_by_label("Bake").click();
    h.run_steps(1);
    h.state_mut().wait_for_panel_jobs(NAME);
    h.run_steps(2);
}

/// Summed light of the top ground voxel of column (`x`, `z`).
fn ground(h: &Harness<'_, EditorApp>, x: i32, z: i32) -> f32 {
    let doc = h.state().doc.as_ref().expect("doc");
    let top = (0..40)
        .rev()
        .find(|&y| doc.grid().get(VoxelPos::new(x, y, z)).occupancy_f32() >= 0.5)
        .expect("ground");
    let l = doc
        .light()
        .and_then(|l| l.light(VoxelPos::new(x, top, z)))
        .unwrap_or([0.0; 3]);
    l[0] + l[1] + l[2]
}

#[test]
fn lights_are_added_baked_undone_and_removed_from_the_panel() {
    let mut h = editor("list");
    h.run_steps(2);
    h.get_by_label("No point or spot lights");
    bake(&mut h);
    assert_eq!(ground(&h, 32, 32), 0.0, "no sun, no sky, no lights: dark");
    let steps =
        |h: &Harness<'_, EditorApp>| h.state().doc.as_ref().expect("doc").history().undo_len();
    let before = steps(&h);
    h.get_by_label("Add point light").click();
    h.run_steps(2);
    let doc = h.state().doc.as_ref().expect("doc");
    assert_eq!(doc.lights().len(), 1);
    assert_eq!(steps(&h), before + 1, "one undo step");
    h.get_by_label("Light 0: point");
    assert!(h.get_all_by_label("Light 0 range").next().is_some());
    // The light sits 30 voxels up, above its range of 16 from a flat floor: lower it (as a
    // drag of its Y field ends in one step) and bake.
    let mut lamp = doc.lights()[0];
    lamp.position[1] = 20.0;
    lamp.range = 24.0;
    h.state_mut()
        .doc
        .as_mut()
        .expect("doc")
        .change_lights("Edit light 0", vec![lamp])
        .expect("edit");
    h.run_steps(2);
    bake(&mut h);
    let (under, aside) = (ground(&h, 32, 32), ground(&h, 50, 32));
    assert!(
        under > 0.05 && under > aside,
        "lit under the light: {under}, aside {aside}"
    );
    h.get_by_label("Remove light 0").click();
    h.run_steps(2);
    assert!(h.state().doc.as_ref().expect("doc").lights().is_empty());
    let light = h.state().doc.as_ref().expect("doc").light().expect("light");
    assert!(!light.is_fresh(), "removing the light made its range stale");
    h.state_mut()
        .doc
        .as_mut()
        .expect("doc")
        .undo()
        .expect("undo");
    h.run_steps(2);
    assert_eq!(h.state().doc.as_ref().expect("doc").lights().len(), 1);
    h.get_by_label("Add spot light").click();
    h.run_steps(2);
    let doc = h.state().doc.as_ref().expect("doc");
    assert!(doc.lights()[1].spot.is_some());
    assert!(h.get_all_by_label("Light 1 angle").next().is_some());
}

#[test]
fn the_final_preset_turns_on_a_bounce_and_the_filter() {
    let mut h = editor("quality");
    h.run_steps(2);
    // The label and the combo box it names share the name: the combo box comes second.
    h.get_all_by_label("Quality")
        .last()
        .expect("the Quality combo box")
        .click();
    h.run_steps(2);
    h.get_by_label("Final").click();
    h.run_steps(2);
    let s = h
        .state_mut()
        .panels
        .get_mut::<LightingPanel>()
        .expect("panel")
        .settings;
    assert!(s.denoise && s.bounce == 1 && s.particles == 96, "{s:?}");
    h.get_by_label("Denoise").click();
    h.run_steps(2);
    let s = h
        .state_mut()
        .panels
        .get_mut::<LightingPanel>()
        .expect("panel")
        .settings;
    assert!(!s.denoise, "the checkbox turns the filter off");
}

#[test]
fn a_light_is_drawn_picked_and_dragged_in_the_viewport_as_one_undo_step() {
    use strata::app::action::Action;
    use strata_engine::light::PlacedLight;
    let mut h = editor("drag");
    h.run_steps(2);
    let at = [32.0, 30.0, 32.0];
    h.state_mut().apply_all(vec![Action::ChangeLights {
        name: "Add point light".into(),
        lights: vec![PlacedLight {
            position: at,
            ..PlacedLight::default()
        }],
    }]);
    h.run_steps(2);
    h.get_by_label("Lights Tool").click();
    h.run_steps(2);
    assert_eq!(h.state().active_tool, NAME);
    let undo_before = h.state().doc.as_ref().expect("doc").history().undo_len();
    // Where the light's icon is on screen.
    let rect = h.state().viewport.rect();
    let [x, y] = h
        .state()
        .viewport
        .camera
        .project(
            three_d::vec3(at[0], at[1], at[2]),
            rect.width(),
            rect.height(),
        )
        .expect("the light is in view");
    let icon = rect.min + eframe::egui::vec2(x, y);
    h.drag_at(icon);
    h.run_steps(1);
    for i in 1..=6 {
        h.hover_at(icon + eframe::egui::vec2(10.0 * i as f32, 0.0));
        h.run_steps(1);
    }
    h.drop_at(icon + eframe::egui::vec2(60.0, 0.0));
    h.run_steps(3);
    assert_eq!(panel(&mut h).lights.selected, Some(0));
    let doc = h.state().doc.as_ref().expect("doc");
    let moved = doc.lights()[0].position;
    assert!(
        (moved[0] - at[0]).abs() + (moved[2] - at[2]).abs() > 1.0,
        "the drag moved the light: {moved:?}"
    );
    assert!(
        (moved[1] - at[1]).abs() < 1e-3,
        "at the same height: {moved:?}"
    );
    assert_eq!(doc.history().undo_len(), undo_before + 1, "one undo step");
    h.state_mut()
        .doc
        .as_mut()
        .expect("doc")
        .undo()
        .expect("undo");
    h.run_steps(2);
    assert_eq!(
        h.state().doc.as_ref().expect("doc").lights()[0].position,
        at
    );
    // A click away from any icon selects nothing and adds no undo step.
    let beside = icon + eframe::egui::vec2(200.0, 120.0);
    h.drag_at(beside);
    h.run_steps(1);
    h.drop_at(beside);
    h.run_steps(2);
    assert_eq!(panel(&mut h).lights.selected, None);
    assert_eq!(
        h.state().doc.as_ref().expect("doc").history().undo_len(),
        undo_before
    );
}

/// Where world point `p` is on screen in the viewport.
fn on_screen(h: &Harness<'_, EditorApp>, p: [f32; 3]) -> eframe::egui::Pos2 {
    let rect = h.state().viewport.rect();
    let [x, y] = h
        .state()
        .viewport
        .camera
        .project(three_d::vec3(p[0], p[1], p[2]), rect.width(), rect.height())
        .expect("in view");
    rect.min + eframe::egui::vec2(x, y)
}

/// Press at `from`, move in six steps to `to`, release there.
fn drag(h: &mut Harness<'_, EditorApp>, from: eframe::egui::Pos2, to: eframe::egui::Pos2) {
    h.drag_at(from);
    h.run_steps(1);
    for i in 1..=6 {
        h.hover_at(from + (to - from) * (i as f32 / 6.0));
        h.run_steps(1);
    }
    h.drop_at(to);
    h.run_steps(3);
}

#[test]
fn ctrl_click_places_a_light_on_the_terrain_and_the_gizmo_moves_it_along_an_axis() {
    use eframe::egui::{Event, Modifiers};
    let mut h = editor("gizmo");
    h.run_steps(2);
    h.get_by_label("Lights Tool").click();
    h.run_steps(2);
    let undo_before = h.state().doc.as_ref().expect("doc").history().undo_len();
    // Ctrl+click on the flat ground in the middle of the world.
    let ground_y = (0..40)
        .rev()
        .find(|&y| {
            let doc = h.state().doc.as_ref().expect("doc");
            doc.grid().get(VoxelPos::new(32, y, 32)).occupancy_f32() >= 0.5
        })
        .expect("ground") as f32;
    let spot = on_screen(&h, [32.0, ground_y + 1.0, 32.0]);
    h.event(Event::ModifiersChanged(Modifiers::COMMAND));
    h.run_steps(1);
    h.drag_at(spot);
    h.run_steps(1);
    h.drop_at(spot);
    h.event(Event::ModifiersChanged(Modifiers::NONE));
    h.run_steps(3);
    let doc = h.state().doc.as_ref().expect("doc");
    assert_eq!(doc.lights().len(), 1, "a light was placed");
    let placed = doc.lights()[0].position;
    assert!(
        (placed[0] - 32.0).abs() < 2.0 && (placed[2] - 32.0).abs() < 2.0,
        "under the pointer: {placed:?}"
    );
    // Two voxels above the surface, which lies within the top ground voxel.
    assert!(
        placed[1] > ground_y + 1.5 && placed[1] < ground_y + 3.5,
        "above the ground at {ground_y}: {placed:?}"
    );
    assert_eq!(doc.history().undo_len(), undo_before + 1, "one undo step");
    assert_eq!(panel(&mut h).lights.selected, Some(0));
    // Drag the selected light's Y arrow (near its tip) upward on screen: it rises, X and Z stay.
    let eye = h.state().viewport.camera.position.into();
    let length = strata::lighting::light_gizmo::Gizmo::seen_from(placed, eye).length;
    let tip = on_screen(&h, [placed[0], placed[1] + 0.8 * length, placed[2]]);
    drag(&mut h, tip, tip - eframe::egui::vec2(0.0, 60.0));
    let doc = h.state().doc.as_ref().expect("doc");
    let raised = doc.lights()[0].position;
    assert!(raised[1] > placed[1] + 1.0, "{placed:?} -> {raised:?}");
    assert_eq!([raised[0], raised[2]], [placed[0], placed[2]]);
    assert_eq!(doc.history().undo_len(), undo_before + 2, "one undo step");
    // Undo twice: no light.
    for _ in 0..2 {
        h.state_mut()
            .doc
            .as_mut()
            .expect("doc")
            .undo()
            .expect("undo");
    }
    h.run_steps(2);
    assert!(h.state().doc.as_ref().expect("doc").lights().is_empty());
}

fn panel<'a>(h: &'a mut Harness<'_, EditorApp>) -> &'a mut LightingPanel {
    h.state_mut()
        .panels
        .get_mut::<LightingPanel>()
        .expect("the Lighting panel")
}
