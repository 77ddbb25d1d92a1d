//! Edits of a project's material table as values: each one gives the new table and, when material
//! ids move, where every old id goes, so the voxels can follow in the same undo step.
//!
//! ```text
//!   add / duplicate      new id = the table's length           (no voxel changes)
//!   set (rename, colour, liquid, sharp, emission, texture, look, thresholds)
//!   remove NAME into X   NAME's voxels become X; ids above NAME move down by one
//!   move NAME to i       ids between shift by one
//! ```
//!
//! Ids stay below 64 (the RLE stream's 6 bits) and Air stays id 0. Names are unique ignoring case.

use crate::voxel::{
    Emission, EnhanceThreshold, Look, Material, MaterialTable, Shaping, TextureRef, AIR,
    MATERIAL_COUNT,
};
use crate::{Error, Result};

/// Where each old material id goes: `map[old] = new`.
pub type Remap = [u8; MATERIAL_COUNT];

/// The identity remap.
pub fn identity() -> Remap {
    std::array::from_fn(|i| i as u8)
}

/// A table edit's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableChange {
    /// The table after the edit.
    pub table: MaterialTable,
    /// Where the voxels' ids go, when any move.
    pub remap: Option<Remap>,
}

/// Property changes of one material (`None`: unchanged).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MaterialPatch {
    /// A new name.
    pub name: Option<String>,
    /// A new sRGB colour.
    pub color: Option<(u8, u8, u8)>,
    /// Liquid or not.
    pub liquid: Option<bool>,
    /// Sharp (true) or smooth shaping.
    pub sharp: Option<bool>,
    /// Emission (`Some(None)` removes it).
    pub emission: Option<Option<Emission>>,
    /// Texture (`Some(None)` removes it).
    pub texture: Option<Option<TextureRef>>,
    /// Surface look (`Some(None)`: back to the default).
    pub look: Option<Option<Look>>,
    /// Subdivision thresholds (`Some(None)`: back to the shaping's default).
    pub enhance: Option<Option<EnhanceThreshold>>,
}

fn id_of(table: &MaterialTable, name: &str) -> Result<u8> {
    table.id_of(name.trim()).ok_or_else(|| {
        let names: Vec<&str> = table.materials.iter().map(|m| m.name.as_str()).collect();
        Error::Invalid(format!(
            "unknown material {name:?}; this project's materials are: {}",
            names.join(", ")
        ))
    })
}

fn check_new_name(table: &MaterialTable, name: &str, except: Option<u8>) -> Result<()> {
    Material::check_name(name)?;
    if let Some(id) = table.id_of(name) {
        if Some(id) != except {
            return Err(Error::Invalid(format!(
                "there is already a material called {:?}",
                table.materials[usize::from(id)].name
            )));
        }
    }
    Ok(())
}

fn check_room(table: &MaterialTable) -> Result<()> {
    if table.len() >= MATERIAL_COUNT {
        return Err(Error::Invalid(format!(
            "a project has at most {MATERIAL_COUNT} materials (ids 0 to {}), Air included",
            MATERIAL_COUNT - 1
        )));
    }
    Ok(())
}

fn finish(table: MaterialTable, remap: Option<Remap>) -> Result<TableChange> {
    table.validate()?;
    Ok(TableChange { table, remap })
}

/// Add `material` as a new id. `like` copies another material's properties first (then the
/// material's own name and colour apply).
///
/// # Errors
/// A full table, a bad or taken name, an unknown `like`, invalid properties.
pub fn add(table: &MaterialTable, material: Material) -> Result<TableChange> {
    check_room(table)?;
    check_new_name(table, &material.name, None)?;
    let mut t = table.clone();
    t.materials.push(material);
    finish(t, None)
}

/// A copy of material `like` named `name` with colour `color` (not yet in a table).
///
/// # Errors
/// An unknown `like`.
pub fn like(
    table: &MaterialTable,
    like: &str,
    name: &str,
    color: (u8, u8, u8),
) -> Result<Material> {
    let src = &table.materials[usize::from(id_of(table, like)?)];
    Ok(Material {
        name: name.to_owned(),
        color,
        ..src.clone()
    })
}

/// Duplicate material `name` as `new_name` (a new id at the end).
///
/// # Errors
/// As for [`add`]; duplicating Air.
pub fn duplicate(table: &MaterialTable, name: &str, new_name: &str) -> Result<TableChange> {
    let id = id_of(table, name)?;
    if id == AIR {
        return Err(Error::Invalid("Air cannot be duplicated".into()));
    }
    let src = &table.materials[usize::from(id)];
    add(
        table,
        Material {
            name: new_name.to_owned(),
            ..src.clone()
        },
    )
}

