//! The settings of a light bake, their defaults, limits and how far a walk can reach.
//!
//! ```text
//!          sun_dir (towards the sun)
//!            ↗     sun particle: each step = step_length · normalize(u + sun_bias · sun_dir)
//!   ▓▓▓▓▓▓▓▓▓▓▓▓   sky particle: each step = step_length · u        (u uniform on the sphere)
//!   surface voxel: `particles` of each kind leave through its open faces; one that takes `steps` steps
//!   without entering a solid voxel adds colour / particles to its source voxel
//! ```
//!
//! Defaults (see the user guide's Lighting section for pictures): a sun about 40° above the horizon
//! from the east-south-east, so towers cast shadows a few times their width long; 48 steps of one voxel,
//! so a sun walk reaches about 45 voxels (long shadows) and a sky walk into a cave dies within its
//! first few voxels (near darkness); a bias of 8, which keeps sun walks within a voxel or two of a
//! straight line (shadow edges about two voxels wide, as soft as the viewport's real-time sun
//! shadows, which the bake matches: see `flat_ground`); a sky colour brighter than the sun's because a sky
//! particle released beside a surface survives a random walk only one time in eight or so, while a
//! sun particle on open ground almost always escapes. Under an overhang the sun walks die and part of
//! the sky walks survive, which gives the soft light there.

use crate::{Error, Result};

/// Largest `particles` accepted (per kind, per surface voxel).
pub const MAX_PARTICLES: u32 = 65_536;
/// Largest `steps` accepted.
pub const MAX_STEPS: u32 = 4096;
/// Largest `step_length` accepted, in voxels.
pub const MAX_STEP_LENGTH: f32 = 16.0;
/// Largest reach (`1 + steps × step_length`) accepted, in voxels: keeps incremental re-bakes local and
/// walk positions well inside their fixed-point range.
pub const MAX_REACH: f32 = 1024.0;
/// Largest colour component accepted (colours are linear light; above 1 is allowed for HDR).
pub const MAX_COLOR: f32 = 64.0;
/// Largest `sun_bias` accepted.
pub const MAX_SUN_BIAS: f32 = 64.0;
/// Most bounces accepted.
pub const MAX_BOUNCE: u8 = 2;

/// Everything a bake depends on besides the voxels. Stored with the light in the project file.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LightSettings {
    /// Direction towards the sun (any non-zero length; normalized before use). Y is up.
    pub sun_dir: [f32; 3],
    /// Colour a surviving sun particle brings, linear RGB (≥ 0).
    pub sun_color: [f32; 3],
    /// Colour a surviving sky particle brings, linear RGB (≥ 0).
    pub sky_color: [f32; 3],
    /// Sun particles, and again sky particles, released per surface voxel.
    pub particles: u32,
    /// Steps a particle must take without entering a solid voxel to count.
    pub steps: u32,
    /// Length of one step, in voxels.
    pub step_length: f32,
    /// How strongly sun steps lean towards the sun: 0 wanders like sky light, large values walk
    /// nearly straight (hard shadows).
    pub sun_bias: f32,
    /// Seed of every random stream (each surface voxel's stream also depends on its position).
    pub seed: u64,
    /// Walks that run into a voxel of an emissive material bring back its emission, and emissive
    /// surface voxels show their own (see `scene`).
    pub emission: bool,
    /// Bounces of light between surfaces, 0 to [`MAX_BOUNCE`]: each one re-walks the sky particles
    /// and brings back the light of the surfaces they hit, times their colour (see `bounce`).
    pub bounce: u8,
    /// Smooth the baked light over neighbouring surface voxels of similar normal and the same
    /// material (see `denoise`).
    pub denoise: bool,
}

impl Default for LightSettings {
    fn default() -> Self {
        Self {
            sun_dir: [0.7, 0.64, 0.3],
            sun_color: [1.0, 0.93, 0.8],
            sky_color: [1.6, 1.8, 2.2],
            particles: 32,
            steps: 48,
            step_length: 1.0,
            sun_bias: 8.0,
            seed: 1,
            emission: true,
            bounce: 0,
            denoise: false,
        }
    }
}

fn check_triple(name: &str, v: [f32; 3], max: f32) -> Result<()> {
    if v.iter().any(|c| !c.is_finite()) {
        return Err(Error::Invalid(format!(
            "{name} {v:?} must be finite numbers"
        )));
    }
    if v.iter().any(|&c| !(0.0..=max).contains(&c)) {
        return Err(Error::Invalid(format!(
            "{name} {v:?}: each component must be 0 to {max}"
        )));
    }
    Ok(())
}

