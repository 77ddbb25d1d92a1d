//! What a bake lights with besides the sun and the sky: the project's placed lights, and the
//! materials of the surface voxels that glow (emission), reflect (bounce) or are compared (denoise).
//!
//! ```text
//!   LightScene
//!     lights             PlacedLight list (the project's), and per chunk the lights that reach it
//!     materials          surface voxel -> material id: the emissive ones, or every one when a
//!                        bounce or the filter needs them
//!     radiance, albedo   per material id: emission (linear RGB × strength) and linear colour
//! ```
//!
//! A walk that is lost in a voxel of this map with emission brings it back (a bit per 8³ brick of
//! the solidity volume says whether a brick holds a glowing voxel at all, so most lost walks skip
//! the map); a surface voxel of an
//! emissive material shows its own emission. Voxels a walk can only enter through an edge or a
//! corner, never through a face, are not surface voxels and do not glow (a rare, small loss).

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::placed::PlacedLight;
use super::settings::LightSettings;
use super::solid::{SolidRule, SolidVolume};
use crate::storage::Grid;
use crate::voxel::{srgb_to_linear, ChunkPos, MaterialTable, VoxelBox, VoxelPos, MATERIAL_COUNT};

/// The scene of a bake (see the module docs).
#[derive(Debug, Clone, Default)]
pub struct LightScene {
    lights: Vec<PlacedLight>,
    /// Indices into `lights` of the lights whose range meets each chunk.
    by_chunk: FxHashMap<ChunkPos, Vec<u32>>,
    materials: FxHashMap<VoxelPos, u8>,
    /// Every surface voxel's material is kept (else only emissive ones).
    all: bool,
    emissive: Vec<bool>,
    /// One bit per cell of the solidity volume (same origin and size): the cell holds a glowing
    /// surface voxel.
    glow_cells: Vec<u64>,
    glow_origin: [i32; 3],
    glow_size: [u32; 3],
    radiance: Vec<[f32; 3]>,
    albedo: Vec<[f32; 3]>,
}

impl LightScene {
    /// No placed lights, nothing glows.
    pub fn empty() -> Self {
        Self::default()
    }

    /// The scene of `grid` under `table` for `settings`, with `lights`. Reads the materials of the
    /// surface voxels of `volume` (the solidity of `grid`) when emission, a bounce or the filter
    /// needs them.
    pub fn new(
        grid: &Grid,
        table: &MaterialTable,
        volume: &SolidVolume,
        lights: &[PlacedLight],
        settings: &LightSettings,
    ) -> Self {
        let mut scene = Self {
            all: settings.bounce > 0 || settings.denoise,
            ..Self::default()
        };
        scene.radiance = vec![[0.0; 3]; MATERIAL_COUNT];
        scene.emissive = vec![false; MATERIAL_COUNT];
        scene.albedo = vec![[0.0; 3]; MATERIAL_COUNT];
        for (i, m) in table.materials.iter().enumerate().take(MATERIAL_COUNT) {
            let (r, g, b) = m.color;
            scene.albedo[i] = [r, g, b].map(srgb_to_linear);
            if let Some(e) = m.emission.filter(|e| settings.emission && !e.is_dark()) {
                scene.radiance[i] = e.radiance();
                scene.emissive[i] = true;
            }
        }
        scene.set_lights(lights);
        scene.read_materials(grid, table, volume, volume.bounds());
        scene
    }

    /// Replace the placed lights.
    pub fn set_lights(&mut self, lights: &[PlacedLight]) {
        self.lights = lights.to_vec();
        self.by_chunk.clear();
        for (i, l) in self.lights.iter().enumerate() {
            for c in l.reach_box().chunks() {
                self.by_chunk.entry(c).or_default().push(i as u32);
            }
        }
    }

    /// The placed lights.
    pub fn lights(&self) -> &[PlacedLight] {
        &self.lights
    }

    /// The lights whose range meets the chunk of `p`, in list order.
    pub(crate) fn lights_near(&self, p: VoxelPos) -> impl Iterator<Item = (u32, &PlacedLight)> {
        self.by_chunk
            .get(&p.chunk())
            .into_iter()
            .flatten()
            .map(|&i| (i, &self.lights[i as usize]))
    }

