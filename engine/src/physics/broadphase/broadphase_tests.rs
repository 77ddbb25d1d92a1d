//! Broadphase tests: queries against a brute-force voxel scan, updates against a full rebuild.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::broadphase_cell::floor_i32;
use super::broadphase_query::{push_touch, spans_two_cells, QueryRange, SMALL_BLOCKS};
use super::*;
use crate::gen::{generate, GeneratorSettings, Preset};
use crate::progress::Progress;
use crate::storage::Grid;
use crate::voxel::{MaterialTable, Voxel, VoxelBox, VoxelPos};

/// The brute-force answer: per cell in the expanded range, does any covered voxel have solid/water
/// matter within its 27-neighbourhood?
fn brute_query(grid: &Grid, matter: &MatterTable, min: [f32; 3], max: [f32; 3]) -> Vec<Touch> {
    let (vlo, vhi) = expanded_voxel_range(min, max);
    let clo = vlo.map(physics_cell_of);
    let chi = vhi.map(physics_cell_of);
    let mut out = Vec::new();
    for cz in clo[2]..=chi[2] {
        for cy in clo[1]..=chi[1] {
            for cx in clo[0]..=chi[0] {
                let c = [cx, cy, cz];
                let lo: [i32; 3] = std::array::from_fn(|a| vlo[a].max(c[a] * 8));
                let hi: [i32; 3] = std::array::from_fn(|a| vhi[a].min(c[a] * 8 + 7));
                let (mut solid, mut water) = (false, false);
                for z in lo[2]..=hi[2] {
                    for y in lo[1]..=hi[1] {
                        for x in lo[0]..=hi[0] {
                            let (s, w) = dilated_at(grid, matter, [x, y, z]);
                            solid |= s;
                            water |= w;
                        }
                    }
                }
                if solid || water {
                    out.push(Touch {
                        cell_pos: c,
                        solid,
                        water,
                    });
                }
            }
        }
    }
    out
}

fn dilated_at(grid: &Grid, matter: &MatterTable, p: [i32; 3]) -> (bool, bool) {
    let (mut s, mut w) = (false, false);
    for dz in -1..=1 {
        for dy in -1..=1 {
            for dx in -1..=1 {
                let v = grid.get(VoxelPos::new(p[0] + dx, p[1] + dy, p[2] + dz));
                match matter.of(v) {
                    Matter::Air => {}
                    Matter::Solid => s = true,
                    Matter::Water => w = true,
                }
            }
        }
    }
    (s, w)
}

fn random_box(rng: &mut ChaCha8Rng, lo: i32, hi: i32, max_edge: i32) -> VoxelBox {
    let min: [i32; 3] = std::array::from_fn(|_| rng.random_range(lo..hi));
    let max: [i32; 3] = std::array::from_fn(|a| min[a] + rng.random_range(1..=max_edge));
    VoxelBox::new(VoxelPos::from(min), VoxelPos::from(max))
}

/// A random world of boxes of rock, water and air around the origin (negative coordinates included).
fn random_world(rng: &mut ChaCha8Rng, table: &MaterialTable, boxes: usize) -> Grid {
    let water = table.require("Water").expect("water");
    let rock = table.require("Rock").expect("rock");
    let mut grid = Grid::new();
    for _ in 0..boxes {
        let b = random_box(rng, -24, 24, 14);
        let m = [rock, water, 0, rock][rng.random_range(0..4)];
        grid.fill_box(b, Voxel::new(m, rng.random()));
    }
    grid
}

fn random_aabb(rng: &mut ChaCha8Rng, lo: f32, hi: f32, max_edge: f32) -> ([f32; 3], [f32; 3]) {
    let min: [f32; 3] = std::array::from_fn(|_| rng.random_range(lo..hi));
    let max: [f32; 3] = std::array::from_fn(|a| min[a] + rng.random_range(0.0..max_edge));
    (min, max)
}

/// Every stored cell with its entry, in Z, Y, X order.
fn sorted_entries(bp: &Broadphase) -> Vec<([i32; 3], CellBits<'_>)> {
    let mut v: Vec<_> = bp.cells.iter().collect();
    v.sort_unstable_by_key(|(p, _)| (p[2], p[1], p[0]));
    v
}

