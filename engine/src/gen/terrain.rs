//! The terrain sampler: turns the height field, material rules and caves into dense chunks.

use super::caves::{CaveBuffer, Caves};
use super::column::{Cell, ColumnData};
use super::materials::{MaterialRules, Palette};
use super::preset::GeneratorSettings;
use super::shape::Shape;
use crate::voxel::{ChunkPos, MaterialTable, Voxel, CHUNK_SIZE};
use crate::Result;

/// Voxels in one chunk.
const CHUNK_VOLUME: usize = CHUNK_SIZE * CHUNK_SIZE * CHUNK_SIZE;

/// Immutable, `Sync` terrain sampler built once per generation (noise sources, material ids).
///
/// Its output is a pure function of the settings and the material table: columns may be filled in
/// any order, on any number of threads, and always produce the same voxels.
pub struct Terrain {
    settings: GeneratorSettings,
    shape: Shape,
    rules: MaterialRules,
    caves: Option<Caves>,
    /// Water fills voxels with `y < sea_level` that hold no solid.
    sea_level: i32,
}

impl std::fmt::Debug for Terrain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Terrain")
            .field("settings", &self.settings)
            .field("sea_level", &self.sea_level)
            .finish_non_exhaustive()
    }
}

impl Terrain {
    /// Build the sampler for `settings`, taking material ids from `materials`.
    ///
    /// # Errors
    /// [`crate::Error::Invalid`] when the settings fail [`GeneratorSettings::validate`] or the table
    /// lacks a material the generator uses.
    pub fn new(settings: &GeneratorSettings, materials: &MaterialTable) -> Result<Terrain> {
        settings.validate()?;
        let [_, y_size, _] = settings.size;
        let (preset, seed) = (settings.preset, settings.seed);
        let palette = Palette::new(materials)?;
        let shape = Shape::new(preset, y_size, seed);
        let sea_level = (shape.sea_fraction() * f64::from(y_size)).round() as i32;
        let rules = MaterialRules::new(preset, y_size, seed, f64::from(sea_level), palette);
        Ok(Terrain {
            settings: settings.clone(),
            shape,
            rules,
            caves: preset.has_caves().then(|| Caves::new(y_size, seed)),
            sea_level,
        })
    }

    /// The settings this terrain was built from.
    pub fn settings(&self) -> &GeneratorSettings {
        &self.settings
    }

    /// Water fills every voxel below this Y that holds no solid; 0 for presets without water.
    pub fn sea_level(&self) -> i32 {
        self.sea_level
    }

    /// Surface height (in voxels, `0..=size.y`) of the voxel column at (x, z), before caves.
    pub fn height_at(&self, x: i32, z: i32) -> f32 {
        self.shape.height(f64::from(x) + 0.5, f64::from(z) + 0.5) as f32
    }

    /// Chunk columns `(chunk x, chunk z)` overlapping the world's X/Z bounds, Z-major then X.
    ///
    /// Every column holds some terrain (the Y size is at least 1), so none is skipped here; chunks of a
    /// column that lie entirely above both its highest surface point and the sea level are skipped by
    /// [`Terrain::fill_column`], which learns the column's heights once and never emits empty chunks.
    pub fn chunk_columns(&self) -> Vec<(i32, i32)> {
        let chunks = |s: u32| s.div_ceil(CHUNK_SIZE as u32) as i32;
        let [sx, _, sz] = self.settings.size;
        (0..chunks(sz))
            .flat_map(|cz| (0..chunks(sx)).map(move |cx| (cx, cz)))
            .collect()
    }

