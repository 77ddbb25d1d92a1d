//! Full and incremental bakes: find the surface voxels, walk their particles in parallel, collect the
//! light.
//!
//! ```text
//!   full:         SolidVolume ──surface_in(bounds)──> surface voxels ──rayon, 256 a batch──> LightMap
//!   incremental:  RebakeRequest (stale boxes, lit voxels whose walk extent meets one)
//!                   ──those voxels + the surface voxels next to a box──> LightPatch
//!                 LightMap::apply(patch): drop the light next to the boxes, insert the new light
//! ```
//!
//! Both report one progress unit per surface voxel and stop with [`Error::Cancelled`] between batches
//! once cancelled; they only read their inputs, so a cancelled bake leaves the installed light as it
//! was. A voxel's light depends only on the seed, its position and the solidity inside its walk
//! extent (the box its walks visited, always within [`LightSettings::reach`]; see `walk`). An edit
//! outside that box leaves the walks' draws, positions and bit tests as they were, so re-baking the
//! voxels whose extent meets a changed box, and the voxels whose faces the edit may have changed
//! (those within one voxel of it), gives what a full bake with the same seed gives.

use std::time::Instant;

use rayon::prelude::*;

use super::map::{order_key, Entry, LightMap, LightPatch, RebakeRequest};
use super::settings::LightSettings;
use super::solid::{SolidVolume, SurfaceVoxel};
use super::walk::{rgb16, Walker};
use crate::progress::Progress;
use crate::{Error, Result};

/// Baked light of some voxels, sorted like the light map.
type Entries = Vec<Entry>;

/// Most surface voxels walked per batch (one cancellation check each).
const BATCH: usize = 256;
/// Fewest surface voxels per batch: a small re-bake is still cut into about eight batches per
/// thread, so that no thread is left with a long last batch while the others idle.
const MIN_BATCH: usize = 16;

/// What a bake did.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BakeStats {
    /// Surface voxels baked.
    pub surface_voxels: u64,
    /// Walk steps drawn by all particles (a particle that is lost stops there).
    pub walk_steps: u64,
    /// Of those, the steps that tested a solidity bit (the rest were in space the clearance proves
    /// free, or belonged to a particle already sure to survive).
    pub tested_steps: u64,
    /// Wall-clock time, from finding the surface to the last walk.
    pub seconds: f64,
}

impl BakeStats {
    /// `walk_steps / seconds` (0 for an instant bake).
    pub fn steps_per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.walk_steps as f64 / self.seconds
        } else {
            0.0
        }
    }
}

/// Bake the light of every surface voxel of `volume`. Runs on the rayon pool it is called in.
///
/// # Errors
/// [`Error::Invalid`] for bad settings, [`Error::Cancelled`] once `progress` is cancelled.
pub fn bake(
    volume: &SolidVolume,
    settings: &LightSettings,
    progress: &Progress,
) -> Result<(LightMap, BakeStats)> {
    settings.validate()?;
    let started = Instant::now();
    let surface = volume.surface_in(volume.bounds());
    let (entries, [steps, tested]) = walk_all(volume, settings, surface, progress)?;
    let stats = BakeStats {
        surface_voxels: entries.len() as u64,
        walk_steps: steps,
        tested_steps: tested,
        seconds: started.elapsed().as_secs_f64(),
    };
    Ok((LightMap::from_sorted(*settings, &entries), stats))
}

/// Re-bake the surface voxels the request's stale boxes may have changed, on `volume` (the solidity
/// after the edits): the lit voxels whose walks reached a box (`request.reached`) that are still
/// surface voxels, and every surface voxel within one voxel of a box. The patch equals what a full
/// bake with the same settings gives those voxels.
///
/// # Errors
/// [`Error::Invalid`] for bad settings, [`Error::Cancelled`] once `progress` is cancelled.
pub fn rebake(
    volume: &SolidVolume,
    request: &RebakeRequest,
    progress: &Progress,
) -> Result<(LightPatch, BakeStats)> {
    let settings = &request.settings;
    settings.validate()?;
    let started = Instant::now();
    let mut surface: Vec<SurfaceVoxel> = request
        .boxes
        .iter()
        .flat_map(|(_, b)| volume.surface_in(b.grown(1)))
        .collect();
    surface.extend(request.reached.iter().filter_map(|&pos| {
        volume
            .surface_at(pos)
            .map(|open| SurfaceVoxel { pos, open })
    }));
    surface.sort_unstable_by_key(|s| order_key(s.pos));
    surface.dedup_by_key(|s| s.pos);
    let (entries, [steps, tested]) = walk_all(volume, settings, surface, progress)?;
    let stats = BakeStats {
        surface_voxels: entries.len() as u64,
        walk_steps: steps,
        tested_steps: tested,
        seconds: started.elapsed().as_secs_f64(),
    };
    let patch = LightPatch {
        request: request.clone(),
        entries,
    };
    Ok((patch, stats))
}

/// Walk `surface` in parallel batches; the light sorted by [`order_key`], and the steps drawn and
/// tested.
fn walk_all(
    volume: &SolidVolume,
    settings: &LightSettings,
    mut surface: Vec<SurfaceVoxel>,
    progress: &Progress,
) -> Result<(Entries, [u64; 2])> {
    surface.sort_unstable_by_key(|s| order_key(s.pos));
    progress.start(surface.len() as u64);
    let walker = Walker::new(volume, settings);
    let batch = (surface.len() / (rayon::current_num_threads() * 8)).clamp(MIN_BATCH, BATCH);
    let batches: Vec<(Entries, [u64; 2])> = surface
        .par_chunks(batch)
        .map(|batch| {
            progress.check()?;
            let mut out = Vec::with_capacity(batch.len());
            let mut steps = [0u64; 2];
            for &sv in batch {
                let w = walker.light_voxel(sv);
                steps[0] += w.steps;
                steps[1] += w.tested;
                out.push((sv.pos, rgb16(settings, w), w.extent));
            }
            progress.advance(batch.len() as u64);
            Ok((out, steps))
        })
        .collect::<Result<_, Error>>()?;
    let steps = batches
        .iter()
        .fold([0, 0], |a, b| [a[0] + b.1[0], a[1] + b.1[1]]);
    let entries = batches.into_iter().flat_map(|b| b.0).collect();
    Ok((entries, steps))
}
