//! The top surface of every column of a box: its height to sub-voxel precision, its material, and
//! whether matter lies hidden under air below it (an overhang or a cave, which a heightmap cannot
//! show). One scan, top down, shared by the heightmap and the splat maps.
//!
//! ```text
//!   y ▲  occupancy            walking down the column (solid matter only; Air and liquids are empty)
//!     │  ░ 0                  ─ empty: the run of partial voxels above starts again
//!     │  ▒ 0.3  ┐ run         ─ partial (≤ ½): added to the run
//!     │  ▓ 0.8  ┘ t           ─ the highest voxel more than half full: the surface is here
//!     │  █ 1.0    b           ─ the first full voxel below t: the run's base
//!     │  █                    height H = (b + 1) + Σ occupancy of the run (t and the partials above)
//!     │  ░ 0      ← air below the surface ...
//!     │  █        ← ... and matter under it: an overhang column
//! ```
//!
//! # The height formula
//! Occupancy is the amount of matter around a voxel's centre, so across a surface it is a clamped ramp
//! (1 inside, 0 outside). Summing a column's occupancy conserves that matter whatever the ramp's width:
//! with `b` the first full voxel under the highest voxel `t` that is more than half full, and the run
//! the contiguous voxels from `b + 1` up to the last one holding matter above `t`,
//!
//! `H = (b + 1) + Σ_{y = b+1}^{run top} occupancy(y)`   (world Y, voxel `y` spanning `y..y + 1`).
//!
//! This is the height the mesher gives the surface in a column (`mesh::nets`, `column_heights`: the
//! line's total occupancy), not the top of a whole voxel: a ground filled as `clamp(h − y, 0, 1)`
//! gives back `h` exactly. When no full voxel lies under `t` before empty space (a thin sheet), the
//! run starts at the first voxel of it; at the box's floor, at the floor. A column with no voxel more
//! than half full has no surface: it reports the box's floor and counts as empty.
//!
//! The surface material is the material of `t`. Chunk columns are scanned in parallel (rayon); a
//! uniform chunk or a missing one is one step per column, not 32.

use rayon::prelude::*;

use crate::progress::Progress;
use crate::storage::{Grid, RowBuf};
use crate::voxel::{ChunkPos, Voxel, VoxelBox, CHUNK_SIZE, MATERIAL_COUNT};
use crate::{Error, Result};

/// Largest number of columns (width × depth of the box) one scan reads: 2³⁰ (a 32768² box), so the
/// per-column results (6 bytes each) stay under 6.5 GB even at the limit.
pub const MAX_SCAN_COLUMNS: u64 = 1 << 30;

/// The top surface of each column of a box, X fastest, then Z.
#[derive(Debug, Clone, PartialEq)]
pub struct TopSurface {
    /// The box scanned.
    pub region: VoxelBox,
    /// Columns along X (the box's X size).
    pub width: usize,
    /// Columns along Z (the box's Z size).
    pub depth: usize,
    /// Surface height per column in world Y (see the module docs); the box's floor where a column
    /// holds no surface.
    pub heights: Vec<f32>,
    /// Surface material per column; 0 (Air) where a column holds no surface.
    pub materials: Vec<u8>,
    /// Columns whose surface hides matter below air (overhangs, caves, floating pieces).
    pub overhang_columns: u64,
    /// Columns with no solid voxel more than half full.
    pub empty_columns: u64,
}

impl TopSurface {
    /// Columns holding each material as their surface, by material id.
    pub fn material_columns(&self) -> [u64; MATERIAL_COUNT] {
        let mut counts = [0u64; MATERIAL_COUNT];
        for &m in &self.materials {
            if m != 0 {
                counts[usize::from(m) % MATERIAL_COUNT] += 1;
            }
        }
        counts
    }
}

