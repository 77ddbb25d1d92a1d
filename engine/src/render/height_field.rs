//! The top-surface height field of a grid, read from one mip level.
//!
//! ```text
//!   chunk column (cx, cz): stored chunks, scanned top down       one cell per (x, z) of the level
//!     cy = 3  ░░░░░░░░   air              ─┐                      ground: height, material
//!     cy = 2  ░░≈≈≈≈░░   water surface    ─┼─> per cell, first     water:  height, material (if any
//!     cy = 1  ▓▓▓▓▓▓▓▓   ground surface   ─┘   hit wins             water lies above the ground)
//! ```
//!
//! A cell of level `L` covers `2^L` voxels on each axis; its voxels come from the chunk's mip of that
//! level, so a half-resolution field reads 8 times fewer voxels than level 0. The ground is the highest
//! voxel of a solid material with occupancy ≥ 0.5; its height is refined below the voxel size the way
//! the generator fills columns (voxel `y` holds `clamp(h - y, 0, 1)`): `h = y + occ(y) + occ(y + 1)`,
//! where voxel `y + 1` is the partly filled one above, if any. Water is the highest liquid voxel with
//! occupancy ≥ 0.5 above the ground, refined the same way.
//!
//! Chunk columns are scanned in parallel (rayon); each writes its own tile, gathered afterwards.

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::storage::{filled_row, Chunk, Grid, RowBuf};
use crate::voxel::{Voxel, AIR, CHUNK_SIZE, MATERIAL_COUNT};

/// The coarsest field level: cells of 2³⁰ voxels, so the world's whole coordinate range
/// (`COORD_LIMIT`) fits in a few cells.
pub(crate) const MAX_FIELD_LEVEL: u32 = 30;

/// Marks a cell with no ground or no water.
pub(crate) const NONE: f32 = f32::NEG_INFINITY;

/// Heights and materials of the top surface, one cell per `2^level` voxels in X and Z.
#[derive(Debug, Clone)]
pub(crate) struct HeightField {
    /// Mip level the field was read from (0 = full resolution).
    pub level: u32,
    /// World X of cell 0's first voxel.
    pub origin_x: i64,
    /// World Z of cell 0's first voxel.
    pub origin_z: i64,
    /// Cells along X.
    pub width: usize,
    /// Cells along Z.
    pub depth: usize,
    /// Ground height in voxels (world Y), or [`NONE`]; row-major, X fastest.
    pub ground: Vec<f32>,
    /// Ground material per cell.
    pub ground_material: Vec<u8>,
    /// Water surface height in voxels, or [`NONE`] where no water lies above the ground.
    pub water: Vec<f32>,
    /// Water material per cell.
    pub water_material: Vec<u8>,
    /// Width of a cell in voxels, for slopes: `2^level` for fields read from a grid, any positive
    /// value for fields sampled elsewhere ([`HeightField::from_cells`]).
    pub cell_size: f32,
}

/// Half-open bounds of occupied cells: `[x0, z0, x1, z1]` in cells of the field.
pub(crate) type CellBounds = [usize; 4];

