//! The material table: names, colors, liquid flag, shaping mode, detail-enhancement threshold,
//! surface look, emission and texture per material id. Each project owns its table (the header
//! carries it); the built-in one only seeds new projects.
//!
//! The default table is `assets/materials.ron`, embedded at compile time; projects carry their own copy
//! in their header so a file keeps its look when the default table changes. Rows written before the
//! enhancement threshold existed have no `enhance` field and take the default of their shaping mode;
//! rows written before the look column existed have no `look` and take the built-in material of the
//! same name's.

use serde::{Deserialize, Serialize};

use super::emission::Emission;
use super::look::Look;
use super::srgb::srgb_to_linear;
use super::texture::TextureRef;
use crate::{Error, Result};

/// Number of distinct material ids (6 bits).
pub const MATERIAL_COUNT: usize = 64;
/// The Air material id.
pub const AIR: u8 = 0;

/// How the mesher shapes the surface around a voxel of this material.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Shaping {
    /// Rounded surfaces (grass, sand, snow).
    Smooth,
    /// Hard edges and flat faces (rock, brick).
    Sharp,
}

/// The recursive-subdivision threshold of a material (see `enhance`): a fragment is solid when at least
/// this many of its source voxel and the three face neighbours on its side are solid. `even` applies to
/// fragments at an even altitude and `odd` to those at an odd one; equal values give a plain threshold,
/// different ones the paper's alternating strata.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct EnhanceThreshold {
    /// Threshold (1..=4) for fragments at an even altitude.
    pub even: u8,
    /// Threshold (1..=4) for fragments at an odd altitude.
    pub odd: u8,
}

impl EnhanceThreshold {
    /// The same threshold at every altitude.
    pub const fn uniform(t: u8) -> Self {
        Self { even: t, odd: t }
    }

    /// The default of a shaping mode: 3 for `Smooth` (convex corners round off, flat ground stays),
    /// 2 for `Sharp` (corners stay, hollows fill).
    pub const fn for_shaping(shaping: Shaping) -> Self {
        match shaping {
            Shaping::Smooth => Self::uniform(3),
            Shaping::Sharp => Self::uniform(2),
        }
    }

    /// The threshold for a fragment whose altitude has parity `odd`.
    pub const fn at_parity(self, odd: bool) -> u8 {
        if odd {
            self.odd
        } else {
            self.even
        }
    }
}

/// One material's properties.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Material {
    /// Display name; unique in a table.
    pub name: String,
    /// sRGB color.
    pub color: (u8, u8, u8),
    /// True for fluids (water): not solid for physics, drawn apart by the viewport.
    pub liquid: bool,
    /// Surface shaping mode.
    pub shaping: Shaping,
    /// Procedural surface detail in the viewport; `None` takes [`MaterialTable::look`]'s fallback.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub look: Option<Look>,
    /// Recursive-subdivision threshold; `None` takes [`EnhanceThreshold::for_shaping`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enhance: Option<EnhanceThreshold>,
    /// Light it gives off (the bake's emissive materials); `None`: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub emission: Option<Emission>,
    /// Albedo texture, tiled over the surface (the image lives in the project's textures).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub texture: Option<TextureRef>,
}

/// Longest material name, in bytes.
pub const MAX_NAME_BYTES: usize = 64;

impl Material {
    /// A solid, smooth material of `color` with nothing else set.
    pub fn new(name: impl Into<String>, color: (u8, u8, u8)) -> Self {
        Self {
            name: name.into(),
            color,
            liquid: false,
            shaping: Shaping::Smooth,
            look: None,
            enhance: None,
            emission: None,
            texture: None,
        }
    }

    /// Check a new material name (an edit; files keep whatever names they were written with): 1 to
    /// [`MAX_NAME_BYTES`] bytes, no control characters, no leading or trailing spaces.
    ///
    /// # Errors
    /// [`Error::Invalid`] saying what is wrong.
    pub fn check_name(name: &str) -> Result<()> {
        if name.is_empty() {
            return Err(Error::Invalid("a material name cannot be empty".into()));
        }
        if name.len() > MAX_NAME_BYTES {
            return Err(Error::Invalid(format!(
                "a material name is at most {MAX_NAME_BYTES} bytes; this one is {}",
                name.len()
            )));
        }
        if name.chars().any(char::is_control) || name.trim() != name {
            return Err(Error::Invalid(format!(
                "material name {name:?} has control characters or spaces at an end"
            )));
        }
        Ok(())
    }

