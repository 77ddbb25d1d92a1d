//! The packed 1-bit solidity volume that light walks read.
//!
//! ```text
//!   cells: the 8³ bricks over the volume's box, X fastest, then Y, then Z
//!   words: 8 × u64 per cell, one word per z slice, bit (y·8 + x): one cache line per brick
//!          word of voxel (x, y, z) = ((z/8 · ny + y/8) · nx + x/8) · 8 + z mod 8
//!   clear: 1 byte per cell, clearance c: every brick less than c bricks away (Chebyshev) is
//!          empty (capped at 8)
//! ```
//!
//! A voxel is solid when its occupancy is at least one half and its material is neither Air nor a
//! liquid. Everything outside the box is empty. The volume knows nothing about materials or chunks
//! once built: [`SolidVolume::from_fn`] builds one from any predicate, so the same walks run on a finer
//! grid (voxel detail enhancement's fragments) as on the voxels.
//!
//! # Rationale
//! A walk step must cost a few nanoseconds, so its solidity test is one word load at an address
//! computed from the position, with no hashing, no directory and no branching on chunk kinds: every
//! brick of the box is stored, one cache line each. The volume costs 65 bytes per brick of the padded
//! box: 1.7 MB for the default 256×96×256 world, 38 MB for 1024×256×1024. (A directory of brick
//! indices with shared empty and full bricks needed 7–8 times less, 0.23 and 4.6 MB, but its
//! dependent second load made the same walk loop 1–4 % slower.) The clearance, read beside the
//! word, lets a particle far from everything skip bit tests and stop early: it cannot reach a solid
//! voxel in the steps it has left, so it survives whatever it draws. Edits patch only the bricks
//! they touch and the clearance around them ([`SolidVolume::patch`]).

use rayon::prelude::*;

use crate::storage::{Chunk, Grid, RowBuf};
use crate::voxel::{
    MaterialTable, VoxelBox, VoxelPos, AIR, CHUNK_SIZE, FACE_OFFSETS, MATERIAL_COUNT,
};
use crate::{Error, Result};

/// Brick edge in voxels.
pub const BRICK: i32 = 8;
/// Largest clearance stored, in bricks.
pub(crate) const MAX_CLEAR: u32 = 8;
/// Most cells a volume may have (2.2 GB of bricks and clearances).
const MAX_CELLS: usize = 1 << 25;
/// Empty bricks added around the occupied box on every side, so particles that leave the terrain
/// stay inside the volume, where the clearance lets them skip bit tests and finish early.
const PAD: i32 = 4;

type Words = [u64; 8];
const EMPTY_WORDS: Words = [0; 8];
const FULL_WORDS: Words = [u64::MAX; 8];

/// One surface voxel: a solid voxel with at least one non-solid face neighbour, and which faces are
/// open (bit `k` for [`FACE_OFFSETS`]`[k]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SurfaceVoxel {
    /// Where it is.
    pub pos: VoxelPos,
    /// Open faces, bit `k` = face `FACE_OFFSETS[k]`.
    pub open: u8,
}

/// Which materials count as solid (at occupancy ≥ ½).
#[derive(Debug, Clone, Copy)]
pub struct SolidRule {
    solid: [bool; MATERIAL_COUNT],
}

impl SolidRule {
    /// Solid materials of `table`: every one that is neither Air nor a liquid.
    pub fn new(table: &MaterialTable) -> Self {
        let mut solid = [false; MATERIAL_COUNT];
        for (i, m) in table.materials.iter().enumerate().take(MATERIAL_COUNT) {
            solid[i] = i != usize::from(AIR) && !m.liquid;
        }
        Self { solid }
    }

    /// True for a voxel that is solid for lighting: occupancy byte ≥ 127 (occupancy ≥ 0.5) and a
    /// solid material.
    #[inline]
    pub fn is_solid(&self, v: crate::voxel::Voxel) -> bool {
        v.occupancy >= 127 && self.solid[usize::from(v.material & 0x3f)]
    }

    /// Solidity bits of a row of voxels (bit `x` for voxel `x`, at most 32).
    fn row_bits(&self, row: &[crate::voxel::Voxel]) -> u32 {
        row.iter()
            .enumerate()
            .fold(0, |m, (x, v)| m | (u32::from(self.is_solid(*v)) << x))
    }
}

