//! The terrain sampler: turns the biome map, height fields, material rules and caves into chunks.
//!
//! Chunks are built three ways, cheapest first:
//!
//! ```text
//!   above every column's surface and the sea   -> skipped (Air)
//!   below every column's surface layers, no    -> Chunk::from_layers: one packed row per Y of the
//!   cave, one biome's strata                      strata, mips from the layers; no voxel touched
//!   wholly under the sea, above the ground     -> Chunk::uniform(Water)
//!   every column alike (flat ground), no cave  -> Chunk::from_layers of one column's voxels
//!   anything else (surface, caves, borders)    -> 32³ voxels, then Chunk::from_dense
//! ```

use noise::{Fbm, MultiFractal, NoiseFn, SuperSimplex};

use super::biome::Biome;
use super::biome_map::{ordered, BiomeMap, Blend};
use super::caves::{CaveBuffer, Caves};
use super::column::{Cell, ColumnData, SurfaceSource};
use super::materials::{Layers, MaterialRules, Palette};
use super::math::derive_seed;
use super::preset::{GeneratorSettings, WorldSettings};
use super::shape::Shape;
use crate::storage::Chunk;
use crate::voxel::{ChunkPos, MaterialTable, Voxel, CHUNK_SIZE};
use crate::Result;

/// Voxels in one chunk.
const CHUNK_VOLUME: usize = CHUNK_SIZE * CHUNK_SIZE * CHUNK_SIZE;
/// The common sea level of a mix of biomes, as a fraction of the Y size.
const MIX_SEA: f64 = 0.2;
/// Voxels of the water's top that freeze where the biome's water top is ice.
const ICE_DEPTH: i32 = 2;
const SALT_FRAY: u32 = 63;

/// One biome of a world: its height field, rules and place relative to the shared water.
struct BiomeTerrain {
    biome: Biome,
    shape: Shape,
    rules: MaterialRules,
    /// Voxels added to the shape's height (0 when the biome is alone).
    shift: f64,
    /// Material of the top [`ICE_DEPTH`] voxels of water.
    water_top: u8,
}

/// Immutable, `Sync` terrain sampler built once per generation (noise sources, material ids).
///
/// Its output is a pure function of the settings and the material table: columns may be filled in
/// any order, on any number of threads, and always produce the same voxels.
pub struct Terrain {
    world: WorldSettings,
    biomes: Vec<BiomeTerrain>,
    map: BiomeMap,
    caves: Option<Caves>,
    /// Water fills voxels with `y < sea_level` that hold no solid.
    sea_level: i32,
    water: u8,
    y_size: f64,
    /// Frays material borders between biomes.
    fray: Fbm<SuperSimplex>,
    fray_freq: f64,
}

impl std::fmt::Debug for Terrain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Terrain")
            .field("world", &self.world)
            .field("sea_level", &self.sea_level)
            .finish_non_exhaustive()
    }
}

impl Terrain {
    /// Build the sampler for a preset world, taking material ids from `materials`.
    ///
    /// # Errors
    /// [`crate::Error::Invalid`] when the settings fail [`GeneratorSettings::validate`] or the table
    /// lacks a material the generator uses.
    pub fn new(settings: &GeneratorSettings, materials: &MaterialTable) -> Result<Terrain> {
        settings.validate()?;
        Self::from_world(&WorldSettings::from_preset(settings), materials)
    }

    /// Build the sampler for any world: preset or biome mix.
    ///
    /// # Errors
    /// [`crate::Error::Invalid`] when the settings fail [`WorldSettings::validate`] or the table
    /// lacks a material the generator uses.
    pub fn from_world(world: &WorldSettings, materials: &MaterialTable) -> Result<Terrain> {
        Self::with_detail(world, materials, 0.0)
    }