    /// This material's subdivision threshold: its own, or its shaping mode's default.
    pub fn enhance_threshold(&self) -> EnhanceThreshold {
        self.enhance
            .unwrap_or(EnhanceThreshold::for_shaping(self.shaping))
    }
}

/// The material table. Index = material id; id 0 is Air.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MaterialTable {
    /// Materials by id.
    pub materials: Vec<Material>,
}

const DEFAULT_RON: &str = include_str!("../../../assets/materials.ron");

impl MaterialTable {
    /// The built-in table from `assets/materials.ron`.
    ///
    /// # Panics
    /// Never in a released build: the embedded file is checked by a unit test.
    pub fn builtin() -> Self {
        #[allow(clippy::expect_used)]
        Self::from_ron(DEFAULT_RON).expect("assets/materials.ron is valid (checked by tests)")
    }

    /// Parse and validate a table from RON text.
    ///
    /// # Errors
    /// Malformed RON, or a table that fails [`MaterialTable::validate`].
    pub fn from_ron(text: &str) -> Result<Self> {
        let table: MaterialTable =
            ron::from_str(text).map_err(|e| Error::Invalid(format!("material table: {e}")))?;
        table.validate()?;
        Ok(table)
    }

    /// Check the table: 1..=64 entries, Air first, unique non-empty names, enhancement thresholds in
    /// 1..=4, looks in range.
    ///
    /// # Errors
    /// [`Error::Invalid`] describing the first problem.
    pub fn validate(&self) -> Result<()> {
        let n = self.materials.len();
        if n == 0 || n > MATERIAL_COUNT {
            return Err(Error::Invalid(format!(
                "material table has {n} entries; 1 to {MATERIAL_COUNT} are allowed"
            )));
        }
        if self.materials[usize::from(AIR)].name != "Air" {
            return Err(Error::Invalid("material 0 must be Air".into()));
        }
        for (i, m) in self.materials.iter().enumerate() {
            if m.name.is_empty() {
                return Err(Error::Invalid(format!("material {i} has an empty name")));
            }
            if let Some(e) = &m.emission {
                e.validate()
                    .map_err(|e| Error::Invalid(format!("material {:?}: {e}", m.name)))?;
            }
            if i == usize::from(AIR) && (m.liquid || m.emission.is_some() || m.texture.is_some()) {
                return Err(Error::Invalid(
                    "Air cannot be liquid, glow or carry a texture".into(),
                ));
            }
            if let Some(look) = &m.look {
                look.validate()
                    .map_err(|e| Error::Invalid(format!("material {:?}: {e}", m.name)))?;
            }
            if self.materials[..i]
                .iter()
                .any(|o| o.name.eq_ignore_ascii_case(&m.name))
            {
                return Err(Error::Invalid(format!(
                    "material name {:?} is used twice",
                    m.name
                )));
            }
            let t = m.enhance_threshold();
            if !(1..=4).contains(&t.even) || !(1..=4).contains(&t.odd) {
                return Err(Error::Invalid(format!(
                    "material {:?}: enhancement thresholds must be 1 to 4, got even {} odd {}",
                    m.name, t.even, t.odd
                )));
            }
        }
        Ok(())
    }

    /// Number of materials.
    pub fn len(&self) -> usize {
        self.materials.len()
    }

    /// Always false for a validated table (Air is always present).
    pub fn is_empty(&self) -> bool {
        self.materials.is_empty()
    }

    /// True when `id` names a material in this table.
    pub fn contains(&self, id: u8) -> bool {
        usize::from(id) < self.materials.len()
    }

    /// The material with this id, if any.
    pub fn get(&self, id: u8) -> Option<&Material> {
        self.materials.get(usize::from(id))
    }

    /// The id of the material called `name` (case-insensitive).
    pub fn id_of(&self, name: &str) -> Option<u8> {
        self.materials
            .iter()
            .position(|m| m.name.eq_ignore_ascii_case(name))
            .map(|i| i as u8)
    }

    /// The look of material `id`: its own, else the built-in material of the same name's, else
    /// [`Look::PLAIN`].
    pub fn look(&self, id: u8) -> Look {
        let Some(m) = self.get(id) else {
            return Look::PLAIN;
        };
        m.look.unwrap_or_else(|| {
            let builtin = Self::builtin();
            builtin
                .id_of(&m.name)
                .and_then(|b| builtin.materials[usize::from(b)].look)
                .unwrap_or(Look::PLAIN)
        })
    }

