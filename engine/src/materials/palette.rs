//! Palettes that travel between projects: a whole material table (`.ron`, the format of
//! `assets/materials.ron`), a list of named colours (Roblox-style, one `Name R G B` or
//! `Name #RRGGBB` per line), or a MagicaVoxel `.vox` palette (colours only).
//!
//! ```text
//!   table (.ron)   the project takes the palette's table; its voxels follow by material name,
//!                  else to the palette material of nearest colour (liquids to liquids)
//!   named colours  materials named in the list take its colour; names the project lacks are added
//!   colours (.vox) every material but Air takes the palette colour nearest its own
//! ```

use std::path::Path;

use super::table_edit::{identity, nearest_of_kind, Remap, TableChange};
use crate::format::input::read_input;
use crate::voxel::{Material, MaterialTable, AIR, MATERIAL_COUNT};
use crate::{Error, Result};

/// Largest palette file read, in bytes.
const MAX_PALETTE_BYTES: u64 = 16 << 20;

/// A palette read from a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Palette {
    /// A whole material table.
    Table(MaterialTable),
    /// Names with colours (sRGB).
    Named(Vec<(String, (u8, u8, u8))>),
    /// Colours only (sRGB).
    Colors(Vec<(u8, u8, u8)>),
}

/// Read a palette: `.ron` as a table, `.vox` as MagicaVoxel colours, anything else as a list of
/// named colours.
///
/// # Errors
/// An unreadable file, or contents that are not a palette of that kind (the error names the file
/// and, for lists, the line).
pub fn read_palette(path: &Path) -> Result<Palette> {
    let bytes = read_input(path, MAX_PALETTE_BYTES)?;
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    parse_palette(&bytes, &ext).map_err(|e| e.in_file(path))
}

/// Parse palette bytes as a file of extension `ext` would be read (see [`read_palette`]).
///
/// # Errors
/// Contents that are not a palette of that kind.
pub fn parse_palette(bytes: &[u8], ext: &str) -> Result<Palette> {
    match ext {
        "ron" => parse_ron(bytes),
        "vox" => parse_vox(bytes),
        _ => parse_list(bytes),
    }
}

fn parse_ron(bytes: &[u8]) -> Result<Palette> {
    let text = std::str::from_utf8(bytes)
        .map_err(|_| Error::Invalid("a .ron palette must be UTF-8 text".into()))?;
    Ok(Palette::Table(MaterialTable::from_ron(text)?))
}

fn parse_vox(bytes: &[u8]) -> Result<Palette> {
    let data = dot_vox::load_bytes(bytes).map_err(|e| Error::Invalid(e.to_owned()))?;
    let colors: Vec<(u8, u8, u8)> = data.palette.iter().map(|c| (c.r, c.g, c.b)).collect();
    if colors.is_empty() {
        return Err(Error::Invalid("the .vox file has no palette".into()));
    }
    Ok(Palette::Colors(colors))
}

/// Parse `R G B`, `R, G, B` or `#RRGGBB` (whatever follows the name).
fn parse_color(text: &str) -> Option<(u8, u8, u8)> {
    let t = text.trim();
    if let Some(hex) = t.strip_prefix('#') {
        if hex.len() != 6 || !hex.is_ascii() {
            return None;
        }
        let c = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
        return Some((c(0)?, c(2)?, c(4)?));
    }
    let parts: Vec<&str> = t
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .collect();
    match parts.as_slice() {
        [r, g, b] => Some((r.parse().ok()?, g.parse().ok()?, b.parse().ok()?)),
        _ => None,
    }
}

