//! What a bake gives open, flat ground: the sun's share and the sky's share of the light of a
//! surface voxel in the middle of an endless plane, measured with the bake's own walks.
//!
//! ```text
//!          sun walks ↗ ↗ ↗      sky walks ↑ ↖ ↗
//!   ▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓   a plane wider than the walks reach
//!   lit ground = sun + sky        ground in a shadow = sky (the sun walks die on the caster)
//! ```
//!
//! The ratio `sky / (sun + sky)` is how dark the bake's sun shadows are on open ground: the editor's
//! real-time sun uses it to draw shadows of the same strength as the bake it previews (the bake has
//! no cosine term, so the ratio depends on the colours and walk settings, not on the sun's height).
//!
//! # Rationale
//! Sky walks are random, so their survival on open ground has no closed form; walking a few voxels'
//! particles costs well under a millisecond and uses exactly the kernel the bake uses.

use super::settings::LightSettings;
use super::solid::{SolidVolume, SurfaceVoxel};
use super::walk::Walker;
use crate::voxel::{VoxelBox, VoxelPos};
use crate::Result;

/// Particles per kind walked from each sampled voxel (more than a bake's, for a steady figure).
const PARTICLES: u32 = 512;
/// Sampled voxels: a 3 × 3 patch in the middle of the plane.
const PATCH: i32 = 3;
/// Open face bit of +Y (`FACE_OFFSETS[2]`).
const UP: u8 = 1 << 2;

/// The light a bake with some settings gives open, flat ground, linear RGB (1 = a surface that
/// receives the full colour of every particle of one kind).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FlatGround {
    /// The sun's share: what ground in a sun shadow lacks.
    pub sun: [f32; 3],
    /// The sky's share.
    pub sky: [f32; 3],
}

impl FlatGround {
    /// Light of ground in a sun shadow over light of sunlit ground, by luminance (Rec. 709), in
    /// `[0, 1]`; 1 when neither brings any light.
    pub fn shadow_ratio(&self) -> f32 {
        let lum = |c: [f32; 3]| 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
        let lit = lum(self.sun) + lum(self.sky);
        if lit > 0.0 {
            (lum(self.sky) / lit).clamp(0.0, 1.0)
        } else {
            1.0
        }
    }
}

/// Walk the sun and sky particles of `settings` from open, flat ground (a plane wider than their
/// reach) and return the mean light of each kind.
///
/// # Errors
/// [`crate::Error::Invalid`] when `settings` are not valid.
pub fn flat_ground(settings: &LightSettings) -> Result<FlatGround> {
    settings.validate()?;
    let settings = LightSettings {
        particles: PARTICLES,
        ..*settings
    };
    // The walks are tested within their reach; the plane covers that much on every side of the
    // patch, one voxel thick under it and with room above for walks to climb.
    let reach = settings.reach().ceil() as i32 + 2;
    let bounds = VoxelBox::new(
        VoxelPos::new(-reach, -1, -reach),
        VoxelPos::new(reach + PATCH, 1, reach + PATCH),
    );
    let volume = SolidVolume::from_fn(bounds, |p| p.y < 0)?;
    let walker = Walker::new(&volume, &settings);
    let (mut sun, mut sky) = (0u64, 0u64);
    for z in 0..PATCH {
        for x in 0..PATCH {
            let w = walker.light_voxel(SurfaceVoxel {
                pos: VoxelPos::new(x, -1, z),
                open: UP,
            });
            sun += u64::from(w.sun);
            sky += u64::from(w.sky);
        }
    }
    let n = f64::from(PARTICLES) * f64::from(PATCH * PATCH);
    let (sun, sky) = ((sun as f64 / n) as f32, (sky as f64 / n) as f32);
    Ok(FlatGround {
        sun: settings.sun_color.map(|c| c * sun),
        sky: settings.sky_color.map(|c| c * sky),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::light::{bake, LightSettings};
    use crate::progress::Progress;

    /// A wide plane with a long wall standing on it across X, the sun coming over the wall's top.
    fn wall_scene(settings: &LightSettings) -> (f32, f32) {
        let bounds = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(160, 40, 40));
        let volume = SolidVolume::from_fn(bounds, |p| {
            p.y < 8 || ((100..104).contains(&p.x) && p.y < 30 && (4..36).contains(&p.z))
        })
        .expect("volume");
        let (light, _) = bake(&volume, settings, &Progress::new()).expect("bake");
        let lum = |p: VoxelPos| {
            let c = light.light(p).expect("surface voxel");
            0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
        };
        // The sun comes from +X at 45°: the wall's shadow covers x 78..100 on the ground (y = 7).
        let mean = |xs: std::ops::Range<i32>| {
            let n = xs.len() as f32 * 8.0;
            xs.flat_map(|x| (16..24).map(move |z| (x, z)))
                .map(|(x, z)| lum(VoxelPos::new(x, 7, z)))
                .sum::<f32>()
                / n
        };
        (mean(84..96), mean(120..150))
    }

    #[test]
    fn the_plane_predicts_a_real_shadow_under_a_wall() {
        for (sun_color, sky_color, bias) in [
            ([1.0, 0.93, 0.8], [1.6, 1.8, 2.2], 8.0),
            ([2.0, 2.0, 2.0], [0.5, 0.5, 0.5], 8.0),
            ([0.5, 0.4, 0.3], [3.0, 3.0, 3.0], 4.0),
        ] {
            let settings = LightSettings {
                sun_dir: [1.0, 1.0, 0.0],
                sun_color,
                sky_color,
                sun_bias: bias,
                particles: 64,
                ..LightSettings::default()
            };
            let predicted = flat_ground(&settings).expect("flat").shadow_ratio();
            let (shadow, lit) = wall_scene(&settings);
            let measured = shadow / lit;
            // The wall also hides part of the sky from the shadowed ground, so the measured shadow
            // is a little darker than the plane's; never lighter.
            assert!(
                measured <= predicted + 0.02 && measured >= predicted * 0.85,
                "{sun_color:?}/{sky_color:?}: predicted {predicted}, measured {measured}"
            );
        }
    }

    #[test]
    fn more_sun_means_darker_shadows_and_no_light_means_none() {
        let d = LightSettings::default();
        let base = flat_ground(&d).expect("flat").shadow_ratio();
        let sunny = LightSettings {
            sun_color: [3.0, 3.0, 3.0],
            ..d
        };
        assert!(flat_ground(&sunny).expect("flat").shadow_ratio() < base);
        let dark = LightSettings {
            sun_color: [0.0; 3],
            sky_color: [0.0; 3],
            ..d
        };
        assert_eq!(flat_ground(&dark).expect("flat").shadow_ratio(), 1.0);
        let skyless = LightSettings {
            sky_color: [0.0; 3],
            ..d
        };
        assert_eq!(flat_ground(&skyless).expect("flat").shadow_ratio(), 0.0);
        let bad = LightSettings {
            sun_dir: [f32::NAN, 0.0, 0.0],
            ..d
        };
        assert!(flat_ground(&bad).is_err());
    }
}
