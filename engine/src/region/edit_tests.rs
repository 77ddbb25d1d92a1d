//! Edit tests: every paste, fill, delete and move against a plain reference computed voxel by voxel,
//! the changed box against the tight box of what really changed, undo and redo bit for bit, and
//! rollback on cancel.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::region_tests::{random_box, random_world};
use super::*;
use crate::history::History;
use crate::progress::Progress;
use crate::storage::Grid;
use crate::voxel::{Voxel, VoxelBox, VoxelPos};
use crate::Error;

/// The merge/air rules written out again, independently of `PasteMode::combine`.
fn reference_combine(mode: PasteMode, world: Voxel, stamp: Voxel) -> Voxel {
    let occ = |v: Voxel| {
        if v.material == 0 {
            0
        } else {
            u32::from(v.occupancy) + 1
        }
    };
    match mode {
        PasteMode::Replace => stamp,
        PasteMode::Merge if occ(stamp) > occ(world) => stamp,
        PasteMode::Merge => world,
        PasteMode::AirOnly if world.material == 0 => stamp,
        PasteMode::AirOnly => world,
    }
}

fn grow(b: VoxelBox, d: i32) -> VoxelBox {
    VoxelBox::new(
        VoxelPos::new(b.min.x - d, b.min.y - d, b.min.z - d),
        VoxelPos::new(b.max.x + d, b.max.y + d, b.max.z + d),
    )
}

fn positions(b: VoxelBox) -> impl Iterator<Item = VoxelPos> {
    (b.min.z..b.max.z).flat_map(move |z| {
        (b.min.y..b.max.y)
            .flat_map(move |y| (b.min.x..b.max.x).map(move |x| VoxelPos::new(x, y, z)))
    })
}

/// The tight box of voxels of `area` that differ between two grids.
fn changed_between(a: &Grid, b: &Grid, area: VoxelBox) -> VoxelBox {
    positions(area)
        .filter(|&p| a.get(p) != b.get(p))
        .fold(VoxelBox::default(), |acc, p| {
            acc.union(&VoxelBox::from_min_size(p, [1, 1, 1]))
        })
}

/// Check `after` against `expect(p, before voxel)` over `area`, the changed box (exactly the tight
/// box of what changed), validity, and that undo and redo of the one recorded step move between the
/// two grids bit for bit.
fn check_step(
    before: &Grid,
    after: Grid,
    history: History,
    changed: VoxelBox,
    area: VoxelBox,
    expect: impl Fn(VoxelPos, Voxel) -> Voxel,
) {
    assert_eq!(
        changed,
        changed_between(before, &after, area),
        "changed box"
    );
    check_undo(before, after, history, changed, area, expect);
}

/// [`check_step`] without the exactness of the changed box (it must still cover every change).
fn check_undo(
    before: &Grid,
    mut after: Grid,
    mut history: History,
    changed: VoxelBox,
    area: VoxelBox,
    expect: impl Fn(VoxelPos, Voxel) -> Voxel,
) {
    after.assert_valid();
    for p in positions(area) {
        assert_eq!(after.get(p), expect(p, before.get(p)), "at {p:?}");
    }
    let truth = changed_between(before, &after, area);
    assert_eq!(
        changed.union(&truth),
        changed,
        "the changed box covers every change"
    );
    if truth.is_empty() && changed.is_empty() {
        assert_eq!(history.undo_len(), 0, "no change, no step");
        assert_eq!(&after, before);
        return;
    }
    assert_eq!(history.undo_len(), 1);
    assert_eq!(
        history.undo_region(),
        Some(changed),
        "the step covers the changed box"
    );
    let done = after.clone();
    history.undo(&mut after).expect("undo");
    assert_eq!(&after, before, "undo restores the grid bit for bit");
    history.redo(&mut after).expect("redo");
    assert_eq!(after, done, "redo restores the edit");
}

