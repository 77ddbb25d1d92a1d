//! Binary glTF 2.0 (`.glb`) writer.
//!
//! ```text
//!   "glTF" 2 total_len | JSON chunk (len, "JSON", space-padded) | BIN chunk (len, "BIN\0", 0-padded)
//!   BIN: POSITION f32×3 | NORMAL f32×3 | COLOR_0 f32×3 (linear) | solid u32 indices | water u32 indices
//! ```
//!
//! One mesh with up to two primitives sharing the vertex attributes: `terrain` (opaque, white base
//! color so the vertex colors show) and `water` (the table's liquid color, alpha-blended). A primitive
//! with no triangles is left out; a mesh with no primitive is left out too, because glTF requires at
//! least one primitive per mesh and one element per accessor.

use serde_json::{json, Value};

use super::weld::Welded;
use crate::voxel::{srgb_to_linear, MaterialTable};
use crate::{Error, Result};

const ARRAY_BUFFER: u32 = 34962;
const ELEMENT_ARRAY_BUFFER: u32 = 34963;
const FLOAT: u32 = 5126;
const UNSIGNED_INT: u32 = 5125;

/// The binary chunk and the JSON descriptions of its views and accessors.
#[derive(Default)]
struct Bin {
    bytes: Vec<u8>,
    views: Vec<Value>,
    accessors: Vec<Value>,
}

impl Bin {
    /// Append a VEC3 float attribute; returns its accessor index.
    fn vec3(&mut self, data: &[[f32; 3]], with_bounds: bool) -> usize {
        let offset = self.bytes.len();
        let mut lo = [f32::INFINITY; 3];
        let mut hi = [f32::NEG_INFINITY; 3];
        for v in data {
            for a in 0..3 {
                self.bytes.extend_from_slice(&v[a].to_le_bytes());
                lo[a] = lo[a].min(v[a]);
                hi[a] = hi[a].max(v[a]);
            }
        }
        self.views.push(json!({"buffer": 0, "byteOffset": offset,
            "byteLength": data.len() * 12, "target": ARRAY_BUFFER}));
        let mut acc = json!({"bufferView": self.views.len() - 1, "componentType": FLOAT,
            "count": data.len(), "type": "VEC3"});
        if with_bounds {
            acc["min"] = json!(lo);
            acc["max"] = json!(hi);
        }
        self.accessors.push(acc);
        self.accessors.len() - 1
    }

    /// Append a u32 index list; returns its accessor index.
    fn indices(&mut self, data: &[u32]) -> usize {
        let offset = self.bytes.len();
        for i in data {
            self.bytes.extend_from_slice(&i.to_le_bytes());
        }
        self.views.push(json!({"buffer": 0, "byteOffset": offset,
            "byteLength": data.len() * 4, "target": ELEMENT_ARRAY_BUFFER}));
        self.accessors
            .push(json!({"bufferView": self.views.len() - 1,
            "componentType": UNSIGNED_INT, "count": data.len(), "type": "SCALAR"}));
        self.accessors.len() - 1
    }
}

/// The base color of the water material: the first liquid's linear color, 60 % opaque.
fn water_color(table: &MaterialTable) -> [f32; 4] {
    let (r, g, b) = table
        .materials
        .iter()
        .find(|m| m.liquid)
        .map_or((40, 100, 150), |m| m.color);
    [srgb_to_linear(r), srgb_to_linear(g), srgb_to_linear(b), 0.6]
}

/// The whole `.glb` file for a welded mesh.
pub(crate) fn glb_bytes(w: &Welded, table: &MaterialTable) -> Result<Vec<u8>> {
    let mut bin = Bin::default();
    let mut primitives = Vec::new();
    if !w.positions.is_empty() {
        let pos = bin.vec3(&w.positions, true);
        let nrm = bin.vec3(&w.normals, false);
        let col = bin.vec3(&w.colors, false);
        let attributes = json!({"POSITION": pos, "NORMAL": nrm, "COLOR_0": col});
        for (material, list) in [(0, &w.solid), (1, &w.water)] {
            if !list.is_empty() {
                let idx = bin.indices(list);
                primitives.push(json!({"attributes": attributes, "indices": idx,
                    "material": material, "mode": 4}));
            }
        }
    }
    let mut doc = json!({
        "asset": {"version": "2.0", "generator": "Strata"},
        "scene": 0,
        "scenes": [{"nodes": []}],
        "materials": [
            {"name": "terrain", "pbrMetallicRoughness":
                {"baseColorFactor": [1.0, 1.0, 1.0, 1.0], "metallicFactor": 0.0, "roughnessFactor": 1.0}},
            {"name": "water", "alphaMode": "BLEND", "pbrMetallicRoughness":
                {"baseColorFactor": water_color(table), "metallicFactor": 0.0, "roughnessFactor": 0.1}},
        ],
    });
    if !primitives.is_empty() {
        doc["scenes"] = json!([{"nodes": [0]}]);
        let mut node = json!({"name": "terrain", "mesh": 0});
        let o = w.origin;
        if (o.x, o.y, o.z) != (0, 0, 0) {
            node["translation"] = json!([f64::from(o.x), f64::from(o.y), f64::from(o.z)]);
        }
        doc["nodes"] = json!([node]);
        doc["meshes"] = json!([{"name": "terrain", "primitives": primitives}]);
        doc["buffers"] = json!([{"byteLength": bin.bytes.len()}]);
        doc["bufferViews"] = Value::Array(bin.views);
        doc["accessors"] = Value::Array(bin.accessors);
    }
    let mut json_bytes =
        serde_json::to_vec(&doc).map_err(|e| Error::Invalid(format!("glTF JSON: {e}")))?;
    while json_bytes.len() % 4 != 0 {
        json_bytes.push(b' ');
    }
    let mut bin_bytes = bin.bytes;
    while bin_bytes.len() % 4 != 0 {
        bin_bytes.push(0);
    }
    let has_bin = !bin_bytes.is_empty();
    let total = 12 + 8 + json_bytes.len() + if has_bin { 8 + bin_bytes.len() } else { 0 };
    let total = u32::try_from(total)
        .map_err(|_| Error::Invalid("the mesh is too large for a .glb file (4 GiB)".into()))?;
    let mut out = Vec::with_capacity(total as usize);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&total.to_le_bytes());
    out.extend_from_slice(&(json_bytes.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&json_bytes);
    if has_bin {
        out.extend_from_slice(&(bin_bytes.len() as u32).to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(&bin_bytes);
    }
    Ok(out)
}