/// The packed solidity volume (see the module docs).
#[derive(Debug, Clone, Default)]
pub struct SolidVolume {
    /// Voxel position of cell (0, 0, 0)'s first voxel; a multiple of 8.
    pub(crate) origin: [i32; 3],
    /// Size in cells (bricks).
    pub(crate) cells: [u32; 3],
    /// Brick words, 8 per cell (see the module docs).
    pub(crate) bricks: Vec<Words>,
    /// Clearance per cell, in bricks.
    pub(crate) clear: Vec<u8>,
}

fn floor_div(a: i32, b: i32) -> i32 {
    a.div_euclid(b)
}

impl SolidVolume {
    /// An empty volume (every voxel empty).
    pub fn empty() -> Self {
        Self::default()
    }

    /// The volume of `grid` under `table`'s materials, over the box of its stored chunks. Chunks are
    /// read in parallel (rayon).
    ///
    /// # Errors
    /// [`Error::Invalid`] when the world is too large for one volume.
    pub fn from_grid(grid: &Grid, table: &MaterialTable) -> Result<Self> {
        let rule = SolidRule::new(table);
        let mut bounds = VoxelBox::default();
        for (pos, _) in grid.chunks() {
            bounds = bounds.union(&pos.voxel_box());
        }
        let mut vol = Self::with_bounds(bounds)?;
        let mut chunks: Vec<_> = grid.chunks().collect();
        chunks.sort_unstable_by_key(|(p, _)| (p.z, p.y, p.x));
        let filled: Vec<Vec<(usize, Words)>> = chunks
            .par_iter()
            .map(|(pos, chunk)| {
                let min = pos.min_voxel();
                let per = CHUNK_SIZE as i32 / BRICK;
                let mut out = Vec::with_capacity(64);
                for bz in 0..per {
                    for by in 0..per {
                        for bx in 0..per {
                            let at = VoxelPos::new(
                                min.x + bx * BRICK,
                                min.y + by * BRICK,
                                min.z + bz * BRICK,
                            );
                            if let Some(cell) = vol.cell_of(at) {
                                out.push((cell, chunk_brick(chunk, at, &rule)));
                            }
                        }
                    }
                }
                out
            })
            .collect();
        for (cell, words) in filled.into_iter().flatten() {
            vol.store(cell, words);
        }
        vol.update_clearance([0; 3], vol.cells);
        Ok(vol)
    }

    /// A volume over `bounds` whose voxel `p` is solid when `solid(p)` (for instance a fragment grid
    /// finer than the voxels). Bricks are filled in parallel.
    ///
    /// # Errors
    /// [`Error::Invalid`] when `bounds` is too large for one volume.
    pub fn from_fn(bounds: VoxelBox, solid: impl Fn(VoxelPos) -> bool + Sync) -> Result<Self> {
        let mut vol = Self::with_bounds(bounds)?;
        let n = vol.clear.len();
        let filled: Vec<Words> = (0..n)
            .into_par_iter()
            .map(|cell| {
                let min = vol.cell_min(cell);
                let mut w = [0u64; 8];
                for (z, word) in w.iter_mut().enumerate() {
                    for y in 0..8 {
                        for x in 0..8 {
                            let p = VoxelPos::new(min.x + x, min.y + y, min.z + z as i32);
                            if bounds.contains(p) && solid(p) {
                                *word |= 1 << (y * 8 + x);
                            }
                        }
                    }
                }
                w
            })
            .collect();
        for (cell, words) in filled.into_iter().enumerate() {
            vol.store(cell, words);
        }
        vol.update_clearance([0; 3], vol.cells);
        Ok(vol)
    }

    /// An all-empty volume whose cells cover `bounds` (rounded out to bricks) and [`PAD`] bricks
    /// more on every side.
    fn with_bounds(bounds: VoxelBox) -> Result<Self> {
        let mut vol = Self::empty();
        if bounds.is_empty() {
            return Ok(vol);
        }
        let lo = [bounds.min.x, bounds.min.y, bounds.min.z].map(|a| floor_div(a, BRICK) - PAD);
        let hi =
            [bounds.max.x, bounds.max.y, bounds.max.z].map(|a| floor_div(a - 1, BRICK) + 1 + PAD);
        let cells = [0, 1, 2].map(|a| (i64::from(hi[a]) - i64::from(lo[a])) as u64);
        let total = cells.iter().try_fold(1u64, |acc, &c| acc.checked_mul(c));
        if total.is_none_or(|t| t > MAX_CELLS as u64) || cells.iter().any(|&c| c > 1 << 27) {
            return Err(Error::Invalid(format!(
                "a light volume over {bounds:?} would be too large"
            )));
        }
        vol.origin = lo.map(|c| c * BRICK);
        vol.cells = cells.map(|c| c as u32);
        let total = total.unwrap_or(0) as usize;
        vol.bricks = vec![EMPTY_WORDS; total];
        vol.clear = vec![0; total];
        Ok(vol)
    }