/// Change the properties of material `name`.
///
/// # Errors
/// An unknown material, a bad or taken new name, renaming or changing Air, invalid values.
pub fn set(table: &MaterialTable, name: &str, patch: &MaterialPatch) -> Result<TableChange> {
    let id = id_of(table, name)?;
    if id == AIR {
        return Err(Error::Invalid("Air has no properties to change".into()));
    }
    let mut t = table.clone();
    if let Some(n) = &patch.name {
        check_new_name(table, n, Some(id))?;
    }
    let m = &mut t.materials[usize::from(id)];
    if let Some(n) = &patch.name {
        m.name.clone_from(n);
    }
    if let Some(c) = patch.color {
        m.color = c;
    }
    if let Some(l) = patch.liquid {
        m.liquid = l;
    }
    if let Some(s) = patch.sharp {
        m.shaping = if s { Shaping::Sharp } else { Shaping::Smooth };
    }
    if let Some(e) = patch.emission {
        m.emission = e;
    }
    if let Some(tx) = patch.texture {
        m.texture = tx;
    }
    if let Some(l) = patch.look {
        m.look = l;
    }
    if let Some(e) = patch.enhance {
        m.enhance = e;
    }
    check_solid_left(&t)?;
    finish(t, None)
}

/// At least one solid material must stay, so brushes and the generator have one to use.
fn check_solid_left(table: &MaterialTable) -> Result<()> {
    if table.materials.iter().skip(1).any(|m| !m.liquid) {
        Ok(())
    } else {
        Err(Error::Invalid(
            "the project must keep at least one solid material".into(),
        ))
    }
}

/// Remove material `name`; its voxels become `into`, and the ids above it move down by one.
///
/// # Errors
/// An unknown material or `into`, removing Air, `into` being the removed material, removing the
/// last solid material.
pub fn remove(table: &MaterialTable, name: &str, into: &str) -> Result<TableChange> {
    let id = id_of(table, name)?;
    let target = id_of(table, into)?;
    if id == AIR {
        return Err(Error::Invalid("Air cannot be removed".into()));
    }
    if target == id {
        return Err(Error::Invalid(format!(
            "{name:?} cannot take its own voxels: give another material with --into"
        )));
    }
    let mut t = table.clone();
    t.materials.remove(usize::from(id));
    check_solid_left(&t)?;
    let shift = |old: u8| if old > id { old - 1 } else { old };
    let mut remap = identity();
    for (old, new) in remap.iter_mut().enumerate() {
        let old = old as u8;
        *new = if old == id { shift(target) } else { shift(old) };
    }
    finish(t, Some(remap))
}

/// Move material `name` to id `to` (1 to the last id); the ids between shift by one.
///
/// # Errors
/// An unknown material, moving Air, a target out of range.
pub fn move_to(table: &MaterialTable, name: &str, to: u8) -> Result<TableChange> {
    let id = id_of(table, name)?;
    if id == AIR || to == AIR || usize::from(to) >= table.len() {
        return Err(Error::Invalid(format!(
            "materials move between ids 1 and {}; Air stays 0",
            table.len() - 1
        )));
    }
    let mut t = table.clone();
    let m = t.materials.remove(usize::from(id));
    t.materials.insert(usize::from(to), m);
    let mut remap = identity();
    for (old, new) in remap.iter_mut().enumerate().take(table.len()) {
        let old = old as u8;
        *new = if old == id {
            to
        } else if id < to && old > id && old <= to {
            old - 1
        } else if to < id && old >= to && old < id {
            old + 1
        } else {
            old
        };
    }
    finish(t, Some(remap))
}

