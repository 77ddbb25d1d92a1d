//! History tests: random edits against a plain reference, grouping, budget, serialization.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::progress::Progress;
use crate::storage::Grid;
use crate::voxel::{Voxel, VoxelBox, VoxelPos};

/// The region every random edit stays inside: crosses chunk borders and negative coordinates.
const REGION: VoxelBox = VoxelBox {
    min: VoxelPos {
        x: -20,
        y: -6,
        z: -12,
    },
    max: VoxelPos {
        x: 14,
        y: 10,
        z: 22,
    },
};

fn random_box(rng: &mut ChaCha8Rng) -> VoxelBox {
    let [sx, sy, sz] = REGION.size();
    let size = [
        rng.random_range(1..=9usize),
        rng.random_range(1..=9),
        rng.random_range(1..=9),
    ];
    let min = VoxelPos::new(
        REGION.min.x + rng.random_range(0..=sx - size[0]) as i32,
        REGION.min.y + rng.random_range(0..=sy - size[1]) as i32,
        REGION.min.z + rng.random_range(0..=sz - size[2]) as i32,
    );
    VoxelBox::from_min_size(min, size.map(|s| s as u32))
}

fn random_voxels(rng: &mut ChaCha8Rng, n: usize) -> Vec<Voxel> {
    let solid = rng.random_bool(0.5);
    let m = rng.random_range(0..6u8);
    (0..n)
        .map(|_| {
            if solid {
                Voxel::filled(m)
            } else {
                Voxel::new(rng.random_range(0..6), rng.random())
            }
        })
        .collect()
}

/// A reference step's box: (region, voxels before, voxels after).
type RefBox = (VoxelBox, Vec<Voxel>, Vec<Voxel>);

/// Plain dense reference of REGION with its own naive undo stack (uncompressed boxes).
struct Reference {
    voxels: Vec<Voxel>,
    /// Per step: (box, voxels before, voxels after).
    steps: Vec<Vec<RefBox>>,
}

impl Reference {
    fn read(&self, b: VoxelBox) -> Vec<Voxel> {
        let mut out = Vec::with_capacity(b.volume());
        for z in b.min.z..b.max.z {
            for y in b.min.y..b.max.y {
                for x in b.min.x..b.max.x {
                    out.push(self.voxels[REGION.index_of(VoxelPos::new(x, y, z))]);
                }
            }
        }
        out
    }

    fn write(&mut self, b: VoxelBox, src: &[Voxel]) {
        let mut i = 0;
        for z in b.min.z..b.max.z {
            for y in b.min.y..b.max.y {
                for x in b.min.x..b.max.x {
                    let v = src[i];
                    self.voxels[REGION.index_of(VoxelPos::new(x, y, z))] =
                        Voxel::new(v.material, v.occupancy);
                    i += 1;
                }
            }
        }
    }

    fn edit(&mut self, b: VoxelBox, src: &[Voxel], new_step: bool) {
        if new_step {
            self.steps.push(Vec::new());
        }
        let before = self.read(b);
        self.write(b, src);
        let after = self.read(b);
        if let Some(step) = self.steps.last_mut() {
            step.push((b, before, after));
        }
    }

    fn undo(&mut self, step: usize) {
        let boxes = self.steps[step].clone();
        for (b, before, _) in boxes.iter().rev() {
            self.write(*b, before);
        }
    }

    fn redo(&mut self, step: usize) {
        let boxes = self.steps[step].clone();
        for (b, _, after) in &boxes {
            self.write(*b, after);
        }
    }
}

#[test]
fn ten_thousand_edits_undo_and_redo_exactly() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut grid = Grid::new();
    let mut reference = Reference {
        voxels: vec![Voxel::AIR; REGION.volume()],
        steps: Vec::new(),
    };
    let mut history = History::default();
    let edits = 10_000;
    for i in 0..edits {
        if rng.random_bool(0.2) {
            history.begin_group("stroke");
            for k in 0..rng.random_range(2..5) {
                let b = random_box(&mut rng);
                let v = random_voxels(&mut rng, b.volume());
                history.record(&grid, b, "dab");
                grid.write_box(b, &v);
                reference.edit(b, &v, k == 0);
            }
            history.end_group();
        } else {
            let b = random_box(&mut rng);
            let v = random_voxels(&mut rng, b.volume());
            history.apply(&mut grid, b, &format!("edit {i}"), |g| g.write_box(b, &v));
            reference.edit(b, &v, true);
        }
        if i % 1000 == 0 {
            grid.assert_valid();
        }
        assert_eq!(
            grid.read_box_vec(REGION),
            reference.voxels,
            "after edit {i}"
        );
    }
    assert_eq!(history.undo_len(), edits);
    for i in (0..edits).rev() {
        assert!(history.undo(&mut grid).expect("undo").is_some());
        reference.undo(i);
        assert_eq!(
            grid.read_box_vec(REGION),
            reference.voxels,
            "after undoing edit {i}"
        );
    }
    assert!(history.undo(&mut grid).expect("undo").is_none());
    assert_eq!(
        grid.chunk_count(),
        0,
        "undoing everything leaves an empty grid"
    );
    for i in 0..edits {
        assert!(history.redo(&mut grid).expect("redo").is_some());
        reference.redo(i);
        assert_eq!(
            grid.read_box_vec(REGION),
            reference.voxels,
            "after redoing edit {i}"
        );
    }
    grid.assert_valid();
}

