//! Edits of the project's material table as the Materials panel asks for them, and what the
//! editor does with each: one undo step through [`Document::change_materials`], so voxels follow
//! when ids move, the viewport redraws, physics sees liquids and baked light goes stale where a
//! changed material shows.
//!
//! The panel computes table changes with the engine's functions (`strata_engine::materials`) while
//! it draws, so a refused edit (a taken name, a full table) is reported there and nothing is sent.
//! Edits that need the document's own store (a texture image) or a file read (a palette) carry
//! their input and are computed when applied.

use strata_engine::materials::{apply_palette, set, MaterialPatch, Palette, TableChange};
use strata_engine::progress::Progress;
use strata_engine::voxel::{Material, MaterialTable, Shaping, AIR};

use super::material_files::strip_missing_textures;
use crate::document::Document;
use crate::AppResult;

/// A change of the material table, applied by the editor as one undo step.
#[derive(Debug)]
pub enum MaterialEdit {
    /// A table change the panel computed.
    Table {
        /// The undo step's name.
        step: String,
        /// The change.
        change: TableChange,
    },
    /// Give the material called `material` the texture `png` (checked bytes).
    Texture {
        /// The material's name.
        material: String,
        /// The PNG bytes, read and checked by [`super::material_files::read_texture`].
        png: Vec<u8>,
    },
    /// Map the project onto a palette read from a file called `file`.
    Palette {
        /// The file's name (for the undo step).
        file: String,
        /// The palette.
        palette: Palette,
    },
}

impl MaterialEdit {
    /// Apply the edit to `doc` as one undo step; returns what to say in the status bar.
    ///
    /// # Errors
    /// When the engine refuses the change (the table changed since the panel computed it, a texture
    /// store full, a palette without a solid material); nothing changes then.
    pub fn apply(self, doc: &mut Document) -> AppResult<String> {
        let (step, change) = match self {
            MaterialEdit::Table { step, change } => (step, change),
            MaterialEdit::Texture { material, png } => {
                let texture = doc.add_texture(png)?;
                let patch = MaterialPatch {
                    texture: Some(Some(texture)),
                    ..MaterialPatch::default()
                };
                let change = set(doc.materials(), &material, &patch)?;
                (format!("Texture {material}"), change)
            }
            MaterialEdit::Palette { file, palette } => {
                let mut change = apply_palette(doc.materials(), &palette)?;
                strip_missing_textures(&mut change.table, doc.project());
                (format!("Apply palette {file}"), change)
            }
        };
        let applied = doc.change_materials(&step, change, &Progress::new())?;
        Ok(if applied.changed.is_empty() {
            step
        } else {
            let [x, y, z] = applied.changed.size();
            format!("{step}: voxels remapped within {x}×{y}×{z}")
        })
    }
}

/// `base`, or `base 2`, `base 3`... : the first name `table` does not use yet.
pub fn unique_name(table: &MaterialTable, base: &str) -> String {
    if table.id_of(base).is_none() {
        return base.to_owned();
    }
    (2..)
        .map(|i| format!("{base} {i}"))
        .find(|n| table.id_of(n).is_none())
        .unwrap_or_else(|| base.to_owned())
}

/// The material that should take material `id`'s voxels when it is removed: the one of nearest
/// colour of the same kind (solid or liquid), else of nearest colour of any kind, else Air.
pub fn default_heir(table: &MaterialTable, id: u8) -> u8 {
    let Some(gone) = table.get(id) else {
        return AIR;
    };
    let distance = |m: &Material| {
        let d = |a: u8, b: u8| (i32::from(a) - i32::from(b)).pow(2);
        d(m.color.0, gone.color.0) + d(m.color.1, gone.color.1) + d(m.color.2, gone.color.2)
    };
    let nearest = |same_kind: bool| {
        table
            .materials
            .iter()
            .enumerate()
            .skip(1)
            .filter(|&(i, m)| i != usize::from(id) && (!same_kind || m.liquid == gone.liquid))
            .min_by_key(|(_, m)| distance(m))
            .and_then(|(i, _)| u8::try_from(i).ok())
    };
    nearest(true).or_else(|| nearest(false)).unwrap_or(AIR)
}