#[test]
fn pastes_match_the_reference_and_undo_exactly() {
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let world = random_world(&mut rng);
    let progress = Progress::new();
    for case in 0..48 {
        let src = random_box(&mut rng);
        let axis = Axis::ALL[rng.random_range(0..3)];
        let region = Region::copy(&world, src)
            .expect("copy")
            .rotated(axis, rng.random_range(0..4));
        let at = VoxelPos::new(
            rng.random_range(-50..40),
            rng.random_range(-30..25),
            rng.random_range(-45..40),
        );
        let mode = PasteMode::ALL[case % 3];
        let mut grid = world.clone();
        let mut history = History::default();
        let mut edit = RegionEdit::begin(&mut grid, Some(&mut history), "Paste", &progress);
        let changed = edit.paste(&region, at, mode).expect("pastes");
        assert_eq!(edit.finish(), changed);
        let target = region.placed_at(at);
        let area = grow(target, 2);
        check_step(&world, grid, history, changed, area, |p, old| {
            if target.contains(p) {
                let d = [p.x - at.x, p.y - at.y, p.z - at.z].map(|c| c as usize);
                reference_combine(mode, old, region.get(d[0], d[1], d[2]))
            } else {
                old
            }
        });
    }
}

#[test]
fn copy_then_paste_in_place_changes_nothing() {
    let mut rng = ChaCha8Rng::seed_from_u64(22);
    let world = random_world(&mut rng);
    let progress = Progress::new();
    for case in 0..24 {
        let b = random_box(&mut rng);
        let region = Region::copy(&world, b).expect("copy");
        let mut grid = world.clone();
        // An undone step on the redo stack must survive an edit that changes nothing.
        let mut history = History::default();
        history.apply(&mut grid, b, "earlier", |g| g.fill_box(b, Voxel::filled(4)));
        history.undo(&mut grid).expect("undo");
        let mut edit = RegionEdit::begin(&mut grid, Some(&mut history), "Paste", &progress);
        let changed = edit
            .paste(&region, b.min, PasteMode::ALL[case % 3])
            .expect("pastes");
        assert!(edit.finish().is_empty() && changed.is_empty());
        assert_eq!(grid, world);
        assert_eq!((history.undo_len(), history.redo_len()), (0, 1));
    }
}

#[test]
fn fills_and_deletes_match_the_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    let world = random_world(&mut rng);
    let progress = Progress::new();
    for case in 0..36 {
        let b = random_box(&mut rng);
        let voxel = Voxel::new(rng.random_range(0..6), rng.random());
        let fill = match case % 3 {
            0 => Fill::new(voxel),
            1 => Fill::only_air(voxel),
            _ => Fill::new(Voxel::AIR),
        };
        let mut grid = world.clone();
        let mut history = History::default();
        let mut edit = RegionEdit::begin(&mut grid, Some(&mut history), "Fill", &progress);
        let changed = if case % 3 == 2 {
            edit.delete(b)
        } else {
            edit.fill(b, fill)
        }
        .expect("fills");
        edit.finish();
        check_step(&world, grid, history, changed, grow(b, 2), |p, old| {
            if !b.contains(p) || (fill.only_air && !old.is_air()) {
                old
            } else if case % 3 == 2 {
                Voxel::AIR
            } else {
                Voxel::new(voxel.material, voxel.occupancy)
            }
        });
    }
}

