//! The Physics panel driven like a user: a box dropped with the Drop tool comes to rest on the ground,
//! a light box dropped over water floats (and is pushed up by ground raised under it) and a heavy one
//! sinks, digging under a resting body wakes it and it falls (and undo lifts it back out), and Cleanup
//! deletes a floating piece as one undo step.

mod common;

use std::time::{Duration, Instant};

use eframe::egui::Pos2;
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;

use strata::app::action::{Action, BoxEdit};
use strata::app::EditorApp;
use strata::physics::physics_panel::{PhysicsPanel, NAME};
use strata::viewport::overlay::{Overlay, SolidKind};
use strata_engine::physics::body::BodyState;
use strata_engine::physics::Body;
use strata_engine::storage::Grid;
use strata_engine::tools::SeaLevelMode;
use strata_engine::voxel::{Voxel, VoxelBox, VoxelPos};

const SIZE: [f32; 2] = [1280.0, 800.0];

/// An editor on a flat 64×40×64 world with the Physics panel shown.
fn editor(name: &str) -> Harness<'static, EditorApp> {
    common::editor::flat_editor(&format!("physics-{name}"), NAME, SIZE)
}

fn panel<'a>(h: &'a mut Harness<'_, EditorApp>) -> &'a mut PhysicsPanel {
    h.state_mut()
        .panels
        .get_mut::<PhysicsPanel>()
        .expect("the Physics panel")
}

fn bodies(h: &mut Harness<'_, EditorApp>) -> Vec<(Body, BodyState)> {
    let sim = panel(h).playground().sim().expect("a simulation");
    (0..sim.bodies().len())
        .map(|i| (sim.bodies()[i], sim.state(i)))
        .collect()
}

/// The middle of the 3D view.
fn in_view(h: &Harness<'_, EditorApp>) -> Pos2 {
    let left = h.state().left_panel_width();
    Pos2::new((left + SIZE[0] - 260.0) / 2.0, SIZE[1] / 2.0 + 60.0)
}

/// Choose the Drop tool and click the middle of the view; returns the point clicked.
fn drop_in_view(h: &mut Harness<'_, EditorApp>) -> [f32; 3] {
    h.get_by_label("Drop Tool").click();
    h.run_steps(2);
    let at = in_view(h);
    h.hover_at(at);
    h.run_steps(1);
    let hit = h
        .state()
        .viewport
        .hover
        .expect("terrain in the middle of the view");
    h.drag_at(at);
    h.run_steps(1);
    h.drop_at(at);
    h.run_steps(1);
    hit.point
}

/// Run frames in real time until `done` holds (at most 60 s of wall time).
fn play_until(
    h: &mut Harness<'_, EditorApp>,
    mut done: impl FnMut(&mut Harness<'_, EditorApp>) -> bool,
) {
    let start = Instant::now();
    while !done(h) {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "timed out: {}",
            panel(h).summary()
        );
        assert!(panel(h).playground().playing, "the simulation stopped");
        std::thread::sleep(Duration::from_millis(8));
        h.run_steps(1);
    }
}

fn all_asleep(h: &mut Harness<'_, EditorApp>) -> bool {
    bodies(h).iter().all(|(_, s)| *s == BodyState::Asleep)
}

fn surface(h: &mut Harness<'_, EditorApp>, x: f32, z: f32) -> f32 {
    let doc = h.state_mut().doc.as_mut().expect("doc");
    doc.raycast([x, 100.0, z], [0.0, -1.0, 0.0], 200.0)
        .map_or(f32::NAN, |hit| hit.point[1])
}

/// Drop one 2-voxel box in the middle of the view and play until it rests; returns it.
fn rest_a_box(h: &mut Harness<'_, EditorApp>) -> Body {
    h.get_by_label("Box").click();
    h.run_steps(1);
    let at = drop_in_view(h);
    assert_eq!(bodies(h).len(), 1, "{:?}", panel(h).error());
    let start = bodies(h)[0].0;
    assert!(start.position[1] > at[1] + 1.0, "dropped above the point");
    play_until(h, all_asleep);
    // One more frame so the panel shows what the last tick did.
    h.run_steps(1);
    bodies(h)[0].0
}