    /// The box the cells cover (everything outside it is empty).
    pub fn bounds(&self) -> VoxelBox {
        let o = self.origin;
        let s = self.cells.map(|c| c as i32 * BRICK);
        VoxelBox::new(
            VoxelPos::new(o[0], o[1], o[2]),
            VoxelPos::new(o[0] + s[0], o[1] + s[1], o[2] + s[2]),
        )
    }

    /// The box without its padding (the cells' box shrunk by [`PAD`] bricks).
    fn unpadded(&self) -> VoxelBox {
        let b = self.bounds();
        if b.is_empty() {
            return b;
        }
        let p = PAD * BRICK;
        VoxelBox::new(
            VoxelPos::new(b.min.x + p, b.min.y + p, b.min.z + p),
            VoxelPos::new(b.max.x - p, b.max.y - p, b.max.z - p),
        )
    }

    /// Index of the cell holding `p`, if inside.
    fn cell_of(&self, p: VoxelPos) -> Option<usize> {
        let rel = [p.x, p.y, p.z]
            .iter()
            .zip(self.origin)
            .map(|(&a, o)| i64::from(a) - i64::from(o))
            .collect::<Vec<_>>();
        let c: Vec<i64> = rel.iter().map(|r| r.div_euclid(i64::from(BRICK))).collect();
        if (0..3).any(|a| c[a] < 0 || c[a] >= i64::from(self.cells[a])) {
            return None;
        }
        let [nx, ny, _] = self.cells.map(|v| v as usize);
        Some((c[2] as usize * ny + c[1] as usize) * nx + c[0] as usize)
    }

    /// First voxel of cell `cell`.
    fn cell_min(&self, cell: usize) -> VoxelPos {
        let [nx, ny, _] = self.cells.map(|v| v as usize);
        let (x, y, z) = (cell % nx, (cell / nx) % ny, cell / (nx * ny));
        VoxelPos::new(
            self.origin[0] + x as i32 * BRICK,
            self.origin[1] + y as i32 * BRICK,
            self.origin[2] + z as i32 * BRICK,
        )
    }

    /// Put `words` in cell `cell`.
    fn store(&mut self, cell: usize, words: Words) {
        self.bricks[cell] = words;
    }

    /// The words of the brick at cell coordinates `c` (empty outside).
    fn words_at(&self, c: [i64; 3]) -> Words {
        if (0..3).any(|a| c[a] < 0 || c[a] >= i64::from(self.cells[a])) {
            return [0; 8];
        }
        let [nx, ny, _] = self.cells.map(|v| v as usize);
        let cell = (c[2] as usize * ny + c[1] as usize) * nx + c[0] as usize;
        self.bricks[cell]
    }

    /// True when voxel `p` is solid.
    #[inline]
    pub fn is_solid(&self, p: VoxelPos) -> bool {
        let rel = [
            i64::from(p.x) - i64::from(self.origin[0]),
            i64::from(p.y) - i64::from(self.origin[1]),
            i64::from(p.z) - i64::from(self.origin[2]),
        ];
        if (0..3).any(|a| rel[a] < 0 || rel[a] >= i64::from(self.cells[a]) * i64::from(BRICK)) {
            return false;
        }
        let [x, y, z] = rel.map(|r| r as usize);
        let [nx, ny, _] = self.cells.map(|v| v as usize);
        let cell = ((z >> 3) * ny + (y >> 3)) * nx + (x >> 3);
        self.bricks[cell][z & 7] >> ((y & 7) * 8 + (x & 7)) & 1 != 0
    }