    /// [`Terrain::from_world`] without height detail finer than about `finest` voxels (0: all of
    /// it), for previews whose pixels cover several voxels.
    pub(crate) fn with_detail(
        world: &WorldSettings,
        materials: &MaterialTable,
        finest: f64,
    ) -> Result<Terrain> {
        world.validate()?;
        let [_, y_size, _] = world.size;
        let seed = world.seed;
        let palette = Palette::new(materials)?;
        let list = ordered(&world.biomes.biomes);
        let y = f64::from(y_size);
        let mixed = list.len() > 1;
        let sea_level = if mixed {
            let wet = list.iter().any(|b| b.has_water());
            if wet {
                (MIX_SEA * y).round() as i32
            } else {
                0
            }
        } else {
            (Shape::new(list[0], y_size, seed).sea_fraction() * y).round() as i32
        };
        let biomes = list
            .iter()
            .map(|&biome| {
                let shape = Shape::with_detail(biome, y_size, seed, finest);
                let shift = if mixed {
                    (MIX_SEA - shape.datum()) * y
                } else {
                    0.0
                };
                let sea = if sea_level > 0 {
                    f64::from(sea_level) - shift
                } else {
                    0.0
                };
                let rules = MaterialRules::new(biome, y_size, seed, sea, palette);
                BiomeTerrain {
                    biome,
                    water_top: rules.water_top(),
                    shape,
                    rules,
                    shift,
                }
            })
            .collect();
        Ok(Terrain {
            world: world.clone(),
            biomes,
            map: BiomeMap::new(list.len(), world.biomes.biome_size, seed),
            caves: world.biomes.caves.then(|| Caves::new(y_size, seed)),
            sea_level,
            water: palette.water,
            y_size: y,
            fray: Fbm::<SuperSimplex>::new(derive_seed(seed, SALT_FRAY)).set_octaves(3),
            fray_freq: 4.0 / f64::from(world.biomes.biome_size.max(1)),
        })
    }

    /// The settings this terrain was built from.
    pub fn world(&self) -> &WorldSettings {
        &self.world
    }

    /// Water fills every voxel below this Y that holds no solid; 0 for worlds without water.
    pub fn sea_level(&self) -> i32 {
        self.sea_level
    }

    /// Surface height (in voxels, `0..=size.y`) of the voxel column at (x, z), before caves.
    pub fn height_at(&self, x: i32, z: i32) -> f32 {
        self.surface_at(f64::from(x) + 0.5, f64::from(z) + 0.5).0 as f32
    }

    /// The biome whose materials the voxel column at (x, z) takes.
    pub fn biome_at(&self, x: i32, z: i32) -> Biome {
        let (px, pz) = (f64::from(x) + 0.5, f64::from(z) + 0.5);
        let (_, blend) = self.surface_at(px, pz);
        self.biomes[usize::from(self.pick(px, pz, &blend))].biome
    }

    /// The material the surface of the column at point (x, z), with blend `blend`, height `h` and
    /// slope `slope`, shows from above (before water).
    pub(crate) fn top_material(&self, x: f64, z: f64, blend: &Blend, h: f64, slope: f64) -> u8 {
        let (layers, biome) = SurfaceSource::layers(self, x, z, blend, h, slope);
        if layers.top_depth > 0 {
            layers.top
        } else {
            let strata = self.biomes[usize::from(biome)].rules.strata();
            strata[(h.max(0.5).ceil() as usize - 1).min(strata.len() - 1)]
        }
    }

    /// The water material and the material of the water's top (ice in cold biomes) at point (x, z).
    pub(crate) fn water_top(&self, x: f64, z: f64, blend: &Blend) -> (u8, u8) {
        let b = &self.biomes[usize::from(self.pick(x, z, blend))];
        (self.water, b.water_top)
    }