    /// Fill every chunk of chunk column (`cx`, `cz`), bottom to top.
    ///
    /// Calls `emit(chunk_pos, &voxels)` for each chunk holding at least one non-air voxel, where
    /// `voxels` is the dense 32³ chunk with index `(z * 32 + y) * 32 + x`. Voxels outside the world
    /// bounds are Air. The column's 2D data (heights, slopes, surface materials) is computed once and
    /// reused for all its chunks. Columns outside the world emit nothing.
    pub fn fill_column(&self, cx: i32, cz: i32, emit: &mut dyn FnMut(ChunkPos, &[Voxel])) {
        let [sx, sy, sz] = self.settings.size;
        let mut cols = ColumnData::new();
        cols.compute(&self.shape, &self.rules, [sx, sz], cx, cz);
        if !cols.any_inside || (cols.max_top < 0 && self.sea_level <= 0) {
            return;
        }
        // Highest voxel that may hold matter or water, capped by the world.
        let top = cols.max_top.max(self.sea_level - 1).min(sy as i32 - 1);
        let mut voxels = vec![Voxel::AIR; CHUNK_VOLUME];
        let mut caves = CaveBuffer::new();
        for cy in 0..=top / CHUNK_SIZE as i32 {
            let pos = ChunkPos::new(cx, cy, cz);
            let carved = match &self.caves {
                Some(c) => c.carve_chunk(pos.min_voxel(), &cols, &mut caves),
                None => false,
            };
            let cave = carved.then_some(&caves);
            if self.fill_chunk(&cols, pos.min_voxel().y, sy as i32, cave, &mut voxels) {
                emit(pos, &voxels);
            }
        }
    }

    /// Write one chunk whose lowest voxel row is `y0`; returns true when it holds any non-air voxel.
    fn fill_chunk(
        &self,
        cols: &ColumnData,
        y0: i32,
        y_size: i32,
        caves: Option<&CaveBuffer>,
        voxels: &mut [Voxel],
    ) -> bool {
        let mut any = false;
        // Rows at or above y_end are outside the world.
        let y_end = (y_size - y0).clamp(0, CHUNK_SIZE as i32) as usize;
        for lz in 0..CHUNK_SIZE {
            for lx in 0..CHUNK_SIZE {
                let cell = &cols.cells[lz * CHUNK_SIZE + lx];
                let base = lz * CHUNK_SIZE * CHUNK_SIZE + lx;
                if !cell.inside {
                    for ly in 0..CHUNK_SIZE {
                        voxels[base + ly * CHUNK_SIZE] = Voxel::AIR;
                    }
                    continue;
                }
                for ly in 0..CHUNK_SIZE {
                    let v = if ly < y_end {
                        let carve = caves.map_or(0.0, |c| c.carve(lx, ly, lz));
                        self.voxel(cell, y0 + ly as i32, carve)
                    } else {
                        Voxel::AIR
                    };
                    any |= !v.is_air();
                    voxels[base + ly * CHUNK_SIZE] = v;
                }
            }
        }
        any
    }

    /// The voxel at height `y` of column `cell`, with `carve` (0..=1) of it cut away by a cave.
    #[inline]
    fn voxel(&self, cell: &Cell, y: i32, carve: f32) -> Voxel {
        if y > cell.top {
            return if y < self.sea_level {
                Voxel::filled(self.rules.water())
            } else {
                Voxel::AIR
            };
        }
        let l = &cell.layers;
        let depth = cell.top - y;
        let (top_end, soil_end) = (
            i32::from(l.top_depth),
            i32::from(l.top_depth) + i32::from(l.soil_depth),
        );
        let material = if depth < top_end {
            l.top
        } else if depth < soil_end {
            l.soil
        } else {
            self.rules.strata()[y as usize]
        };
        let solid = if depth == 0 {
            (cell.h - y as f32).min(1.0)
        } else {
            1.0
        };
        if carve <= 0.0 {
            if solid >= 1.0 {
                return Voxel::filled(material);
            }
            let v = Voxel::from_fraction(material, solid);
            // A sliver too thin to store counts as empty: below the sea it is water.
            if v.is_air() && y < self.sea_level {
                return Voxel::filled(self.rules.water());
            }
            return v;
        }
        Voxel::from_fraction(material, solid * (1.0 - carve))
    }
}
