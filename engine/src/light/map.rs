//! Baked light: one RGB value per surface voxel, the settings it was baked with, and the regions that
//! edits have made stale since.
//!
//! ```text
//!   LightMap
//!     settings                     LightSettings of the bake
//!     chunks: ChunkPos ─> ChunkLight { index: [u16] (z·1024 + y·32 + x, ascending), rgb: [[u16; 3]],
//!                                      extent: [WalkExtent] (the box each voxel's walks visited) }
//!     stale: [(id, changed box)]   each box makes stale every voxel within `reach` of it
//!     relit: [(id, box)]           a placed light changed: the voxels inside the box are stale
//!     reach                        how far walks go: the settings' reach, or more for long lights
//! ```
//!
//! A stale box is only a bound: the light that actually needs a re-bake is that of the voxels whose
//! walk extent meets a stale box, and of the surface voxels next to it (their faces may have
//! changed). [`LightMap::stale_request`] lists the first, [`crate::light::rebake`] finds the second.
//!
//! Light is linear RGB in units of 1/4096 ([`LIGHT_ONE`]): 4096 is a surface that receives the full
//! colour of every particle of one kind, and values up to 16 hold HDR sun and sky colours.
//!
//! # Rationale
//! Surface voxels are a thin shell, a few thousand per 32³ chunk, so a sorted list per chunk is small
//! (8 bytes a voxel) and looks a voxel up with one hash and one binary search. Stale regions are kept
//! as the changed boxes themselves with ids, so a re-bake that started before a later edit clears only
//! the boxes it re-baked and the later edit stays stale.

use rustc_hash::FxHashMap;

use super::settings::LightSettings;
use super::solid::SolidVolume;
use super::walk::{within_reach, WalkExtent, LIGHT_ONE};
use crate::voxel::{ChunkPos, VoxelBox, VoxelPos, CHUNK_SIZE};
use crate::{Error, Result};

/// More stale boxes than this are merged into their bounding box.
const MAX_STALE: usize = 256;

/// The light of one chunk's surface voxels.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ChunkLight {
    /// Local index `z · 1024 + y · 32 + x` of each lit voxel, strictly ascending.
    pub index: Vec<u16>,
    /// Light of each voxel, 1/4096 units.
    pub rgb: Vec<[u16; 3]>,
    /// The box each voxel's walks visited ([`WalkExtent::UNKNOWN`] when loaded from a file).
    pub extent: Vec<WalkExtent>,
}

/// Sort key of the light map: chunk Z, Y, X, then Z, Y, X inside the chunk.
pub(crate) fn order_key(p: VoxelPos) -> (i32, i32, i32, u16) {
    let c = p.chunk();
    (c.z, c.y, c.x, local_index(p))
}

impl ChunkLight {
    fn push(&mut self, (i, rgb, extent): (u16, [u16; 3], WalkExtent)) {
        self.index.push(i);
        self.rgb.push(rgb);
        self.extent.push(extent);
    }
}

/// Local index of `p` inside its chunk.
pub(crate) fn local_index(p: VoxelPos) -> u16 {
    let [x, y, z] = p.local();
    (z * CHUNK_SIZE * CHUNK_SIZE + y * CHUNK_SIZE + x) as u16
}

/// The voxel at local index `i` of chunk `c`.
pub(crate) fn voxel_at(c: ChunkPos, i: u16) -> VoxelPos {
    let m = c.min_voxel();
    let i = usize::from(i);
    let s = CHUNK_SIZE;
    VoxelPos::new(
        m.x + (i % s) as i32,
        m.y + ((i / s) % s) as i32,
        m.z + (i / (s * s)) as i32,
    )
}