fn check_queries(grid: &Grid, bp: &Broadphase, rng: &mut ChaCha8Rng, n: usize, lo: f32, hi: f32) {
    let mut out = Vec::new();
    let mut touched = 0;
    for _ in 0..n {
        let (min, max) = random_aabb(rng, lo, hi, 20.0);
        out.clear();
        bp.query(min, max, &mut out);
        let want = brute_query(grid, &bp.matter, min, max);
        assert_eq!(out, want, "query {min:?}..{max:?}");
        touched += usize::from(!out.is_empty());
    }
    assert!(
        touched > n / 10,
        "too few queries touch anything ({touched})"
    );
}

#[test]
fn lookup_tables_select_strips() {
    assert_eq!(MASKS_X[0][7], u64::MAX);
    assert_eq!(MASKS_Z[0][7], u64::MAX);
    assert_eq!(MASKS_X[2][3], 0x0c0c_0c0c_0c0c_0c0c);
    assert_eq!(MASKS_Z[1][2], 0x0000_0000_00ff_ff00);
    assert_eq!(MASKS_X[3][2], 0);
    assert_eq!((MASKS_X[5][5] & MASKS_Z[6][6]).count_ones(), 1);
    assert_eq!(MASKS_X[5][5] & MASKS_Z[6][6], 1 << (6 * 8 + 5));
}

#[test]
fn lone_voxel_dilates_into_neighbour_cells() {
    let table = MaterialTable::builtin();
    let mut grid = Grid::new();
    grid.set(VoxelPos::new(0, 0, 0), Voxel::filled(2));
    let bp = Broadphase::build(&grid, &table, &mut BuildScratch::default());
    bp.assert_valid(&grid);
    // Voxel 0 dilates into -1..=1 on each axis: cells -1 and 0 on each axis.
    assert_eq!(bp.cell_count(), 8);
    let m = bp.cell([0, 0, 0]).expect("stored").masks();
    assert_eq!(m.solid[0], 0x0303, "bits x 0..=1, z 0..=1 of slice 0");
    assert_eq!(m.solid[1], 0x0303);
    assert_eq!(m.solid[2], 0);
    assert_eq!(m.water, [0; 8]);
    let mut out = Vec::new();
    // An AABB at x 3.5..4: expanded to voxels 2..=5, no dilated bit there.
    bp.query([3.5, 0.2, 0.2], [4.0, 0.4, 0.4], &mut out);
    assert!(out.is_empty());
    // x 2.5..3 expands to voxels 1..=4 (voxel 1 is dilated); y and z reach cells -1 and 0.
    bp.query([2.5, 0.2, 0.2], [3.0, 0.4, 0.4], &mut out);
    assert_eq!(out.len(), 4);
    assert!(out
        .iter()
        .all(|t| t.solid && !t.water && t.cell_pos[0] == 0));
}

#[test]
fn full_and_empty_cells_are_tagged_or_absent() {
    let table = MaterialTable::builtin();
    let water = table.require("Water").expect("water");
    let mut grid = Grid::new();
    grid.fill_box(
        VoxelBox::new(VoxelPos::new(-16, -32, -16), VoxelPos::new(16, 0, 16)),
        Voxel::filled(3),
    );
    grid.fill_box(
        VoxelBox::new(VoxelPos::new(-16, 0, -16), VoxelPos::new(16, 24, 16)),
        Voxel::filled(water),
    );
    let bp = Broadphase::build(&grid, &table, &mut BuildScratch::default());
    bp.assert_valid(&grid);
    assert_eq!(bp.cell([0, -2, 0]), Some(CellBits::Solid));
    assert_eq!(bp.cell([0, 1, 0]), Some(CellBits::Water));
    assert!(matches!(bp.cell([0, 0, 0]), Some(CellBits::Masks(_))));
    assert!(matches!(bp.cell([0, 3, 0]), Some(CellBits::Masks(_))));
    assert_eq!(bp.cell([0, 5, 0]), None);
    let mem = bp.memory();
    assert!(mem.tagged_cells > 0 && mem.masked_cells > 0);
    assert_eq!(mem.mask_bytes, mem.masked_cells * 128);
    let mut out = Vec::new();
    bp.query([-3.0, 6.0, -3.0], [3.0, 7.0, 3.0], &mut out);
    // Voxels y 5..=8: cell y 0 (solid reaches only its slice 0) and cell y 1 (all water).
    assert!(out.iter().all(|t| t.water && !t.solid), "{out:?}");
    assert_eq!(out.len(), 8);
}