#[test]
fn moves_are_a_cut_and_a_paste_in_one_step() {
    let mut rng = ChaCha8Rng::seed_from_u64(24);
    let world = random_world(&mut rng);
    let progress = Progress::new();
    for case in 0..24 {
        let b = random_box(&mut rng);
        let to = VoxelPos::new(
            b.min.x + rng.random_range(-20..20),
            b.min.y + rng.random_range(-10..10),
            b.min.z + rng.random_range(-20..20),
        );
        let mode = PasteMode::ALL[case % 3];
        let region = Region::copy(&world, b).expect("copy");
        let mut grid = world.clone();
        let mut history = History::default();
        let mut edit = RegionEdit::begin(&mut grid, Some(&mut history), "Move", &progress);
        let changed = edit.move_box(b, to, mode).expect("moves");
        edit.finish();
        let target = region.placed_at(to);
        let area = grow(b.union(&target), 2);
        if b.intersect(&target).is_empty() {
            assert_eq!(changed, changed_between(&world, &grid, area));
        }
        check_undo(&world, grid, history, changed, area, |p, old| {
            let cut = if b.contains(p) { Voxel::AIR } else { old };
            if target.contains(p) {
                let d = [p.x - to.x, p.y - to.y, p.z - to.z].map(|c| c as usize);
                reference_combine(mode, cut, region.get(d[0], d[1], d[2]))
            } else {
                cut
            }
        });
    }
}

#[test]
fn a_failed_or_aborted_edit_leaves_nothing() {
    let mut rng = ChaCha8Rng::seed_from_u64(25);
    let world = random_world(&mut rng);
    let b = VoxelBox::new(VoxelPos::new(-30, -10, -30), VoxelPos::new(30, 20, 30));
    let region = Region::copy(&world, b).expect("copy");
    let mut grid = world.clone();
    let mut history = History::default();
    history.apply(&mut grid, b, "earlier", |g| g.fill_box(b, Voxel::filled(4)));
    history.undo(&mut grid).expect("undo");

    // Cancelled in the second operation: the first is rolled back when the edit drops.
    let progress = Progress::new();
    let result = (|| -> crate::Result<VoxelBox> {
        let mut edit = RegionEdit::begin(&mut grid, Some(&mut history), "Move", &progress);
        edit.delete(b)?;
        progress.cancel();
        edit.paste(&region, VoxelPos::new(5, 0, 5), PasteMode::Replace)?;
        Ok(edit.finish())
    })();
    assert!(matches!(result, Err(Error::Cancelled)), "{result:?}");
    assert_eq!(grid, world);
    assert_eq!(history.undo_len(), 0);
    // As with any edit that wrote something, the redo stack is gone; nothing else is left behind.
    assert_eq!(history.redo_len(), 0);
    assert_eq!(history.used_bytes(), 0);

    // Explicit abort.
    let progress = Progress::new();
    let mut edit = RegionEdit::begin(&mut grid, Some(&mut history), "Fill", &progress);
    assert!(!edit
        .fill(b, Fill::new(Voxel::filled(5)))
        .expect("fills")
        .is_empty());
    edit.abort().expect("rolls back");
    assert_eq!(grid, world);
    assert_eq!(history.undo_len(), 0);

    // Bad input changes nothing either.
    let mut edit = RegionEdit::begin(&mut grid, Some(&mut history), "Fill", &progress);
    let empty = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(0, 5, 5));
    assert!(edit.fill(empty, Fill::new(Voxel::filled(5))).is_err());
    let far = VoxelPos::new(i32::MAX - 3, 0, 0);
    assert!(edit.paste(&region, far, PasteMode::Replace).is_err());
    // Past the coordinate range (without overflowing i32) is refused too, for pastes and fills.
    let past = VoxelPos::new(crate::voxel::COORD_LIMIT - 1, 0, 0);
    let e = edit
        .paste(&region, past, PasteMode::Replace)
        .expect_err("outside the range");
    assert!(e.to_string().contains("coordinate range"), "{e}");
    let low = VoxelBox::new(VoxelPos::new(0, i32::MIN, 0), VoxelPos::new(1, 1, 1));
    assert!(edit.fill(low, Fill::new(Voxel::filled(5))).is_err());
    assert!(edit.finish().is_empty());
    assert_eq!(grid, world);
}