#[test]
fn a_dropped_box_comes_to_rest_on_the_ground() {
    let mut h = editor("rest");
    let b = rest_a_box(&mut h);
    let ground = surface(&mut h, b.position[0], b.position[2]);
    // Half its 2-voxel edge above the ground (it lands on a face), within 5 % of its size.
    let gap = b.position[1] - 1.0 - ground;
    assert!(gap.abs() < 0.1, "rests {gap} voxels off the ground");
    assert!(
        b.velocity.iter().all(|v| v.abs() < 0.05),
        "{:?}",
        b.velocity
    );
    assert_eq!(
        h.query_all_by_label_contains("1 bodies · 1 asleep · 0 in water")
            .count(),
        2,
        "the panel and the status bar show the counts"
    );
    // Drawn as a box, in the colour of resting bodies.
    let drawn: Vec<Overlay> = h
        .state()
        .overlays()
        .into_iter()
        .filter(|o| matches!(o, Overlay::Solid { .. }))
        .collect();
    assert!(
        matches!(drawn.as_slice(), [Overlay::Solid { kind: SolidKind::Box, center, color, .. }]
            if *center == b.position && color[0] < 200),
        "{drawn:?}"
    );
    // With a brush tool active the status bar still shows the counts (the play goes on).
    h.state_mut()
        .apply_all(vec![Action::ActivateTool(strata::brush::brush_panel::NAME)]);
    h.run_steps(1);
    assert_eq!(
        h.query_all_by_label_contains("1 bodies · 1 asleep · 0 in water")
            .count(),
        2
    );
    // Not part of the document: no undo step, voxels unchanged since the world was made.
    assert_eq!(h.state().doc.as_ref().expect("doc").history().undo_len(), 0);
    // Reset puts it back where it was dropped; Clear removes it.
    h.get_by_label("Reset").click();
    h.run_steps(1);
    assert!(bodies(&mut h)[0].0.position[1] > b.position[1] + 1.0);
    h.get_by_label("Clear").click();
    h.run_steps(1);
    assert!(bodies(&mut h).is_empty());
}

#[test]
fn a_light_box_floats_on_water() {
    let mut h = editor("float");
    // Water 6 voxels deep over the whole flat world.
    let ground = surface(&mut h, 32.0, 32.0);
    let bounds = h.state().doc.as_ref().expect("doc").bounds();
    h.state_mut().apply_all(vec![Action::SeaLevel {
        region: bounds,
        level: ground + 6.0,
        mode: SeaLevelMode::Fill,
    }]);
    h.run_steps(1);
    h.get_by_label("Density");
    panel(&mut h).density = 0.5;
    h.get_by_label("Box").click();
    h.run_steps(1);
    let at = drop_in_view(&mut h);
    assert!(
        (at[1] - (ground + 6.0)).abs() < 1.0,
        "the view's middle is water: {at:?}"
    );
    assert_eq!(bodies(&mut h).len(), 1, "{:?}", panel(&mut h).error());
    // Play a few seconds of simulated time, or until it rests.
    play_until(&mut h, |h| {
        let sim = panel(h).playground().sim().expect("sim");
        sim.time() > 4.0 || sim.status().asleep == 1
    });
    let (b, state) = bodies(&mut h)[0];
    let water = ground + 6.0;
    // Half its volume under water: the centre sits near the surface, far above the bottom.
    assert!(
        (b.position[1] - water).abs() < 0.6,
        "a box of density 0.5 floats at the surface ({water}): centre at {}",
        b.position[1]
    );
    assert!(b.position[1] > ground + 3.0);
    assert!(
        matches!(state, BodyState::InWater | BodyState::Asleep),
        "{state:?}"
    );
    // Raise the ground under it above the water: it is pushed up onto the new ground.
    let [x, z] = [b.position[0] as i32, b.position[2] as i32];
    let top = water as i32 + 3;
    let hill = VoxelBox::new(
        VoxelPos::new(x - 4, 0, z - 4),
        VoxelPos::new(x + 5, top, z + 5),
    );
    h.state_mut().apply_all(vec![Action::Edit(BoxEdit {
        name: "Raise".into(),
        boxes: vec![hill],
        write: Box::new(move |g: &mut Grid| g.fill_box(hill, Voxel::new(3, 255))),
    })]);
    h.run_steps(1);
    let start = panel(&mut h).playground().sim().expect("sim").time();
    play_until(&mut h, |h| {
        let sim = panel(h).playground().sim().expect("sim");
        sim.time() > start + 2.0 || sim.status().asleep == 1
    });
    let lifted = bodies(&mut h)[0].0;
    assert!(
        lifted.position[1] > top as f32 + 0.5,
        "pushed up onto the raised ground at {top}: centre at {}",
        lifted.position[1]
    );
    // A heavy one sinks to the bottom.
    h.state_mut().apply_all(vec![Action::Undo]);
    h.get_by_label("Clear").click();
    h.run_steps(1);
    panel(&mut h).density = 2.5;
    drop_in_view(&mut h);
    assert_eq!(bodies(&mut h).len(), 1, "{:?}", panel(&mut h).error());
    play_until(&mut h, |h| {
        let sim = panel(h).playground().sim().expect("sim");
        sim.time() > 6.0 || sim.status().asleep == 1
    });
    let b = bodies(&mut h)[0].0;
    assert!(
        b.position[1] < ground + 1.6,
        "a box of density 2.5 sinks to the bottom ({ground}): centre at {}",
        b.position[1]
    );
}