#[test]
fn random_queries_match_brute_force() {
    let table = MaterialTable::builtin();
    for seed in 0..6 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let grid = random_world(&mut rng, &table, 12);
        let bp = Broadphase::build(&grid, &table, &mut BuildScratch::default());
        bp.assert_valid(&grid);
        check_queries(&grid, &bp, &mut rng, 300, -40.0, 40.0);
    }
}

#[test]
fn generated_world_queries_match_brute_force() {
    let table = MaterialTable::builtin();
    let settings = GeneratorSettings {
        preset: Preset::Islands,
        size: [48, 40, 48],
        seed: 3,
    };
    let grid = generate(&settings, &table, &Progress::new()).expect("generates");
    let bp = Broadphase::build(&grid, &table, &mut BuildScratch::default());
    bp.assert_valid(&grid);
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    check_queries(&grid, &bp, &mut rng, 400, -4.0, 50.0);
}

#[test]
fn updates_after_random_edits_equal_a_rebuild() {
    let table = MaterialTable::builtin();
    let water = table.require("Water").expect("water");
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    let mut grid = random_world(&mut rng, &table, 8);
    let mut scratch = BuildScratch::default();
    let mut bp = Broadphase::build(&grid, &table, &mut scratch);
    for step in 0..60 {
        let b = random_box(&mut rng, -30, 30, if step % 3 == 0 { 10 } else { 2 });
        let m = [0, 5, water][rng.random_range(0..3)];
        grid.fill_box(b, Voxel::new(m, rng.random()));
        bp.update(&grid, b, &mut scratch);
        bp.assert_valid(&grid);
        let fresh = Broadphase::build(&grid, &table, &mut BuildScratch::default());
        assert_eq!(sorted_entries(&bp), sorted_entries(&fresh), "step {step}");
    }
    check_queries(&grid, &bp, &mut rng, 100, -40.0, 40.0);
}

#[test]
fn the_chunk_at_a_time_build_equals_the_cell_by_cell_build() {
    let table = MaterialTable::builtin();
    let water = table.require("Water").expect("water");
    for seed in [3, 19, 58] {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut grid = random_world(&mut rng, &table, 8);
        // Uniform, partly filled and lone chunks, water, and chunks far from the others.
        grid.fill_box(random_box(&mut rng, -40, 40, 40), Voxel::filled(5));
        grid.fill_box(random_box(&mut rng, -40, 40, 12), Voxel::new(water, 200));
        grid.set(VoxelPos::new(200, -70, 95), Voxel::new(5, 90));
        let mut scratch = BuildScratch::default();
        let fast = Broadphase::build(&grid, &table, &mut scratch);
        let mut slow = Broadphase::new(&table);
        slow.rebuild_cell_by_cell(&grid, &mut scratch);
        fast.assert_valid(&grid);
        assert_eq!(sorted_entries(&fast), sorted_entries(&slow), "seed {seed}");
    }
}

#[test]
fn stale_entries_are_caught() {
    let table = MaterialTable::builtin();
    let mut grid = Grid::new();
    grid.set(VoxelPos::new(3, 3, 3), Voxel::filled(2));
    let bp = Broadphase::build(&grid, &table, &mut BuildScratch::default());
    grid.set(VoxelPos::new(4, 3, 3), Voxel::filled(2));
    let caught = std::panic::catch_unwind(|| bp.assert_valid(&grid));
    assert!(caught.is_err(), "a stale cell passed assert_valid");
}

#[test]
fn degenerate_aabbs_do_not_panic() {
    let table = MaterialTable::builtin();
    let mut grid = Grid::new();
    grid.set(VoxelPos::new(0, 0, 0), Voxel::filled(2));
    let bp = Broadphase::build(&grid, &table, &mut BuildScratch::default());
    let mut out = Vec::new();
    bp.query([f32::NAN; 3], [f32::NAN; 3], &mut out);
    bp.query([f32::NEG_INFINITY; 3], [f32::INFINITY; 3], &mut out);
    assert_eq!(
        out.len(),
        1 + 8,
        "NaN is voxel 0; the infinite box covers all"
    );
    out.clear();
    bp.query([5.0; 3], [1.0; 3], &mut out);
    assert!(out.is_empty(), "an inverted box covers nothing");
}