#[test]
fn new_edit_clears_redo_and_names_show() {
    let mut grid = Grid::new();
    let mut h = History::default();
    let b = VoxelBox::from_min_size(VoxelPos::new(0, 0, 0), [4, 4, 4]);
    h.apply(&mut grid, b, "Add", |g| g.fill_box(b, Voxel::filled(2)));
    h.apply(&mut grid, b, "Paint", |g| g.fill_box(b, Voxel::filled(3)));
    assert_eq!(h.undo_names().collect::<Vec<_>>(), ["Paint", "Add"]);
    assert_eq!(h.undo(&mut grid).expect("undo").as_deref(), Some("Paint"));
    assert_eq!(grid.get(VoxelPos::new(1, 1, 1)), Voxel::filled(2));
    assert_eq!(h.redo_names().collect::<Vec<_>>(), ["Paint"]);
    h.apply(&mut grid, b, "Subtract", |g| g.fill_box(b, Voxel::AIR));
    assert_eq!(h.redo_len(), 0);
    assert_eq!(h.redo(&mut grid).expect("redo"), None);
}

#[test]
fn budget_drops_oldest_steps() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut grid = Grid::new();
    let mut h = History::new(20_000);
    for i in 0..200 {
        let b = random_box(&mut rng);
        let v = random_voxels(&mut rng, b.volume());
        h.apply(&mut grid, b, &format!("e{i}"), |g| g.write_box(b, &v));
        assert!(h.used_bytes() <= 20_000 || h.undo_len() == 1);
    }
    assert!(h.undo_len() < 200);
    assert_eq!(h.undo_names().next(), Some("e199"));
    let mut fresh = h.clone();
    fresh.recount();
    assert_eq!(
        fresh.used_bytes(),
        h.used_bytes(),
        "incremental accounting matches a recount"
    );
}

#[test]
fn serialized_history_undoes_after_reload() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut grid = Grid::new();
    let mut h = History::default();
    let mut states = vec![grid.read_box_vec(REGION)];
    for i in 0..30 {
        let b = random_box(&mut rng);
        let v = random_voxels(&mut rng, b.volume());
        h.apply(&mut grid, b, &format!("e{i}"), |g| g.write_box(b, &v));
        states.push(grid.read_box_vec(REGION));
    }
    for _ in 0..5 {
        h.undo(&mut grid).expect("undo");
    }
    let bytes = h.to_bytes();
    let mut back = History::from_bytes(&bytes, 0).expect("decodes");
    assert_eq!(back, h);
    for i in (0..25).rev() {
        back.undo(&mut grid).expect("undo");
        assert_eq!(grid.read_box_vec(REGION), states[i]);
    }
    for state in &states[1..] {
        back.redo(&mut grid).expect("redo");
        assert_eq!(&grid.read_box_vec(REGION), state);
    }
    // Every truncation is an error, never a panic.
    for cut in 0..bytes.len() {
        assert!(
            History::from_bytes(&bytes[..cut], 0).is_err(),
            "cut at {cut}"
        );
    }
}

#[test]
fn undo_and_redo_regions_bound_the_step() {
    let mut grid = Grid::new();
    let mut history = History::default();
    assert_eq!(history.undo_region(), None);
    let a = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(4, 4, 4));
    let b = VoxelBox::new(VoxelPos::new(10, -3, 2), VoxelPos::new(12, 1, 9));
    history.begin_group("stroke");
    history.apply(&mut grid, a, "dab", |g| g.fill_box(a, Voxel::new(1, 255)));
    assert_eq!(history.undo_region(), Some(a), "an open group counts");
    history.apply(&mut grid, b, "dab", |g| g.fill_box(b, Voxel::new(1, 255)));
    history.end_group();
    let both = VoxelBox::new(VoxelPos::new(0, -3, 0), VoxelPos::new(12, 4, 9));
    assert_eq!(history.undo_region(), Some(both));
    assert_eq!(history.redo_region(), None);
    history.undo(&mut grid).expect("undo");
    assert_eq!(history.redo_region(), Some(both));
    assert_eq!(history.undo_region(), None);
}

