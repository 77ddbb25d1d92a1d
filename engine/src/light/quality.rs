//! Quality presets of a bake: a quick draft to iterate on, the default, and a clean final bake.
//!
//! | preset | particles | steps × length | bounce | denoise | for                                |
//! |--------|-----------|----------------|--------|---------|------------------------------------|
//! | Draft  | 4         | 24 × 2         | 0      | off     | a first look in well under a second |
//! | Medium | 32        | 48 × 1         | 0      | off     | the default                        |
//! | Final  | 96        | 48 × 1         | 1      | on      | the bake that ships                |
//!
//! A draft's walks take steps twice as long so that shadows keep their length (the reach is about
//! the same), at coarser detail. Any other combination is Custom.

use super::settings::LightSettings;
use crate::{Error, Result};

/// A bake quality preset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Quality {
    /// Few particles, long steps: fast and grainy.
    Draft,
    /// The default settings.
    #[default]
    Medium,
    /// Many particles, one bounce, the filter on.
    Final,
    /// Settings of the user's own.
    Custom,
}

impl Quality {
    /// Every preset, in menu order.
    pub const ALL: [Quality; 4] = [
        Quality::Draft,
        Quality::Medium,
        Quality::Final,
        Quality::Custom,
    ];

    /// The lowercase name (`draft`, `medium`, `final`, `custom`).
    pub fn name(self) -> &'static str {
        match self {
            Quality::Draft => "draft",
            Quality::Medium => "medium",
            Quality::Final => "final",
            Quality::Custom => "custom",
        }
    }

    /// The preset called `name` (any case).
    ///
    /// # Errors
    /// [`Error::Invalid`] listing the names.
    pub fn parse(name: &str) -> Result<Self> {
        Self::ALL
            .into_iter()
            .find(|q| q.name().eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| {
                Error::Invalid(format!(
                    "quality {name:?}: use draft, medium, final or custom"
                ))
            })
    }

    /// `base` with this preset's particles, steps, step length, bounce and filter (Custom: `base`
    /// unchanged). The sun, sky, seed and emission stay `base`'s.
    pub fn apply(self, base: &LightSettings) -> LightSettings {
        let (particles, steps, step_length, bounce, denoise) = match self {
            Quality::Draft => (4, 24, 2.0, 0, false),
            Quality::Medium => (32, 48, 1.0, 0, false),
            Quality::Final => (96, 48, 1.0, 1, true),
            Quality::Custom => return *base,
        };
        LightSettings {
            particles,
            steps,
            step_length,
            bounce,
            denoise,
            ..*base
        }
    }

    /// The preset `settings` match, Custom when none does.
    pub fn of(settings: &LightSettings) -> Self {
        [Quality::Draft, Quality::Medium, Quality::Final]
            .into_iter()
            .find(|q| q.apply(settings) == *settings)
            .unwrap_or(Quality::Custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_round_trip_and_are_valid() {
        let d = LightSettings::default();
        assert_eq!(Quality::of(&d), Quality::Medium);
        for q in Quality::ALL {
            let s = q.apply(&d);
            s.validate().expect("valid");
            assert_eq!(Quality::parse(q.name()).expect("parses"), q);
            if q != Quality::Custom {
                assert_eq!(Quality::of(&s), q);
            }
        }
        assert!(Quality::apply(Quality::Final, &d).denoise);
        let odd = LightSettings { particles: 7, ..d };
        assert_eq!(Quality::of(&odd), Quality::Custom);
        assert!(Quality::parse("ultra").is_err());
    }
}
