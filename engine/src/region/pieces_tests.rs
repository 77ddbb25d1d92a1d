//! Tests of the chunk-piece form: against dense box reads and the run form, over aligned and
//! unaligned boxes of worlds with missing, uniform, packed and allocated chunks, at budgets that
//! keep every clone, force the largest clones to runs, or cannot be met; and every operation that
//! reads a region (paste and undo, turns, mirrors, resizes, crops, remaps, exports) on both forms.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::region_tests::shortcut_world;
use super::*;
use crate::history::History;
use crate::progress::Progress;
use crate::storage::Grid;
use crate::voxel::{MaterialTable, Voxel, VoxelBox, VoxelPos};

/// A box of whole chunks, or one whose faces fall inside chunks.
fn test_box(
    aligned: bool,
    min: (i32, i32, i32),
    size: (u32, u32, u32),
    jitter: [u32; 6],
) -> VoxelBox {
    if aligned {
        VoxelBox::from_min_size(
            VoxelPos::new(min.0 * 32, min.1 * 32, min.2 * 32),
            [size.0 * 32, size.1 * 32, size.2 * 32],
        )
    } else {
        VoxelBox::from_min_size(
            VoxelPos::new(
                min.0 * 32 + jitter[0] as i32,
                min.1 * 32 + jitter[1] as i32,
                min.2 * 32 + jitter[2] as i32,
            ),
            [jitter[3] * size.0, jitter[4] * size.1, jitter[5] * size.2],
        )
    }
}

