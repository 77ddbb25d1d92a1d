//! Full and incremental bakes: find the surface voxels, walk their particles in parallel, collect the
//! light; then the bounces and the filter, when the settings ask for them.
//!
//! ```text
//!   full:         SolidVolume ──surface_in(bounds)──> surface voxels ──rayon, 256 a batch──> direct
//!                 direct ──bounce × settings.bounce (sky walks read the light they end in)──>
//!                 ──denoise (settings.denoise)──> LightMap
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
//! (those within one voxel of it), gives what a full bake with the same seed gives. A placed light's
//! change re-bakes the surface voxels within its range.
//!
//! With bounces or the filter a voxel's light also depends on its neighbours' light; a re-bake reads
//! their current light (the request's `around`), so near a re-baked region it approximates what a
//! full bake gives, which stays exact.

use std::time::Instant;

use rayon::prelude::*;

use rustc_hash::FxHashMap;

use super::denoise::denoise;
use super::map::{order_key, Entry, LightMap, LightPatch, RebakeRequest};
use super::scene::LightScene;
use super::settings::LightSettings;
use super::shade::{normal_of, quantize, Shader};
use super::solid::{SolidVolume, SurfaceVoxel};
use super::walk::{WalkExtent, LIGHT_ONE};
use crate::progress::Progress;
use crate::voxel::VoxelPos;
use crate::{Error, Result};

/// Light of some voxels before it is stored (linear RGB), sorted like the light map.
type Lit = Vec<(VoxelPos, [f32; 3], WalkExtent)>;

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
    /// Of that, the edge-aware filter's time (0 without it).
    pub denoise_seconds: f64,
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

/// Bake the light of every surface voxel of `volume` by the sun and the sky alone. Runs on the
/// rayon pool it is called in.
///
/// # Errors
/// [`Error::Invalid`] for bad settings, [`Error::Cancelled`] once `progress` is cancelled.
pub fn bake(
    volume: &SolidVolume,
    settings: &LightSettings,
    progress: &Progress,
) -> Result<(LightMap, BakeStats)> {
    bake_scene(volume, &LightScene::empty(), settings, progress)
}

/// Bake the light of every surface voxel of `volume` in `scene` (placed lights, glowing
/// materials). Runs on the rayon pool it is called in.
///
/// # Errors
/// [`Error::Invalid`] for bad settings, [`Error::Cancelled`] once `progress` is cancelled.
pub fn bake_scene(
    volume: &SolidVolume,
    scene: &LightScene,
    settings: &LightSettings,
    progress: &Progress,
) -> Result<(LightMap, BakeStats)> {
    settings.validate()?;
    let started = Instant::now();
    let mut surface = volume.surface_in(volume.bounds());
    surface.sort_unstable_by_key(|s| order_key(s.pos));
    let shader = Shader::new(volume, scene, settings);
    progress.start(surface.len() as u64 * passes(settings));
    let (direct, [steps, tested]) = walk_all(&shader, &surface, progress)?;
    let (lit, bounce_steps, denoise_seconds) = finish(&shader, &surface, direct, &[], progress)?;
    let entries = store(lit);
    let stats = BakeStats {
        surface_voxels: entries.len() as u64,
        walk_steps: steps + bounce_steps,
        tested_steps: tested + bounce_steps,
        seconds: started.elapsed().as_secs_f64(),
        denoise_seconds,
    };
    let mut map = LightMap::from_sorted(*settings, &entries);
    map.cover_lights(scene.lights());
    Ok((map, stats))
}

/// Re-bake the surface voxels the request's stale boxes may have changed, on `volume` (the solidity
/// after the edits), by the sun and sky alone: see [`rebake_scene`].
///
/// # Errors
/// [`Error::Invalid`] for bad settings, [`Error::Cancelled`] once `progress` is cancelled.
pub fn rebake(
    volume: &SolidVolume,
    request: &RebakeRequest,
    progress: &Progress,
) -> Result<(LightPatch, BakeStats)> {
    rebake_scene(volume, &LightScene::empty(), request, progress)
}

/// Re-bake the surface voxels the request's stale boxes may have changed, on `volume` (the solidity
/// after the edits) in `scene` (its current lights and materials): the lit voxels whose walks
/// reached a box (`request.reached`) that are still surface voxels, every surface voxel within one
/// voxel of a box, and every surface voxel in a box a placed light changed in. Without bounces or
/// the filter the patch equals what a full bake with the same settings gives those voxels.
///
/// # Errors
/// [`Error::Invalid`] for bad settings, [`Error::Cancelled`] once `progress` is cancelled.
pub fn rebake_scene(
    volume: &SolidVolume,
    scene: &LightScene,
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
    surface.extend(
        request
            .relit
            .iter()
            .flat_map(|(_, b)| volume.surface_in(*b)),
    );
    surface.extend(request.reached.iter().filter_map(|&pos| {
        volume
            .surface_at(pos)
            .map(|open| SurfaceVoxel { pos, open })
    }));
    surface.sort_unstable_by_key(|s| order_key(s.pos));
    surface.dedup_by_key(|s| s.pos);
    let shader = Shader::new(volume, scene, settings);
    progress.start(surface.len() as u64 * passes(settings));
    let (direct, [steps, tested]) = walk_all(&shader, &surface, progress)?;
    let (lit, bounce_steps, denoise_seconds) =
        finish(&shader, &surface, direct, &request.around, progress)?;
    let entries = store(lit);
    let stats = BakeStats {
        surface_voxels: entries.len() as u64,
        walk_steps: steps + bounce_steps,
        tested_steps: tested + bounce_steps,
        seconds: started.elapsed().as_secs_f64(),
        denoise_seconds,
    };
    let patch = LightPatch {
        request: request.clone(),
        entries,
    };
    Ok((patch, stats))
}