    /// Surface height in voxels and biome blend at world point (x, z).
    pub(crate) fn surface_at(&self, x: f64, z: f64) -> (f64, Blend) {
        let blend = self.map.blend(x, z);
        if let [only] = self.biomes.as_slice() {
            return (only.shape.height(x, z), blend);
        }
        let mut h = 0.0;
        for &(i, w) in blend.parts() {
            let b = &self.biomes[usize::from(i)];
            h += f64::from(w) * (b.shape.fraction(x, z) * self.y_size + b.shift);
        }
        (h.clamp(0.0, self.y_size), blend)
    }

    /// The biome index whose materials point (x, z) takes.
    fn pick(&self, x: f64, z: f64, blend: &Blend) -> u8 {
        if blend.len == 1 {
            return blend.parts[0].0;
        }
        let f = self.fray_freq;
        blend.pick(0.5 + 0.35 * self.fray.get([x * f, z * f]) as f32)
    }

    /// Chunk columns `(chunk x, chunk z)` overlapping the world's X/Z bounds, Z-major then X.
    ///
    /// Every column holds some terrain (each column keeps a floor voxel), so none is skipped here;
    /// chunks of a column that lie entirely above both its highest surface point and the sea level
    /// are skipped by [`Terrain::fill_column`], which learns the column's heights once and never
    /// emits empty chunks.
    pub fn chunk_columns(&self) -> Vec<(i32, i32)> {
        let chunks = |s: u32| s.div_ceil(CHUNK_SIZE as u32) as i32;
        let [sx, _, sz] = self.world.size;
        (0..chunks(sz))
            .flat_map(|cz| (0..chunks(sx)).map(move |cx| (cx, cz)))
            .collect()
    }

    /// Fill every chunk of chunk column (`cx`, `cz`), bottom to top.
    ///
    /// Calls `emit(chunk_pos, chunk)` for each chunk holding at least one non-air voxel. Voxels
    /// outside the world bounds are Air. The column's 2D data (heights, slopes, biomes, surface
    /// materials) is computed once and reused for all its chunks. Columns outside the world emit
    /// nothing.
    pub fn fill_column(&self, cx: i32, cz: i32, emit: &mut dyn FnMut(ChunkPos, Chunk)) {
        self.fill_column_from(self, cx, cz, emit);
    }

    /// [`Terrain::fill_column`] with the surface taken from `source` (tests use planes and ramps).
    pub(crate) fn fill_column_from(
        &self,
        source: &impl SurfaceSource,
        cx: i32,
        cz: i32,
        emit: &mut dyn FnMut(ChunkPos, Chunk),
    ) {
        let [sx, sy, sz] = self.world.size;
        let mut cols = ColumnData::new();
        cols.compute(source, [sx, sz], cx, cz);
        if !cols.any_inside {
            return;
        }
        // Highest voxel that may hold matter or water, capped by the world.
        let top = cols.max_top.max(self.sea_level - 1).min(sy as i32 - 1);
        let mut voxels = Vec::new();
        let mut caves = None::<CaveBuffer>;
        for cy in 0..=top / CHUNK_SIZE as i32 {
            let pos = ChunkPos::new(cx, cy, cz);
            let carved = match &self.caves {
                Some(c) => {
                    let buf = caves.get_or_insert_with(CaveBuffer::new);
                    c.carve_chunk(pos.min_voxel(), &cols, buf)
                }
                None => false,
            };
            let y0 = pos.min_voxel().y;
            if !carved {
                if let Some(chunk) = self.quick_chunk(&cols, y0, sy as i32) {
                    if !chunk.is_air() {
                        emit(pos, chunk);
                    }
                    continue;
                }
            }
            if voxels.is_empty() {
                voxels = vec![Voxel::AIR; CHUNK_VOLUME];
            }
            let cave = if carved { caves.as_ref() } else { None };
            if self.fill_chunk(&cols, y0, sy as i32, cave, &mut voxels) {
                emit(pos, Chunk::from_dense(&voxels));
            }
        }
    }