/// Every read of a pieces region against the dense box and the run form.
fn check_pieces(grid: &Grid, b: VoxelBox, pieces: &Region, rng: &mut ChaCha8Rng) {
    assert!(pieces.is_pieces());
    pieces.assert_valid();
    let dense = grid.read_box_vec(b);
    let runs = Region::copy_runs(grid, b, &Progress::new()).expect("runs");
    assert!(!runs.is_pieces());
    // Exactly the runs a copy in run form encodes, not only the same voxels.
    assert!(*pieces.run_rows() == *runs.run_rows(), "{b:?}");
    assert_eq!(pieces.to_dense(), dense, "{b:?}");
    assert_eq!(pieces.count_materials(), runs.count_materials());
    let [sx, sy, sz] = pieces.size().map(|s| s as usize);
    for _ in 0..40 {
        let (y, z) = (rng.random_range(0..sy), rng.random_range(0..sz));
        let x0 = rng.random_range(0..sx);
        let len = rng.random_range(0..=sx - x0);
        let mut got = vec![Voxel::new(9, 9); len];
        pieces.read_row(y, z, x0, &mut got);
        let at = (z * sy + y) * sx + x0;
        assert_eq!(got, dense[at..at + len], "row {y},{z} from {x0}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Pieces read back the box exactly, at any budget they accept, and respect the budget.
    #[test]
    fn pieces_equal_box_reads_and_the_run_form(
        seed in any::<u64>(),
        aligned in any::<bool>(),
        min in (-3i32..2, -3i32..1, -3i32..2),
        size in (1u32..4, 1u32..3, 1u32..4),
        jitter in (0u32..32, 0u32..32, 0u32..32, 1u32..40, 1u32..40, 1u32..40),
        budget_kind in 0usize..3,
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let grid = shortcut_world(&mut rng);
        let j = [jitter.0, jitter.1, jitter.2, jitter.3, jitter.4, jitter.5];
        let b = test_box(aligned, min, size, j);
        let unlimited = Region::copy_pieces(&grid, b, usize::MAX).expect("no limit");
        check_pieces(&grid, b, &unlimited, &mut rng);
        let budget = match budget_kind {
            0 => usize::MAX,
            // Forces some of the clones to runs when there are clones with heap bytes.
            1 => unlimited.heap_bytes() * 3 / 4,
            _ => 0,
        };
        match Region::copy_pieces(&grid, b, budget) {
            Some(r) => {
                prop_assert!(r.heap_bytes() <= budget);
                check_pieces(&grid, b, &r, &mut rng);
            }
            None => prop_assert!(budget < unlimited.heap_bytes()),
        }
        let copy = Region::copy(&grid, b).expect("copies");
        copy.assert_valid();
        if copy.is_pieces() {
            prop_assert!(copy.heap_bytes() as u64 * 4 <= copy.dense_bytes());
        }
        prop_assert_eq!(copy.to_dense(), grid.read_box_vec(b));
    }
}

/// Pieces regions in every shape a test world gives them: aligned and unaligned boxes, all clones
/// with runs at the faces, and the largest clones forced to runs.
fn pieces_cases(grid: &Grid, rng: &mut ChaCha8Rng) -> Vec<(VoxelBox, Region)> {
    let mut out = Vec::new();
    for k in 0..12 {
        let j: [u32; 6] = std::array::from_fn(|a| {
            if a < 3 {
                rng.random_range(0..32)
            } else {
                rng.random_range(1..40)
            }
        });
        let b = test_box(k % 3 == 0, (-2, -1, -2), (2, 2, 2), j);
        let all = Region::copy_pieces(grid, b, usize::MAX).expect("no limit");
        let squeezed = Region::copy_pieces(grid, b, all.heap_bytes() / 2);
        out.push((b, all));
        out.extend(squeezed.map(|r| (b, r)));
    }
    out
}

#[test]
fn pieces_paste_in_place_is_a_no_op_and_pastes_elsewhere_equal_the_run_form() {
    let mut rng = ChaCha8Rng::seed_from_u64(61);
    let world = shortcut_world(&mut rng);
    let progress = Progress::new();
    for (case, (b, pieces)) in pieces_cases(&world, &mut rng).into_iter().enumerate() {
        let mode = PasteMode::ALL[case % 3];
        let mut grid = world.clone();
        let mut edit = RegionEdit::begin(&mut grid, None, "Paste", &progress);
        assert!(edit.paste(&pieces, b.min, mode).expect("pastes").is_empty());
        edit.finish();
        assert_eq!(grid, world, "in place {b:?}");
        let runs = Region::copy_runs(&world, b, &progress).expect("runs");
        let at = VoxelPos::new(b.min.x + 19, b.min.y - 7, b.min.z + 41);
        let mut results = Vec::new();
        for region in [&pieces, &runs] {
            let mut grid = world.clone();
            let mut history = History::default();
            let mut edit = RegionEdit::begin(&mut grid, Some(&mut history), "Paste", &progress);
            let changed = edit.paste(region, at, mode).expect("pastes");
            edit.finish();
            grid.assert_valid();
            let after = grid.clone();
            history.undo(&mut grid).expect("undo");
            assert_eq!(grid, world, "undo restores the grid bit for bit");
            results.push((changed, after));
        }
        assert!(
            results[0] == results[1],
            "pieces and runs paste alike {b:?}"
        );
    }
}

#[test]
fn pieces_turn_mirror_resize_crop_and_export_like_runs() {
    let mut rng = ChaCha8Rng::seed_from_u64(62);
    let world = shortcut_world(&mut rng);
    let table = MaterialTable::builtin();
    for (b, pieces) in pieces_cases(&world, &mut rng) {
        let runs = Region::copy_runs(&world, b, &Progress::new()).expect("runs");
        assert_eq!(pieces, runs);
        for axis in Axis::ALL {
            let turned = pieces.rotated(axis, 1);
            turned.assert_valid();
            assert_eq!(turned, runs.rotated(axis, 1), "{axis:?}");
            assert_eq!(pieces.rotated(axis, 4), runs, "four turns {axis:?}");
            assert_eq!(pieces.mirrored(axis), runs.mirrored(axis));
            assert_eq!(pieces.mirrored(axis).mirrored(axis), runs, "two mirrors");
        }
        let half = pieces.size().map(|s| s.div_ceil(2));
        for method in [Resample::Nearest, Resample::Smooth] {
            assert_eq!(
                pieces.resized(half, method).expect("resize"),
                runs.resized(half, method).expect("resize")
            );
        }
        let [sx, sy, sz] = pieces.size().map(|s| s as i32);
        let inner = VoxelBox::new(
            VoxelPos::new(sx / 3, sy / 4, sz / 5),
            VoxelPos::new(sx, sy, sz),
        );
        assert_eq!(
            pieces.cropped(inner).expect("crop"),
            runs.cropped(inner).expect("crop")
        );
        let (mut rle_p, mut rle_r, mut raw_p, mut raw_r) = (vec![], vec![], vec![], vec![]);
        pieces.encode_rle(&mut rle_p);
        runs.encode_rle(&mut rle_r);
        pieces.encode_raw(&mut raw_p);
        runs.encode_raw(&mut raw_r);
        assert_eq!((rle_p, raw_p), (rle_r, raw_r));
        let stamp = pieces.to_project("stamp", &table).expect("stamp");
        assert_eq!(
            stamp.grid,
            runs.to_project("stamp", &table).expect("stamp").grid
        );
        assert_eq!(Region::from_project(&stamp).expect("back"), runs);
        // A remap turns pieces into runs first.
        let mut remapped = pieces.clone();
        let mut map = [0u8; crate::voxel::MATERIAL_COUNT];
        for (i, m) in map.iter_mut().enumerate().skip(1) {
            *m = (crate::voxel::MATERIAL_COUNT - i) as u8;
        }
        remapped.map_materials(&map);
        remapped.assert_valid();
        assert!(!remapped.is_pieces());
        let mut expect = runs.clone();
        expect.map_materials(&map);
        assert_eq!(remapped, expect);
    }
}
