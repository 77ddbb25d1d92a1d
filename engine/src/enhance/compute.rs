//! Fragments of the voxels of a box, surface only.
//!
//! ```text
//!   box b (inside one chunk) ──grow by the halo──> class bytes ──keys──> surface flags (window test)
//!     exact subdivision: 4³ tiles of b that hold a surface voxel ──subdivide (tile + 2)──> tile
//!                        fragments ──> each surface voxel's f³ bytes
//!     approximate table / resampling: each surface voxel on its own
//!   each block ──encode──> kept only when it differs from the voxel's own uniform block
//! ```
//!
//! Tiles are about 128 fragments on an edge (32 voxels at two levels, 8 at four): large enough that
//! the kernel's halo costs little and its row-at-a-time fast paths (a uniform row is one `memset`)
//! carry the uniform parts, small enough to stay in cache; tiles with no surface voxel are skipped.

use super::block::{encode, Encoded};
use super::block_list::{local_key, BlockList};
use super::enhancer::{Enhancer, Kind};
use super::subdivide::{subdivide, Scratch};
use super::surface::mark_surface;
use crate::storage::Grid;
use crate::voxel::{ChunkPos, Voxel, VoxelBox, VoxelPos};

/// Voxels per tile edge for exact subdivision at factor `f`: tiles of about 128 fragments per edge
/// (2 MiB of output, cache-sized), 32 voxels at most.
fn tile_edge(f: usize) -> usize {
    (128 / f).clamp(4, 32)
}

/// Buffers reused across boxes (one per worker).
#[derive(Debug, Default)]
pub(crate) struct ChunkScratch {
    voxels: Vec<Voxel>,
    cells: Vec<u8>,
    keys: Vec<u8>,
    surface: Vec<bool>,
    window: [Vec<u8>; 2],
    tile_in: Vec<u8>,
    tile_out: Vec<u8>,
    sub: Scratch,
    block: Vec<u8>,
    yz: Vec<isize>,
    encoded: Encoded,
}

/// The key of a chunk that is one class throughout (`None` when it is not).
fn chunk_key(e: &Enhancer, grid: &Grid, p: ChunkPos) -> Option<u8> {
    let class = match grid.chunk(p) {
        None => 0,
        Some(c) => e.classify(Voxel::filled(c.uniform_material()?)),
    };
    Some(if e.key_by_material() {
        class
    } else {
        u8::from(class != 0)
    })
}

/// The parts of `part` (inside chunk `pos`) whose voxels can have a window that is not uniform: all
/// of it when the chunk is not one class; otherwise the slabs within the window's reach of each
/// neighbour chunk that differs (every window fits in the 3×3×3 chunks: reach ≤ 17). Empty when the
/// chunk and its 26 neighbours all share one key.
pub(crate) fn parts_to_compute(
    e: &Enhancer,
    grid: &Grid,
    pos: ChunkPos,
    part: VoxelBox,
) -> Vec<VoxelBox> {
    let Some(k) = chunk_key(e, grid, pos) else {
        return vec![part];
    };
    let reach = e.window().reach() as i32;
    let cb = pos.voxel_box();
    let mut parts = Vec::new();
    for dz in -1..=1i32 {
        for dy in -1..=1i32 {
            for dx in -1..=1i32 {
                let d = [dx, dy, dz];
                if d == [0, 0, 0] {
                    continue;
                }
                let n = ChunkPos::new(pos.x + dx, pos.y + dy, pos.z + dz);
                if chunk_key(e, grid, n) == Some(k) {
                    continue;
                }
                let (lo, hi) = (cb.min.to_array(), cb.max.to_array());
                let range = |a: usize| match d[a] {
                    -1 => (lo[a], lo[a] + reach),
                    1 => (hi[a] - reach, hi[a]),
                    _ => (lo[a], hi[a]),
                };
                let (x, y, z) = (range(0), range(1), range(2));
                let slab =
                    VoxelBox::new(VoxelPos::new(x.0, y.0, z.0), VoxelPos::new(x.1, y.1, z.1));
                let slab = slab.intersect(&part);
                if !slab.is_empty() {
                    parts.push(slab);
                }
            }
        }
    }
    parts
}