    /// Re-read the voxels of `changed` from `grid` (after an edit), growing the volume if the box
    /// lies outside it, and refresh the clearance around it. The result equals
    /// [`SolidVolume::from_grid`] of the edited grid voxel for voxel.
    ///
    /// # Errors
    /// [`Error::Invalid`] when growing would make the volume too large.
    pub fn patch(&mut self, grid: &Grid, table: &MaterialTable, changed: VoxelBox) -> Result<()> {
        if changed.is_empty() {
            return Ok(());
        }
        let rule = SolidRule::new(table);
        let mut grown = VoxelBox::default();
        for pos in changed.chunks() {
            if grid.chunk(pos).is_some() {
                grown = grown.union(&pos.voxel_box());
            }
        }
        let inside = self.bounds();
        if !grown.is_empty() && grown.union(&inside) != inside {
            self.grow_to(grown.union(&self.unpadded()))?;
        }
        let Some((lo, hi)) = self.cell_range(changed) else {
            return Ok(());
        };
        let [nx, ny, _] = self.cells.map(|v| v as usize);
        for z in lo[2]..hi[2] {
            for y in lo[1]..hi[1] {
                for x in lo[0]..hi[0] {
                    let cell = (z as usize * ny + y as usize) * nx + x as usize;
                    let at = self.cell_min(cell);
                    let words = grid
                        .chunk(at.chunk())
                        .map_or([0; 8], |c| chunk_brick(c, at, &rule));
                    self.store(cell, words);
                }
            }
        }
        // Emptiness changed in [lo, hi): clearances change up to MAX_CLEAR cells around it.
        let glo = lo.map(|v| v.saturating_sub(MAX_CLEAR));
        let ghi = [0, 1, 2].map(|a| (hi[a] + MAX_CLEAR).min(self.cells[a]));
        self.update_clearance(glo, ghi);
        Ok(())
    }

    /// The cells `[lo, hi)` a box overlaps, clamped to the volume; `None` when none.
    fn cell_range(&self, b: VoxelBox) -> Option<([u32; 3], [u32; 3])> {
        let bmin = [b.min.x, b.min.y, b.min.z];
        let bmax = [b.max.x, b.max.y, b.max.z];
        let mut lo = [0u32; 3];
        let mut hi = [0u32; 3];
        for a in 0..3 {
            let l = (i64::from(bmin[a]) - i64::from(self.origin[a])).div_euclid(8);
            let h = (i64::from(bmax[a]) - 1 - i64::from(self.origin[a])).div_euclid(8) + 1;
            let l = l.clamp(0, i64::from(self.cells[a]));
            let h = h.clamp(0, i64::from(self.cells[a]));
            if l >= h {
                return None;
            }
            lo[a] = l as u32;
            hi[a] = h as u32;
        }
        Some((lo, hi))
    }

    /// Re-lay the cells over `bounds` (which holds the current box), keeping every brick.
    fn grow_to(&mut self, bounds: VoxelBox) -> Result<()> {
        let mut next = Self::with_bounds(bounds)?;
        let shift: Vec<i64> = (0..3)
            .map(|a| i64::from(self.origin[a] - next.origin[a]) / i64::from(BRICK))
            .collect();
        let [nx, ny, nz] = self.cells.map(|v| v as usize);
        let [mx, my, _] = next.cells.map(|v| v as usize);
        for z in 0..nz {
            for y in 0..ny {
                for x in 0..nx {
                    let from = (z * ny + y) * nx + x;
                    let (tx, ty, tz) = (
                        x + shift[0] as usize,
                        y + shift[1] as usize,
                        z + shift[2] as usize,
                    );
                    let to = (tz * my + ty) * mx + tx;
                    next.bricks[to] = self.bricks[from];
                }
            }
        }
        *self = next;
        self.update_clearance([0; 3], self.cells);
        Ok(())
    }

