//! The real-time sun as a preview of the bake: the viewport's sun shines from the bake's sun
//! direction, in its colour, and its shadows on open ground are as dark as the bake's.
//!
//! ```text
//!   LightSettings ──flat_ground (the bake's own walks on an endless plane)──> sun share, sky share
//!        │                                                                         │
//!        └─ direction, colour ──> SunLook { toward, color, intensity, ambient } <──┘ solved so that
//!   real-time flat ground:  lit = ambient·hemi + fill + sun·cosθ·diffuse,  shadow = ambient·hemi + fill
//!   equals the bake's       lit = sun share + sky share,                   shadow = sky share
//! ```
//!
//! Both the sunlit level and the shadowed level of open ground match, so the shadow strength (their
//! ratio) matches; only the fill light's small share is fixed. The bake has no cosine term, the
//! shader has: a low sun needs a strong real-time sun, capped at [`MAX_INTENSITY`] so slopes facing
//! it do not burn out.
//!
//! # Rationale
//! The shader's lighting (three-d's diffuse term `(1 − F₀) · albedo / π · n·l`, the hemisphere
//! ambient, the fill light) is modelled here on the CPU with the same constants the scene sets, so
//! the match is computed once per change of the bake settings, not measured from pixels.

use strata_engine::light::{flat_ground, LightSettings};

use super::terrain_material::Sky;

/// Real-time sun intensity the solve never exceeds (the old fixed sun was 2.6).
pub const MAX_INTENSITY: f32 = 12.0;
/// Smallest and largest factor on the hemisphere ambient.
pub const AMBIENT_RANGE: (f32, f32) = (0.05, 4.0);
/// Intensity of the shadowless fill light.
pub const FILL_INTENSITY: f32 = 0.5;
/// Direction the fill light travels.
pub const FILL_DIRECTION: [f32; 3] = [0.5, -0.3, 0.6];
/// three-d's diffuse factor for a non-metal: `(1 − 0.04) / π` (the Fresnel share of 4 % goes to
/// the specular term).
const DIFFUSE: f32 = 0.96 / std::f32::consts::PI;

/// How the viewport's real-time light is set up.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SunLook {
    /// Unit direction towards the sun (Y up).
    pub toward: [f32; 3],
    /// The sun's colour as the light's sRGB bytes (three-d takes colours that way).
    pub color: [u8; 3],
    /// The sun light's intensity.
    pub intensity: f32,
    /// Factor on the hemisphere ambient ([`Sky`]'s colours).
    pub ambient: f32,
}

fn luminance(c: [f32; 3]) -> f32 {
    0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
}

fn normalize(v: [f32; 3]) -> [f32; 3] {
    let n = v.iter().map(|c| c * c).sum::<f32>().sqrt();
    if n > 0.0 && n.is_finite() {
        v.map(|c| c / n)
    } else {
        [0.0, 1.0, 0.0]
    }
}

/// sRGB byte of a linear component in `[0, 1]`.
fn srgb_byte(c: f32) -> u8 {
    let c = c.clamp(0.0, 1.0);
    let s = if c < 0.003_130_8 {
        c * 12.92
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    };
    (s * 255.0).round() as u8
}