#[test]
fn without_a_history_edits_just_write() {
    let mut rng = ChaCha8Rng::seed_from_u64(26);
    let world = random_world(&mut rng);
    let b = VoxelBox::new(VoxelPos::new(-8, -8, -8), VoxelPos::new(8, 8, 8));
    let mut grid = world.clone();
    let progress = Progress::new();
    let mut edit = RegionEdit::begin(&mut grid, None, "Fill", &progress);
    let changed = edit.fill(b, Fill::new(Voxel::filled(6))).expect("fills");
    assert_eq!(edit.finish(), changed);
    assert!(positions(b).all(|p| grid.get(p) == Voxel::filled(6)));
    grid.assert_valid();
}

#[test]
fn turning_a_selection_in_place() {
    let mut rng = ChaCha8Rng::seed_from_u64(27);
    let world = random_world(&mut rng);
    let b = VoxelBox::new(VoxelPos::new(-6, -4, -10), VoxelPos::new(10, 6, 2));
    let mut grid = world.clone();
    let mut history = History::default();
    let progress = Progress::new();
    let mut edit = RegionEdit::begin(&mut grid, Some(&mut history), "Rotate", &progress);
    let turned = edit.cut(b).expect("cut").rotated(Axis::Y, 1);
    let at = center_anchor(b, turned.size());
    assert_eq!(at, VoxelPos::new(-4, -4, -12));
    edit.paste(&turned, at, PasteMode::Replace).expect("paste");
    edit.finish();
    assert_eq!(
        Region::copy(&grid, turned.placed_at(at)).expect("copy"),
        turned
    );
    assert_eq!(history.undo_len(), 1);
    history.undo(&mut grid).expect("undo");
    assert_eq!(grid, world);
}

/// Fills and deletes that cover whole chunks (missing, uniform or mixed) take the whole-chunk path
/// where they can and match the reference exactly, changed box and undo included.
#[test]
fn whole_chunk_fills_match_the_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(41);
    let mut world = Grid::new();
    // Chunk x = 0: uniform Rock; x = 1: missing; x = 2: mixed; x = -1: uniform Grass.
    world.fill_box(
        VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(32, 32, 32)),
        Voxel::filled(7),
    );
    world.fill_box(
        VoxelBox::new(VoxelPos::new(-32, 0, 0), VoxelPos::new(0, 32, 32)),
        Voxel::filled(2),
    );
    world.modify_box(
        VoxelBox::new(VoxelPos::new(64, 0, 0), VoxelPos::new(96, 32, 32)),
        |p, _| {
            if (p.x + p.y) % 3 == 0 {
                Voxel::new(5, 200)
            } else {
                Voxel::AIR
            }
        },
    );
    let progress = Progress::new();
    let boxes = [
        VoxelBox::new(VoxelPos::new(-32, 0, 0), VoxelPos::new(96, 32, 32)),
        VoxelBox::new(VoxelPos::new(-40, -8, -8), VoxelPos::new(100, 40, 40)),
        VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(64, 32, 32)),
        VoxelBox::new(VoxelPos::new(-10, 3, 0), VoxelPos::new(70, 32, 32)),
    ];
    for &b in &boxes {
        for case in 0..5 {
            let fill = match case {
                0 => Fill::new(Voxel::filled(7)),
                1 => Fill::new(Voxel::filled(rng.random_range(2..6))),
                2 => Fill::only_air(Voxel::filled(4)),
                3 => Fill::new(Voxel::new(3, 100)),
                _ => Fill::new(Voxel::AIR),
            };
            let mut grid = world.clone();
            let mut history = History::default();
            let mut edit = RegionEdit::begin(&mut grid, Some(&mut history), "Fill", &progress);
            let changed = edit.fill(b, fill).expect("fills");
            edit.finish();
            let area = grow(b, 2);
            check_step(&world, grid, history, changed, area, |p, old| {
                if !b.contains(p) || (fill.only_air && !old.is_air()) {
                    old
                } else {
                    fill.voxel
                }
            });
        }
    }
}