    /// Recompute the clearance of cells `[lo, hi)` from the emptiness of the bricks around them.
    fn update_clearance(&mut self, lo: [u32; 3], hi: [u32; 3]) {
        let c = MAX_CLEAR as i64;
        let elo: Vec<i64> = (0..3).map(|a| (i64::from(lo[a]) - c).max(0)).collect();
        let ehi: Vec<i64> = (0..3)
            .map(|a| (i64::from(hi[a]) + c).min(i64::from(self.cells[a])))
            .collect();
        let size: Vec<usize> = (0..3).map(|a| (ehi[a] - elo[a]).max(0) as usize).collect();
        if size.contains(&0) {
            return;
        }
        let [nx, ny, _] = self.cells.map(|v| v as usize);
        let idx = |x: usize, y: usize, z: usize| (z * size[1] + y) * size[0] + x;
        let mut d = vec![MAX_CLEAR as u8; size[0] * size[1] * size[2]];
        for z in 0..size[2] {
            for y in 0..size[1] {
                for x in 0..size[0] {
                    let cell = ((z + elo[2] as usize) * ny + y + elo[1] as usize) * nx
                        + x
                        + elo[0] as usize;
                    if self.bricks[cell] != EMPTY_WORDS {
                        d[idx(x, y, z)] = 0;
                    }
                }
            }
        }
        for axis in 0..3 {
            d = chebyshev_pass(&d, &size, axis);
        }
        for z in lo[2] as usize..hi[2] as usize {
            for y in lo[1] as usize..hi[1] as usize {
                for x in lo[0] as usize..hi[0] as usize {
                    let cell = (z * ny + y) * nx + x;
                    let v = d[idx(
                        x - elo[0] as usize,
                        y - elo[1] as usize,
                        z - elo[2] as usize,
                    )];
                    self.clear[cell] = v;
                }
            }
        }
    }

    /// Every surface voxel inside `region`, with its open faces, in Z, Y, X brick order (a
    /// deterministic order). Bricks are scanned in parallel; bricks that are empty, or full with full
    /// neighbours, are skipped without reading voxels.
    pub fn surface_in(&self, region: VoxelBox) -> Vec<SurfaceVoxel> {
        let Some((lo, hi)) = self.cell_range(region) else {
            return Vec::new();
        };
        let [nx, ny, _] = self.cells.map(|v| v as usize);
        let slabs: Vec<Vec<SurfaceVoxel>> = (lo[2]..hi[2])
            .into_par_iter()
            .map(|z| {
                let mut out = Vec::new();
                for y in lo[1]..hi[1] {
                    for x in lo[0]..hi[0] {
                        let cell = (z as usize * ny + y as usize) * nx + x as usize;
                        let words = self.bricks[cell];
                        if words == EMPTY_WORDS
                            || (words == FULL_WORDS && self.full_around([x, y, z]))
                        {
                            continue;
                        }
                        self.brick_surface(cell, &region, &mut out);
                    }
                }
                out
            })
            .collect();
        slabs.into_iter().flatten().collect()
    }

    /// True when the six face-neighbour bricks of cell `c` are all full.
    fn full_around(&self, c: [u32; 3]) -> bool {
        FACE_OFFSETS.iter().all(|f| {
            let n = [0, 1, 2].map(|a| i64::from(c[a]) + i64::from(f[a]));
            self.words_at(n) == FULL_WORDS
        })
    }

    fn brick_surface(&self, cell: usize, region: &VoxelBox, out: &mut Vec<SurfaceVoxel>) {
        let min = self.cell_min(cell);
        for z in 0..BRICK {
            for y in 0..BRICK {
                for x in 0..BRICK {
                    let p = VoxelPos::new(min.x + x, min.y + y, min.z + z);
                    if !region.contains(p) || !self.is_solid(p) {
                        continue;
                    }
                    let mut open = 0u8;
                    for (k, f) in FACE_OFFSETS.iter().enumerate() {
                        let n = VoxelPos::new(p.x + f[0], p.y + f[1], p.z + f[2]);
                        if !self.is_solid(n) {
                            open |= 1 << k;
                        }
                    }
                    if open != 0 {
                        out.push(SurfaceVoxel { pos: p, open });
                    }
                }
            }
        }
    }

    /// The open faces of `p` when it is a surface voxel, else `None`.
    pub fn surface_at(&self, p: VoxelPos) -> Option<u8> {
        if !self.is_solid(p) {
            return None;
        }
        let mut open = 0u8;
        for (k, f) in FACE_OFFSETS.iter().enumerate() {
            if !self.is_solid(VoxelPos::new(p.x + f[0], p.y + f[1], p.z + f[2])) {
                open |= 1 << k;
            }
        }
        (open != 0).then_some(open)
    }