#[test]
fn floor_matches_std_floor() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut values = vec![
        0.0,
        -0.0,
        -0.5,
        0.5,
        -1.0,
        1.0,
        -1.5,
        2.999_999_8,
        -2.999_999_8,
        8_388_608.5,
        -8_388_609.0,
        2_147_483_648.0,
        -2_147_483_904.0,
        1e20,
        -1e20,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE,
    ];
    values.extend((0..10_000).map(|_| rng.random_range(-1e4f32..1e4)));
    for c in values {
        assert_eq!(floor_i32(c), c.floor() as i32, "floor of {c}");
    }
}

/// The per-voxel answer from the stored bits (the benches' naive query): the reference for boxes too
/// big for [`brute_query`].
fn naive_bits_query(bp: &Broadphase, range: &QueryRange) -> Vec<Touch> {
    let mut out = Vec::new();
    for cz in range.clo[2]..=range.chi[2] {
        for cy in range.clo[1]..=range.chi[1] {
            for cx in range.clo[0]..=range.chi[0] {
                let Some(bits) = bp.cell([cx, cy, cz]) else {
                    continue;
                };
                let m = bits.masks();
                let (x0, x1) = range.local(cx, 0);
                let (y0, y1) = range.local(cy, 1);
                let (z0, z1) = range.local(cz, 2);
                let (mut solid, mut water) = (false, false);
                for z in z0..=z1 {
                    for y in y0..=y1 {
                        for x in x0..=x1 {
                            let bit = 1u64 << (z * 8 + x);
                            solid |= m.solid[y] & bit != 0;
                            water |= m.water[y] & bit != 0;
                        }
                    }
                }
                push_touch([cx, cy, cz], solid, water, &mut out);
            }
        }
    }
    out
}

#[test]
fn every_query_path_gives_the_same_answer() {
    let table = MaterialTable::builtin();
    let mut exercised = [0usize; 3];
    let mut two_cells = 0;
    for seed in 0..3 {
        let mut rng = ChaCha8Rng::seed_from_u64(100 + seed);
        let grid = random_world(&mut rng, &table, 14);
        let bp = Broadphase::build(&grid, &table, &mut BuildScratch::default());
        bp.assert_valid(&grid);
        for i in 0..300 {
            let edge = [1.0, 7.0, 20.0, 36.0, 70.0][i % 5];
            let (min, max) = random_aabb(&mut rng, -56.0, 44.0, edge);
            let (vlo, vhi) = expanded_voxel_range(min, max);
            let range = QueryRange::new(vlo, vhi);
            let want = if edge <= 20.0 {
                let brute = brute_query(&grid, &bp.matter, min, max);
                assert_eq!(
                    naive_bits_query(&bp, &range),
                    brute,
                    "naive {min:?}..{max:?}"
                );
                brute
            } else {
                naive_bits_query(&bp, &range)
            };
            let mut out = Vec::new();
            bp.query(min, max, &mut out);
            assert_eq!(out, want, "query {min:?}..{max:?}");
            out.clear();
            bp.query_stored(&range, &mut out);
            assert_eq!(out, want, "all-stored path {min:?}..{max:?}");
            out.clear();
            bp.query_walk(&range, |b| bp.cells.block_base(b), &mut out);
            assert_eq!(out, want, "walk path {min:?}..{max:?}");
            // The two-cell walk answers any range of one or two cells per axis (the query sends
            // it only the short ones).
            if (0..3).all(|a| vlo[a] <= vhi[a] && range.chi[a] - range.clo[a] <= 1) {
                out.clear();
                bp.query_two_cells(vlo, vhi, &mut out);
                assert_eq!(out, want, "two-cell path {min:?}..{max:?}");
                two_cells += usize::from(!want.is_empty());
            }
            let blocks = range.block_count();
            if blocks <= SMALL_BLOCKS as u64 {
                out.clear();
                bp.query_few_blocks(&range, &mut out);
                assert_eq!(out, want, "few-blocks path {min:?}..{max:?}");
            }
            let path = if blocks > bp.cells.block_count() as u64 {
                0
            } else {
                usize::from(blocks <= SMALL_BLOCKS as u64) + 1
            };
            exercised[path] += usize::from(!want.is_empty());
        }
    }
    assert!(
        exercised.iter().all(|&n| n > 5),
        "paths exercised: {exercised:?}"
    );
    assert!(
        two_cells > 5,
        "two-cell path answered {two_cells} touching queries"
    );
}

