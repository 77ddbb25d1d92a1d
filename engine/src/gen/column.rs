//! Per-column 2D data: surface height, slope, biome and layer materials for the 32×32 voxel columns
//! of one chunk column, computed once and reused for every chunk stacked in it.
//!
//! Occupancy comes from an estimate of the signed distance to the surface, not from the height of
//! the column alone:
//!
//! ```text
//!   distance from voxel centre (y + ½) to the surface ≈ (h − y − ½) / s,   s = √(1 + |∇h|²)
//!   occupancy = clamp(½ + distance / w, 0, 1)                              (½ on the surface)
//!   w = 1 on flat ground, growing to 2 voxels once the slope passes 1 in 7 (≈ 8°)
//!
//!    y ▲  flat ground (s = w = 1): one partial voxel,  a 63° slope (s ≈ 2.2, w = 2): a band of
//!      │  exactly `clamp(h − y, 0, 1)` as before       about four partial voxels per column, so
//!      │  ░ 0.4                                        neighbouring columns overlap and the field
//!      │  █                                            is a smooth ramp, not a staircase
//! ```
//!
//! On a planar slope this is the exact distance, so the ½ iso-surface is the plane itself at any
//! angle up to vertical. The band width `w` matters for sharp materials: the mesher places their
//! vertices from finite-difference normals, which need the field to stay unclamped one voxel either
//! side of the surface; with `w = 1` a rock ramp still meshes into facets 7–13° off (measured),
//! with `w = 2` within 2°. The bottom voxel of every column is full (a one-voxel floor), so no
//! column is ever open to the void below the world.

use super::biome_map::Blend;
use super::materials::Layers;
use crate::voxel::CHUNK_SIZE;

/// Edge of the height grid: the chunk's columns plus a one-voxel border for slopes.
const GRID: usize = CHUNK_SIZE + 2;
/// Slope (rise per voxel) from which the distance band is [`MAX_BAND`] voxels wide.
const FULL_BAND_SLOPE: f64 = 0.15;
/// Width of the distance band on slopes, in voxels.
const MAX_BAND: f64 = 2.0;

/// Vertical extent of the partial band for slope `slope`: `s · w` (see the module docs), and its
/// inverse, the factor turning a vertical offset from the surface into a change of occupancy.
pub(crate) fn band(slope: f64) -> (f32, f32) {
    let s = (1.0 + slope * slope).sqrt();
    let w = 1.0 + (MAX_BAND - 1.0) * (slope / FULL_BAND_SLOPE).min(1.0);
    ((s * w) as f32, (1.0 / (s * w)) as f32)
}

/// One voxel column (fixed x, z) of a chunk column.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Cell {
    /// Surface height in voxels.
    pub(crate) h: f32,
    /// `1 / (√(1 + |∇h|²) · w)`: converts a vertical offset from the surface into occupancy.
    pub(crate) inv_band: f32,
    /// The voxel layer depths count down from: the one holding the surface (`ceil(h) − 1`), or the
    /// first partial one below it where the slope's band is wider, so at least one full voxel of
    /// the surface material lies under the partial ones (as on flat ground).
    pub(crate) surface: i32,
    /// Highest voxel with any matter (-1 when the column is empty; never below 0 inside the world).
    pub(crate) top: i32,
    /// Voxels below this are full matter of the rock strata.
    pub(crate) strata_below: i32,
    /// Surface and soil layers.
    pub(crate) layers: Layers,
    /// Index of the biome whose materials the column takes.
    pub(crate) biome: u8,
    /// False for columns outside the world's X/Z bounds (all Air).
    pub(crate) inside: bool,
}

impl Cell {
    /// Fraction of voxel `y` that lies below the surface (before caves): `0..=1`.
    #[inline]
    pub(crate) fn occupancy(&self, y: i32) -> f32 {
        if y < self.strata_below.min(self.top) || y == 0 {
            return 1.0;
        }
        (0.5 + (self.h - y as f32 - 0.5) * self.inv_band).clamp(0.0, 1.0)
    }

    /// Set height, slope and the voxel bounds that follow from them.
    fn set_surface(&mut self, h: f32, slope: f64) {
        let (band, inv_band) = band(slope);
        self.h = h;
        self.inv_band = inv_band;
        // Highest y whose centre lies less than half a band above the surface; the floor voxel
        // always counts.
        self.top = ((h - 0.5 + 0.5 * band).ceil() as i32 - 1).max(0);
        let full_below = (h - 0.5 - 0.5 * band).floor() as i32 + 1;
        self.surface = (h.ceil() as i32 - 1).min(full_below);
        let l = &self.layers;
        let depth = if l.top_depth == 0 {
            0
        } else {
            i32::from(l.top_depth) + i32::from(l.soil_depth)
        };
        self.strata_below = full_below.min(self.surface + 1 - depth).max(0);
    }
}