impl LightSettings {
    /// Check every field: finite numbers in range, a non-zero sun direction, at least one particle
    /// and one step, and a reach of at most [`MAX_REACH`] voxels.
    ///
    /// # Errors
    /// [`Error::Invalid`] naming the first bad field.
    pub fn validate(&self) -> Result<()> {
        if self.sun_dir.iter().any(|c| !c.is_finite()) {
            return Err(Error::Invalid(format!(
                "sun direction {:?} must be finite numbers",
                self.sun_dir
            )));
        }
        let len2: f32 = self.sun_dir.iter().map(|c| c * c).sum();
        if len2.sqrt() < 1e-6 {
            return Err(Error::Invalid(
                "the sun direction is zero: give a direction towards the sun, e.g. 0.7,0.64,0.3"
                    .into(),
            ));
        }
        check_triple("sun colour", self.sun_color, MAX_COLOR)?;
        check_triple("sky colour", self.sky_color, MAX_COLOR)?;
        if !(1..=MAX_PARTICLES).contains(&self.particles) {
            return Err(Error::Invalid(format!(
                "particles {}: must be 1 to {MAX_PARTICLES}",
                self.particles
            )));
        }
        if !(1..=MAX_STEPS).contains(&self.steps) {
            return Err(Error::Invalid(format!(
                "steps {}: must be 1 to {MAX_STEPS}",
                self.steps
            )));
        }
        if !self.step_length.is_finite()
            || self.step_length <= 0.0
            || self.step_length > MAX_STEP_LENGTH
        {
            return Err(Error::Invalid(format!(
                "step length {}: must be more than 0 and at most {MAX_STEP_LENGTH} voxels",
                self.step_length
            )));
        }
        if !self.sun_bias.is_finite() || !(0.0..=MAX_SUN_BIAS).contains(&self.sun_bias) {
            return Err(Error::Invalid(format!(
                "sun bias {}: must be 0 to {MAX_SUN_BIAS}",
                self.sun_bias
            )));
        }
        if self.bounce > MAX_BOUNCE {
            return Err(Error::Invalid(format!(
                "bounce {}: must be 0 to {MAX_BOUNCE}",
                self.bounce
            )));
        }
        // The documented rule, computed exactly: `1 + steps × step length ≤ MAX_REACH`.
        let reach = 1.0 + f64::from(self.steps) * f64::from(self.step_length);
        if reach > f64::from(MAX_REACH) {
            return Err(Error::Invalid(format!(
                "1 + steps × step length reaches {reach} voxels; at most {MAX_REACH} is allowed"
            )));
        }
        Ok(())
    }

    /// The unit direction towards the sun.
    pub fn sun_unit(&self) -> [f32; 3] {
        let len = self.sun_dir.iter().map(|c| c * c).sum::<f32>().sqrt();
        if len > 0.0 && len.is_finite() {
            self.sun_dir.map(|c| c / len)
        } else {
            [0.0, 1.0, 0.0]
        }
    }

    /// How far from a surface voxel's centre its walks can test solidity, in voxels (Euclidean): one
    /// voxel to the release point, then `steps` steps, with a margin for fixed-point rounding. Only
    /// voxels within this distance can change the voxel's light.
    pub fn reach(&self) -> f32 {
        1.0 + self.steps as f32 * self.step_length * 1.001 + 0.01
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_bad_values_are_named() {
        LightSettings::default().validate().expect("defaults");
        let d = LightSettings::default();
        let cases: Vec<(LightSettings, &str)> = vec![
            (
                LightSettings {
                    sun_dir: [0.0; 3],
                    ..d
                },
                "zero",
            ),
            (
                LightSettings {
                    sun_dir: [f32::NAN, 1.0, 0.0],
                    ..d
                },
                "finite",
            ),
            (
                LightSettings {
                    sun_color: [1.0, -0.1, 1.0],
                    ..d
                },
                "sun colour",
            ),
            (
                LightSettings {
                    sky_color: [f32::INFINITY, 1.0, 1.0],
                    ..d
                },
                "sky colour",
            ),
            (LightSettings { particles: 0, ..d }, "particles"),
            (LightSettings { bounce: 3, ..d }, "bounce"),
            (LightSettings { steps: 0, ..d }, "steps"),
            (
                LightSettings {
                    step_length: 0.0,
                    ..d
                },
                "step length",
            ),
            (
                LightSettings {
                    step_length: -1.0,
                    ..d
                },
                "step length",
            ),
            (
                LightSettings {
                    step_length: f32::NAN,
                    ..d
                },
                "step length",
            ),
            (
                LightSettings {
                    sun_bias: -0.5,
                    ..d
                },
                "sun bias",
            ),
            (
                LightSettings {
                    sun_bias: f32::NAN,
                    ..d
                },
                "sun bias",
            ),
            (
                LightSettings {
                    steps: 4000,
                    step_length: 16.0,
                    ..d
                },
                "reaches",
            ),
        ];
        for (s, word) in cases {
            let msg = s.validate().expect_err(word).to_string();
            assert!(msg.contains(word), "{msg} should mention {word}");
        }
    }

    #[test]
    fn the_reach_limit_is_the_documented_one() {
        let at = |steps: u32, step_length: f32| LightSettings {
            steps,
            step_length,
            ..LightSettings::default()
        };
        // README: `1 + steps × step length` at most 1024.
        at(1023, 1.0)
            .validate()
            .expect("1 + 1023 × 1 = 1024 is allowed");
        at(2046, 0.5)
            .validate()
            .expect("1 + 2046 × 0.5 = 1024 is allowed");
        assert!(at(1024, 1.0).validate().is_err());
        assert!(at(4092, 0.25).validate().is_ok());
        assert!(at(4096, 0.25).validate().is_err());
        assert!(at(4096, 0.5).validate().is_err());
    }

    #[test]
    fn reach_covers_every_step() {
        let s = LightSettings {
            steps: 10,
            step_length: 0.5,
            ..LightSettings::default()
        };
        assert!(s.reach() >= 6.0 && s.reach() < 6.1);
        let u = s.sun_unit();
        assert!((u.iter().map(|c| c * c).sum::<f32>() - 1.0).abs() < 1e-6);
    }
}
