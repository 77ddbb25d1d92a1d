//! Procedural terrain generation.
//!
//! A [`WorldSettings`] (size, seed, and a [`BiomeSettings`]: biomes, biome size, caves) and a
//! material table build a [`Terrain`]: an immutable, `Sync` sampler holding the noise sources and
//! material ids. The caller lists the chunk columns with [`Terrain::chunk_columns`] and fills each
//! with [`Terrain::fill_column`], typically in parallel; the result depends only on the settings and
//! the table, never on order or thread count. The five [`Preset`]s are one-biome worlds
//! ([`WorldSettings::from_preset`]).
//!
//! How a column is built:
//!
//! * **Biomes**: seeded Voronoi cells of about the biome size each hold one biome
//!   ([`biome_map`](self)); near a border two or three biomes are blended.
//! * **Height field**: each biome's fractal noise gives a surface height `h` per voxel column, scaled
//!   to the world's Y size (horizontal feature size scales with it too); blended biomes average their
//!   heights, each shifted so its lakes and coasts meet the shared sea level.
//! * **Occupancy**: an estimate of the signed distance to the surface, `(h − y − ½) / √(1 + |∇h|²)`,
//!   mapped so ½ is the surface: one fractional voxel on flat ground (exactly as before), a smooth
//!   ramp on slopes up to vertical. The bottom voxel of every column is full.
//! * **Materials**: each biome's rules choose a surface layer by height and slope, 1–4 voxels of
//!   soil, then rock strata by absolute Y only, in flat horizontal bands.
//! * **Caves**: worm-like tunnels where two 3D noises are both near zero, with walls from the same
//!   kind of distance estimate, carved a few voxels below the surface.
//! * **Water**: voxels below the sea level holding no solid are full water (the top two voxels ice in
//!   the arctic); caves stay dry air.
//!
//! [`generate_region`] fills a box of an existing world as one undo step, and [`preview_topdown`]
//! draws the settings from above without generating any voxels. [`heightmap_grid`] builds terrain
//! from an imported height image instead of noise, with the same distance rule.

mod biome;
mod biome_map;
mod caves;
pub(crate) mod column;
#[cfg(test)]
mod gen_tests;
mod heightmap;
mod limits;
mod materials;
mod math;
mod preset;
mod preview;
mod region;
mod shape;
#[cfg(test)]
mod slope_tests;
mod terrain;
mod world;

pub use biome::{Biome, BiomeSettings, DEFAULT_BIOME_SIZE, MAX_BIOME_SIZE, MIN_BIOME_SIZE};
pub use heightmap::{
    colormap_materials, heightmap_chunk_counts, heightmap_grid, nearest_material, Heightmap,
    HeightmapSettings, MAX_SMOOTHING_RADIUS,
};
pub use limits::{MAX_HORIZONTAL_SIZE, MAX_VERTICAL_SIZE};
pub use preset::{GeneratorSettings, Preset, WorldSettings};
pub use preview::preview_topdown;
pub use region::{generate_region, RegionFill};
pub use terrain::Terrain;
pub use world::{generate, generate_world};