/// Compute the stored blocks of the voxels of `b` (which lies inside one chunk) into `list`.
pub(crate) fn compute_box(
    e: &Enhancer,
    grid: &Grid,
    b: VoxelBox,
    s: &mut ChunkScratch,
    list: &mut BlockList,
) {
    if b.is_empty() {
        return;
    }
    let h = e.halo();
    let hi = h as i32;
    let g = VoxelBox::new(
        VoxelPos::new(b.min.x - hi, b.min.y - hi, b.min.z - hi),
        VoxelPos::new(b.max.x + hi, b.max.y + hi, b.max.z + hi),
    );
    e.gather(grid, g, &mut s.voxels, &mut s.cells);
    s.keys.clear();
    if e.key_by_material() {
        s.keys.extend_from_slice(&s.cells);
    } else {
        s.keys.extend(s.cells.iter().map(|&c| u8::from(c != 0)));
    }
    let gd = g.size();
    mark_surface(
        &s.keys,
        gd,
        h,
        e.window(),
        !e.key_by_material(),
        &mut s.window,
        &mut s.surface,
    );
    if !s.surface.contains(&true) {
        return;
    }
    let size = b.size();
    let f = e.factor();
    let cell_at = |x: usize, y: usize, z: usize| ((z + h) * gd[1] + y + h) * gd[0] + x + h;
    let key_of = |x: usize, y: usize, z: usize| {
        local_key(VoxelPos::new(
            b.min.x + x as i32,
            b.min.y + y as i32,
            b.min.z + z as i32,
        ))
    };
    match &e.kind {
        Kind::Subdivide { levels, rules } => {
            let tile = tile_edge(f);
            for tz in (0..size[2]).step_by(tile) {
                for ty in (0..size[1]).step_by(tile) {
                    for tx in (0..size[0]).step_by(tile) {
                        let t0 = [tx, ty, tz];
                        let t = [0, 1, 2].map(|a| tile.min(size[a] - t0[a]));
                        let has_surface = (0..t[2]).any(|z| {
                            (0..t[1]).any(|y| {
                                let row = ((tz + z) * size[1] + ty + y) * size[0] + tx;
                                s.surface[row..row + t[0]].contains(&true)
                            })
                        });
                        if !has_surface {
                            continue;
                        }
                        let dims = t.map(|d| d + 4);
                        s.tile_in.clear();
                        for z in 0..dims[2] {
                            for y in 0..dims[1] {
                                let at =
                                    ((tz + z + h - 2) * gd[1] + ty + y + h - 2) * gd[0] + tx + h
                                        - 2;
                                s.tile_in.extend_from_slice(&s.cells[at..at + dims[0]]);
                            }
                        }
                        let origin_y = b.min.y + ty as i32 - 2;
                        // Only the rows of surface voxels are extracted: skip the others' fragments.
                        let surface = &s.surface;
                        s.sub.want_rows(
                            (0..t[2]).flat_map(|z| {
                                (0..t[1]).map(move |y| {
                                    let row = ((tz + z) * size[1] + ty + y) * size[0] + tx;
                                    surface[row..row + t[0]].contains(&true)
                                })
                            }),
                            t[1],
                        );
                        subdivide(
                            &s.tile_in,
                            dims,
                            origin_y,
                            *levels,
                            rules,
                            &mut s.sub,
                            &mut s.tile_out,
                        );
                        let od = t.map(|d| d * f);
                        for z in 0..t[2] {
                            for y in 0..t[1] {
                                for x in 0..t[0] {
                                    let (vx, vy, vz) = (tx + x, ty + y, tz + z);
                                    if !s.surface[(vz * size[1] + vy) * size[0] + vx] {
                                        continue;
                                    }
                                    voxel_fragments(&s.tile_out, od, [x, y, z], f, &mut s.block);
                                    let implicit = s.cells[cell_at(vx, vy, vz)];
                                    if encode(&s.block, implicit, &mut s.encoded) {
                                        list.push(key_of(vx, vy, vz), &s.encoded, &s.block);
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        _ => {
            for z in 0..size[2] {
                for y in 0..size[1] {
                    for x in 0..size[0] {
                        if !s.surface[(z * size[1] + y) * size[0] + x] {
                            continue;
                        }
                        let centre = cell_at(x, y, z);
                        let altitude = b.min.y + y as i32;
                        e.voxel_block(&s.cells, gd, centre, altitude, &mut s.yz, &mut s.block);
                        if encode(&s.block, s.cells[centre], &mut s.encoded) {
                            list.push(key_of(x, y, z), &s.encoded, &s.block);
                        }
                    }
                }
            }
        }
    }
}

/// The `f³` fragments of voxel `v` of a tile's output (`od` fragments per axis) into `block`, X
/// fastest. Subdivision factors are powers of two; those rows are copied at a size known when
/// compiling, which keeps the copies inline.
fn voxel_fragments(tile: &[u8], od: [usize; 3], v: [usize; 3], f: usize, block: &mut Vec<u8>) {
    fn rows<const F: usize>(
        tile: &[u8],
        od: [usize; 3],
        [x, y, z]: [usize; 3],
        block: &mut Vec<u8>,
    ) {
        for k in 0..F {
            for j in 0..F {
                let at = ((z * F + k) * od[1] + y * F + j) * od[0] + x * F;
                let mut row = [0u8; F];
                row.copy_from_slice(&tile[at..at + F]);
                block.extend_from_slice(&row);
            }
        }
    }
    block.clear();
    match f {
        2 => rows::<2>(tile, od, v, block),
        4 => rows::<4>(tile, od, v, block),
        8 => rows::<8>(tile, od, v, block),
        16 => rows::<16>(tile, od, v, block),
        _ => {
            let [x, y, z] = v;
            for k in 0..f {
                for j in 0..f {
                    let at = ((z * f + k) * od[1] + y * f + j) * od[0] + x * f;
                    block.extend_from_slice(&tile[at..at + f]);
                }
            }
        }
    }
}