/// Where one column's top-down walk stands.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Phase {
    /// Above the surface: `run` sums the contiguous partial voxels met last.
    Above,
    /// Below `t`, before a full voxel: `run` sums the surface's run.
    Surface,
    /// The height is known; `outside` once a voxel at most half full (or not solid) was met.
    Below { outside: bool },
    /// Matter was found under air below the surface: nothing more to learn.
    Overhang,
}

/// One column's walk (see the module docs).
#[derive(Debug, Clone, Copy)]
struct ColumnWalk {
    phase: Phase,
    run: f32,
    height: f32,
    material: u8,
}

impl ColumnWalk {
    const START: Self = Self {
        phase: Phase::Above,
        run: 0.0,
        height: f32::NAN,
        material: 0,
    };

    /// Take voxel `y` (solid occupancy `occ`, 0 for Air and liquids) of material `material`.
    #[inline]
    fn push(&mut self, y: i32, occ: f32, material: u8) {
        match self.phase {
            Phase::Above => {
                if occ > 0.5 {
                    self.material = material;
                    self.run += occ;
                    if occ >= 1.0 {
                        self.height = y as f32 + self.run;
                        self.phase = Phase::Below { outside: false };
                    } else {
                        self.phase = Phase::Surface;
                    }
                } else if occ > 0.0 {
                    self.run += occ;
                } else {
                    self.run = 0.0;
                }
            }
            Phase::Surface => {
                if occ >= 1.0 {
                    self.height = (y + 1) as f32 + self.run;
                    self.phase = Phase::Below { outside: false };
                } else if occ > 0.0 {
                    self.run += occ;
                } else {
                    self.height = (y + 1) as f32 + self.run;
                    self.phase = Phase::Below { outside: true };
                }
            }
            Phase::Below { outside } => {
                if occ <= 0.5 {
                    self.phase = Phase::Below { outside: true };
                } else if outside {
                    self.phase = Phase::Overhang;
                }
            }
            Phase::Overhang => {}
        }
    }

    /// The walk reached the box's floor `y0`.
    fn finish(&mut self, y0: i32) {
        if self.phase == Phase::Surface {
            self.height = y0 as f32 + self.run;
            self.phase = Phase::Below { outside: false };
        }
    }
}

/// The solid occupancy of `v` (0 for Air and for liquids).
#[inline]
fn solid_occupancy(v: Voxel, liquid: &[bool; MATERIAL_COUNT]) -> f32 {
    if liquid[usize::from(v.material) % MATERIAL_COUNT] {
        0.0
    } else {
        v.occupancy_f32()
    }
}

/// Scan the top surface of every column of `region` in `grid`. `liquid[m]` tells which materials are
/// liquids (they count as empty). `progress` counts chunk columns; cancelling stops the scan.
///
/// # Errors
/// [`Error::Invalid`] for an empty box, a box outside the coordinate range, or one over
/// [`MAX_SCAN_COLUMNS`] columns; [`Error::Cancelled`].
pub fn scan_top_surface(
    grid: &Grid,
    region: VoxelBox,
    liquid: &[bool; MATERIAL_COUNT],
    progress: &Progress,
) -> Result<TopSurface> {
    region.check_range("the heightmap box")?;
    if region.is_empty() {
        return Err(Error::Invalid("the heightmap box is empty".into()));
    }
    let [sx, _, sz] = region.size();
    if sx as u64 * sz as u64 > MAX_SCAN_COLUMNS {
        return Err(Error::Invalid(format!(
            "the box is {sx}x{sz} columns; a heightmap reads at most {MAX_SCAN_COLUMNS} (2^30)"
        )));
    }
    progress.start(chunk_columns(region).len() as u64);
    scan_counted(grid, region, liquid, progress)
}

/// The chunk columns (`cx`, `cz`) `region` reaches, X fastest.
fn chunk_columns(region: VoxelBox) -> Vec<(i32, i32)> {
    let n = CHUNK_SIZE as i32;
    let (min, max) = (region.min, region.max);
    let chunk_range = |lo: i32, hi: i32| lo.div_euclid(n)..=(hi - 1).div_euclid(n);
    chunk_range(min.z, max.z)
        .flat_map(|cz| chunk_range(min.x, max.x).map(move |cx| (cx, cz)))
        .collect()
}