    /// The chunk whose lowest voxel row is `y0` when it can be built layer by layer instead of voxel
    /// by voxel: all strata of one biome, all water, or flat ground (every column alike). `None`
    /// otherwise. Called only for chunks no cave reaches.
    fn quick_chunk(&self, cols: &ColumnData, y0: i32, y_size: i32) -> Option<Chunk> {
        let y1 = y0 + CHUNK_SIZE as i32;
        if !cols.all_inside || y1 > y_size {
            return None;
        }
        if y1 <= cols.min_strata_below {
            let strata = self.biomes[usize::from(cols.one_biome?)].rules.strata();
            let layers = std::array::from_fn(|i| Voxel::filled(strata[y0 as usize + i]));
            return Some(Chunk::from_layers(&layers));
        }
        if y0 > cols.max_top && y1 <= self.sea_level - ICE_DEPTH {
            return Some(Chunk::uniform(self.water));
        }
        if cols.uniform {
            let cell = &cols.cells[0];
            let biome = &self.biomes[usize::from(cell.biome)];
            let layers = std::array::from_fn(|i| self.voxel(cell, biome, y0 + i as i32, 1.0));
            return Some(Chunk::from_layers(&layers));
        }
        None
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
                let biome = &self.biomes[usize::from(cell.biome)];
                let strata = biome.rules.strata();
                for ly in 0..CHUNK_SIZE {
                    let y = y0 + ly as i32;
                    let keep = caves.map_or(1.0, |c| c.keep(lx, ly, lz));
                    let v = if ly >= y_end {
                        Voxel::AIR
                    } else if y < cell.strata_below && keep >= 1.0 {
                        Voxel::filled(strata[y as usize])
                    } else {
                        self.voxel(cell, biome, y, keep)
                    };
                    any |= !v.is_air();
                    voxels[base + ly * CHUNK_SIZE] = v;
                }
            }
        }
        any
    }

    /// What fills voxel `y` of a column where it holds no solid: water (its top frozen in cold
    /// biomes) below the sea level, Air above.
    #[inline]
    fn water_at(&self, biome: &BiomeTerrain, y: i32) -> Voxel {
        if y >= self.sea_level {
            Voxel::AIR
        } else if y >= self.sea_level - ICE_DEPTH {
            Voxel::filled(biome.water_top)
        } else {
            Voxel::filled(self.water)
        }
    }

    /// The voxel at height `y` of column `cell`, of which tunnels leave at most `keep` (0..=1).
    #[inline]
    fn voxel(&self, cell: &Cell, biome: &BiomeTerrain, y: i32, keep: f32) -> Voxel {
        if y > cell.top {
            return self.water_at(biome, y);
        }
        let l = &cell.layers;
        let depth = cell.surface - y;
        let (top_end, soil_end) = (
            i32::from(l.top_depth),
            i32::from(l.top_depth) + i32::from(l.soil_depth),
        );
        let material = if top_end == 0 {
            biome.rules.strata()[y as usize]
        } else if depth < top_end {
            l.top
        } else if depth < soil_end {
            l.soil
        } else {
            biome.rules.strata()[y as usize]
        };
        let solid = cell.occupancy(y);
        if keep >= 1.0 {
            if solid >= 1.0 {
                return Voxel::filled(material);
            }
            let v = Voxel::from_fraction(material, solid);
            // A sliver too thin to store counts as empty: below the sea it is water.
            if v.is_air() {
                return self.water_at(biome, y);
            }
            return v;
        }
        // Caves stay dry.
        Voxel::from_fraction(material, solid.min(keep))
    }
}

impl SurfaceSource for Terrain {
    fn surface(&self, x: f64, z: f64) -> (f64, Blend) {
        self.surface_at(x, z)
    }

    fn layers(&self, x: f64, z: f64, blend: &Blend, h: f64, slope: f64) -> (Layers, u8) {
        let i = self.pick(x, z, blend);
        let b = &self.biomes[usize::from(i)];
        (b.rules.layers(x, z, h - b.shift, slope), i)
    }
}
