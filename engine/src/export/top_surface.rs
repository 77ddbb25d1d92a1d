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
//! This is where the mesher draws the surface, not the top of a whole voxel: its mip levels place
//! vertices by this very sum (`mesh::nets`, `column_heights`: a line's total occupancy), and at full
//! resolution its ramp crossings (`mesh::ramp`) reconstruct a clamped ramp exactly, which lands on the
//! same height. A ground filled as `clamp(h − y, 0, 1)` gives back `h` (to the 1/256 of the
//! occupancy bytes). When no full voxel lies under `t` before empty space (a thin sheet), the
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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Above the surface: `run` sums the contiguous partial voxels met last.
    Above,
    /// Below `t`, before a full voxel: `run` sums the surface's run.
    Surface,
    /// The height is known; only voxels more than half full met since.
    Below,
    /// The height is known, and a voxel at most half full (or empty) was met below it.
    BelowOutside,
    /// Matter was found under air below the surface: nothing more to learn.
    Overhang,
}

/// A voxel as the walk reads it: 0 for Air and liquids, else its occupancy byte + 1 (so
/// `code / 256` is its occupancy, and `code > 128` means more than half full).
type Code = u16;

/// Codes above this are more than half full (inside the surface).
const HALF: Code = 128;
/// The code of a full voxel.
const FULL: Code = 256;

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

    /// Take voxel `y` of code `code` and material `material`. The common cases (air above the
    /// surface, matter below it) return at once.
    #[inline]
    fn push(&mut self, y: i32, code: Code, material: u8) {
        match self.phase {
            Phase::Above if code == 0 => self.run = 0.0,
            Phase::Below if code > HALF => {}
            Phase::BelowOutside if code <= HALF => {}
            Phase::Overhang => {}
            _ => self.step(y, code, material),
        }
    }

    /// The rest of [`ColumnWalk::push`].
    fn step(&mut self, y: i32, code: Code, material: u8) {
        let occ = f32::from(code) / 256.0;
        match self.phase {
            Phase::Above => {
                self.run += occ;
                if code > HALF {
                    self.material = material;
                    if code >= FULL {
                        self.height = y as f32 + self.run;
                        self.phase = Phase::Below;
                    } else {
                        self.phase = Phase::Surface;
                    }
                }
            }
            Phase::Surface => {
                if code >= FULL {
                    self.height = (y + 1) as f32 + self.run;
                    self.phase = Phase::Below;
                } else if code > 0 {
                    self.run += occ;
                } else {
                    self.height = (y + 1) as f32 + self.run;
                    self.phase = Phase::BelowOutside;
                }
            }
            Phase::Below => self.phase = Phase::BelowOutside,
            Phase::BelowOutside => self.phase = Phase::Overhang,
            Phase::Overhang => {}
        }
    }

    /// The walk reached the box's floor `y0`.
    fn finish(&mut self, y0: i32) {
        if self.phase == Phase::Surface {
            self.height = y0 as f32 + self.run;
            self.phase = Phase::Below;
        }
    }
}

/// The walk's code of `v` (see [`Code`]); `solid[m]` is false for Air and liquids.
#[inline]
fn code_of(v: Voxel, solid: &[bool; MATERIAL_COUNT]) -> Code {
    if solid[usize::from(v.material) % MATERIAL_COUNT] {
        Code::from(v.occupancy) + 1
    } else {
        0
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
    let solid: [bool; MATERIAL_COUNT] = std::array::from_fn(|m| m != 0 && !liquid[m]);
    let tiles: Vec<((i32, i32), Vec<ColumnWalk>)> = columns
        .par_iter()
        .map(|&(cx, cz)| {
            progress.check()?;
            let tile = walk_chunk_column(grid, region, cx, cz, &solid);
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

/// Walk the 32 × 32 columns of chunk column (`cx`, `cz`) through `region`'s Y range, top down;
/// `solid[m]` is false for Air and liquids.
fn walk_chunk_column(
    grid: &Grid,
    region: VoxelBox,
    cx: i32,
    cz: i32,
    solid: &[bool; MATERIAL_COUNT],
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
            walks.iter_mut().for_each(|w| w.push(base + top, 0, 0));
            continue;
        };
        if let Some(m) = chunk.uniform_material() {
            // Every voxel alike and at its default occupancy (full or Air): after the top one, the
            // rest change no walk.
            let code = code_of(Voxel::filled(m), solid);
            walks.iter_mut().for_each(|w| w.push(base + top, code, m));
            continue;
        }
        let voxels = chunk.level0();
        for ly in (bottom..=top).rev() {
            for lz in 0..CHUNK_SIZE {
                let (row, packed) = voxels.read_row_packed(ly as usize, lz, &mut buf);
                let walks_row = &mut walks[lz * CHUNK_SIZE..(lz + 1) * CHUNK_SIZE];
                match row.first() {
                    // A packed row is one voxel repeated: its code is read once.
                    Some(&v) if packed => {
                        let code = code_of(v, solid);
                        walks_row
                            .iter_mut()
                            .for_each(|w| w.push(base + ly, code, v.material));
                    }
                    _ => {
                        for (w, &v) in walks_row.iter_mut().zip(row) {
                            w.push(base + ly, code_of(v, solid), v.material);
                        }
                    }
                }
            }
        }
    }
    walks.iter_mut().for_each(|w| w.finish(y0));
    walks
}

#[cfg(test)]
impl TopSurface {
    /// A surface of `width × depth` columns over a box `top` voxels high, without overhangs or
    /// empty columns (the heightmap and splat tests' fixture).
    pub(crate) fn for_tests(
        width: usize,
        depth: usize,
        top: i32,
        heights: Vec<f32>,
        materials: Vec<u8>,
    ) -> Self {
        use crate::voxel::VoxelPos;
        Self {
            region: VoxelBox::new(
                VoxelPos::new(0, 0, 0),
                VoxelPos::new(width as i32, top, depth as i32),
            ),
            width,
            depth,
            heights,
            materials,
            overhang_columns: 0,
            empty_columns: 0,
        }
    }
}
