//! The snowflake lighting bake (Smith, "Two Methods for Voxel Detail Enhancement", §4.4): instead of
//! tracing rays, particles released from each surface voxel wander in small random steps; those that
//! finish their walk without entering solid ground bring sun or sky light back to their voxel. Long
//! walks give long shadows behind towers and near darkness in caves; random ones give soft light under
//! overhangs. Walks that are lost in a glowing material bring its emission back, walks toward the
//! project's point and spot lights bring their light unless something stands between, and optional
//! bounces bring the light of the surfaces walks end in.
//!
//! ```text
//!   Grid ──SolidVolume::from_grid (1 bit a voxel, 8³ bricks)──> SolidVolume ──bake (rayon)──> LightMap
//!                         │ after an edit: patch(changed box)        │          per surface voxel RGB
//!                         ▼                                          ▼
//!   LightMap::mark_stale(changed) ──stale_request──> rebake ──> LightPatch ──LightMap::apply
//!   LightMap ──sample(vertex)──> export colours, viewport;  column_top ──> top-down map
//!   LightMap <──serial──> project file sections LITE (light) and LOPT (bake options, light stale boxes)
//!   PlacedLight list <──placed_serial──> project file section LAMP
//! ```
//!
//! - [`settings`]: [`LightSettings`], defaults, limits, [`LightSettings::reach`].
//! - [`solid`]: [`SolidVolume`], the packed solidity the walks read, and surface voxels.
//! - `walk`: the walk kernel, direction tables and per-voxel random streams.
//! - `bake`: [`bake_scene`] (everything) and [`rebake_scene`] (the stale regions), with progress and
//!   cancel, the bounces and the filter.
//! - `shade`: one voxel's direct light; `placed_walk`: walks toward placed lights; `denoise`: the
//!   edge-aware filter, reading its neighbours through `tap_index`.
//! - [`mod@flat_ground`]: what a bake gives open, flat ground (the viewport's sun matches its shadows).
//! - [`placed`]: [`PlacedLight`]; [`scene`]: [`LightScene`], what a bake lights with;
//!   [`quality`]: [`Quality`] presets.
//! - `map`: [`LightMap`], stale regions, [`LightPatch`]; `sample`: light at surface points.
//! - `serial`: the `LITE` and `LOPT` section bytes; `placed_serial`: the `LAMP` section bytes.
//!
//! # Threading and the editor
//! Jobs take only plain data: a [`SolidVolume`] (clone it, or keep it in an `Arc`, to snapshot the
//! solidity) and [`LightSettings`] or a [`RebakeRequest`]. They return a new [`LightMap`] or a
//! [`LightPatch`] that the UI thread installs in one assignment or one [`LightMap::apply`]; a
//! cancelled or failed job returns an error and the installed light is untouched. Edits made while a
//! job ran are caught by [`LightMap::mark_stale_between`] (the job's volume against the current one).
//!
//! ```
//! use strata_engine::light::{bake, LightSettings, SolidVolume};
//! use strata_engine::progress::Progress;
//! use strata_engine::storage::Grid;
//! use strata_engine::voxel::{MaterialTable, Voxel, VoxelBox, VoxelPos};
//!
//! let table = MaterialTable::builtin();
//! let mut grid = Grid::new();
//! grid.fill_box(VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(16, 4, 16)), Voxel::filled(7));
//! let volume = SolidVolume::from_grid(&grid, &table).unwrap();
//! let settings = LightSettings { particles: 4, steps: 8, ..LightSettings::default() };
//! let (light, stats) = bake(&volume, &settings, &Progress::new()).unwrap();
//! assert_eq!(stats.surface_voxels as usize, light.len());
//! assert!(light.light(VoxelPos::new(8, 3, 8)).unwrap()[0] > 0.0);
//! ```

mod bake;
mod denoise;
#[cfg(test)]
mod denoise_tests;
pub mod flat_ground;
#[cfg(test)]
mod light_tests;
mod map;
pub mod placed;
pub mod placed_serial;
mod placed_walk;
pub mod quality;
mod sample;
pub mod scene;
#[cfg(test)]
mod scene_tests;
pub mod serial;
#[cfg(test)]
mod serial_tests;
pub mod settings;
mod shade;
pub mod solid;
mod tap_index;
mod walk;

pub use bake::{bake, bake_scene, rebake, rebake_scene, BakeStats};
pub use flat_ground::{flat_ground, FlatGround};
pub use map::{LightMap, LightPatch, RebakeRequest};
pub use placed::{PlacedLight, Spot};
pub use quality::Quality;
pub use scene::LightScene;
pub use settings::LightSettings;
pub use solid::{SolidRule, SolidVolume, SurfaceVoxel};
pub use walk::{rgb16, Bounds, Particle, VoxelWalks, WalkExtent, Walker, LIGHT_ONE};

use crate::storage::Grid;
use crate::voxel::MaterialTable;
use crate::Result;

/// Mean light per material over the lit voxels of `light` (linear RGB), indexed by material id;
/// `None` for materials with no lit voxel. Reads each lit voxel's material from `grid`.
pub fn mean_light_by_material(
    light: &LightMap,
    grid: &Grid,
    table: &MaterialTable,
) -> Vec<Option<[f64; 3]>> {
    let mut sums = vec![([0f64; 3], 0u64); table.len()];
    for (p, rgb) in light.entries() {
        let m = usize::from(grid.get(p).material);
        if let Some((s, n)) = sums.get_mut(m) {
            for a in 0..3 {
                s[a] += f64::from(rgb[a]) / f64::from(LIGHT_ONE);
            }
            *n += 1;
        }
    }
    sums.into_iter()
        .map(|(s, n)| (n > 0).then(|| s.map(|c| c / n as f64)))
        .collect()
}

/// Build the solidity and scene of `grid` and bake it with `lights`: the one-call form for
/// command-line use.
///
/// # Errors
/// As [`bake_scene`] and [`SolidVolume::from_grid`].
pub fn bake_grid(
    grid: &Grid,
    table: &MaterialTable,
    lights: &[PlacedLight],
    settings: &LightSettings,
    progress: &crate::progress::Progress,
) -> Result<(LightMap, BakeStats)> {
    settings.validate()?;
    let started = std::time::Instant::now();
    let volume = SolidVolume::from_grid(grid, table)?;
    let scene = LightScene::new(grid, table, &volume, lights, settings);
    let (light, mut stats) = bake_scene(&volume, &scene, settings, progress)?;
    stats.seconds = started.elapsed().as_secs_f64();
    Ok((light, stats))
}
