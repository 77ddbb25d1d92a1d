//! Procedural terrain generation.
//!
//! A [`GeneratorSettings`] (preset, world size, seed) and a material table build a [`Terrain`]: an
//! immutable, `Sync` sampler holding the noise sources and material ids. The caller lists the chunk
//! columns with [`Terrain::chunk_columns`] and fills each with [`Terrain::fill_column`], typically in
//! parallel; the result depends only on the settings and the table, never on order or thread count.
//!
//! How a column is built:
//!
//! * **Height field**: fractal noise per [`Preset`] gives a real surface height `h`
//!   per voxel column, scaled to the world's Y size (horizontal feature size scales with it too).
//! * **Occupancy**: voxel `y` covers `[y, y + 1)` and is solid over `clamp(h - y, 0, 1)` of it, so the
//!   0.5 iso-surface passes exactly through height `h`, with sub-voxel precision.
//! * **Materials**: a surface layer chosen by height and slope (grass, sand near water, snow on
//!   peaks, rock on steep ground), 1–4 voxels of soil, then rock strata chosen by absolute Y only,
//!   in flat horizontal bands (basalt at the bottom; sandstone/clay/limestone bands for canyons).
//! * **Caves**: worm-like tunnels where two 3D noises are both near zero, sampled on a 4-voxel
//!   lattice and interpolated, carved with a soft edge a few voxels below the surface.
//! * **Water**: voxels below the sea level holding no solid are full water; caves stay dry air.
//!
//! [`heightmap_grid`] builds terrain from an imported height image instead of noise, with the same
//! fractional-top-voxel rule.

mod caves;
mod column;
mod heightmap;
mod materials;
mod math;
mod preset;
mod shape;
mod terrain;
#[cfg(test)]
mod tests;

pub use heightmap::{
    colormap_materials, heightmap_grid, nearest_material, Heightmap, HeightmapSettings,
};
pub use preset::{GeneratorSettings, Preset, MAX_HORIZONTAL_SIZE, MAX_VERTICAL_SIZE};
pub use terrain::Terrain;
mod world;

pub use world::generate;
