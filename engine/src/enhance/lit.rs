//! Lit fragments: the snowflake bake run at fragment resolution over the enhanced surface, as the
//! paper does. The particles walk through the fragment volume (a solid fragment stops them), so a
//! fragment overhang shades the fragments under it.
//!
//! ```text
//!   FragmentVolume ──from_fn (f³ per voxel)──> SolidVolume in fragment units
//!   LightSettings  ──step_length × f──────────> the same walks, measured in voxels
//!                  ──light::bake / rebake────> LightMap keyed by fragment position
//! ```
//!
//! Everything the voxel bake guarantees carries over: each surface fragment's random stream depends
//! only on the seed and its position (the same light on any thread count), and a re-bake of the
//! fragments within reach of an edit equals a full bake ([`crate::light::rebake`]).

use super::volume::FragmentVolume;
use crate::light::settings::MAX_STEP_LENGTH;
use crate::light::{bake, BakeStats, LightMap, LightSettings, SolidVolume};
use crate::progress::Progress;
use crate::voxel::{VoxelBox, VoxelPos};
use crate::{Error, Result};

/// The fragments of the voxels of `voxels` as a light solidity volume in fragment coordinates.
///
/// # Errors
/// [`Error::Invalid`] when the fragment box leaves the `i32` range or is too large for one volume.
pub fn fragment_solidity(volume: &FragmentVolume<'_>, voxels: VoxelBox) -> Result<SolidVolume> {
    let f = volume.factor() as i64;
    let scale = |c: i32| -> Result<i32> {
        i32::try_from(i64::from(c) * f).map_err(|_| {
            Error::Invalid(format!(
                "the fragments of {voxels:?} at factor {f} leave the coordinate range"
            ))
        })
    };
    let min = VoxelPos::new(
        scale(voxels.min.x)?,
        scale(voxels.min.y)?,
        scale(voxels.min.z)?,
    );
    let max = VoxelPos::new(
        scale(voxels.max.x)?,
        scale(voxels.max.y)?,
        scale(voxels.max.z)?,
    );
    SolidVolume::from_fn(VoxelBox::new(min, max), |p| {
        volume.is_solid([i64::from(p.x), i64::from(p.y), i64::from(p.z)])
    })
}

/// `settings` for walks in fragment units: each step keeps its length in voxels.
///
/// # Errors
/// [`Error::Invalid`] when the step would exceed the longest step a bake accepts.
pub fn fragment_settings(settings: &LightSettings, factor: usize) -> Result<LightSettings> {
    let step = settings.step_length * factor as f32;
    if step > MAX_STEP_LENGTH {
        return Err(Error::Invalid(format!(
            "a step of {} voxels at {factor} fragments per voxel is {step} fragments, more than \
             the {MAX_STEP_LENGTH} a bake walks: shorten the step or lower the factor",
            settings.step_length
        )));
    }
    Ok(LightSettings {
        step_length: step,
        ..*settings
    })
}

