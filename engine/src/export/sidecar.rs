//! The JSON sidecar written beside an exported heightmap (`OUT.json`): the map's size and encoding, the
//! world Y range its samples span, the voxel size, what a heightmap cannot show (overhang and empty
//! columns), and the splat channels' and weight layers' material names. Byte-level description in
//! `docs/formats/heightmap.md`; file-name-safe layer names are made here too.

use serde::Serialize;

use super::maps::TerrainMaps;
use crate::voxel::MaterialTable;

/// The sidecar's `format` value.
pub const SIDECAR_FORMAT: &str = "strata-heightmap";
/// The sidecar's `version` value; bumped when a field changes meaning.
pub const SIDECAR_VERSION: u32 = 1;

/// How the heightmap's samples are stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Encoding {
    /// 16-bit greyscale PNG.
    Png16,
    /// Raw little-endian 16-bit samples, rows in order, no header.
    R16le,
}

/// The files an export writes, by file name (relative to the sidecar's folder for the map and splat,
/// to the layers folder for layers).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SidecarFiles {
    /// The heightmap's file name.
    pub heightmap: String,
    /// The splat map's path as given, when one is written.
    pub splat: Option<String>,
    /// The layers folder as given, when layers are written.
    pub layers_dir: Option<String>,
    /// One file name per weight layer, in [`TerrainMaps::layers`] order.
    pub layers: Vec<String>,
}

#[derive(Serialize)]
struct MaterialColumns<'a> {
    name: &'a str,
    id: u8,
    columns: u64,
}

#[derive(Serialize)]
struct Splat<'a> {
    file: &'a str,
    channels: Vec<&'a str>,
}

#[derive(Serialize)]
struct Layer<'a> {
    material: &'a str,
    file: &'a str,
}

#[derive(Serialize)]
struct Layers<'a> {
    dir: &'a str,
    files: Vec<Layer<'a>>,
}

#[derive(Serialize)]
struct Sidecar<'a> {
    format: &'static str,
    version: u32,
    file: &'a str,
    encoding: Encoding,
    width: u32,
    height: u32,
    y_min: i32,
    y_max: i32,
    voxel_size: f32,
    height_per_step: f64,
    box_min: [i32; 3],
    box_max: [i32; 3],
    columns: [usize; 2],
    orientation: &'static str,
    empty_columns: u64,
    empty_height: &'static str,
    overhang_columns: u64,
    surface_materials: Vec<MaterialColumns<'a>>,
    splat: Option<Splat<'a>>,
    layers: Option<Layers<'a>>,
}

/// The name `table` gives material `id`, or `material_ID` for an id it lacks.
fn name_of(table: &MaterialTable, id: u8) -> String {
    table
        .get(id)
        .map_or_else(|| format!("material_{id}"), |m| m.name.clone())
}

/// The sidecar of `maps` as pretty-printed JSON (fields in `docs/formats/heightmap.md` order).
pub fn sidecar_json(
    maps: &TerrainMaps,
    table: &MaterialTable,
    encoding: Encoding,
    files: &SidecarFiles,
) -> String {
    let names: Vec<(u8, String)> = maps
        .surface_materials
        .iter()
        .map(|&(id, _)| (id, name_of(table, id)))
        .collect();
    let name = |id: u8| {
        names
            .iter()
            .find(|n| n.0 == id)
            .map_or("", |n| n.1.as_str())
    };
    let sidecar = Sidecar {
        format: SIDECAR_FORMAT,
        version: SIDECAR_VERSION,
        file: &files.heightmap,
        encoding,
        width: maps.width,
        height: maps.height,
        y_min: maps.y_range[0],
        y_max: maps.y_range[1],
        voxel_size: 1.0,
        height_per_step: f64::from(maps.y_range[1] - maps.y_range[0]) / 65535.0,
        box_min: maps.region.min.to_array(),
        box_max: maps.region.max.to_array(),
        columns: maps.columns,
        orientation: "row 0 = lowest Z, pixel 0 of a row = lowest X",
        empty_columns: maps.empty_columns,
        empty_height: "y_min",
        overhang_columns: maps.overhang_columns,
        surface_materials: maps
            .surface_materials
            .iter()
            .map(|&(id, columns)| MaterialColumns {
                name: name(id),
                id,
                columns,
            })
            .collect(),
        splat: maps
            .splat
            .as_ref()
            .zip(files.splat.as_deref())
            .map(|(s, file)| Splat {
                file,
                channels: s.materials.iter().map(|&id| name(id)).collect(),
            }),
        layers: maps
            .layers
            .as_ref()
            .zip(files.layers_dir.as_deref())
            .map(|(l, dir)| Layers {
                dir,
                files: l
                    .materials
                    .iter()
                    .zip(&files.layers)
                    .map(|(&id, file)| Layer {
                        material: name(id),
                        file,
                    })
                    .collect(),
            }),
    };
    let mut text = serde_json::to_string_pretty(&sidecar).unwrap_or_default();
    text.push('\n');
    text
}

/// File names for the weight layers of `materials` (`NAME.png`): letters, digits, `-` and `_` kept,
/// anything else `_`; a name left empty or already taken (case-insensitively, for case-blind disks)
/// gets `_ID` appended.
pub fn layer_file_names(table: &MaterialTable, materials: &[u8]) -> Vec<String> {
    let mut taken: Vec<String> = Vec::new();
    let mut out = Vec::with_capacity(materials.len());
    for &id in materials {
        let safe: String = name_of(table, id)
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let mut stem = if safe.trim_matches('_').is_empty() {
            format!("material_{id}")
        } else {
            safe
        };
        if taken.contains(&stem.to_ascii_lowercase()) {
            stem = format!("{stem}_{id}");
        }
        taken.push(stem.to_ascii_lowercase());
        out.push(format!("{stem}.png"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::voxel::Material;

    #[test]
    fn layer_names_are_file_name_safe_and_distinct() {
        let mut table = MaterialTable::builtin();
        table
            .materials
            .push(Material::new("Red/Rock: wet", (1, 2, 3)));
        table
            .materials
            .push(Material::new("Red_Rock__wet", (1, 2, 3)));
        table.materials.push(Material::new("..", (1, 2, 3)));
        let n = table.materials.len() as u8;
        let names = layer_file_names(&table, &[1, n - 3, n - 2, n - 1, 60]);
        assert_eq!(names[0], format!("{}.png", table.materials[1].name));
        assert_eq!(names[1], "Red_Rock__wet.png");
        assert_eq!(names[2], format!("Red_Rock__wet_{}.png", n - 2));
        assert_eq!(names[3], format!("material_{}.png", n - 1));
        assert_eq!(names[4], "material_60.png");
    }
}
