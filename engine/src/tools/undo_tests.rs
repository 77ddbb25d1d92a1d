//! Strokes and undo: one step per stroke, bit-exact undo/redo, seeded random dabs.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

use super::tools_tests::World;
use super::*;
use crate::history::History;
use crate::voxel::{VoxelBox, VoxelPos};

#[test]
fn a_stroke_is_one_named_step_and_undoes_exactly() {
    let mut w = World::flat();
    let original = w.grid.clone();
    let mut history = History::default();
    let tool = Tool::new(ToolKind::Add, w.grass);
    let brush = Brush::new(BrushShape::Sphere, 6.0, 0.5);
    let mut stroke = Stroke::begin(&mut history, tool.kind.name());
    let mut union = VoxelBox::default();
    for i in 0..12 {
        let c = [i as f32 * 1.5 - 8.0, 16.5, 0.25 * i as f32];
        if let Some(b) = stroke.dab(&mut history, &mut w.grid, &w.table, &tool, &brush, c) {
            union = union.union(&b);
        }
        w.grid.assert_valid();
    }
    assert_eq!(stroke.changed(), union);
    assert!(stroke.changing_dabs() > 1);
    assert_eq!(stroke.end(&mut history), union);
    let painted = w.grid.clone();

    let paint = Tool::new(ToolKind::Paint, w.sand);
    let mut stroke = Stroke::begin(&mut history, paint.kind.name());
    stroke.dab(
        &mut history,
        &mut w.grid,
        &w.table,
        &paint,
        &brush,
        [0.0, 16.0, 0.0],
    );
    stroke.end(&mut history);
    let after = w.grid.clone();

    assert_eq!(history.undo_names().collect::<Vec<_>>(), ["Paint", "Add"]);
    assert_eq!(
        history.undo(&mut w.grid).expect("undo").as_deref(),
        Some("Paint")
    );
    assert_eq!(w.grid, painted);
    assert_eq!(
        history.undo(&mut w.grid).expect("undo").as_deref(),
        Some("Add")
    );
    assert_eq!(w.grid, original);
    history.redo(&mut w.grid).expect("redo");
    history.redo(&mut w.grid).expect("redo");
    assert_eq!(w.grid, after);
    w.grid.assert_valid();
}

#[test]
fn a_stroke_that_changes_nothing_leaves_no_step_and_keeps_redo() {
    let mut w = World::flat();
    let mut history = History::default();
    let tool = Tool::new(ToolKind::Subtract, 0);
    let brush = Brush::default();
    let mut s = Stroke::begin(&mut history, "Subtract");
    s.dab(
        &mut history,
        &mut w.grid,
        &w.table,
        &tool,
        &brush,
        [0.0, 16.0, 0.0],
    )
    .expect("carves");
    s.end(&mut history);
    history.undo(&mut w.grid).expect("undo");
    let mut s = Stroke::begin(&mut history, "Subtract");
    assert_eq!(
        s.dab(
            &mut history,
            &mut w.grid,
            &w.table,
            &tool,
            &brush,
            [0.0, 40.0, 0.0]
        ),
        None
    );
    assert_eq!(s.end(&mut history), VoxelBox::default());
    assert_eq!((history.undo_len(), history.redo_len()), (0, 1));
}

/// One random dab: tool, shape, size, strength, centre, material.
type RandomDab = (usize, usize, f32, f32, [f32; 3], u8);

fn arb_dab() -> impl Strategy<Value = RandomDab> {
    (
        0..ToolKind::ALL.len(),
        0..3usize,
        1.0f32..20.0,
        0.1f32..1.0,
        [-20.0f32..20.0, 4.0f32..28.0, -20.0f32..20.0],
        1u8..12,
    )
}

fn run_strokes(strokes: &[Vec<RandomDab>]) -> Result<(), TestCaseError> {
    let mut w = World::flat();
    let original = w.grid.clone();
    let mut history = History::default();
    let mut states = vec![original.clone()];
    for dabs in strokes {
        let kind = ToolKind::ALL[dabs.first().map_or(0, |d| d.0)];
        let mut stroke = Stroke::begin(&mut history, kind.name());
        for &(_, shape, size, strength, c, material) in dabs {
            let shape = [BrushShape::Sphere, BrushShape::Cube, BrushShape::Cylinder][shape];
            let mut tool = Tool::new(kind, material);
            tool.source_material = material.wrapping_add(1) % 12;
            let before = w.grid.clone();
            let b = stroke.dab(
                &mut history,
                &mut w.grid,
                &w.table,
                &tool,
                &Brush::new(shape, size, strength),
                c,
            );
            w.grid.assert_valid();
            prop_assert_eq!(b, super::tools_tests::diff_box(&before, &w.grid));
        }
        if stroke.end(&mut history).is_empty() {
            continue;
        }
        states.push(w.grid.clone());
    }
    prop_assert_eq!(history.undo_len(), states.len() - 1);
    for expected in states.iter().rev().skip(1) {
        history.undo(&mut w.grid).expect("undo");
        prop_assert!(w.grid == *expected);
    }
    prop_assert!(w.grid == original);
    for expected in states.iter().skip(1) {
        history.redo(&mut w.grid).expect("redo");
        prop_assert!(w.grid == *expected);
    }
    Ok(())
}

#[test]
fn random_strokes_undo_to_the_original_grid() {
    let config = Config {
        cases: 24,
        failure_persistence: None,
        ..Config::default()
    };
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]);
    let mut runner = TestRunner::new_with_rng(config, rng);
    let strokes = proptest::collection::vec(proptest::collection::vec(arb_dab(), 1..5), 1..5);
    if let Err(e) = runner.run(&strokes, |s| run_strokes(&s)) {
        panic!("{e}");
    }
}

#[test]
fn overlapping_dabs_in_one_stroke_undo_exactly() {
    let mut w = World::flat();
    let original = w.grid.clone();
    let mut history = History::default();
    let mut s = Stroke::begin(&mut history, "Smooth");
    for (kind, c) in [
        (ToolKind::Add, [0.0, 16.0, 0.0]),
        (ToolKind::Smooth, [1.0, 17.0, 0.0]),
        (ToolKind::Erode, [0.5, 16.5, 0.5]),
        (ToolKind::Flatten, [0.0, 18.0, 0.0]),
    ] {
        let tool = Tool::new(kind, w.rock);
        s.dab(
            &mut history,
            &mut w.grid,
            &w.table,
            &tool,
            &Brush::new(BrushShape::Sphere, 9.0, 0.7),
            c,
        );
    }
    s.end(&mut history);
    assert_eq!(history.undo_len(), 1);
    history.undo(&mut w.grid).expect("undo");
    assert_eq!(w.grid, original);
    assert_eq!(
        w.grid.get(VoxelPos::new(0, 16, 0)),
        original.get(VoxelPos::new(0, 16, 0))
    );
}