#[test]
fn a_discarded_group_restores_the_grid_and_leaves_no_step() {
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    let mut grid = Grid::new();
    let mut history = History::default();
    let b = random_box(&mut rng);
    history.apply(&mut grid, b, "first", |g| g.fill_box(b, Voxel::filled(2)));
    let before = grid.clone();
    let used = history.used_bytes();
    history.begin_group("stroke");
    for _ in 0..5 {
        let b = random_box(&mut rng);
        let v = random_voxels(&mut rng, b.volume());
        history.record(&grid, b, "dab");
        grid.write_box(b, &v);
    }
    history.discard_group(&mut grid).expect("rolls back");
    assert_eq!(grid, before);
    assert_eq!((history.undo_len(), history.used_bytes()), (1, used));
    history.discard_group(&mut grid).expect("nothing open");
    assert_eq!(history.undo_len(), 1);
}

#[test]
fn steps_undone_redone_and_recorded_on_copies_install_like_in_place() {
    let mut rng = ChaCha8Rng::seed_from_u64(16);
    let mut grid = Grid::new();
    let mut history = History::default();
    for i in 0..4 {
        let b = random_box(&mut rng);
        let v = random_voxels(&mut rng, b.volume());
        history.apply(&mut grid, b, &format!("step {i}"), |g| g.write_box(b, &v));
    }
    let progress = Progress::new();
    // Undo two steps in place, and the same two on a copy of their chunks.
    let (mut g_in, mut h_in) = (grid.clone(), history.clone());
    for _ in 0..2 {
        h_in.undo(&mut g_in).expect("undo");
    }
    let mut copy = history.copy_undo(2).expect("two steps");
    let regions = copy.regions();
    let mut part = grid.copy_chunks(&regions);
    assert_eq!(copy.box_count(false, 2), 2);
    for _ in 0..2 {
        copy.undo_with(&mut part, &progress).expect("undo");
    }
    grid.replace_chunks(&regions, part);
    history.install_undone(copy);
    assert_eq!((&grid, &history), (&g_in, &h_in));
    // Redo one of them both ways.
    h_in.redo(&mut g_in).expect("redo");
    let mut copy = history.copy_redo(1).expect("one step");
    let regions = copy.regions();
    let mut part = grid.copy_chunks(&regions);
    copy.redo_with(&mut part, &progress).expect("redo");
    grid.replace_chunks(&regions, part);
    history.install_redone(copy);
    assert_eq!((&grid, &history), (&g_in, &h_in));
    // A new step recorded on a copy clears the redo stack like one recorded in place.
    let b = random_box(&mut rng);
    let v = random_voxels(&mut rng, b.volume());
    h_in.apply(&mut g_in, b, "new", |g| g.write_box(b, &v));
    let mut part = grid.copy_chunks(&[b]);
    let mut fresh = History::new(history.budget_bytes());
    fresh.apply(&mut part, b, "new", |g| g.write_box(b, &v));
    grid.replace_chunks(&[b], part);
    history.append(fresh);
    assert_eq!((&grid, &history), (&g_in, &h_in));
    assert_eq!(history.redo_len(), 0);
    // A cancelled undo on a copy reports it.
    let mut copy = history.copy_undo(1).expect("one step");
    let mut part = grid.copy_chunks(&copy.regions());
    progress.cancel();
    assert!(matches!(
        copy.undo_with(&mut part, &progress),
        Err(crate::Error::Cancelled)
    ));
    assert!(history.copy_undo(99).is_none());
}

fn change(kind: DataKind, before: &str, after: &str) -> DataChange {
    DataChange {
        kind,
        before: before.as_bytes().to_vec(),
        after: after.as_bytes().to_vec(),
    }
}

