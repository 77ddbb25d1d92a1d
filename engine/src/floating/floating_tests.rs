//! Floating terrain against known islands (corner, edge, water bridge, one-voxel column, pieces across
//! chunk faces) and against a plain flood fill on random worlds; deletion as one undo step.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::history::History;
use crate::voxel::{Voxel, VoxelBox, VoxelPos};

const ROCK: u8 = 7;
const WATER: u8 = 1;

fn table() -> MaterialTable {
    let t = MaterialTable::builtin();
    assert_eq!(t.require("Rock").expect("rock"), ROCK);
    assert_eq!(t.require("Water").expect("water"), WATER);
    t
}

fn cuboid(lo: [i32; 3], size: [u32; 3]) -> VoxelBox {
    VoxelBox::from_min_size(VoxelPos::new(lo[0], lo[1], lo[2]), size)
}

fn find(grid: &Grid, bottom: i32) -> Floating {
    find_floating(grid, &table(), bottom, &Progress::new()).expect("search")
}

/// Every voxel of piece `i`, sorted.
fn voxels_of(found: &Floating, i: usize) -> Vec<[i32; 3]> {
    let mut v: Vec<[i32; 3]> = found
        .runs_of(i)
        .iter()
        .flat_map(|r| (0..r.len as i32).map(move |k| [r.start.x + k, r.start.y, r.start.z]))
        .collect();
    v.sort_unstable();
    v
}

/// A ground slab y 0..3 over x, z 0..64, and islands of known sizes around it.
fn islands() -> Grid {
    let mut g = Grid::new();
    let rock = Voxel::filled(ROCK);
    g.fill_box(cuboid([0, 0, 0], [64, 3, 64]), rock);
    // A: a 3×3×3 cube in the air (27).
    g.fill_box(cuboid([4, 10, 4], [3, 3, 3]), rock);
    // B: a 2×2×2 cube touching A only at a corner (8).
    g.fill_box(cuboid([7, 13, 7], [2, 2, 2]), rock);
    // C: a bar of 4, thin (low occupancy), touching A only along an edge.
    g.fill_box(cuboid([3, 13, 3], [1, 1, 4]), Voxel::new(ROCK, 3));
    // D: a 2×1×2 block (4) standing on a water column that reaches the ground.
    g.fill_box(cuboid([20, 3, 20], [1, 7, 1]), Voxel::filled(WATER));
    g.fill_box(cuboid([20, 10, 20], [2, 1, 2]), rock);
    // E: a 3×1×3 slab held up by a one-voxel column: ground, not a piece.
    g.fill_box(cuboid([40, 3, 40], [1, 6, 1]), rock);
    g.fill_box(cuboid([39, 9, 39], [3, 1, 3]), rock);
    // F: an L across the chunk faces x = 32, y = 32 and z = 32 (10 + 10 + 10 + 10 = 40).
    g.fill_box(cuboid([26, 34, 30], [10, 1, 1]), rock);
    g.fill_box(cuboid([26, 24, 30], [1, 10, 1]), rock);
    g.fill_box(cuboid([26, 24, 31], [1, 1, 10]), rock);
    g.fill_box(cuboid([35, 35, 30], [1, 10, 1]), rock);
    // G: one voxel of almost no occupancy, alone (1).
    g.set(VoxelPos::new(50, 20, 10), Voxel::new(ROCK, 0));
    g
}