fn parse_list(bytes: &[u8]) -> Result<Palette> {
    let text = std::str::from_utf8(bytes)
        .map_err(|_| Error::Invalid("a colour list must be UTF-8 text".into()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = || {
            Error::Invalid(format!(
                "line {}: expected `Name R G B` or `Name #RRGGBB`, got {:?}",
                i + 1,
                line.chars().take(80).collect::<String>()
            ))
        };
        // The name is everything before the colour: the last three numbers, or a #hex word.
        let (name, color) = match line.rfind('#') {
            Some(at) if at > 0 => (&line[..at], parse_color(&line[at..]).ok_or_else(bad)?),
            _ => {
                let mut cut = line.len();
                for _ in 0..3 {
                    let head = line[..cut].trim_end_matches([' ', '\t', ',']);
                    cut = head
                        .rfind(|c: char| c == ',' || c.is_whitespace())
                        .map_or(0, |k| k + 1);
                }
                (&line[..cut], parse_color(&line[cut..]).ok_or_else(bad)?)
            }
        };
        let name = name.trim().trim_end_matches(',').trim();
        Material::check_name(name).map_err(|e| Error::Invalid(format!("line {}: {e}", i + 1)))?;
        out.push((name.to_owned(), color));
    }
    if out.is_empty() {
        return Err(Error::Invalid("the list names no colour".into()));
    }
    Ok(Palette::Named(out))
}

/// The change that maps `table` (and its voxels) onto `palette` (see the module docs).
///
/// # Errors
/// A list that would take the table past 64 materials; a palette table without a solid material.
pub fn apply_palette(table: &MaterialTable, palette: &Palette) -> Result<TableChange> {
    match palette {
        Palette::Table(p) => {
            let mut remap: Remap = identity();
            for (old, m) in table.materials.iter().enumerate() {
                remap[old] = if old == usize::from(AIR) {
                    AIR
                } else {
                    p.id_of(&m.name)
                        .unwrap_or_else(|| nearest_of_kind(p, m.color, m.liquid))
                };
            }
            if p.materials.iter().skip(1).all(|m| m.liquid) {
                return Err(Error::Invalid(
                    "the palette has no solid material to map the terrain onto".into(),
                ));
            }
            Ok(TableChange {
                table: p.clone(),
                remap: Some(remap),
            })
        }
        Palette::Named(list) => {
            let mut t = table.clone();
            for (name, color) in list {
                match t.id_of(name) {
                    Some(AIR) => {}
                    Some(id) => t.materials[usize::from(id)].color = *color,
                    None if t.len() < MATERIAL_COUNT => {
                        t.materials.push(Material::new(name.clone(), *color));
                    }
                    None => {
                        return Err(Error::Invalid(format!(
                            "adding {name:?} would take the project past {MATERIAL_COUNT} materials"
                        )))
                    }
                }
            }
            t.validate()?;
            Ok(TableChange {
                table: t,
                remap: None,
            })
        }
        Palette::Colors(colors) => {
            let mut t = table.clone();
            for m in t.materials.iter_mut().skip(1) {
                if let Some(&c) = colors.iter().min_by_key(|&&c| distance(c, m.color)) {
                    m.color = c;
                }
            }
            Ok(TableChange {
                table: t,
                remap: None,
            })
        }
    }
}

fn distance(a: (u8, u8, u8), b: (u8, u8, u8)) -> i32 {
    let d = [
        i32::from(a.0) - i32::from(b.0),
        i32::from(a.1) - i32::from(b.1),
        i32::from(a.2) - i32::from(b.2),
    ];
    d[0] * d[0] + d[1] * d[1] + d[2] * d[2]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_parse_names_with_spaces_and_every_colour_form() {
        let p = parse_list(
            b"# a Roblox-style list\nGrass 106 127 63\nCracked Lava, 255, 90, 0\nSnow #f0f4fa\n\n",
        )
        .expect("list");
        assert_eq!(
            p,
            Palette::Named(vec![
                ("Grass".into(), (106, 127, 63)),
                ("Cracked Lava".into(), (255, 90, 0)),
                ("Snow".into(), (240, 244, 250)),
            ])
        );
        for bad in [
            &b"Grass 1 2"[..],
            b"Grass 1 2 300",
            b"Grass #12345",
            b"\xff\xfe",
            b"",
        ] {
            assert!(
                parse_list(bad).is_err(),
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
    }

    #[test]
    fn palettes_map_by_name_then_by_colour() {
        let t = MaterialTable::builtin();
        let mut p = MaterialTable::builtin();
        p.materials.truncate(4);
        // Air, Water, Grass, Ground: Rock (grey) goes to the nearest of Grass and Ground.
        let c = apply_palette(&t, &Palette::Table(p.clone())).expect("apply");
        let map = c.remap.expect("remap");
        assert_eq!(c.table, p);
        assert_eq!(map[usize::from(t.id_of("Grass").expect("g"))], 2);
        assert_eq!(map[usize::from(t.id_of("Water").expect("w"))], 1);
        let rock = map[usize::from(t.id_of("Rock").expect("r"))];
        assert!(rock == 2 || rock == 3, "{rock}");
        assert_eq!(map[0], AIR);
        let named = Palette::Named(vec![("rock".into(), (1, 2, 3)), ("Moss".into(), (4, 5, 6))]);
        let c = apply_palette(&t, &named).expect("named");
        assert!(c.remap.is_none());
        assert_eq!(
            c.table.materials[usize::from(t.id_of("Rock").expect("r"))].color,
            (1, 2, 3)
        );
        assert_eq!(c.table.id_of("Moss"), Some(t.len() as u8));
        let colors = Palette::Colors(vec![(0, 0, 0), (255, 255, 255)]);
        let c = apply_palette(&t, &colors).expect("colours");
        assert_eq!(
            c.table.materials[usize::from(t.id_of("Snow").expect("s"))].color,
            (255, 255, 255)
        );
        assert_eq!(
            c.table.materials[usize::from(t.id_of("Basalt").expect("b"))].color,
            (0, 0, 0)
        );
        assert_eq!(c.table.materials[0], t.materials[0]);
    }
}