impl HeightField {
    /// Read the field of `grid` at `level`: 0..=3 read the chunks' mips; above 3 (up to
    /// [`MAX_FIELD_LEVEL`]) each cell of `2^level` voxels takes the highest ground (and water) of the
    /// level-3 cells inside it, so the field's size follows the world's extent divided by the cell size
    /// and a caller that picks the level from its image size keeps the field near the image's size
    /// however far apart the chunks are. `liquid[m]` tells which materials are liquids.
    pub fn read(grid: &Grid, level: u32, liquid: &[bool; MATERIAL_COUNT]) -> Option<Self> {
        let level = level.min(MAX_FIELD_LEVEL);
        let tile_level = level.min(3);
        let mut columns: FxHashMap<(i32, i32), Vec<i32>> = FxHashMap::default();
        for (pos, _) in grid.chunks() {
            columns.entry((pos.x, pos.z)).or_default().push(pos.y);
        }
        let (min_cx, min_cz) = columns
            .keys()
            .copied()
            .reduce(|a, b| (a.0.min(b.0), a.1.min(b.1)))?;
        let (max_cx, max_cz) = columns
            .keys()
            .copied()
            .reduce(|a, b| (a.0.max(b.0), a.1.max(b.1)))?;
        let tiles: Vec<((i32, i32), Self)> = columns
            .into_par_iter()
            .map(|((cx, cz), mut ys)| {
                ys.sort_unstable_by(|a, b| b.cmp(a));
                ((cx, cz), scan_column(grid, cx, cz, &ys, tile_level, liquid))
            })
            .collect();
        let voxel = |c: i32| i64::from(c) * CHUNK_SIZE as i64;
        let cell = 1i64 << level;
        let origin_x = voxel(min_cx).div_euclid(cell) * cell;
        let origin_z = voxel(min_cz).div_euclid(cell) * cell;
        let width = ((voxel(max_cx + 1) - 1 - origin_x) / cell + 1) as usize;
        let depth = ((voxel(max_cz + 1) - 1 - origin_z) / cell + 1) as usize;
        let mut field = Self::empty(level, origin_x, origin_z, width, depth);
        let n = CHUNK_SIZE >> tile_level;
        let tile_cell = 1i64 << tile_level;
        for ((cx, cz), tile) in tiles {
            for z in 0..n {
                for x in 0..n {
                    let src = z * n + x;
                    let dx = (voxel(cx) + x as i64 * tile_cell - origin_x) / cell;
                    let dz = (voxel(cz) + z as i64 * tile_cell - origin_z) / cell;
                    field.merge(dz as usize * width + dx as usize, &tile, src, level > 3);
                }
            }
        }
        Some(field)
    }

    /// Fold cell `src` of `tile` into cell `dst`: the higher ground wins, and water is kept when it
    /// lies above the ground that won.
    fn merge(&mut self, dst: usize, tile: &Self, src: usize, coarse: bool) {
        if tile.ground[src] > self.ground[dst] {
            self.ground[dst] = tile.ground[src];
            self.ground_material[dst] = tile.ground_material[src];
        }
        if tile.water[src] > self.water[dst] {
            self.water[dst] = tile.water[src];
            self.water_material[dst] = tile.water_material[src];
        }
        if coarse && self.water[dst] <= self.ground[dst] {
            self.water[dst] = NONE;
        }
    }

    /// The field of the single chunk column (`cx`, `cz`) at mip `level`.
    pub fn read_column(
        grid: &Grid,
        cx: i32,
        cz: i32,
        level: u32,
        liquid: &[bool; MATERIAL_COUNT],
    ) -> Self {
        let mut ys: Vec<i32> = grid
            .chunks()
            .filter(|(p, _)| p.x == cx && p.z == cz)
            .map(|(p, _)| p.y)
            .collect();
        ys.sort_unstable_by(|a, b| b.cmp(a));
        scan_column(grid, cx, cz, &ys, level.min(3), liquid)
    }

    fn empty(level: u32, origin_x: i64, origin_z: i64, width: usize, depth: usize) -> Self {
        let cells = width * depth;
        Self {
            level,
            origin_x,
            origin_z,
            width,
            depth,
            ground: vec![NONE; cells],
            ground_material: vec![0; cells],
            water: vec![NONE; cells],
            water_material: vec![0; cells],
            cell_size: (1u32 << level) as f32,
        }
    }

    /// A field of `width × depth` cells of `cell_size` voxels each, with no ground or water yet: for
    /// heights sampled from something other than a grid (the generator's preview).
    pub fn from_cells(width: usize, depth: usize, cell_size: f32) -> Self {
        Self {
            cell_size,
            ..Self::empty(0, 0, 0, width, depth)
        }
    }

    /// Voxels per cell along X and Z.
    pub fn cell_voxels(&self) -> i64 {
        1 << self.level
    }

    /// True when the cell holds ground or water.
    pub fn occupied(&self, i: usize) -> bool {
        self.ground[i] > NONE || self.water[i] > NONE
    }