    /// The id of `name`, or an error naming the missing material.
    ///
    /// # Errors
    /// [`Error::Invalid`] when the table has no such material.
    pub fn require(&self, name: &str) -> Result<u8> {
        self.id_of(name)
            .ok_or_else(|| Error::Invalid(format!("material table has no {name:?}")))
    }
}

/// Every material id's color in linear light (ids the table lacks are mid grey), the palette the
/// exporters, the top-down renderer and the editor share.
pub fn linear_palette(table: &MaterialTable) -> [[f32; 3]; MATERIAL_COUNT] {
    let mut palette = [[0.5f32; 3]; MATERIAL_COUNT];
    for (p, m) in palette.iter_mut().zip(&table.materials) {
        let (r, g, b) = m.color;
        *p = [srgb_to_linear(r), srgb_to_linear(g), srgb_to_linear(b)];
    }
    palette
}

impl Default for MaterialTable {
    fn default() -> Self {
        Self::builtin()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_table_is_valid_and_complete() {
        let t = MaterialTable::from_ron(DEFAULT_RON).expect("valid");
        assert!(t.len() >= 20);
        assert_eq!(t.id_of("air"), Some(0));
        let water = t.require("Water").expect("water");
        assert!(t.materials[usize::from(water)].liquid);
        assert!(t.materials.iter().any(|m| m.shaping == Shaping::Sharp));
    }

    #[test]
    fn every_builtin_material_has_a_look_and_old_rows_borrow_it() {
        let t = MaterialTable::builtin();
        assert!(t.materials.iter().skip(1).all(|m| m.look.is_some()));
        let old = MaterialTable::from_ron(
            "(materials: [(name: \"Air\", color: (0,0,0), liquid: false, shaping: Smooth), \
             (name: \"cobblestone\", color: (1,2,3), liquid: false, shaping: Sharp), \
             (name: \"Mine\", color: (1,2,3), liquid: false, shaping: Sharp)])",
        )
        .expect("a table without looks loads");
        let cobble = t.require("Cobblestone").expect("cobblestone");
        assert_eq!(old.look(1), t.look(cobble));
        assert_eq!(old.look(2), super::super::look::Look::PLAIN);
        assert_eq!(old.look(40), super::super::look::Look::PLAIN);
    }

    #[test]
    fn bad_tables_are_rejected() {
        assert!(MaterialTable::from_ron("(materials: [])").is_err());
        assert!(MaterialTable::from_ron(
            "(materials: [(name: \"Rock\", color: (1,2,3), liquid: false, shaping: Sharp)])"
        )
        .is_err());
        assert!(MaterialTable::from_ron("(materials: [(name: \"Air\")").is_err());
        assert!(MaterialTable::from_ron(
            "(materials: [(name: \"Air\", color: (0,0,0), liquid: false, shaping: Smooth, \
             look: Some((pattern: Cells, scale: 100.0, contrast: 0.5, roughness: 0.5)))])"
        )
        .is_err());
        let bad = "(materials: [(name: \"Air\", color: (0,0,0), liquid: false, shaping: Smooth, \
                   enhance: Some((even: 0, odd: 2)))])";
        let e = MaterialTable::from_ron(bad).expect_err("threshold 0");
        assert!(e.to_string().contains("1 to 4"), "{e}");
    }

    #[test]
    fn rows_without_a_threshold_take_their_shaping_default() {
        let t = MaterialTable::from_ron(
            "(materials: [(name: \"Air\", color: (0,0,0), liquid: false, shaping: Smooth), \
             (name: \"Rock\", color: (1,2,3), liquid: false, shaping: Sharp)])",
        )
        .expect("valid");
        assert_eq!(
            t.materials[0].enhance_threshold(),
            EnhanceThreshold::uniform(3)
        );
        assert_eq!(
            t.materials[1].enhance_threshold(),
            EnhanceThreshold::uniform(2)
        );
        let text = ron::to_string(&t).expect("ron");
        assert!(
            !text.contains("enhance"),
            "absent thresholds stay absent: {text}"
        );
        let builtin = MaterialTable::builtin();
        let sandstone = builtin.require("Sandstone").expect("sandstone");
        let s = builtin.materials[usize::from(sandstone)].enhance_threshold();
        assert_ne!(s.even, s.odd, "layered rock alternates by altitude");
    }
}
