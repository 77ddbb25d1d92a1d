//! Exposure and tone curve of the viewport: how the terrain's linear light (the baked light, the
//! real-time sun, emissive glows) becomes the 0..1 the screen shows.
//!
//! Baked light is high dynamic range: a torch or a lava lake lights its surroundings several times
//! brighter than the sun does. Clipped at 1, everything near an emitter turns one flat colour. The
//! viewport multiplies the light by `2^stops` (the exposure) and then bends it through a tone
//! curve that rolls off toward 1 instead of clipping:
//!
//! ```text
//!   out 1 ┤            ....------------   Filmic (ACES fit): mid-tones slightly lifted, shoulder
//!         │       .-''                    Reinhard: x / (1 + x), softer, darker mid-tones
//!         │    .-'                        Clip: min(x, 1), the light as it is
//!         │  .'
//!       0 ┼'──────┬──────┬──────┬─────
//!         0       1      2      4   in
//! ```
//!
//! [`tone_curve`] is the CPU twin of the shader's `tone_mapping` (three-d's curves, whose type the
//! terrain material sets from [`ToneCurve::shader_index`]), for tests and for reasoning about
//! what a value looks like on screen.

use serde::{Deserialize, Serialize};

/// Lowest exposure the controls allow, stops.
pub const MIN_STOPS: f32 = -6.0;
/// Highest exposure the controls allow, stops.
pub const MAX_STOPS: f32 = 6.0;

/// The curve from linear light to screen values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum ToneCurve {
    /// The ACES filmic fit: a toe, mid-tones slightly lifted, a shoulder that reaches 1 only past
    /// about 7× white.
    #[default]
    Filmic,
    /// Reinhard, `x / (1 + x)`: never reaches 1; mid-tones darker than Filmic.
    Reinhard,
    /// No curve: values above 1 clip.
    Clip,
}

impl ToneCurve {
    /// Every curve, in the order the controls list them.
    pub const ALL: [ToneCurve; 3] = [ToneCurve::Filmic, ToneCurve::Reinhard, ToneCurve::Clip];

    /// The name the controls show.
    pub fn label(self) -> &'static str {
        match self {
            ToneCurve::Filmic => "Filmic",
            ToneCurve::Reinhard => "Reinhard",
            ToneCurve::Clip => "Clip",
        }
    }

    /// The value of the shader's `toneMappingType` uniform for this curve (three-d's numbering:
    /// 0 none, 1 Reinhard, 2 ACES).
    pub fn shader_index(self) -> u32 {
        match self {
            ToneCurve::Clip => 0,
            ToneCurve::Reinhard => 1,
            ToneCurve::Filmic => 2,
        }
    }
}

/// The viewport's exposure and tone curve.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Exposure {
    /// Exposure in stops: light is multiplied by `2^stops` before the curve.
    pub stops: f32,
    /// The curve applied after the exposure.
    pub curve: ToneCurve,
}

impl Default for Exposure {
    fn default() -> Self {
        Self {
            stops: 0.0,
            curve: ToneCurve::Filmic,
        }
    }
}

impl Exposure {
    /// The factor light is multiplied by (`2^stops`, stops clamped to the controls' range; a
    /// non-finite value counts as 0 stops).
    pub fn scale(&self) -> f32 {
        let stops = if self.stops.is_finite() {
            self.stops.clamp(MIN_STOPS, MAX_STOPS)
        } else {
            0.0
        };
        stops.exp2()
    }

    /// The screen value (0 to 1, linear) of linear light `x` under this exposure.
    pub fn map(&self, x: f32) -> f32 {
        tone_curve(self.curve, x * self.scale())
    }
}

/// `curve` at linear light `x` (negative light counts as 0), clamped to 0..1; the CPU twin of the
/// shader's `tone_mapping`.
pub fn tone_curve(curve: ToneCurve, x: f32) -> f32 {
    let x = x.max(0.0);
    let y = match curve {
        ToneCurve::Clip => x,
        ToneCurve::Reinhard => x / (x + 1.0),
        ToneCurve::Filmic => x * (2.51 * x + 0.03) / (x * (2.43 * x + 0.59) + 0.14),
    };
    y.clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn curves_map_zero_to_zero_and_rise_monotonically() {
        for curve in ToneCurve::ALL {
            assert_eq!(tone_curve(curve, 0.0), 0.0, "{curve:?}");
            assert_eq!(tone_curve(curve, -1.0), 0.0, "{curve:?}");
            let mut last = 0.0;
            for i in 1..=4000 {
                let y = tone_curve(curve, i as f32 * 0.002);
                assert!(y >= last, "{curve:?} falls at {}", i as f32 * 0.002);
                assert!(y <= 1.0);
                last = y;
            }
        }
    }

    #[test]
    fn curves_do_not_clip_bright_light_and_clip_does() {
        // 4× white still differs from 2× white by more than one 8-bit step (after the sRGB
        // encoding the steps are even wider at the top), and stays below 1.
        let step = 1.0 / 255.0;
        for curve in [ToneCurve::Filmic, ToneCurve::Reinhard] {
            let (two, four) = (tone_curve(curve, 2.0), tone_curve(curve, 4.0));
            assert!(four < 1.0 - step, "{curve:?} clips at 4×: {four}");
            assert!(
                four - two > step,
                "{curve:?}: 2× {two} and 4× {four} look alike"
            );
        }
        assert_eq!(tone_curve(ToneCurve::Clip, 2.0), 1.0);
        assert_eq!(tone_curve(ToneCurve::Clip, 4.0), 1.0);
    }

    #[test]
    fn exposure_scales_by_powers_of_two_within_range() {
        let e = |stops| Exposure {
            stops,
            curve: ToneCurve::Clip,
        };
        assert_eq!(e(0.0).scale(), 1.0);
        assert_eq!(e(1.0).scale(), 2.0);
        assert_eq!(e(-2.0).scale(), 0.25);
        assert_eq!(e(100.0).scale(), MAX_STOPS.exp2());
        assert_eq!(e(f32::NAN).scale(), 1.0);
        // A stop down brings a 4× emitter's neighbourhood from clipped back into range.
        assert_eq!(e(0.0).map(1.6), 1.0);
        assert!((e(-1.0).map(1.6) - 0.8).abs() < 1e-6);
    }
}