/// [`scan_top_surface`] of a checked box, advancing `progress` by one per chunk column without
/// declaring the work (the caller has).
pub(crate) fn scan_counted(
    grid: &Grid,
    region: VoxelBox,
    liquid: &[bool; MATERIAL_COUNT],
    progress: &Progress,
) -> Result<TopSurface> {
    let n = CHUNK_SIZE as i32;
    let (min, max) = (region.min, region.max);
    let [sx, _, sz] = region.size();
    let columns = chunk_columns(region);
    let tiles: Vec<((i32, i32), Vec<ColumnWalk>)> = columns
        .par_iter()
        .map(|&(cx, cz)| {
            progress.check()?;
            let tile = walk_chunk_column(grid, region, cx, cz, liquid);
            progress.advance(1);
            Ok(((cx, cz), tile))
        })
        .collect::<Result<_>>()?;
    let mut out = TopSurface {
        region,
        width: sx,
        depth: sz,
        heights: vec![min.y as f32; sx * sz],
        materials: vec![0; sx * sz],
        overhang_columns: 0,
        empty_columns: 0,
    };
    for ((cx, cz), tile) in tiles {
        for (i, walk) in tile.iter().enumerate() {
            let x = cx * n + (i % CHUNK_SIZE) as i32;
            let z = cz * n + (i / CHUNK_SIZE) as i32;
            if x < min.x || x >= max.x || z < min.z || z >= max.z {
                continue;
            }
            let at = (z - min.z) as usize * sx + (x - min.x) as usize;
            if walk.height.is_nan() {
                out.empty_columns += 1;
                continue;
            }
            out.heights[at] = walk.height;
            out.materials[at] = walk.material;
            out.overhang_columns += u64::from(walk.phase == Phase::Overhang);
        }
    }
    Ok(out)
}

/// Walk the 32 × 32 columns of chunk column (`cx`, `cz`) through `region`'s Y range, top down.
fn walk_chunk_column(
    grid: &Grid,
    region: VoxelBox,
    cx: i32,
    cz: i32,
    liquid: &[bool; MATERIAL_COUNT],
) -> Vec<ColumnWalk> {
    let n = CHUNK_SIZE as i32;
    let mut walks = vec![ColumnWalk::START; CHUNK_SIZE * CHUNK_SIZE];
    let (y0, y1) = (region.min.y, region.max.y);
    let mut buf = RowBuf::new();
    for cy in (y0.div_euclid(n)..=(y1 - 1).div_euclid(n)).rev() {
        let base = cy * n;
        let top = (y1 - base).min(n) - 1;
        let bottom = (y0 - base).max(0);
        let Some(chunk) = grid.chunk(ChunkPos::new(cx, cy, cz)) else {
            // A missing chunk is Air: one empty voxel tells each walk all it would learn.
            walks.iter_mut().for_each(|w| w.push(base + top, 0.0, 0));
            continue;
        };
        if let Some(m) = chunk.uniform_material() {
            // Every voxel alike and at its default occupancy (full or Air): after the top one, the
            // rest change no walk.
            let v = Voxel::filled(m);
            let occ = solid_occupancy(v, liquid);
            walks.iter_mut().for_each(|w| w.push(base + top, occ, m));
            continue;
        }
        for ly in (bottom..=top).rev() {
            for lz in 0..CHUNK_SIZE {
                let row = chunk.read_row(ly as usize, lz, &mut buf);
                let walks_row = &mut walks[lz * CHUNK_SIZE..(lz + 1) * CHUNK_SIZE];
                for (w, &v) in walks_row.iter_mut().zip(row) {
                    if w.phase != Phase::Overhang {
                        w.push(base + ly, solid_occupancy(v, liquid), v.material);
                    }
                }
            }
        }
    }
    walks.iter_mut().for_each(|w| w.finish(y0));
    walks
}
