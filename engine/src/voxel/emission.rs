//! Light a material gives off: the lighting bake's glowing materials (lava, crystals), shown by the
//! viewport and written to exports as their emissive colour.
//!
//! The colour is sRGB like the material's own; the strength scales it (1 = the colour at full
//! brightness, higher for HDR emitters). A material without emission gives off none.

use serde::{Deserialize, Serialize};

use super::srgb::srgb_to_linear;
use crate::{Error, Result};

/// The largest emission strength accepted.
pub const MAX_EMISSION_STRENGTH: f32 = 1000.0;

/// A material's emission.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Emission {
    /// sRGB colour of the light.
    pub color: (u8, u8, u8),
    /// Brightness multiplier, 0 to [`MAX_EMISSION_STRENGTH`].
    pub strength: f32,
}

// A validated emission has a finite strength, so equality is an equivalence (tables compare with
// `Eq`).
impl Eq for Emission {}

impl Emission {
    /// Check the strength: finite, 0 to [`MAX_EMISSION_STRENGTH`].
    ///
    /// # Errors
    /// [`Error::Invalid`] naming the value.
    pub fn validate(&self) -> Result<()> {
        if self.strength.is_finite() && (0.0..=MAX_EMISSION_STRENGTH).contains(&self.strength) {
            Ok(())
        } else {
            Err(Error::Invalid(format!(
                "emission strength {} must be 0 to {MAX_EMISSION_STRENGTH}",
                self.strength
            )))
        }
    }

    /// Linear RGB radiance: the colour, linearised, times the strength.
    pub fn radiance(&self) -> [f32; 3] {
        let (r, g, b) = self.color;
        [r, g, b].map(|c| srgb_to_linear(c) * self.strength)
    }

    /// True when it gives off no light at all.
    pub fn is_dark(&self) -> bool {
        self.strength == 0.0 || self.color == (0, 0, 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strength_is_checked_and_radiance_is_linear() {
        let lava = Emission {
            color: (255, 128, 0),
            strength: 2.0,
        };
        lava.validate().expect("valid");
        let r = lava.radiance();
        assert!(
            (r[0] - 2.0).abs() < 1e-6 && r[1] > 0.4 && r[1] < 0.5 && r[2] == 0.0,
            "{r:?}"
        );
        for s in [f32::NAN, -1.0, f32::INFINITY, MAX_EMISSION_STRENGTH * 2.0] {
            assert!(
                Emission {
                    strength: s,
                    ..lava
                }
                .validate()
                .is_err(),
                "{s}"
            );
        }
        assert!(Emission {
            strength: 0.0,
            ..lava
        }
        .is_dark());
        assert!(!lava.is_dark());
    }
}