/// What a re-bake of the stale regions needs: the settings, the stale boxes with their ids and the
/// lit voxels whose walks reached them. Cheap to clone and `Send`, so a job can take it off the UI
/// thread.
#[derive(Debug, Clone, PartialEq)]
pub struct RebakeRequest {
    /// Settings of the light being patched.
    pub settings: LightSettings,
    /// The stale boxes to re-bake, with their ids.
    pub boxes: Vec<(u64, VoxelBox)>,
    /// Boxes a placed light changed in, with their ids: their surface voxels are re-baked.
    pub relit: Vec<(u64, VoxelBox)>,
    /// Lit voxels whose walk extent meets a stale box, sorted like the light map.
    pub reached: Vec<VoxelPos>,
    /// With bounce or denoise: the current light of the lit voxels around the stale regions (what
    /// bounced light and the filter read beside the re-baked voxels), sorted like the light map.
    pub around: Vec<(VoxelPos, [u16; 3])>,
}

/// A re-baked voxel: position, light (1/4096 units) and walk extent.
pub(crate) type Entry = (VoxelPos, [u16; 3], WalkExtent);

/// New light for the surface voxels an edit may have changed (those whose walks reached a changed
/// box, and those next to one), to be installed with [`LightMap::apply`].
#[derive(Debug, Clone, PartialEq)]
pub struct LightPatch {
    pub(crate) request: RebakeRequest,
    /// New light, sorted by chunk (Z, Y, X) then local index.
    pub(crate) entries: Vec<Entry>,
}

impl LightPatch {
    /// Surface voxels the patch carries light for.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when the patch holds no voxel.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// True when the patch replaces the light of `p`: it carries new light for `p`, or `p` lies
    /// next to a changed box (where light may disappear with the surface).
    pub fn covers(&self, p: VoxelPos) -> bool {
        self.request
            .boxes
            .iter()
            .any(|(_, b)| b.grown(1).contains(p))
            || self
                .entries
                .binary_search_by_key(&order_key(p), |e| order_key(e.0))
                .is_ok()
    }
}

/// Baked light of a world (see the module docs).
#[derive(Debug, Clone)]
pub struct LightMap {
    settings: LightSettings,
    pub(crate) chunks: FxHashMap<ChunkPos, ChunkLight>,
    stale: Vec<(u64, VoxelBox)>,
    relit: Vec<(u64, VoxelBox)>,
    next_stale: u64,
    reach: f32,
}

impl PartialEq for LightMap {
    /// Same settings and reach, same light for the same voxels, same stale boxes (ids ignored).
    fn eq(&self, other: &Self) -> bool {
        let stale = |m: &LightMap| m.stale.iter().map(|s| s.1).collect::<Vec<_>>();
        let relit = |m: &LightMap| m.relit.iter().map(|s| s.1).collect::<Vec<_>>();
        self.settings == other.settings
            && self.reach == other.reach
            && stale(self) == stale(other)
            && relit(self) == relit(other)
            && self.entries().eq(other.entries())
    }
}

impl LightMap {
    /// A map with no light, for `settings`.
    pub fn new(settings: LightSettings) -> Self {
        Self {
            settings,
            chunks: FxHashMap::default(),
            stale: Vec::new(),
            relit: Vec::new(),
            next_stale: 0,
            reach: settings.reach(),
        }
    }

    /// A map from entries sorted by chunk (Z, Y, X), then local index, without duplicates.
    pub(crate) fn from_sorted(settings: LightSettings, entries: &[Entry]) -> Self {
        let mut map = Self::new(settings);
        for &(p, rgb, extent) in entries {
            let c = map.chunks.entry(p.chunk()).or_default();
            c.index.push(local_index(p));
            c.rgb.push(rgb);
            c.extent.push(extent);
        }
        map
    }

    /// The walk extent recorded for lit voxel `p` ([`WalkExtent::UNKNOWN`] for light loaded from a
    /// file), if it is a lit voxel.
    pub fn extent(&self, p: VoxelPos) -> Option<WalkExtent> {
        let c = self.chunks.get(&p.chunk())?;
        let i = c.index.binary_search(&local_index(p)).ok()?;
        Some(c.extent[i])
    }

    /// The settings the light was baked with.
    pub fn settings(&self) -> &LightSettings {
        &self.settings
    }

    /// How far from a surface voxel its walks can test solidity, in voxels: the settings' reach, or
    /// more when a placed light's range is longer. Only voxels this close can change its light.
    pub fn reach(&self) -> f32 {
        self.reach
    }

