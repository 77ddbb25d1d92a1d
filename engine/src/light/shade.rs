//! The direct light of one surface voxel: sun and sky walks, what lost walks found glowing, the
//! voxel's own emission and the placed lights within range.
//!
//! ```text
//!   light = (sun_color · sun survivors + sky_color · sky survivors) / particles
//!         + Σ lost walks in a glowing voxel: emission · (1 − (steps taken − 1) / steps) / particles
//!         + its own emission (a glowing surface voxel)
//!         + Σ placed lights in range: see `placed_walk`
//! ```
//!
//! The first line is the sun-and-sky bake's value, bit for bit, so a scene with nothing more gives
//! the light the bake gave before lights existed.

use super::placed_walk::light_from;
use super::scene::LightScene;
use super::settings::LightSettings;
use super::solid::{SolidVolume, SurfaceVoxel};
use super::walk::{WalkExtent, Walker, LIGHT_ONE, WALK_SKY, WALK_SUN};
use crate::voxel::FACE_OFFSETS;

/// Most walks toward one light per surface voxel.
const MAX_LAMP_WALKS: u32 = 64;

/// What one surface voxel's direct light came to.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Shaded {
    /// Linear RGB.
    pub rgb: [f32; 3],
    /// The box its walks visited.
    pub extent: WalkExtent,
    /// Steps drawn.
    pub steps: u64,
    /// Steps that tested a bit.
    pub tested: u64,
}

/// Everything the direct light of a bake needs, built once.
pub(crate) struct Shader<'a> {
    pub walker: Walker<'a>,
    pub vol: &'a SolidVolume,
    pub scene: &'a LightScene,
    pub settings: LightSettings,
    lamp_walks: u32,
    glow: bool,
}

/// Light as stored: `round(light · 4096)` clamped to `u16`.
pub(crate) fn quantize(rgb: [f32; 3]) -> [u16; 3] {
    rgb.map(|l| (l * LIGHT_ONE).round().clamp(0.0, f32::from(u16::MAX)) as u16)
}

/// The unit mean of a surface voxel's open face normals (up for a voxel open on no side).
pub(crate) fn normal_of(open: u8) -> [f32; 3] {
    let mut n = [0f32; 3];
    for (f, o) in FACE_OFFSETS.iter().enumerate() {
        if open >> f & 1 != 0 {
            for a in 0..3 {
                n[a] += o[a] as f32;
            }
        }
    }
    let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    if len > 1e-6 {
        n.map(|c| c / len)
    } else {
        [0.0, 1.0, 0.0]
    }
}

/// Widen `e` to hold the offsets `lo..=hi`.
fn include(e: &mut WalkExtent, lo: [i64; 3], hi: [i64; 3]) {
    let clamp = |v: i64| v.clamp(i64::from(i16::MIN) + 1, i64::from(i16::MAX) - 1) as i16;
    for a in 0..3 {
        e.lo[a] = e.lo[a].min(clamp(lo[a]));
        e.hi[a] = e.hi[a].max(clamp(hi[a]));
    }
}

impl<'a> Shader<'a> {
    /// For `settings` (valid) over `vol`, with `scene`.
    pub fn new(vol: &'a SolidVolume, scene: &'a LightScene, settings: &LightSettings) -> Self {
        Self {
            walker: Walker::new(vol, settings),
            vol,
            scene,
            settings: *settings,
            lamp_walks: (settings.particles / 4).clamp(1, MAX_LAMP_WALKS),
            glow: settings.emission && scene.glows(),
        }
    }

    /// The direct light of `sv`.
    pub fn direct(&self, sv: SurfaceVoxel) -> Shaded {
        let s = &self.settings;
        let mut emitted = [0f32; 3];
        let w = if self.glow {
            let steps = s.steps as f32;
            self.walker
                .light_voxel_with(sv, WALK_SUN | WALK_SKY, |_, n, at| {
                    if let Some(e) = self.scene.emission_at(at) {
                        let a = 1.0 - (n as f32 - 1.0) / steps;
                        for c in 0..3 {
                            emitted[c] += e[c] * a;
                        }
                    }
                })
        } else {
            self.walker.light_voxel(sv)
        };
        let n = s.particles as f32;
        let (sun, sky) = (w.sun as f32 / n, w.sky as f32 / n);
        let mut rgb = [0, 1, 2].map(|a| s.sun_color[a] * sun + s.sky_color[a] * sky);
        let mut out = Shaded {
            rgb,
            extent: w.extent,
            steps: w.steps,
            tested: w.tested,
        };
        if self.glow {
            let own = self.scene.emission_at(sv.pos).unwrap_or([0.0; 3]);
            for a in 0..3 {
                rgb[a] += emitted[a] / n + own[a];
            }
        }
        let mut lamps = [0f64; 3];
        for (i, l) in self.scene.lights_near(sv.pos) {
            if let Some(lw) = light_from(self.vol, s.seed, sv, i, l, self.lamp_walks) {
                for (c, v) in lamps.iter_mut().zip(lw.rgb) {
                    *c += v;
                }
                out.steps += lw.steps;
                out.tested += lw.steps;
                include(&mut out.extent, lw.lo.map(|v| v - 1), lw.hi.map(|v| v + 1));
            }
        }
        for a in 0..3 {
            rgb[a] += lamps[a] as f32;
        }
        out.rgb = rgb;
        out
    }

    /// Light bounced onto `sv` from the surfaces its sky walks are lost in: the light `source`
    /// gives each (already times its colour) × (1 − n·n_hit) / 2, over the particles.
    pub fn bounced(
        &self,
        sv: SurfaceVoxel,
        source: &impl Fn(crate::voxel::VoxelPos) -> Option<([f32; 3], [f32; 3])>,
    ) -> ([f32; 3], u64) {
        let nv = normal_of(sv.open);
        let mut acc = [0f32; 3];
        let w = self.walker.light_voxel_with(sv, WALK_SKY, |_, _, at| {
            if let Some((rgb, nh)) = source(at) {
                let k = (1.0 - (nv[0] * nh[0] + nv[1] * nh[1] + nv[2] * nh[2])) / 2.0;
                for a in 0..3 {
                    acc[a] += rgb[a] * k;
                }
            }
        });
        let n = self.settings.particles as f32;
        (acc.map(|c| c / n), w.steps)
    }
}