#[test]
fn known_islands_are_found_with_their_sizes() {
    let found = find(&islands(), 0);
    let pieces = found.pieces();
    let sizes: Vec<u64> = pieces.iter().map(|p| p.voxels).collect();
    assert_eq!(sizes, [40, 27, 8, 4, 4, 1], "{pieces:#?}");
    let a = &pieces[1];
    assert_eq!(
        (a.min, a.max),
        (VoxelPos::new(4, 10, 4), VoxelPos::new(6, 12, 6))
    );
    assert_eq!(a.bounds(), cuboid([4, 10, 4], [3, 3, 3]));
    assert!(
        found.contains(1, VoxelPos::new(5, 11, 5)) && !found.contains(1, VoxelPos::new(7, 13, 7))
    );
    let f = &pieces[0];
    assert_eq!(
        (f.min, f.max),
        (VoxelPos::new(26, 24, 30), VoxelPos::new(35, 44, 40))
    );
    // Ties by size come lowest first: D (y 10) before C (y 13).
    assert_eq!(pieces[3].min, VoxelPos::new(20, 10, 20));
    assert_eq!(pieces[4].min, VoxelPos::new(3, 13, 3));
    for (i, p) in pieces.iter().enumerate() {
        assert_eq!(voxels_of(&found, i).len() as u64, p.voxels);
    }
    // With the bottom layer somewhere without matter, everything floats, the ground too.
    let all = find(&islands(), -5);
    assert_eq!(all.len(), 7);
    assert_eq!(all.pieces()[0].voxels, 64 * 64 * 3 + 6 + 9);
}

/// A plain flood fill over a dense box: the reference the search must agree with.
fn reference(grid: &Grid, table: &MaterialTable, b: VoxelBox, bottom: i32) -> Vec<Vec<[i32; 3]>> {
    let matter = matter_table(table);
    let [sx, sy, sz] = b.size();
    let at = |x: usize, y: usize, z: usize| x + sx * (y + sy * z);
    let solid: Vec<bool> = grid
        .read_box_vec(b)
        .iter()
        .map(|v| matter[usize::from(v.material)])
        .collect();
    let mut seen = vec![false; solid.len()];
    let mut out = Vec::new();
    for start in 0..solid.len() {
        if !solid[start] || seen[start] {
            continue;
        }
        seen[start] = true;
        let (mut stack, mut piece, mut ground) = (vec![start], Vec::new(), false);
        while let Some(i) = stack.pop() {
            let (x, y, z) = (i % sx, (i / sx) % sy, i / (sx * sy));
            let p = [b.min.x + x as i32, b.min.y + y as i32, b.min.z + z as i32];
            ground |= p[1] == bottom;
            piece.push(p);
            let mut visit = |x: usize, y: usize, z: usize| {
                let j = at(x, y, z);
                if solid[j] && !seen[j] {
                    seen[j] = true;
                    stack.push(j);
                }
            };
            if x > 0 {
                visit(x - 1, y, z);
            }
            if x + 1 < sx {
                visit(x + 1, y, z);
            }
            if y > 0 {
                visit(x, y - 1, z);
            }
            if y + 1 < sy {
                visit(x, y + 1, z);
            }
            if z > 0 {
                visit(x, y, z - 1);
            }
            if z + 1 < sz {
                visit(x, y, z + 1);
            }
        }
        if !ground {
            piece.sort_unstable();
            out.push(piece);
        }
    }
    out.sort();
    out
}

#[test]
fn random_worlds_agree_with_a_flood_fill() {
    let table = table();
    for seed in 0..24u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        // Across chunk borders in every direction, negative coordinates included.
        let lo = [-20 - (seed as i32 % 7), -40 + (seed as i32 % 5), -33];
        let size = [45 + (seed as u32 % 9), 40, 38];
        let b = cuboid(lo, size);
        let density = [0.2, 0.3, 0.36, 0.5][seed as usize % 4];
        let mut grid = Grid::new();
        grid.modify_box(b, |_, _| {
            let u: f64 = rng.random();
            if u < density {
                Voxel::new(2 + rng.random_range(0..20), rng.random())
            } else if u < density + 0.1 {
                Voxel::filled(WATER)
            } else {
                Voxel::AIR
            }
        });
        let bottom = lo[1] + 3;
        let found = find(&grid, bottom);
        let mut got: Vec<Vec<[i32; 3]>> = (0..found.len()).map(|i| voxels_of(&found, i)).collect();
        got.sort();
        let want = reference(&grid, &table, b, bottom);
        assert_eq!(got.len(), want.len(), "seed {seed}: piece count");
        assert!(got == want, "seed {seed}: pieces differ");
    }
}