    /// Widen the reach to cover walks toward `lights` (a bake with them, or a light added since).
    pub fn cover_lights(&mut self, lights: &[super::placed::PlacedLight]) {
        for l in lights {
            self.reach = self.reach.max(l.range + 2.0);
        }
    }

    /// Set the reach (as loaded from a file).
    pub(crate) fn set_reach(&mut self, reach: f32) {
        self.reach = reach.max(self.settings.reach());
    }

    /// Mark stale the voxels `light` lights or lit (it was added, removed, moved or changed): only
    /// those within its range, unlike a voxel edit, whose effect reaches as far as walks go.
    pub fn mark_light_changed(&mut self, light: &super::placed::PlacedLight) {
        self.cover_lights(std::slice::from_ref(light));
        self.relit.push((self.next_stale, light.reach_box()));
        self.next_stale += 1;
        if self.relit.len() > MAX_STALE {
            let all = self
                .relit
                .iter()
                .fold(VoxelBox::default(), |acc, s| acc.union(&s.1));
            self.relit = vec![(self.next_stale, all)];
            self.next_stale += 1;
        }
    }

    /// The boxes placed-light changes made stale since the bake, oldest first.
    pub fn relit_boxes(&self) -> impl Iterator<Item = VoxelBox> + '_ {
        self.relit.iter().map(|s| s.1)
    }

    /// Number of lit (surface) voxels.
    pub fn len(&self) -> usize {
        self.chunks.values().map(|c| c.index.len()).sum()
    }

    /// True when no voxel has light.
    pub fn is_empty(&self) -> bool {
        self.chunks.values().all(|c| c.index.is_empty())
    }

    /// Chunks holding light, sorted (Z, Y, X).
    pub(crate) fn sorted_chunks(&self) -> Vec<ChunkPos> {
        let mut v: Vec<ChunkPos> = self
            .chunks
            .iter()
            .filter(|(_, c)| !c.index.is_empty())
            .map(|(p, _)| *p)
            .collect();
        v.sort_unstable_by_key(|p| (p.z, p.y, p.x));
        v
    }

    /// Every lit voxel and its light (1/4096 units), by chunk (Z, Y, X) then Z, Y, X inside.
    pub fn entries(&self) -> impl Iterator<Item = (VoxelPos, [u16; 3])> + '_ {
        self.sorted_chunks().into_iter().flat_map(move |c| {
            let l = &self.chunks[&c];
            l.index
                .iter()
                .zip(&l.rgb)
                .map(move |(&i, &rgb)| (voxel_at(c, i), rgb))
        })
    }

    /// The stored light of `p` in 1/4096 units, if it is a lit voxel.
    #[inline]
    pub fn rgb16(&self, p: VoxelPos) -> Option<[u16; 3]> {
        let c = self.chunks.get(&p.chunk())?;
        let i = c.index.binary_search(&local_index(p)).ok()?;
        Some(c.rgb[i])
    }

    /// The light of `p` as linear RGB (1.0 = the full colour), if it is a lit voxel.
    #[inline]
    pub fn light(&self, p: VoxelPos) -> Option<[f32; 3]> {
        self.rgb16(p).map(|c| c.map(|v| f32::from(v) / LIGHT_ONE))
    }

    /// Fill `out` (3 bytes per voxel of `region`, X fastest, then Y, then Z) with each voxel's light
    /// as `round(min(light, 1) · 255)` per channel, and 0, 0, 0 where a voxel has no light.
    ///
    /// # Panics
    /// When `out.len() != 3 × region.volume()`.
    pub fn rgb8_box(&self, region: VoxelBox, out: &mut [u8]) {
        assert_eq!(out.len(), region.volume() * 3, "buffer matches the box");
        out.fill(0);
        for c in region.chunks() {
            let Some(l) = self.chunks.get(&c) else {
                continue;
            };
            for (&i, rgb) in l.index.iter().zip(&l.rgb) {
                let p = voxel_at(c, i);
                if region.contains(p) {
                    let k = region.index_of(p) * 3;
                    for a in 0..3 {
                        let v = (f32::from(rgb[a]) / LIGHT_ONE).min(1.0);
                        out[k + a] = (v * 255.0).round() as u8;
                    }
                }
            }
        }
    }

    /// Mark the light within reach of `changed` stale (an edit, an undo or a redo changed those
    /// voxels). The viewport shows stale light differently and a re-bake refreshes it.
    pub fn mark_stale(&mut self, changed: VoxelBox) {
        if changed.is_empty() {
            return;
        }
        self.stale.push((self.next_stale, changed));
        self.next_stale += 1;
        if self.stale.len() > MAX_STALE {
            let all = self
                .stale
                .iter()
                .fold(VoxelBox::default(), |acc, s| acc.union(&s.1));
            self.stale = vec![(self.next_stale, all)];
            self.next_stale += 1;
        }
    }

    /// Mark stale what changed between the volume a bake ran on and the current one (edits made
    /// while the bake ran).
    pub fn mark_stale_between(&mut self, baked_on: &SolidVolume, current: &SolidVolume) {
        for b in baked_on.changed_boxes(current) {
            self.mark_stale(b);
        }
    }

    /// True when some edit since the bake may have changed the light of `p`.
    pub fn is_stale(&self, p: VoxelPos) -> bool {
        let reach = self.reach;
        self.stale.iter().any(|(_, b)| within_reach(p, b, reach))
            || self.relit.iter().any(|(_, b)| b.contains(p))
    }

    /// True when nothing is stale.
    pub fn is_fresh(&self) -> bool {
        self.stale.is_empty() && self.relit.is_empty()
    }

    /// The changed boxes that made light stale, oldest first.
    pub fn stale_boxes(&self) -> impl Iterator<Item = VoxelBox> + '_ {
        self.stale.iter().map(|s| s.1)
    }

    /// Boxes holding every stale voxel: each changed box grown by the reach, and the boxes of
    /// changed placed lights.
    pub fn stale_regions(&self) -> Vec<VoxelBox> {
        let r = self.reach.ceil() as i32;
        self.stale
            .iter()
            .map(|s| s.1.grown(r))
            .chain(self.relit.iter().map(|s| s.1))
            .collect()
    }

    /// What a job needs to re-bake the stale regions ([`crate::light::rebake`]): the stale boxes and
    /// the lit voxels whose walk extents meet one. Reads only the chunks within reach of a box.
    pub fn stale_request(&self) -> RebakeRequest {
        let reach = self.reach;
        let r = reach.ceil() as i32 + 1;
        let mut touched: Vec<ChunkPos> = self
            .stale
            .iter()
            .flat_map(|(_, b)| b.grown(r).chunks().collect::<Vec<_>>())
            .collect();
        touched.sort_unstable_by_key(|p| (p.z, p.y, p.x));
        touched.dedup();
        let mut reached = Vec::new();
        for c in touched {
            let Some(l) = self.chunks.get(&c) else {
                continue;
            };
            for (&i, e) in l.index.iter().zip(&l.extent) {
                let p = voxel_at(c, i);
                if self.stale.iter().any(|(_, b)| e.may_reach(p, b, reach)) {
                    reached.push(p);
                }
            }
        }
        let mut request = RebakeRequest {
            settings: self.settings,
            boxes: self.stale.clone(),
            relit: self.relit.clone(),
            reached,
            around: Vec::new(),
        };
        if self.settings.bounce > 0 || self.settings.denoise {
            request.around = self.around(&request);
        }
        request
    }

    /// The light of the lit voxels within twice the reach of what `request` re-bakes (bounced
    /// light reads the light where walks end; the filter reads the neighbours).
    fn around(&self, request: &RebakeRequest) -> Vec<(VoxelPos, [u16; 3])> {
        let r = if self.settings.bounce > 0 {
            2 * self.reach.ceil() as i32 + 1
        } else {
            2
        };
        let regions: Vec<VoxelBox> = request
            .boxes
            .iter()
            .chain(&request.relit)
            .map(|(_, b)| b.grown(r))
            .collect();
        let mut chunks: Vec<ChunkPos> = regions.iter().flat_map(|b| b.chunks()).collect();
        chunks.sort_unstable_by_key(|p| (p.z, p.y, p.x));
        chunks.dedup();
        let mut out = Vec::new();
        for c in chunks {
            let Some(l) = self.chunks.get(&c) else {
                continue;
            };
            for (&i, &rgb) in l.index.iter().zip(&l.rgb) {
                let p = voxel_at(c, i);
                if regions.iter().any(|b| b.contains(p)) {
                    out.push((p, rgb));
                }
            }
        }
        out
    }

    /// Install a patch: drop the light of the voxels next to its changed boxes, replace the light of
    /// every voxel it carries, and clear the stale boxes it re-baked. Boxes marked after its request
    /// was taken stay stale.
    ///
    /// # Errors
    /// [`Error::Invalid`] when the patch was baked with other settings (the map was re-baked since);
    /// the map is unchanged then.
    pub fn apply(&mut self, patch: LightPatch) -> Result<()> {
        if patch.request.settings != self.settings {
            return Err(Error::Invalid(
                "the light was re-baked with other settings since this patch started".into(),
            ));
        }
        let near: Vec<VoxelBox> = patch
            .request
            .boxes
            .iter()
            .map(|(_, b)| b.grown(1))
            .collect();
        let mut fresh: FxHashMap<ChunkPos, Vec<(u16, [u16; 3], WalkExtent)>> = FxHashMap::default();
        for &(p, rgb, extent) in &patch.entries {
            fresh
                .entry(p.chunk())
                .or_default()
                .push((local_index(p), rgb, extent));
        }
        let mut touched: Vec<ChunkPos> = near.iter().flat_map(|b| b.chunks()).collect();
        touched.extend(fresh.keys().copied());
        touched.sort_unstable_by_key(|p| (p.z, p.y, p.x));
        touched.dedup();
        for c in touched {
            let new = fresh.remove(&c).unwrap_or_default();
            let l = self.chunks.entry(c).or_default();
            let mut merged = ChunkLight::default();
            let mut k = 0;
            for ((&i, &rgb), &extent) in l.index.iter().zip(&l.rgb).zip(&l.extent) {
                while k < new.len() && new[k].0 < i {
                    merged.push(new[k]);
                    k += 1;
                }
                if k < new.len() && new[k].0 == i {
                    merged.push(new[k]);
                    k += 1;
                    continue;
                }
                let p = voxel_at(c, i);
                if !near.iter().any(|b| b.contains(p)) {
                    merged.push((i, rgb, extent));
                }
            }
            for &e in &new[k..] {
                merged.push(e);
            }
            *l = merged;
        }
        self.chunks.retain(|_, l| !l.index.is_empty());
        let done: Vec<u64> = patch
            .request
            .boxes
            .iter()
            .chain(&patch.request.relit)
            .map(|s| s.0)
            .collect();
        self.stale.retain(|s| !done.contains(&s.0));
        self.relit.retain(|s| !done.contains(&s.0));
        Ok(())
    }

    /// Replace the stale boxes (used when loading a file).
    pub(crate) fn set_stale(&mut self, boxes: Vec<VoxelBox>) {
        self.stale.clear();
        self.relit.clear();
        self.next_stale = 0;
        for b in boxes {
            self.stale.push((self.next_stale, b));
            self.next_stale += 1;
        }
    }

    /// Replace the placed-light stale boxes (used when loading a file).
    pub(crate) fn set_relit(&mut self, boxes: Vec<VoxelBox>) {
        self.relit.clear();
        for b in boxes {
            self.relit.push((self.next_stale, b));
            self.next_stale += 1;
        }
    }

    /// The same light under other settings (bounce or denoise passes keep the walk settings).
    pub(crate) fn set_settings(&mut self, settings: LightSettings) {
        self.settings = settings;
        self.reach = self.reach.max(settings.reach());
    }
}