/// What a chunk column's surface is made of, per world point: height in voxels and biome weights.
pub(crate) trait SurfaceSource {
    /// Surface height in voxels (clamped to the world) and biome blend at world point (x, z).
    fn surface(&self, x: f64, z: f64) -> (f64, Blend);
    /// Layers and the index of the biome providing them for column (x, z) with blend `blend`, height
    /// `h` and slope `slope` (rise per voxel).
    fn layers(&self, x: f64, z: f64, blend: &Blend, h: f64, slope: f64) -> (Layers, u8);
}

/// The 2D data of one chunk column, with reusable buffers.
pub(crate) struct ColumnData {
    /// Cells by `lz * 32 + lx`.
    pub(crate) cells: Vec<Cell>,
    /// Scratch heights on a (32 + 2)² grid, index `(lz + 1) * GRID + (lx + 1)`.
    heights: Vec<f64>,
    /// Scratch blends, same indexing as `cells`.
    blends: Vec<Blend>,
    /// Largest `top` over the cells inside the world (-1 if none).
    pub(crate) max_top: i32,
    /// Largest surface height over the cells inside the world.
    pub(crate) max_h: f32,
    /// Smallest `strata_below` over the cells inside the world.
    pub(crate) min_strata_below: i32,
    /// True when any cell lies inside the world.
    pub(crate) any_inside: bool,
    /// True when every cell lies inside the world.
    pub(crate) all_inside: bool,
    /// The biome of every inside cell when they all share one.
    pub(crate) one_biome: Option<u8>,
    /// True when every cell lies inside the world and all are alike (same height, slope, layers and
    /// biome: flat ground), so every voxel layer of a chunk is one voxel repeated.
    pub(crate) uniform: bool,
}

impl ColumnData {
    /// Empty buffers, ready for [`ColumnData::compute`].
    pub(crate) fn new() -> Self {
        let empty = Cell {
            h: 0.0,
            inv_band: 1.0,
            surface: -1,
            top: -1,
            strata_below: 0,
            layers: Layers {
                top: 0,
                top_depth: 0,
                soil: 0,
                soil_depth: 0,
            },
            biome: 0,
            inside: false,
        };
        Self {
            cells: vec![empty; CHUNK_SIZE * CHUNK_SIZE],
            heights: vec![0.0; GRID * GRID],
            blends: vec![Blend::single(0); CHUNK_SIZE * CHUNK_SIZE],
            max_top: -1,
            max_h: 0.0,
            min_strata_below: i32::MAX,
            any_inside: false,
            all_inside: false,
            one_biome: None,
            uniform: false,
        }
    }

