//! Baked light: one RGB value per surface voxel, the settings it was baked with, and the regions that
//! edits have made stale since.
//!
//! ```text
//!   LightMap
//!     settings                     LightSettings of the bake
//!     chunks: ChunkPos ─> ChunkLight { index: [u16] (z·1024 + y·32 + x, ascending), rgb: [[u16; 3]] }
//!     stale: [(id, changed box)]   each box makes stale every voxel within `settings.reach()` of it
//! ```
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
use super::walk::LIGHT_ONE;
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

/// True when the centre of voxel `p` lies within `reach` voxels of box `b` (Euclidean).
pub(crate) fn within_reach(p: VoxelPos, b: &VoxelBox, reach: f32) -> bool {
    let d = |c: i32, lo: i32, hi: i32| {
        let c = f64::from(c) + 0.5;
        (f64::from(lo) - c).max(c - f64::from(hi)).max(0.0)
    };
    let (dx, dy, dz) = (
        d(p.x, b.min.x, b.max.x),
        d(p.y, b.min.y, b.max.y),
        d(p.z, b.min.z, b.max.z),
    );
    dx * dx + dy * dy + dz * dz <= f64::from(reach) * f64::from(reach)
}

/// `b` grown by `r` voxels on every side.
pub(crate) fn grown(b: &VoxelBox, r: i32) -> VoxelBox {
    VoxelBox::new(
        VoxelPos::new(
            b.min.x.saturating_sub(r),
            b.min.y.saturating_sub(r),
            b.min.z.saturating_sub(r),
        ),
        VoxelPos::new(
            b.max.x.saturating_add(r),
            b.max.y.saturating_add(r),
            b.max.z.saturating_add(r),
        ),
    )
}

/// What a re-bake of the stale regions needs: the settings and the stale boxes with their ids.
/// Cheap to clone and `Send`, so a job can take it off the UI thread.
#[derive(Debug, Clone, PartialEq)]
pub struct RebakeRequest {
    /// Settings of the light being patched.
    pub settings: LightSettings,
    /// The stale boxes to re-bake, with their ids.
    pub boxes: Vec<(u64, VoxelBox)>,
}

/// New light for the surface voxels within reach of some changed boxes, to be installed with
/// [`LightMap::apply`].
#[derive(Debug, Clone, PartialEq)]
pub struct LightPatch {
    pub(crate) request: RebakeRequest,
    /// New light, sorted by chunk (Z, Y, X) then local index.
    pub(crate) entries: Vec<(VoxelPos, [u16; 3])>,
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

    /// True when the patch replaces the light of `p`.
    pub fn covers(&self, p: VoxelPos) -> bool {
        let reach = self.request.settings.reach();
        self.request
            .boxes
            .iter()
            .any(|(_, b)| within_reach(p, b, reach))
    }
}

/// Baked light of a world (see the module docs).
#[derive(Debug, Clone)]
pub struct LightMap {
    settings: LightSettings,
    pub(crate) chunks: FxHashMap<ChunkPos, ChunkLight>,
    stale: Vec<(u64, VoxelBox)>,
    next_stale: u64,
}

impl PartialEq for LightMap {
    /// Same settings, same light for the same voxels, same stale boxes (ids ignored).
    fn eq(&self, other: &Self) -> bool {
        let stale = |m: &LightMap| m.stale.iter().map(|s| s.1).collect::<Vec<_>>();
        self.settings == other.settings
            && stale(self) == stale(other)
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
            next_stale: 0,
        }
    }

    /// A map from entries sorted by chunk (Z, Y, X), then local index, without duplicates.
    pub(crate) fn from_sorted(settings: LightSettings, entries: &[(VoxelPos, [u16; 3])]) -> Self {
        let mut map = Self::new(settings);
        for &(p, rgb) in entries {
            let c = map.chunks.entry(p.chunk()).or_default();
            c.index.push(local_index(p));
            c.rgb.push(rgb);
        }
        map
    }

    /// The settings the light was baked with.
    pub fn settings(&self) -> &LightSettings {
        &self.settings
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
        let reach = self.settings.reach();
        self.stale.iter().any(|(_, b)| within_reach(p, b, reach))
    }

    /// True when nothing is stale.
    pub fn is_fresh(&self) -> bool {
        self.stale.is_empty()
    }

    /// The changed boxes that made light stale, oldest first.
    pub fn stale_boxes(&self) -> impl Iterator<Item = VoxelBox> + '_ {
        self.stale.iter().map(|s| s.1)
    }

    /// Boxes holding every stale voxel: each changed box grown by the reach.
    pub fn stale_regions(&self) -> Vec<VoxelBox> {
        let r = self.settings.reach().ceil() as i32;
        self.stale.iter().map(|s| grown(&s.1, r)).collect()
    }

    /// What a job needs to re-bake the stale regions ([`crate::light::rebake`]).
    pub fn stale_request(&self) -> RebakeRequest {
        RebakeRequest {
            settings: self.settings,
            boxes: self.stale.clone(),
        }
    }

    /// Install a patch: replace the light of every voxel it covers by its light and clear the stale
    /// boxes it re-baked. Boxes marked after its request was taken stay stale.
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
        let r = self.settings.reach().ceil() as i32 + 1;
        let mut touched: Vec<ChunkPos> = patch
            .request
            .boxes
            .iter()
            .flat_map(|(_, b)| grown(b, r).chunks().collect::<Vec<_>>())
            .collect();
        touched.sort_unstable_by_key(|p| (p.z, p.y, p.x));
        touched.dedup();
        for c in touched {
            let Some(l) = self.chunks.get_mut(&c) else {
                continue;
            };
            let mut keep = ChunkLight::default();
            for (&i, &rgb) in l.index.iter().zip(&l.rgb) {
                if !patch.covers(voxel_at(c, i)) {
                    keep.index.push(i);
                    keep.rgb.push(rgb);
                }
            }
            *l = keep;
        }
        let mut fresh: FxHashMap<ChunkPos, Vec<(u16, [u16; 3])>> = FxHashMap::default();
        for &(p, rgb) in &patch.entries {
            fresh
                .entry(p.chunk())
                .or_default()
                .push((local_index(p), rgb));
        }
        for (c, new) in fresh {
            let l = self.chunks.entry(c).or_default();
            let mut all: Vec<(u16, [u16; 3])> =
                l.index.iter().copied().zip(l.rgb.iter().copied()).collect();
            all.extend(new);
            all.sort_unstable_by_key(|e| e.0);
            all.dedup_by_key(|e| e.0);
            l.index = all.iter().map(|e| e.0).collect();
            l.rgb = all.iter().map(|e| e.1).collect();
        }
        self.chunks.retain(|_, l| !l.index.is_empty());
        let done: Vec<u64> = patch.request.boxes.iter().map(|s| s.0).collect();
        self.stale.retain(|s| !done.contains(&s.0));
        Ok(())
    }

    /// Replace the stale boxes (used when loading a file).
    pub(crate) fn set_stale(&mut self, boxes: Vec<VoxelBox>) {
        self.stale.clear();
        self.next_stale = 0;
        for b in boxes {
            self.stale.push((self.next_stale, b));
            self.next_stale += 1;
        }
    }
}