#[test]
fn removed_cells_free_their_masks_for_reuse() {
    let table = MaterialTable::builtin();
    let mut grid = Grid::new();
    let mut scratch = BuildScratch::default();
    let lone = VoxelBox::new(VoxelPos::new(3, 3, 3), VoxelPos::new(4, 4, 4));
    grid.fill_box(lone, Voxel::filled(2));
    let mut bp = Broadphase::build(&grid, &table, &mut scratch);
    let masked = bp.memory().masked_cells;
    assert_eq!(masked, 1);
    for step in 0..4 {
        grid.fill_box(lone, Voxel::AIR);
        bp.update(&grid, lone, &mut scratch);
        bp.assert_valid(&grid);
        assert_eq!(bp.cell_count(), 0, "step {step}");
        grid.fill_box(lone, Voxel::filled(2));
        bp.update(&grid, lone, &mut scratch);
        bp.assert_valid(&grid);
        assert_eq!(bp.memory().masked_cells, masked, "step {step}");
    }
    let before = bp.memory().total_bytes;
    grid.fill_box(lone, Voxel::AIR);
    bp.update(&grid, lone, &mut scratch);
    grid.fill_box(lone, Voxel::filled(2));
    bp.update(&grid, lone, &mut scratch);
    assert_eq!(
        bp.memory().total_bytes,
        before,
        "the freed mask entry is reused"
    );
}

/// The bench's box sizes (edges 4, 8 and 16) on every generated preset and two seeds: the query, the
/// block walk and the all-stored path all equal the per-voxel answer of the same stored bits.
#[test]
fn generated_presets_match_the_per_voxel_answer() {
    let table = MaterialTable::builtin();
    for preset in Preset::ALL {
        for seed in 1..=2 {
            let settings = GeneratorSettings {
                preset,
                size: [48, 40, 48],
                seed,
            };
            let grid = generate(&settings, &table, &Progress::new()).expect("generates");
            let bp = Broadphase::build(&grid, &table, &mut BuildScratch::default());
            bp.assert_valid(&grid);
            let mut rng = ChaCha8Rng::seed_from_u64(u64::from(seed) * 31 + preset as u64);
            let (mut out, mut touched, mut two_cells) = (Vec::new(), 0, 0);
            for i in 0..600 {
                let edge = [4.0f32, 8.0, 16.0][i % 3];
                let min: [f32; 3] =
                    std::array::from_fn(|a| rng.random_range(-6.0..settings.size[a] as f32 + 6.0));
                let max = min.map(|v| v + edge);
                let (vlo, vhi) = expanded_voxel_range(min, max);
                let range = QueryRange::new(vlo, vhi);
                let want = naive_bits_query(&bp, &range);
                out.clear();
                bp.query(min, max, &mut out);
                assert_eq!(out, want, "{preset:?} seed {seed}: query {min:?}..{max:?}");
                // Every 4³ box spans at most two cells per axis: those took the two-cell path.
                two_cells += usize::from(bp.cells.is_dense() && spans_two_cells(vlo, vhi));
                out.clear();
                bp.query_walk(&range, |b| bp.cells.block_base(b), &mut out);
                assert_eq!(out, want, "{preset:?} seed {seed}: walk {min:?}..{max:?}");
                out.clear();
                bp.query_stored(&range, &mut out);
                assert_eq!(out, want, "{preset:?} seed {seed}: stored {min:?}..{max:?}");
                touched += usize::from(!want.is_empty());
            }
            assert!(
                touched > 100,
                "{preset:?} seed {seed}: {touched} touching boxes"
            );
            assert!(
                two_cells >= 200,
                "{preset:?} seed {seed}: {two_cells} boxes on the two-cell path"
            );
        }
    }
}