    /// Fill the data for chunk column (`cx`, `cz`) of a world of X/Z size `size_xz`.
    pub(crate) fn compute(
        &mut self,
        source: &impl SurfaceSource,
        size_xz: [u32; 2],
        cx: i32,
        cz: i32,
    ) {
        let x0 = i64::from(cx) * CHUNK_SIZE as i64;
        let z0 = i64::from(cz) * CHUNK_SIZE as i64;
        self.max_top = -1;
        self.max_h = 0.0;
        self.min_strata_below = i32::MAX;
        self.any_inside = false;
        self.all_inside = true;
        self.one_biome = None;
        self.uniform = false;
        let span = |o: i64, size: u32| o < i64::from(size) && o + CHUNK_SIZE as i64 > 0;
        if !span(x0, size_xz[0]) || !span(z0, size_xz[1]) {
            for cell in &mut self.cells {
                cell.inside = false;
                cell.top = -1;
            }
            self.all_inside = false;
            return;
        }
        // Heights are sampled at column centres; the border feeds the slope's central differences.
        for gz in 0..GRID {
            for gx in 0..GRID {
                let x = (x0 + gx as i64 - 1) as f64 + 0.5;
                let z = (z0 + gz as i64 - 1) as f64 + 0.5;
                let (h, blend) = source.surface(x, z);
                self.heights[gz * GRID + gx] = h;
                let inner = (1..=CHUNK_SIZE).contains(&gx) && (1..=CHUNK_SIZE).contains(&gz);
                if inner {
                    self.blends[(gz - 1) * CHUNK_SIZE + gx - 1] = blend;
                }
            }
        }
        let mut biomes = None::<u8>;
        let mut mixed = false;
        for lz in 0..CHUNK_SIZE {
            for lx in 0..CHUNK_SIZE {
                let (x, z) = (x0 + lx as i64, z0 + lz as i64);
                let i = lz * CHUNK_SIZE + lx;
                let cell = &mut self.cells[i];
                cell.inside = (0..i64::from(size_xz[0])).contains(&x)
                    && (0..i64::from(size_xz[1])).contains(&z);
                if !cell.inside {
                    cell.top = -1;
                    self.all_inside = false;
                    continue;
                }
                self.any_inside = true;
                let g = (lz + 1) * GRID + (lx + 1);
                let h = self.heights[g];
                let dx = (self.heights[g + 1] - self.heights[g - 1]) * 0.5;
                let dz = (self.heights[g + GRID] - self.heights[g - GRID]) * 0.5;
                let slope = (dx * dx + dz * dz).sqrt();
                let (layers, biome) =
                    source.layers(x as f64 + 0.5, z as f64 + 0.5, &self.blends[i], h, slope);
                cell.layers = layers;
                cell.biome = biome;
                cell.set_surface(h as f32, slope);
                mixed |= biomes.is_some_and(|b| b != biome);
                biomes = Some(biome);
                self.max_top = self.max_top.max(cell.top);
                self.max_h = self.max_h.max(cell.h);
                self.min_strata_below = self.min_strata_below.min(cell.strata_below);
            }
        }
        self.one_biome = if mixed { None } else { biomes };
        let first = &self.cells[0];
        self.uniform = self.all_inside
            && self.cells.iter().all(|c| {
                c.h == first.h
                    && c.inv_band == first.inv_band
                    && c.layers == first.layers
                    && c.biome == first.biome
            });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plane `h = a + bx·x + bz·z` with fixed layers, biome 0.
    struct Plane {
        a: f64,
        bx: f64,
        bz: f64,
    }

    impl SurfaceSource for Plane {
        fn surface(&self, x: f64, z: f64) -> (f64, Blend) {
            (self.a + self.bx * x + self.bz * z, Blend::single(0))
        }
        fn layers(&self, _: f64, _: f64, _: &Blend, _: f64, _: f64) -> (Layers, u8) {
            let layers = Layers {
                top: 2,
                top_depth: 2,
                soil: 3,
                soil_depth: 3,
            };
            (layers, 0)
        }
    }

    #[test]
    fn flat_ground_keeps_the_fractional_top_voxel() {
        let mut data = ColumnData::new();
        data.compute(
            &Plane {
                a: 16.3,
                bx: 0.0,
                bz: 0.0,
            },
            [100, 100],
            0,
            0,
        );
        let c = data.cells[5];
        assert_eq!((c.surface, c.top), (16, 16));
        assert!((c.occupancy(16) - 0.3).abs() < 1e-5);
        assert_eq!(c.occupancy(15), 1.0);
        assert_eq!(c.occupancy(17), 0.0);
        assert_eq!(c.strata_below, 12);
        assert!(data.all_inside && data.one_biome == Some(0) && data.uniform);
    }

    #[test]
    fn slopes_give_the_distance_to_the_plane() {
        // 45° along X: the distance from a voxel centre to the plane is the vertical offset / √2,
        // mapped over a band two voxels wide.
        let mut data = ColumnData::new();
        data.compute(
            &Plane {
                a: 40.0,
                bx: 1.0,
                bz: 0.0,
            },
            [64, 64],
            0,
            0,
        );
        assert!(!data.uniform);
        let c = data.cells[3 * CHUNK_SIZE + 10];
        let h = 40.0 + 10.5;
        assert!((c.h - h).abs() < 1e-5);
        for y in 40..60 {
            let d = (h - y as f32 - 0.5) / 2.0f32.sqrt();
            let want = (0.5 + d / 2.0).clamp(0.0, 1.0);
            assert!((c.occupancy(y) - want).abs() < 1e-5, "{y}");
        }
        assert_eq!(band(0.0), (1.0, 1.0));
        assert_eq!(band(0.15).0, (1.0f64 + 0.15 * 0.15).sqrt() as f32 * 2.0);
        assert!(c.occupancy(c.top) > 0.0 && c.occupancy(c.top + 1) == 0.0);
        assert!(c.occupancy(c.strata_below - 1) == 1.0);
    }

    #[test]
    fn every_column_keeps_a_floor() {
        let mut data = ColumnData::new();
        data.compute(
            &Plane {
                a: -5.0,
                bx: 0.0,
                bz: 0.0,
            },
            [40, 40],
            0,
            0,
        );
        let c = data.cells[0];
        assert_eq!(c.top, 0);
        assert_eq!(c.occupancy(0), 1.0);
        assert_eq!(c.occupancy(1), 0.0);
    }

    #[test]
    fn outside_columns_are_empty() {
        let mut data = ColumnData::new();
        let plane = Plane {
            a: 16.0,
            bx: 0.0,
            bz: 0.0,
        };
        data.compute(&plane, [64, 64], 5, 0);
        assert!(data.cells.iter().all(|c| !c.inside && c.top == -1));
        assert_eq!(data.max_top, -1);
        assert!(!data.any_inside && !data.all_inside);
        data.compute(&plane, [40, 64], 1, 0);
        assert!(data.any_inside && !data.all_inside);
        assert_eq!(data.cells.iter().filter(|c| c.inside).count(), 8 * 32);
    }
}