    /// Boxes of the bricks whose voxels differ between `self` and `other` (adjacent bricks along X
    /// merged), for marking light stale after edits made while a bake ran on `self`.
    pub fn changed_boxes(&self, other: &SolidVolume) -> Vec<VoxelBox> {
        let all = self.bounds().union(&other.bounds());
        let mut out: Vec<VoxelBox> = Vec::new();
        if all.is_empty() {
            return out;
        }
        let to_cell = |a: i32, o: i32| i64::from((a - o) / BRICK);
        for z in (all.min.z..all.max.z).step_by(BRICK as usize) {
            for y in (all.min.y..all.max.y).step_by(BRICK as usize) {
                let mut run: Option<VoxelBox> = None;
                for x in (all.min.x..all.max.x).step_by(BRICK as usize) {
                    let key = |v: &SolidVolume| {
                        v.words_at([
                            to_cell(x, v.origin[0]),
                            to_cell(y, v.origin[1]),
                            to_cell(z, v.origin[2]),
                        ])
                    };
                    let b = VoxelBox::from_min_size(VoxelPos::new(x, y, z), [8, 8, 8]);
                    if key(self) != key(other) {
                        run = Some(run.map_or(b, |r| r.union(&b)));
                    } else if let Some(r) = run.take() {
                        out.push(r);
                    }
                }
                out.extend(run);
            }
        }
        out
    }

    /// Heap bytes used by the bricks and the clearances.
    pub fn heap_bytes(&self) -> usize {
        self.bricks.capacity() * size_of::<Words>() + self.clear.capacity()
    }

    /// Check the invariants: 8 words and one clearance per cell, and clearances equal to a fresh
    /// computation.
    ///
    /// # Panics
    /// When an invariant does not hold (tests call this after every operation).
    pub fn assert_valid(&self) {
        let cells: usize = self.cells.iter().map(|&c| c as usize).product();
        assert_eq!(self.clear.len(), cells, "one clearance per cell");
        assert_eq!(self.bricks.len(), cells, "one brick per cell");
        let mut fresh = self.clone();
        fresh.update_clearance([0; 3], self.cells);
        let bad = fresh
            .clear
            .iter()
            .zip(&self.clear)
            .position(|(a, b)| a != b);
        assert!(
            bad.is_none(),
            "clearance of cell {bad:?} differs from a fresh computation"
        );
    }
}

impl PartialEq for SolidVolume {
    /// Equal when every voxel has the same solidity (the layouts may differ).
    fn eq(&self, other: &Self) -> bool {
        self.changed_boxes(other).is_empty()
    }
}

/// The words of the 8³ brick whose first voxel is `at`, read from `chunk` (which holds it).
fn chunk_brick(chunk: &Chunk, at: VoxelPos, rule: &SolidRule) -> Words {
    if let Some(m) = chunk.uniform_material() {
        let v = crate::voxel::Voxel::filled(m);
        return if rule.is_solid(v) {
            FULL_WORDS
        } else {
            EMPTY_WORDS
        };
    }
    let [lx, ly, lz] = at.local();
    let mut w = [0u64; 8];
    let mut buf = RowBuf::new();
    for (z, word) in w.iter_mut().enumerate() {
        for y in 0..8 {
            let row = chunk.read_row(ly + y, lz + z, &mut buf);
            let bits = rule.row_bits(&row[lx..lx + 8]);
            *word |= u64::from(bits) << (y * 8);
        }
    }
    w
}

/// One separable pass of the capped Chebyshev distance along `axis`: each value becomes the least
/// `max(|k|, d[i + k])` over `|k| ≤ MAX_CLEAR`.
fn chebyshev_pass(d: &[u8], size: &[usize], axis: usize) -> Vec<u8> {
    let stride = [1, size[0], size[0] * size[1]][axis];
    let n = size[axis] as i64;
    let mut out = vec![MAX_CLEAR as u8; d.len()];
    for (i, o) in out.iter_mut().enumerate() {
        let pos = ((i / stride) % size[axis]) as i64;
        let mut best = d[i];
        for k in 1..=i64::from(MAX_CLEAR) {
            if u32::from(best) <= k as u32 {
                break;
            }
            for s in [-k, k] {
                let q = pos + s;
                if q >= 0 && q < n {
                    let j = (i as i64 + s * stride as i64) as usize;
                    best = best.min(d[j].max(k as u8));
                }
            }
        }
        *o = best;
    }
    out
}