/// Parse a colour typed as `#RRGGBB`, `RRGGBB` or `R, G, B`.
///
/// # Errors
/// A message saying what is accepted.
pub fn parse_color(text: &str) -> Result<(u8, u8, u8), String> {
    let t = text.trim();
    let bad = || format!("{t:?} is not a colour: type #RRGGBB or R, G, B (0 to 255 each)");
    let hex = t.strip_prefix('#').unwrap_or(t);
    if hex.len() == 6 && hex.chars().all(|c| c.is_ascii_hexdigit()) {
        let c = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).map_err(|_| bad());
        return Ok((c(0)?, c(2)?, c(4)?));
    }
    let parts: Vec<&str> = t
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .collect();
    match parts.as_slice() {
        [r, g, b] => Ok((
            r.parse().map_err(|_| bad())?,
            g.parse().map_err(|_| bad())?,
            b.parse().map_err(|_| bad())?,
        )),
        _ => Err(bad()),
    }
}

/// A colour as `#rrggbb`.
pub fn hex(c: (u8, u8, u8)) -> String {
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}

/// The patch that turns `old` into `new` (names aside: a rename is its own edit).
pub fn patch_between(old: &Material, new: &Material) -> MaterialPatch {
    MaterialPatch {
        name: None,
        color: (old.color != new.color).then_some(new.color),
        liquid: (old.liquid != new.liquid).then_some(new.liquid),
        sharp: (old.shaping != new.shaping).then_some(new.shaping == Shaping::Sharp),
        emission: (old.emission != new.emission).then_some(new.emission),
        texture: (old.texture != new.texture).then_some(new.texture),
        look: (old.look != new.look).then_some(new.look),
        enhance: (old.enhance != new.enhance).then_some(new.enhance),
    }
}

/// The undo step's name for `patch` of material `name`.
pub fn step_name(name: &str, patch: &MaterialPatch) -> String {
    let what = [
        (patch.color.is_some(), "Recolour"),
        (patch.liquid.is_some(), "Liquid"),
        (patch.sharp.is_some(), "Shaping of"),
        (patch.emission.is_some(), "Emission of"),
        (patch.texture.is_some(), "Texture of"),
        (patch.look.is_some(), "Look of"),
        (patch.enhance.is_some(), "Thresholds of"),
    ];
    let mut changed = what.iter().filter(|(on, _)| *on).map(|(_, w)| *w);
    match (changed.next(), changed.next()) {
        (Some(one), None) => format!("{one} {name}"),
        _ => format!("Change {name}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_heirs_and_colours() {
        let t = MaterialTable::builtin();
        assert_eq!(unique_name(&t, "Moss"), "Moss");
        assert_eq!(unique_name(&t, "grass"), "grass 2");
        let water = t.require("Water").expect("water");
        let heir = default_heir(&t, water);
        assert!(t.materials[usize::from(heir)].liquid || heir != water);
        assert_ne!(heir, water);
        let rock = t.require("Rock").expect("rock");
        let heir = default_heir(&t, rock);
        assert!(!t.materials[usize::from(heir)].liquid && heir != rock && heir != AIR);
        assert_eq!(parse_color("#3c6e28"), Ok((0x3c, 0x6e, 0x28)));
        assert_eq!(parse_color(" 1, 2 ,3 "), Ok((1, 2, 3)));
        for bad in ["", "#12345", "1,2", "300,1,1", "#gg0000", "1,2,3,4"] {
            assert!(parse_color(bad).is_err(), "{bad:?}");
        }
        assert_eq!(hex((255, 0, 16)), "#ff0010");
        let grass = &t.materials[usize::from(t.require("Grass").expect("grass"))];
        let mut green = grass.clone();
        green.color = (1, 2, 3);
        let p = patch_between(grass, &green);
        assert_eq!(p.color, Some((1, 2, 3)));
        assert!(p.liquid.is_none() && p.look.is_none());
        assert_eq!(step_name("Grass", &p), "Recolour Grass");
        green.liquid = true;
        assert_eq!(
            step_name("Grass", &patch_between(grass, &green)),
            "Change Grass"
        );
    }
}
