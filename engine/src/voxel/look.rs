//! How a material looks up close: the procedural surface detail the viewport draws over its colour.
//!
//! The viewport has no texture files. Each material names a [`Pattern`] that its shader computes from
//! the world position (triplanar, so cliffs are not smeared), the pattern's size in voxels, how strongly
//! it varies the colour, and how rough the surface is (rough surfaces have no highlight). Rock,
//! Cobblestone, Concrete, Pavement, Sand and Snow then differ at a glance, not only by hue.
//!
//! The look is a column of the material table (`look: Some((pattern: Cells, scale: 1.5, ...))`).
//! Tables saved before the column existed have no look: [`MaterialTable::look`] then takes the
//! built-in material of the same name, or a plain noise look.
//!
//! [`MaterialTable::look`]: super::MaterialTable::look

use serde::{Deserialize, Serialize};

use crate::{Error, Result};

/// The procedural pattern of a material.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Pattern {
    /// Soft blotches (grass, soil, mud).
    Noise,
    /// Fine speckle and glints (sand, snow, salt, concrete).
    Grain,
    /// Horizontal bands and cracks (rock, sandstone, slate).
    Strata,
    /// Rounded stones set in darker joints (cobblestone).
    Cells,
    /// Square slabs with straight joints (pavement).
    Slabs,
    /// Courses of bricks, each offset by half a brick (brick).
    Bricks,
    /// Long boards (wood planks).
    Planks,
}

impl Pattern {
    /// Every pattern, in shader order (the shader's pattern index is the position here).
    pub const ALL: [Pattern; 7] = [
        Pattern::Noise,
        Pattern::Grain,
        Pattern::Strata,
        Pattern::Cells,
        Pattern::Slabs,
        Pattern::Bricks,
        Pattern::Planks,
    ];

    /// The shader's index of this pattern.
    pub fn index(self) -> usize {
        Self::ALL.iter().position(|&p| p == self).unwrap_or(0)
    }
}

/// A material's surface detail.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Look {
    /// Which pattern.
    pub pattern: Pattern,
    /// Size of one pattern repeat (a stone, a slab, a band), in voxels: 0.25 to 64.
    pub scale: f32,
    /// How much the pattern varies the colour: 0 (flat colour) to 1.
    pub contrast: f32,
    /// Surface roughness: 0 (polished, sharp highlight) to 1 (matte, none).
    pub roughness: f32,
}

// A validated look has finite fields, so equality is an equivalence (tables compare with `Eq`).
impl Eq for Look {}

impl Look {
    /// The look of a material without one and without a built-in namesake.
    pub const PLAIN: Look = Look {
        pattern: Pattern::Noise,
        scale: 8.0,
        contrast: 0.2,
        roughness: 0.9,
    };

    /// Check the ranges.
    ///
    /// # Errors
    /// [`Error::Invalid`] naming the field out of range (or not finite).
    pub fn validate(&self) -> Result<()> {
        let check = |name: &str, v: f32, lo: f32, hi: f32| {
            if v.is_finite() && (lo..=hi).contains(&v) {
                Ok(())
            } else {
                Err(Error::Invalid(format!(
                    "look {name} {v} is outside {lo} to {hi}"
                )))
            }
        };
        check("scale", self.scale, 0.25, 64.0)?;
        check("contrast", self.contrast, 0.0, 1.0)?;
        check("roughness", self.roughness, 0.0, 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_checked() {
        assert!(Look::PLAIN.validate().is_ok());
        for bad in [
            Look {
                scale: 0.0,
                ..Look::PLAIN
            },
            Look {
                scale: f32::NAN,
                ..Look::PLAIN
            },
            Look {
                contrast: 1.5,
                ..Look::PLAIN
            },
            Look {
                roughness: -0.1,
                ..Look::PLAIN
            },
        ] {
            assert!(bad.validate().is_err(), "{bad:?}");
        }
        assert_eq!(Pattern::ALL[Pattern::Cells.index()], Pattern::Cells);
    }
}
