//! Large region writes run as background jobs: a fill of a selection over the synchronous
//! threshold shows a progress window with Cancel, a cancelled fill leaves the world and the history
//! as they were, and a completed one is one undo step whose undo and redo (also jobs) restore the
//! voxels bit for bit, every change reaching the viewport and the other consumers.

use std::sync::{Arc, Mutex};

use eframe::egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;

use strata::app::action::Action;
use strata::app::{EditorApp, Start};
use strata::document::region_job::SYNC_VOXELS;
use strata::document::{Document, EditConsumer};
use strata::region;
use strata_engine::gen::{GeneratorSettings, Preset};
use strata_engine::storage::Grid;
use strata_engine::voxel::{Voxel, VoxelBox, VoxelPos};

/// Material id of Grass (the Fill default) in the built-in table.
const GRASS: u8 = 2;

struct Recorder(Arc<Mutex<Vec<VoxelBox>>>);

impl EditConsumer for Recorder {
    fn name(&self) -> &str {
        "recorder"
    }
    fn on_edit(&mut self, _doc: &Document, changed: VoxelBox) {
        if let Ok(mut seen) = self.0.lock() {
            seen.push(changed);
        }
    }
}

fn grid(h: &Harness<'_, EditorApp>) -> Grid {
    h.state().doc.as_ref().expect("doc").grid().clone()
}

fn undo_len(h: &Harness<'_, EditorApp>) -> usize {
    h.state().doc.as_ref().expect("doc").history().undo_len()
}

#[test]
fn a_large_fill_shows_progress_cancels_cleanly_and_is_one_undo_step() {
    let dir = std::env::temp_dir().join(format!("strata-region-jobs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let settings = GeneratorSettings {
        preset: Preset::Flat,
        size: [160, 64, 160],
        seed: 1,
    };
    let mut app = EditorApp::new(Start::Generate(settings), false, Some(dir.clone()));
    app.wait_for_job();
    // Room in the right column for the Region panel's buttons.
    for name in ["History", "Lighting"] {
        app.panels.set_open(name, false);
    }
    let seen = Arc::new(Mutex::new(Vec::new()));
    app.add_consumer(Box::new(Recorder(seen.clone())));
    let mut h = Harness::builder()
        .with_size([1280.0, 800.0])
        .with_max_steps(1000)
        .build_ui_state(|ui, app: &mut EditorApp| app.run(ui), app);
    h.run_steps(2);
    h.get_by_label("Region Tool").click();
    h.run_steps(2);
    assert_eq!(h.state().active_tool, region::NAME);
    let b = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(160, 48, 160));
    assert!(
        b.volume() as u64 > SYNC_VOXELS,
        "large enough to run as a job"
    );
    h.state_mut().apply_all(vec![Action::Select(Some(b))]);
    h.run_steps(2);
    let (before, steps) = (grid(&h), undo_len(&h));

    // Results wait while held, so the progress window is certain to be up when Cancel is pressed.
    h.state_mut().jobs.hold(true);
    h.get_by_label("Fill Selection").click();
    h.run_steps(2);
    assert!(
        h.state().busy(),
        "the fill runs as a job: {} {}",
        h.state().message,
        undo_len(&h)
    );
    h.get_by_label_contains("Fill: 1,228,800 voxels");
    h.get_by_label("Cancel").click();
    h.run_steps(1);
    h.state_mut().jobs.hold(false);
    h.state_mut().wait_for_job();
    h.run_steps(2);
    assert!(!h.state().busy());
    assert_eq!(grid(&h), before, "a cancelled fill changes nothing");
    assert_eq!(undo_len(&h), steps, "and records no undo step");
    assert!(
        h.state().message.starts_with("Cancelled"),
        "{}",
        h.state().message
    );
    assert!(
        seen.lock().expect("lock").is_empty(),
        "nothing was published"
    );

    // Completed: every voxel of the box is Grass, in one undo step, published to the consumers.
    h.state_mut().jobs.hold(true);
    h.get_by_label("Fill Selection").click();
    h.run_steps(1);
    assert!(h.state().busy());
    h.state_mut().jobs.hold(false);
    h.state_mut().wait_for_job();
    h.run_steps(2);
    let filled = grid(&h);
    for p in [b.min, VoxelPos::new(159, 47, 159), VoxelPos::new(80, 30, 3)] {
        assert_eq!(filled.get(p), Voxel::new(GRASS, 255), "{p:?}");
    }
    assert!(
        filled.get(VoxelPos::new(80, 48, 80)).is_air(),
        "above the box"
    );
    assert_eq!(undo_len(&h), steps + 1, "one undo step");
    assert!(!h.state().doc.as_ref().expect("doc").history().is_empty());
    let published = std::mem::take(&mut *seen.lock().expect("lock"));
    assert!(!published.is_empty() && published.iter().all(|p| b.intersect(p) == *p));

    // Undo and redo of it are jobs too, and restore the voxels bit for bit.
    h.state_mut().jobs.hold(true);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(1);
    assert!(h.state().busy(), "a large undo runs as a job");
    h.state_mut().jobs.hold(false);
    h.state_mut().wait_for_job();
    h.run_steps(2);
    assert_eq!(grid(&h), before);
    assert_eq!(undo_len(&h), steps);
    h.state_mut().apply_all(vec![Action::Redo]);
    h.state_mut().wait_for_job();
    h.run_steps(2);
    assert_eq!(grid(&h), filled);
    assert!(
        !seen.lock().expect("lock").is_empty(),
        "undo and redo published"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