/// Data changes undo and redo with their step, alone or beside boxes, in order, and survive a save;
/// histories without them keep the first byte form.
#[test]
fn data_changes_undo_redo_and_save_with_their_steps() {
    let mut grid = Grid::new();
    let mut h = History::default();
    let b = VoxelBox::from_min_size(VoxelPos::new(0, 0, 0), [4, 4, 4]);
    h.record(&grid, b, "Fill");
    grid.fill_box(b, Voxel::filled(3));
    assert_eq!(h.to_bytes()[0], 1, "voxels only: version 1");
    h.record_data(change(DataKind::Materials, "t0", "t1"), "Recolour Grass");
    // A step with a remap: boxes and two data changes.
    h.begin_group("Remove Mud");
    h.record(&grid, b, "Remove Mud");
    grid.fill_box(b, Voxel::filled(4));
    h.record_data(change(DataKind::Materials, "t1", "t2"), "Remove Mud");
    h.record_data(change(DataKind::Materials, "t2", "t3"), "Remove Mud");
    h.end_group();
    // Equal bytes are no change.
    h.record_data(change(DataKind::Materials, "same", "same"), "Nothing");
    assert_eq!(h.undo_len(), 3);
    let bytes = h.to_bytes();
    assert_eq!(bytes[0], 2, "a data change: version 2");
    let mut back = History::from_bytes(&bytes, 0).expect("loads");
    assert_eq!(back, h);
    assert_eq!(back.to_bytes(), bytes);
    for hist in [&mut h, &mut back] {
        let mut g = grid.clone();
        assert_eq!(
            hist.undo(&mut g).expect("undo").as_deref(),
            Some("Remove Mud")
        );
        assert_eq!(
            hist.take_data(),
            vec![
                (DataKind::Materials, b"t2".to_vec()),
                (DataKind::Materials, b"t1".to_vec())
            ]
        );
        assert_eq!(g.get(VoxelPos::new(1, 1, 1)), Voxel::filled(3));
        assert_eq!(
            hist.undo(&mut g).expect("undo").as_deref(),
            Some("Recolour Grass")
        );
        assert_eq!(
            hist.take_data(),
            vec![(DataKind::Materials, b"t0".to_vec())]
        );
        assert!(hist.take_data().is_empty(), "taken once");
        assert_eq!(hist.undo(&mut g).expect("undo").as_deref(), Some("Fill"));
        assert!(hist.take_data().is_empty());
        hist.redo(&mut g).expect("redo");
        assert!(hist.take_data().is_empty());
        hist.redo(&mut g).expect("redo");
        assert_eq!(
            hist.take_data(),
            vec![(DataKind::Materials, b"t1".to_vec())]
        );
        hist.redo(&mut g).expect("redo");
        assert_eq!(
            hist.take_data(),
            vec![
                (DataKind::Materials, b"t2".to_vec()),
                (DataKind::Materials, b"t3".to_vec())
            ]
        );
        assert_eq!(g, grid);
    }
    // Undone on a copy and installed: the data of the oldest undone step is what remains.
    let mut copy = h.copy_undo(2).expect("two steps");
    let mut g = grid.clone();
    copy.undo(&mut g).expect("undo");
    copy.undo(&mut g).expect("undo");
    h.install_undone(copy);
    let data = h.take_data();
    assert_eq!(
        data.last(),
        Some(&(DataKind::Materials, b"t0".to_vec())),
        "{data:?}"
    );
    let mut copy = h.copy_redo(2).expect("two steps");
    copy.redo(&mut g).expect("redo");
    copy.redo(&mut g).expect("redo");
    h.install_redone(copy);
    let data = h.take_data();
    assert_eq!(
        data.last(),
        Some(&(DataKind::Materials, b"t3".to_vec())),
        "{data:?}"
    );
}

#[test]
fn data_changes_are_checked_on_load() {
    let mut h = History::default();
    h.record_data(change(DataKind::Materials, "before", "after"), "Rename");
    let good = h.to_bytes();
    for cut in 0..good.len() {
        assert!(
            History::from_bytes(&good[..cut], 0).is_err(),
            "cut at {cut}"
        );
    }
    // Layout: version 1 + budget 8 + counts 8 + name 4+6 + boxes 4 + changes 4 = offset 35: kind.
    let kind_at = 1 + 8 + 8 + 4 + "Rename".len() + 4 + 4;
    let mut bad = good.clone();
    bad[kind_at] = 9;
    let e = History::from_bytes(&bad, 0).expect_err("kind").to_string();
    assert!(e.contains("unknown data kind 9"), "{e}");
    let mut bad = good.clone();
    bad[kind_at + 1..kind_at + 5].copy_from_slice(&u32::MAX.to_le_bytes());
    let e = History::from_bytes(&bad, 0)
        .expect_err("length")
        .to_string();
    assert!(e.contains("limit"), "{e}");
    let mut bad = good;
    bad[0] = 3;
    assert!(History::from_bytes(&bad, 0).is_err());
}
