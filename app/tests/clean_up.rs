//! Clean Up Invisible Matter in the Physics panel's Cleanup section: matter no surface shows (thin
//! leftovers of older versions' digging, lone thin voxels) turns to Air as one undo step, and Undo
//! brings it back.

mod common;

use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;

use strata::app::action::{Action, BoxEdit};
use strata::app::EditorApp;
use strata::physics::physics_panel::NAME;
use strata::physics::stray_cleanup::BUTTON;
use strata_engine::storage::Grid;
use strata_engine::voxel::{Voxel, VoxelBox, VoxelPos};

const SIZE: [f32; 2] = [1280.0, 900.0];

/// An editor on a flat 64×40×64 world with the Physics panel shown.
fn editor(name: &str) -> Harness<'static, EditorApp> {
    common::editor::flat_editor(&format!("cleanup-{name}"), NAME, SIZE)
}

/// Thin Rock in the air: what digging left before carving ended in Air.
const STRAY: [[i32; 3]; 3] = [[10, 20, 10], [30, 25, 12], [50, 30, 40]];

fn stray_at(h: &Harness<'_, EditorApp>) -> Vec<Voxel> {
    let grid = h.state().doc.as_ref().expect("doc").grid();
    STRAY
        .iter()
        .map(|&[x, y, z]| grid.get(VoxelPos::new(x, y, z)))
        .collect()
}

fn undo_len(h: &Harness<'_, EditorApp>) -> usize {
    h.state().doc.as_ref().expect("doc").history().undo_len()
}

fn clean_up(h: &mut Harness<'_, EditorApp>) {
    h.get_by_label(BUTTON).click();
    h.run_steps(1);
    h.state_mut().wait_for_panel_jobs(NAME);
    h.run_steps(2);
}

#[test]
fn clean_up_clears_invisible_matter_as_one_undo_step() {
    let mut h = editor("stray");
    let boxes: Vec<VoxelBox> = STRAY
        .iter()
        .map(|&[x, y, z]| VoxelBox::from_min_size(VoxelPos::new(x, y, z), [1, 1, 1]))
        .collect();
    let written = boxes.clone();
    h.state_mut().apply_all(vec![Action::Edit(BoxEdit {
        name: "Old digging".into(),
        boxes,
        write: Box::new(move |g: &mut Grid| {
            for b in &written {
                g.fill_box(*b, Voxel::new(1, 3));
            }
        }),
    })]);
    h.run_steps(1);
    let thin = stray_at(&h);
    assert!(thin.iter().all(|v| !v.is_air()), "{thin:?}");
    clean_up(&mut h);
    assert!(stray_at(&h).iter().all(|v| v.is_air()), "cleared");
    assert_eq!(undo_len(&h), 2, "one undo step");
    h.get_by_label("Cleared 3 voxels of invisible matter (one undo step)");
    h.get_by_label("Edit").click();
    h.run_steps(2);
    h.get_by_label_contains("Undo Clear invisible matter")
        .click();
    h.run_steps(2);
    assert_eq!(stray_at(&h), thin, "one undo brings it back");
    // Redo, then a second clean-up finds nothing and records nothing.
    h.state_mut().apply(Action::Redo);
    h.run_steps(1);
    clean_up(&mut h);
    assert_eq!(undo_len(&h), 2);
    assert!(h.get_all_by_label("No invisible matter").next().is_some());
}