/// Linear component of an sRGB byte (as three-d decodes it).
fn linear(b: u8) -> f32 {
    let c = f32::from(b) / 255.0;
    if c < 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// Diffuse light the fill gives open, flat ground (luminance, albedo 1).
fn fill_on_flat_ground() -> f32 {
    let up = -normalize(FILL_DIRECTION)[1];
    FILL_INTENSITY * up.max(0.0) * DIFFUSE
}

impl SunLook {
    /// The look that previews a bake with `settings` (see the module docs); the old fixed look when
    /// the settings are not valid.
    pub fn matching(settings: &LightSettings) -> Self {
        let Ok(ground) = flat_ground(settings) else {
            return Self::default();
        };
        let toward = settings.sun_unit();
        let peak = settings.sun_color.into_iter().fold(0.0f32, f32::max);
        let color = if peak > 0.0 {
            settings.sun_color.map(|c| srgb_byte(c / peak))
        } else {
            [255; 3]
        };
        let hemi = luminance(Sky::default().ambient_sky);
        let fill = fill_on_flat_ground();
        let shadow = luminance(ground.sky);
        let ambient = ((shadow - fill) / hemi).clamp(AMBIENT_RANGE.0, AMBIENT_RANGE.1);
        let per_intensity = luminance(color.map(linear)) * DIFFUSE * toward[1].max(0.0);
        let intensity = if per_intensity > 1e-6 {
            (luminance(ground.sun) / per_intensity).clamp(0.0, MAX_INTENSITY)
        } else {
            0.0
        };
        Self {
            toward,
            color,
            intensity,
            ambient,
        }
    }

    /// Direction the sunlight travels.
    pub fn travel(&self) -> [f32; 3] {
        self.toward.map(|c| -c)
    }

    /// Real-time light on open, flat ground (luminance, albedo 1): `(in a sun shadow, sunlit)`,
    /// by the shader's diffuse terms.
    pub fn flat_ground_levels(&self) -> (f32, f32) {
        let shadow = self.ambient * luminance(Sky::default().ambient_sky) + fill_on_flat_ground();
        let sun =
            self.intensity * luminance(self.color.map(linear)) * DIFFUSE * self.toward[1].max(0.0);
        (shadow, shadow + sun)
    }

    /// Real-time shadow strength on open ground: shadowed over sunlit light.
    pub fn shadow_ratio(&self) -> f32 {
        let (shadow, lit) = self.flat_ground_levels();
        if lit > 0.0 {
            shadow / lit
        } else {
            1.0
        }
    }
}

impl Default for SunLook {
    /// The fixed look the viewport had before it followed the bake.
    fn default() -> Self {
        Self {
            toward: normalize([0.55, 0.62, 0.35]),
            color: [255, 246, 228],
            intensity: 2.6,
            ambient: 1.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(sun_dir: [f32; 3], sun_color: [f32; 3], sky_color: [f32; 3]) -> LightSettings {
        LightSettings {
            sun_dir,
            sun_color,
            sky_color,
            ..LightSettings::default()
        }
    }

    #[test]
    fn real_time_shadows_are_as_dark_as_the_bakes_on_open_ground() {
        for s in [
            LightSettings::default(),
            settings([0.2, 1.0, -0.4], [1.0, 0.93, 0.8], [1.6, 1.8, 2.2]),
            settings([-1.0, 0.8, 0.0], [2.0, 1.8, 1.5], [0.8, 0.9, 1.1]),
            settings([0.7, 0.64, 0.3], [1.0, 1.0, 1.0], [3.0, 3.0, 3.0]),
        ] {
            let look = SunLook::matching(&s);
            let ground = flat_ground(&s).expect("flat ground");
            let baked = ground.shadow_ratio();
            let real_time = look.shadow_ratio();
            assert!(
                (baked - real_time).abs() < 0.01,
                "{s:?}: baked shadow ratio {baked}, real-time {real_time}"
            );
            let (_, lit) = look.flat_ground_levels();
            let baked_lit = luminance(ground.sun) + luminance(ground.sky);
            assert!(
                (lit / baked_lit - 1.0).abs() < 0.02,
                "sunlit ground: real-time {lit}, baked {baked_lit}"
            );
            assert_eq!(look.toward, s.sun_unit());
            assert_eq!(look.travel(), s.sun_unit().map(|c| -c));
        }
    }

    #[test]
    fn the_old_fixed_sun_was_weaker_than_the_default_bake() {
        let baked = flat_ground(&LightSettings::default())
            .expect("flat ground")
            .shadow_ratio();
        assert!(SunLook::default().shadow_ratio() > baked + 0.1);
    }

    #[test]
    fn a_sun_at_the_horizon_or_black_stays_finite_and_capped() {
        for s in [
            settings([1.0, 0.01, 0.0], [1.0, 1.0, 1.0], [1.0, 1.0, 1.0]),
            settings([1.0, -1.0, 0.0], [1.0, 1.0, 1.0], [1.0, 1.0, 1.0]),
            settings([0.0, 1.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]),
            settings([0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [1.0, 1.0, 1.0]),
        ] {
            let look = SunLook::matching(&s);
            assert!(look.intensity.is_finite() && (0.0..=MAX_INTENSITY).contains(&look.intensity));
            assert!((AMBIENT_RANGE.0..=AMBIENT_RANGE.1).contains(&look.ambient));
            assert!(look.toward.iter().all(|c| c.is_finite()));
        }
    }
}