    /// The half-open range of cells holding anything, or `None` for an empty field.
    pub fn occupied_bounds(&self) -> Option<CellBounds> {
        let mut b = [usize::MAX, usize::MAX, 0, 0];
        for z in 0..self.depth {
            let row = z * self.width;
            let first = (0..self.width).find(|&x| self.occupied(row + x));
            let Some(first) = first else { continue };
            let last = (first..self.width)
                .rev()
                .find(|&x| self.occupied(row + x))
                .unwrap_or(first);
            b = [b[0].min(first), b[1].min(z), b[2].max(last + 1), z + 1];
        }
        (b[0] != usize::MAX).then_some(b)
    }
}

/// The X row at level-local (`y`, `z`) of `chunk`'s mip `level`.
fn level_row<'a>(
    chunk: &'a Chunk,
    level: u32,
    y: usize,
    z: usize,
    buf: &'a mut RowBuf,
) -> &'a [Voxel] {
    match level {
        0 => chunk.read_row(y, z, buf),
        1 => chunk.mip16().read_row(y, z, buf),
        2 => chunk.mip8().read_row(y, z, buf),
        _ => chunk.mip4().read_row(y, z, buf),
    }
}

/// Scan the stored chunks `ys` (descending) of column (`cx`, `cz`) top down.
fn scan_column(
    grid: &Grid,
    cx: i32,
    cz: i32,
    ys: &[i32],
    level: u32,
    liquid: &[bool; MATERIAL_COUNT],
) -> HeightField {
    let n = CHUNK_SIZE >> level;
    let cells = n * n;
    let origin = |c: i32| i64::from(c) * CHUNK_SIZE as i64;
    let mut tile = HeightField::empty(level, origin(cx), origin(cz), n, n);
    // Occupancy of the voxel just above the one being looked at, per cell (solid, then liquid).
    let mut above_solid = vec![0.0f32; cells];
    let mut above_liquid = vec![0.0f32; cells];
    let mut remaining = cells;
    // Cells still without ground, per Z row of the tile.
    let mut row_left = vec![n; n];
    let air_row = filled_row(AIR).as_ptr();
    let mut buf = RowBuf::new();
    let mut next_y: Option<i32> = None;
    for &cy in ys {
        if next_y != Some(cy) {
            // A gap of missing (Air) chunks lies above this one.
            above_solid.fill(0.0);
            above_liquid.fill(0.0);
        }
        next_y = Some(cy - 1);
        let Some(chunk) = grid.chunk(crate::voxel::ChunkPos::new(cx, cy, cz)) else {
            continue;
        };
        let base = f64::from(cy) * CHUNK_SIZE as f64;
        let scale = (1u32 << level) as f32;
        for ly in (0..n).rev() {
            let y0 = base as f32 + ly as f32 * scale;
            for lz in 0..n {
                if row_left[lz] == 0 {
                    continue;
                }
                let row = level_row(chunk, level, ly, lz, &mut buf);
                if std::ptr::eq(row.as_ptr(), air_row) {
                    // A packed Air row (the common case above the ground): nothing to find.
                    above_solid[lz * n..lz * n + n].fill(0.0);
                    above_liquid[lz * n..lz * n + n].fill(0.0);
                    continue;
                }
                for (lx, v) in row.iter().enumerate() {
                    let i = lz * n + lx;
                    if tile.ground[i] > NONE {
                        continue;
                    }
                    let occ = v.occupancy_f32();
                    let m = usize::from(v.material);
                    if v.is_air() {
                        above_solid[i] = 0.0;
                        above_liquid[i] = 0.0;
                    } else if liquid[m] {
                        if occ >= 0.5 && tile.water[i] == NONE {
                            tile.water[i] = y0 + (occ + above_liquid[i]) * scale;
                            tile.water_material[i] = v.material;
                        }
                        above_liquid[i] = occ;
                        above_solid[i] = 0.0;
                    } else if occ >= 0.5 {
                        tile.ground[i] = y0 + (occ + above_solid[i]) * scale;
                        tile.ground_material[i] = v.material;
                        remaining -= 1;
                        row_left[lz] -= 1;
                    } else {
                        above_solid[i] = occ;
                        above_liquid[i] = 0.0;
                    }
                }
            }
            if remaining == 0 {
                return tile;
            }
        }
    }
    tile
}