#[test]
fn deleting_is_one_undo_step_and_touches_nothing_else() {
    let mut grid = islands();
    let before = grid.clone();
    let mut history = History::default();
    let found = find(&grid, 0);
    let all_chosen = vec![true; found.len()];
    let changed = delete_pieces(&mut grid, &mut history, &found, &all_chosen).expect("changed");
    assert!(find(&grid, 0).is_empty());
    assert_eq!(history.undo_len(), 1);
    assert_eq!(history.undo_names().next(), Some(DELETE_STEP_NAME));
    // Outside the pieces nothing changed: the ground, the water, the column.
    let all = cuboid([0, 0, 0], [64, 64, 64]);
    for (p, (a, b)) in grid
        .read_box_vec(all)
        .iter()
        .zip(before.read_box_vec(all).iter())
        .enumerate()
    {
        let q = VoxelPos::new((p % 64) as i32, ((p / 64) % 64) as i32, (p / 4096) as i32);
        if (0..found.len()).any(|i| found.contains(i, q)) {
            assert!(a.is_air(), "{q:?}");
            assert!(changed.contains(q));
        } else {
            assert_eq!(a, b, "{q:?}");
        }
    }
    history.undo(&mut grid).expect("undo");
    assert_eq!(find(&grid, 0).pieces(), found.pieces());
    assert_eq!(grid.read_box_vec(all), before.read_box_vec(all));
    // Nothing to delete: no step.
    assert!(delete_pieces(&mut grid, &mut history, &found, &[]).is_none());
    assert_eq!(history.undo_len(), 0);
}

#[test]
fn the_search_can_be_cancelled_and_reports_progress() {
    let grid = islands();
    let p = Progress::new();
    let pieces = find_floating(&grid, &table(), 0, &p).expect("search");
    assert_eq!(p.counts().0, p.counts().1);
    assert!(p.counts().1 >= 4 && !pieces.is_empty());
    p.cancel();
    assert!(matches!(
        find_floating(&grid, &table(), 0, &p),
        Err(Error::Cancelled)
    ));
    assert!(find(&Grid::new(), 0).is_empty());
}

#[test]
fn only_the_chosen_pieces_are_deleted_one_record_per_chunk() {
    let mut grid = islands();
    let found = find(&grid, 0);
    // Keep the big L and the cube; delete the rest.
    let chosen: Vec<bool> = (0..found.len()).map(|i| i >= 2).collect();
    let boxes = found.boxes(&chosen);
    assert!(!boxes.is_empty() && boxes.len() <= 4, "{boxes:?}");
    let mut history = History::default();
    delete_pieces(&mut grid, &mut history, &found, &chosen).expect("changed");
    let after = find(&grid, 0);
    assert_eq!(after.pieces(), &found.pieces()[..2]);
    history.undo(&mut grid).expect("undo");
    assert_eq!(find(&grid, 0).pieces(), found.pieces());
}

/// A world of thousands of one-voxel pieces: each costs a summary, and deleting all of them
/// records one box per chunk.
#[test]
fn many_tiny_pieces_are_cheap_to_find_and_delete() {
    let mut grid = Grid::new();
    let b = cuboid([0, 0, 0], [64, 32, 64]);
    grid.modify_box(b, |p, _| {
        if p.y > 0 && (p.x + p.y + p.z) % 2 == 0 {
            Voxel::filled(ROCK)
        } else {
            Voxel::AIR
        }
    });
    let found = find(&grid, 0);
    assert_eq!(found.len(), 64 * 31 * 64 / 2);
    assert!(found.pieces().iter().all(|p| p.voxels == 1));
    let chosen = vec![true; found.len()];
    assert_eq!(found.boxes(&chosen).len(), 4, "one record per chunk");
    let mut history = History::default();
    delete_pieces(&mut grid, &mut history, &found, &chosen).expect("changed");
    assert!(find(&grid, 0).is_empty());
    assert_eq!(grid.stats().nonair_voxels, 0);
}