#[test]
fn digging_under_a_resting_box_wakes_it_and_undo_lifts_it() {
    let mut h = editor("dig");
    let b = rest_a_box(&mut h);
    let [x, y, z] = b.position.map(|c| c.floor() as i32);
    // Dig a pit 6 deep under it through the document's edit path (as a brush would).
    let pit = VoxelBox::new(
        VoxelPos::new(x - 4, y - 8, z - 4),
        VoxelPos::new(x + 5, y, z + 5),
    );
    h.state_mut().apply_all(vec![Action::Edit(BoxEdit {
        name: "Dig".into(),
        boxes: vec![pit],
        write: Box::new(move |g: &mut Grid| g.fill_box(pit, Voxel::AIR)),
    })]);
    h.run_steps(1);
    assert_ne!(bodies(&mut h)[0].1, BodyState::Asleep, "the edit woke it");
    play_until(&mut h, |h| {
        let (b, s) = bodies(h)[0];
        s == BodyState::Asleep && b.position[1] < y as f32 - 4.0
    });
    let fallen = bodies(&mut h)[0].0;
    assert!(
        fallen.position[1] < b.position[1] - 5.0,
        "{:?}",
        fallen.position
    );
    // Undo refills the pit around it: the box is lifted back onto the ground.
    h.state_mut().apply_all(vec![Action::Undo]);
    h.run_steps(1);
    let lifted = bodies(&mut h)[0].0;
    assert!(
        lifted.position[1] > b.position[1] - 0.5,
        "undo lifts the buried box out: {:?} vs {:?}",
        lifted.position,
        b.position
    );
}

#[test]
fn cleanup_deletes_a_floating_piece_as_one_undo_step() {
    let mut h = editor("cleanup");
    let ground = surface(&mut h, 10.0, 10.0) as i32;
    // A 3×3×3 block hanging 5 voxels above the ground.
    let block = VoxelBox::new(
        VoxelPos::new(8, ground + 5, 8),
        VoxelPos::new(11, ground + 8, 11),
    );
    h.state_mut().apply_all(vec![Action::Edit(BoxEdit {
        name: "Block".into(),
        boxes: vec![block],
        write: Box::new(move |g: &mut Grid| g.fill_box(block, Voxel::new(3, 255))),
    })]);
    h.run_steps(1);
    let before = h.state().doc.as_ref().expect("doc").history().undo_len();
    h.get_by_label("Find Floating Terrain").click();
    h.run_steps(1);
    h.state_mut().wait_for_panel_jobs(NAME);
    h.run_steps(2);
    h.get_by_label_contains("1 floating pieces, 27 voxels");
    h.get_by_label_contains("Piece 1: 27 voxels at 8,");
    // Outlined in the view, red while marked for deletion.
    let outlined = h.state().overlays().into_iter().any(|o| {
        matches!(o, Overlay::WireBox { min, max, color }
            if min == [8.0, (ground + 5) as f32, 8.0]
                && max == [11.0, (ground + 8) as f32, 11.0]
                && color[0] > color[1])
    });
    assert!(outlined, "the piece is outlined");
    h.get_by_label("Delete Marked (1)").click();
    h.run_steps(2);
    let doc = h.state().doc.as_ref().expect("doc");
    assert_eq!(doc.grid().get(VoxelPos::new(9, ground + 6, 9)), Voxel::AIR);
    assert_eq!(doc.history().undo_len(), before + 1, "one undo step");
    h.state_mut().apply_all(vec![Action::Undo]);
    let doc = h.state().doc.as_ref().expect("doc");
    assert_eq!(
        doc.grid().get(VoxelPos::new(9, ground + 6, 9)),
        Voxel::new(3, 255)
    );
    assert_eq!(doc.history().undo_len(), before);
}

#[test]
fn bad_numbers_give_a_clear_message_and_drop_nothing() {
    let mut h = editor("bad");
    for (size, density, count, expect) in [
        (0.0, 1.0, 1, "size 0 must be between"),
        (2.0, -1.0, 1, "density"),
        (2.0, 1.0, 10_000, "10000 bodies: one drop makes 1 to 500"),
        (f32::NAN, 1.0, 1, "must be between 0.1 and 32 voxels"),
    ] {
        let p = panel(&mut h);
        (p.size, p.density, p.count) = (size, density, count);
        drop_in_view(&mut h);
        h.run_steps(1);
        let error = panel(&mut h).error().unwrap_or_default().to_owned();
        assert!(error.contains(expect), "{error:?} should say {expect:?}");
        // In red in the panel and in the status bar.
        assert_eq!(h.query_all_by_label_contains(&error).count(), 2, "{error}");
        let count = panel(&mut h).playground().status().bodies;
        assert_eq!(count, 0, "nothing dropped for {size}, {density}, {count}");
    }
    // Rain over the view with a huge count: refused the same way.
    panel(&mut h).rain_count = 100_000;
    h.run_steps(1);
    h.get_by_label("Rain 100000").click();
    h.run_steps(1);
    assert!(panel(&mut h)
        .error()
        .is_some_and(|e| e.contains("1 to 500")));
}