/// Progress units per surface voxel: the direct walks, each bounce, the filter.
fn passes(settings: &LightSettings) -> u64 {
    1 + u64::from(settings.bounce) + u64::from(settings.denoise)
}

/// Stored light of `lit`.
fn store(lit: Lit) -> Vec<Entry> {
    lit.into_iter()
        .map(|(p, rgb, extent)| (p, quantize(rgb), extent))
        .collect()
}

/// The bounces and the filter over the direct light of `surface` (same order); `around` is the
/// stored light of lit voxels beside them (a re-bake's). Returns the light, the bounce steps and
/// the filter's seconds.
fn finish(
    shader: &Shader,
    surface: &[SurfaceVoxel],
    direct: Lit,
    around: &[(VoxelPos, [u16; 3])],
    progress: &Progress,
) -> Result<(Lit, u64, f64)> {
    let settings = &shader.settings;
    let context: Vec<(VoxelPos, [f32; 3])> = around
        .iter()
        .map(|(p, l)| (*p, l.map(|c| f32::from(c) / LIGHT_ONE)))
        .collect();
    let mut lit = direct.clone();
    let mut steps = 0;
    for _ in 0..settings.bounce {
        let (next, s) = bounce(shader, surface, &direct, &lit, &context, progress)?;
        lit = next;
        steps += s;
    }
    let mut denoise_seconds = 0.0;
    if settings.denoise {
        progress.check()?;
        let t = Instant::now();
        let mut light: Vec<(VoxelPos, [f32; 3])> = lit.iter().map(|e| (e.0, e.1)).collect();
        denoise(shader.vol, shader.scene, &mut light, &context);
        for (e, (_, l)) in lit.iter_mut().zip(light) {
            e.1 = l;
        }
        progress.advance(surface.len() as u64);
        denoise_seconds = t.elapsed().as_secs_f64();
    }
    Ok((lit, steps, denoise_seconds))
}

/// One bounce: `direct` plus the light the sky walks of each voxel find in the surfaces they end in
/// (`previous`, over `context`), times those surfaces' colours.
fn bounce(
    shader: &Shader,
    surface: &[SurfaceVoxel],
    direct: &Lit,
    previous: &Lit,
    context: &[(VoxelPos, [f32; 3])],
    progress: &Progress,
) -> Result<(Lit, u64)> {
    let scene = shader.scene;
    let vol = shader.vol;
    let reflect = |p: VoxelPos, l: [f32; 3]| {
        let m = scene.material(p)?;
        let albedo = scene.albedo(m);
        let normal = normal_of(vol.surface_at(p)?);
        Some((p, ([0, 1, 2].map(|a| l[a] * albedo[a]), normal)))
    };
    let mut source: FxHashMap<VoxelPos, ([f32; 3], [f32; 3])> =
        context.iter().filter_map(|&(p, l)| reflect(p, l)).collect();
    source.extend(previous.iter().filter_map(|e| reflect(e.0, e.1)));
    let look = |p: VoxelPos| source.get(&p).copied();
    let batches: Vec<(Lit, u64)> = surface
        .par_chunks(batch_len(surface.len()))
        .zip(direct.par_chunks(batch_len(surface.len())))
        .map(|(svs, d)| {
            progress.check()?;
            let mut out = Vec::with_capacity(svs.len());
            let mut steps = 0;
            for (&sv, &(p, rgb, extent)) in svs.iter().zip(d) {
                let (b, s) = shader.bounced(sv, &look);
                steps += s;
                out.push((p, [0, 1, 2].map(|a| rgb[a] + b[a]), extent));
            }
            progress.advance(svs.len() as u64);
            Ok((out, steps))
        })
        .collect::<Result<_, Error>>()?;
    let steps = batches.iter().map(|b| b.1).sum();
    Ok((batches.into_iter().flat_map(|b| b.0).collect(), steps))
}

/// Surface voxels per batch for `n` of them.
fn batch_len(n: usize) -> usize {
    (n / (rayon::current_num_threads() * 8)).clamp(MIN_BATCH, BATCH)
}

/// The direct light of `surface` (sorted by [`order_key`]) in parallel batches, in the same order,
/// and the steps drawn and tested.
fn walk_all(
    shader: &Shader,
    surface: &[SurfaceVoxel],
    progress: &Progress,
) -> Result<(Lit, [u64; 2])> {
    let batches: Vec<(Lit, [u64; 2])> = surface
        .par_chunks(batch_len(surface.len()))
        .map(|batch| {
            progress.check()?;
            let mut out = Vec::with_capacity(batch.len());
            let mut steps = [0u64; 2];
            for &sv in batch {
                let s = shader.direct(sv);
                steps[0] += s.steps;
                steps[1] += s.tested;
                out.push((sv.pos, s.rgb, s.extent));
            }
            progress.advance(batch.len() as u64);
            Ok((out, steps))
        })
        .collect::<Result<_, Error>>()?;
    let steps = batches
        .iter()
        .fold([0, 0], |a, b| [a[0] + b.1[0], a[1] + b.1[1]]);
    let lit = batches.into_iter().flat_map(|b| b.0).collect();
    Ok((lit, steps))
}
