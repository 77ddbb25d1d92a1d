//! Physics runs against the clock, not per frame: with frames half a second apart (a slow
//! software-GL frame rate), a dropped body's simulation keeps real time, and the Physics status
//! reports the true ratio of simulated to wall-clock seconds.

mod common;

use std::time::{Duration, Instant};

use eframe::egui::Pos2;
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;

use strata::app::EditorApp;
use strata::physics::physics_panel::{PhysicsPanel, NAME};

const SIZE: [f32; 2] = [1280.0, 800.0];

/// An editor on a flat 64×40×64 world with the Physics panel shown.
fn editor(name: &str) -> Harness<'static, EditorApp> {
    common::editor::flat_editor(&format!("clock-{name}"), NAME, SIZE)
}

fn panel<'a>(h: &'a Harness<'_, EditorApp>) -> &'a PhysicsPanel {
    h.state()
        .panels
        .get::<PhysicsPanel>()
        .expect("the Physics panel")
}

/// Simulated seconds so far.
fn simulated(h: &Harness<'_, EditorApp>) -> f64 {
    let sim = panel(h).playground().sim().expect("a simulation");
    sim.steps() as f64 * f64::from(sim.settings().dt)
}

#[test]
fn physics_keeps_real_time_at_two_frames_per_second() {
    let mut h = editor("slow");
    h.get_by_label("Drop Tool").click();
    h.run_steps(2);
    let left = h.state().left_panel_width();
    let at = Pos2::new((left + SIZE[0] - 260.0) / 2.0, SIZE[1] / 2.0 + 60.0);
    h.hover_at(at);
    h.run_steps(1);
    h.drag_at(at);
    h.run_steps(1);
    h.drop_at(at);
    h.run_steps(1);
    assert!(panel(&h).playground().playing, "the drop plays");
    let (start_sim, start) = (simulated(&h), Instant::now());
    for _ in 0..8 {
        std::thread::sleep(Duration::from_millis(500));
        h.run_steps(1);
    }
    let wall = start.elapsed().as_secs_f64();
    let ratio = (simulated(&h) - start_sim) / wall;
    eprintln!("simulated / wall over {wall:.2} s at 2 frames/s: {ratio:.3}");
    assert!(
        (0.9..=1.05).contains(&ratio),
        "simulated {ratio:.3} s per wall second"
    );
    let speed = panel(&h).playground().speed();
    assert!((0.9..=1.05).contains(&speed), "reported {speed:.3}");
    let status = panel(&h).summary();
    assert!(
        status.contains(&format!("{speed:.2}× real time")),
        "{status}"
    );
}