/// The material of `table` (not Air, of the same kind: liquid or not) whose colour is nearest to
/// `color` (squared sRGB distance; ties go to the lower id); Air when there is none of that kind.
pub fn nearest_of_kind(table: &MaterialTable, color: (u8, u8, u8), liquid: bool) -> u8 {
    let d = |c: (u8, u8, u8)| {
        let e = [
            i32::from(c.0) - i32::from(color.0),
            i32::from(c.1) - i32::from(color.1),
            i32::from(c.2) - i32::from(color.2),
        ];
        e[0] * e[0] + e[1] * e[1] + e[2] * e[2]
    };
    table
        .materials
        .iter()
        .enumerate()
        .skip(1)
        .filter(|(_, m)| m.liquid == liquid)
        .min_by_key(|(_, m)| d(m.color))
        .map_or(AIR, |(i, _)| i as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> MaterialTable {
        MaterialTable::builtin()
    }

    #[test]
    fn add_set_duplicate_and_their_refusals() {
        let t = table();
        let moss = add(&t, Material::new("Moss", (60, 110, 40))).expect("add");
        assert_eq!(moss.table.len(), t.len() + 1);
        assert!(moss.remap.is_none());
        assert_eq!(moss.table.id_of("moss"), Some(t.len() as u8));
        for bad in ["", " Moss", "Grass", "grass", &"x".repeat(65), "a\u{7}b"] {
            assert!(add(&t, Material::new(bad, (1, 2, 3))).is_err(), "{bad:?}");
        }
        let mut full = t.clone();
        while full.len() < MATERIAL_COUNT {
            let n = format!("M{}", full.len());
            full = add(&full, Material::new(n, (1, 2, 3))).expect("room").table;
        }
        let e = add(&full, Material::new("One too many", (1, 2, 3))).expect_err("65th");
        assert!(e.to_string().contains("at most 64"), "{e}");
        let lava = like(&t, "CrackedLava", "Lava", (255, 90, 0)).expect("like");
        assert_eq!(
            lava.look,
            t.materials[usize::from(t.id_of("CrackedLava").expect("id"))].look
        );
        let c = set(
            &t,
            "grass",
            &MaterialPatch {
                name: Some("Turf".into()),
                color: Some((1, 2, 3)),
                emission: Some(Some(Emission {
                    color: (255, 0, 0),
                    strength: 3.0,
                })),
                ..MaterialPatch::default()
            },
        )
        .expect("set");
        let turf = &c.table.materials[usize::from(t.id_of("Grass").expect("id"))];
        assert_eq!((turf.name.as_str(), turf.color), ("Turf", (1, 2, 3)));
        assert!(set(&t, "Air", &MaterialPatch::default()).is_err());
        assert!(set(&t, "Nope", &MaterialPatch::default()).is_err());
        let nan = MaterialPatch {
            emission: Some(Some(Emission {
                color: (1, 1, 1),
                strength: f32::NAN,
            })),
            ..MaterialPatch::default()
        };
        assert!(set(&t, "Rock", &nan).is_err());
        let dup = duplicate(&t, "Rock", "Rock 2").expect("dup");
        let last = dup.table.materials.last().expect("last");
        assert_eq!(
            (last.name.as_str(), last.shaping),
            ("Rock 2", Shaping::Sharp)
        );
        assert!(duplicate(&t, "Air", "Air 2").is_err());
    }

    #[test]
    fn remove_and_move_remap_every_id() {
        let t = table();
        let mud = t.id_of("Mud").expect("mud");
        let sand = t.id_of("Sand").expect("sand");
        let c = remove(&t, "Mud", "Sand").expect("remove");
        let map = c.remap.expect("remap");
        assert_eq!(c.table.len(), t.len() - 1);
        for old in 0..t.len() as u8 {
            let name = &t.materials[usize::from(old)].name;
            let new = map[usize::from(old)];
            let want = if old == mud { "Sand" } else { name.as_str() };
            assert_eq!(c.table.materials[usize::from(new)].name, want, "id {old}");
        }
        assert_eq!(map[usize::from(sand)], sand - 1);
        assert!(remove(&t, "Air", "Sand").is_err());
        assert!(remove(&t, "Mud", "Mud").is_err());
        assert!(remove(&t, "Mud", "Nope").is_err());
        // The last solid material cannot go.
        let mut two = MaterialTable {
            materials: vec![
                t.materials[0].clone(),
                t.materials[1].clone(),
                Material::new("Stone", (9, 9, 9)),
            ],
        };
        two.validate().expect("valid");
        assert!(remove(&two, "Stone", "Water").is_err());
        two.materials.push(Material::new("Dirt", (5, 5, 5)));
        assert!(remove(&two, "Stone", "Dirt").is_ok());
        for to in [1u8, 5, (t.len() - 1) as u8] {
            let c = move_to(&t, "Rock", to).expect("move");
            let map = c.remap.expect("remap");
            for old in 0..t.len() as u8 {
                let name = &t.materials[usize::from(old)].name;
                assert_eq!(
                    &c.table.materials[usize::from(map[usize::from(old)])].name,
                    name
                );
            }
        }
        assert!(move_to(&t, "Rock", 0).is_err());
        assert!(move_to(&t, "Air", 3).is_err());
        assert!(move_to(&t, "Rock", t.len() as u8).is_err());
        let water = t.id_of("Water").expect("water");
        assert_eq!(nearest_of_kind(&t, (40, 100, 140), true), water);
        assert_eq!(
            nearest_of_kind(&t, (118, 116, 112), false),
            t.id_of("Rock").expect("rock")
        );
    }
}
