//! sRGB ↔ linear light conversions (a leaf: the material table's linear palette builds on it).
//!
//! Material colours are stored as sRGB bytes (as artists pick them); shading, blending and glTF
//! export work in linear light. Everyone who turns a material into a colour (the mesher's
//! exporters, the top-down renderer, the editor's viewport) converts through these functions, so
//! they live beside the material table rather than in any one consumer.

/// Convert one sRGB byte to linear light.
pub fn srgb_to_linear(c: u8) -> f32 {
    let s = f32::from(c) / 255.0;
    if s <= 0.04045 {
        s / 12.92
    } else {
        ((s + 0.055) / 1.055).powf(2.4)
    }
}

/// Convert linear light in `0..=1` to an sRGB byte.
pub fn linear_to_srgb(l: f32) -> u8 {
    let l = l.clamp(0.0, 1.0);
    let s = if l <= 0.003_130_8 {
        l * 12.92
    } else {
        1.055 * l.powf(1.0 / 2.4) - 0.055
    };
    (s * 255.0).round() as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn srgb_round_trips() {
        for c in 0..=255u8 {
            assert_eq!(linear_to_srgb(srgb_to_linear(c)), c);
        }
    }
}