/// Bake the light of every surface fragment of the voxels of `voxels`. The map is keyed by fragment
/// position (voxel position × factor + index).
///
/// # Errors
/// As [`fragment_solidity`] and [`fragment_settings`]; [`Error::Invalid`] for bad settings;
/// [`Error::Cancelled`].
pub fn bake_fragments(
    volume: &FragmentVolume<'_>,
    voxels: VoxelBox,
    settings: &LightSettings,
    progress: &Progress,
) -> Result<(LightMap, BakeStats)> {
    let scaled = fragment_settings(settings, volume.factor())?;
    scaled.validate()?;
    let solid = fragment_solidity(volume, voxels)?;
    progress.check()?;
    bake(&solid, &scaled, progress)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::enhance::{Enhanced, Method, SubdivideParams};
    use crate::light::rebake;
    use crate::storage::Grid;
    use crate::voxel::{MaterialTable, Voxel};

    fn world() -> Grid {
        let mut g = Grid::new();
        let b = |a: [i32; 3], c: [i32; 3]| {
            VoxelBox::new(
                VoxelPos::new(a[0], a[1], a[2]),
                VoxelPos::new(c[0], c[1], c[2]),
            )
        };
        g.fill_box(b([0, 0, 0], [24, 4, 24]), Voxel::filled(7));
        // A roof on two pillars: the ground under it is shaded.
        g.fill_box(b([8, 4, 8], [10, 9, 10]), Voxel::filled(7));
        g.fill_box(b([14, 4, 14], [16, 9, 16]), Voxel::filled(7));
        g.fill_box(b([6, 9, 6], [18, 10, 18]), Voxel::filled(7));
        g
    }

    fn settings() -> LightSettings {
        LightSettings {
            particles: 4,
            steps: 12,
            ..LightSettings::default()
        }
    }

    fn method() -> Method {
        Method::Subdivide(SubdivideParams {
            levels: 1,
            threshold: Some(2),
            ..Default::default()
        })
    }

    fn bounds() -> VoxelBox {
        VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(24, 12, 24))
    }

    #[test]
    fn fragment_light_is_the_same_on_one_and_two_threads_and_shades_under_the_roof() {
        let grid = world();
        let table = MaterialTable::builtin();
        let store =
            Enhanced::build(&grid, &table, &method(), None, &Progress::new()).expect("build");
        let volume = store.volume(&grid);
        let run = |threads: usize| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("pool")
                .install(|| bake_fragments(&volume, bounds(), &settings(), &Progress::new()))
                .expect("bake")
                .0
        };
        let one = run(1);
        let two = run(2);
        assert!(!one.is_empty());
        let a: Vec<_> = one.entries().collect();
        let b: Vec<_> = two.entries().collect();
        assert_eq!(a, b, "bit for bit on 1 and 2 threads");
        // Open ground far from the roof against ground under its middle (fragment coordinates),
        // each the mean red light of a patch of top fragments (4 particles of each kind give a
        // single fragment's light in quarters).
        let top = 4 * 2 - 1;
        let mean = |lo: i32, hi: i32| {
            let lit: Vec<f32> = (lo..hi)
                .flat_map(|x| (lo..hi).map(move |z| VoxelPos::new(x, top, z)))
                .filter_map(|p| one.light(p).map(|l| l[0]))
                .collect();
            assert_eq!(
                lit.len(),
                ((hi - lo) * (hi - lo)) as usize,
                "the patch is lit"
            );
            lit.iter().sum::<f32>() / lit.len() as f32
        };
        let (open, shaded) = (mean(38, 46), mean(21, 27));
        assert!(
            shaded < open * 0.9,
            "the roof shades the ground: {shaded} vs {open}"
        );
    }

    #[test]
    fn a_rebake_after_an_edit_equals_a_full_bake() {
        let mut grid = world();
        let table = MaterialTable::builtin();
        let mut store =
            Enhanced::build(&grid, &table, &method(), None, &Progress::new()).expect("build");
        let s = settings();
        let (mut light, _) =
            bake_fragments(&store.volume(&grid), bounds(), &s, &Progress::new()).expect("bake");
        let edit = VoxelBox::new(VoxelPos::new(2, 4, 2), VoxelPos::new(5, 7, 5));
        grid.fill_box(edit, Voxel::filled(7));
        store.update(&grid, edit);
        // The fragments whose solidity can change: the edit grown by the enhancement window, ×2.
        let f = 2;
        let grown = VoxelBox::new(
            VoxelPos::new(
                (edit.min.x - 1) * f,
                (edit.min.y - 1) * f,
                (edit.min.z - 1) * f,
            ),
            VoxelPos::new(
                (edit.max.x + 1) * f,
                (edit.max.y + 1) * f,
                (edit.max.z + 1) * f,
            ),
        );
        light.mark_stale(grown);
        let solid = fragment_solidity(&store.volume(&grid), bounds()).expect("solid");
        // The map holds the settings it was baked with: already in fragment units.
        let request = light.stale_request();
        assert_eq!(
            request.settings,
            fragment_settings(&s, f as usize).expect("settings")
        );
        let (patch, _) = rebake(&solid, &request, &Progress::new()).expect("rebake");
        light.apply(patch).expect("patch");
        let (full, _) =
            bake_fragments(&store.volume(&grid), bounds(), &s, &Progress::new()).expect("full");
        let a: Vec<_> = light.entries().collect();
        let b: Vec<_> = full.entries().collect();
        assert_eq!(a, b, "incremental equals full");
    }

    #[test]
    fn steps_too_long_for_fine_fragments_are_refused() {
        let s = LightSettings {
            step_length: 2.0,
            ..LightSettings::default()
        };
        assert!(fragment_settings(&s, 16).is_err());
        assert!(fragment_settings(&s, 4).is_ok());
    }
}