    /// Surface voxels of an emissive material.
    pub fn emissive_voxels(&self) -> usize {
        self.materials
            .values()
            .filter(|&&m| self.emissive.get(usize::from(m)).copied().unwrap_or(false))
            .count()
    }

    /// Re-read the materials in `changed` (grown by one voxel, where faces may have opened or
    /// closed) after an edit; `volume` must already be patched.
    pub fn patch(
        &mut self,
        grid: &Grid,
        table: &MaterialTable,
        volume: &SolidVolume,
        changed: VoxelBox,
    ) {
        let near = changed.grown(1);
        self.materials.retain(|p, _| !near.contains(*p));
        self.read_materials(grid, table, volume, near);
    }

    /// Mark the cells of `volume` that hold a glowing surface voxel.
    fn mark_glow(&mut self, volume: &SolidVolume) {
        let n = volume.cells.iter().map(|&c| c as usize).product::<usize>();
        self.glow_origin = volume.origin;
        self.glow_size = volume.cells;
        self.glow_cells = vec![0; n.div_ceil(64)];
        let glowing: Vec<VoxelPos> = self
            .materials
            .iter()
            .filter(|(_, &m)| self.emissive.get(usize::from(m)).copied().unwrap_or(false))
            .map(|(&p, _)| p)
            .collect();
        for p in glowing {
            if let Some(c) = self.glow_cell(p) {
                self.glow_cells[c / 64] |= 1 << (c % 64);
            }
        }
    }

    /// The volume cell of `p`, if inside.
    #[inline]
    fn glow_cell(&self, p: VoxelPos) -> Option<usize> {
        let rel = [
            i64::from(p.x) - i64::from(self.glow_origin[0]),
            i64::from(p.y) - i64::from(self.glow_origin[1]),
            i64::from(p.z) - i64::from(self.glow_origin[2]),
        ];
        let c = rel.map(|r| r.div_euclid(8));
        if (0..3).any(|a| c[a] < 0 || c[a] >= i64::from(self.glow_size[a])) {
            return None;
        }
        let [nx, ny, _] = self.glow_size.map(|v| v as usize);
        Some((c[2] as usize * ny + c[1] as usize) * nx + c[0] as usize)
    }

    fn read_materials(
        &mut self,
        grid: &Grid,
        table: &MaterialTable,
        volume: &SolidVolume,
        region: VoxelBox,
    ) {
        if !self.all && !self.emissive.iter().any(|&e| e) {
            return;
        }
        let rule = SolidRule::new(table);
        let (all, emissive) = (self.all, &self.emissive);
        let found: Vec<(VoxelPos, u8)> = volume
            .surface_in(region)
            .par_iter()
            .filter_map(|s| {
                let v = grid.get(s.pos);
                let m = v.material & 0x3f;
                (rule.is_solid(v) && (all || emissive[usize::from(m)])).then_some((s.pos, m))
            })
            .collect();
        self.materials.extend(found);
        self.mark_glow(volume);
    }

    /// The material of surface voxel `p`, when the scene keeps it.
    #[inline]
    pub(crate) fn material(&self, p: VoxelPos) -> Option<u8> {
        self.materials.get(&p).copied()
    }

    /// The emission of surface voxel `p` (linear RGB), when it glows.
    #[inline]
    pub(crate) fn emission_at(&self, p: VoxelPos) -> Option<[f32; 3]> {
        let c = self.glow_cell(p)?;
        if self.glow_cells.get(c / 64)? >> (c % 64) & 1 == 0 {
            return None;
        }
        let m = usize::from(self.material(p)?);
        (*self.emissive.get(m)?).then(|| self.radiance[m])
    }

    /// True when some surface voxel glows.
    pub(crate) fn glows(&self) -> bool {
        self.emissive.iter().any(|&e| e) && !self.materials.is_empty()
    }

    /// The linear colour of material `m`.
    #[inline]
    pub(crate) fn albedo(&self, m: u8) -> [f32; 3] {
        self.albedo.get(usize::from(m)).copied().unwrap_or([0.0; 3])
    }
}
