//! The material table: names, colors, liquid flag and shaping mode per material id.
//!
//! The default table is `assets/materials.ron`, embedded at compile time; projects carry their own copy
//! in their header so a file keeps its look when the default table changes.

use serde::{Deserialize, Serialize};

use super::{AIR, MATERIAL_COUNT};
use crate::{Error, Result};

/// How the mesher shapes the surface around a voxel of this material.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Shaping {
    /// Rounded surfaces (grass, sand, snow).
    Smooth,
    /// Hard edges and flat faces (rock, brick).
    Sharp,
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

    /// Check the table: 1..=64 entries, Air first, unique non-empty names.
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
            if self.materials[..i]
                .iter()
                .any(|o| o.name.eq_ignore_ascii_case(&m.name))
            {
                return Err(Error::Invalid(format!(
                    "material name {:?} is used twice",
                    m.name
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

    /// The id of `name`, or an error naming the missing material.
    ///
    /// # Errors
    /// [`Error::Invalid`] when the table has no such material.
    pub fn require(&self, name: &str) -> Result<u8> {
        self.id_of(name)
            .ok_or_else(|| Error::Invalid(format!("material table has no {name:?}")))
    }
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
    fn bad_tables_are_rejected() {
        assert!(MaterialTable::from_ron("(materials: [])").is_err());
        assert!(MaterialTable::from_ron(
            "(materials: [(name: \"Rock\", color: (1,2,3), liquid: false, shaping: Sharp)])"
        )
        .is_err());
        assert!(MaterialTable::from_ron("(materials: [(name: \"Air\")").is_err());
    }
}
