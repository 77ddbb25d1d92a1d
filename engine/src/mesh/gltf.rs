//! Binary glTF 2.0 (`.glb`) writer.
//!
//! ```text
//!   "glTF" 2 total_len | JSON chunk (len, "JSON", space-padded) | BIN chunk (len, "BIN\0", 0-padded)
//!   BIN: POSITION f32×3 | NORMAL f32×3 | COLOR_0 f32×3 (linear light) | [TEXCOORD_0 f32×2]
//!        | one u32 index list per material | [each texture's PNG]
//! ```
//!
//! One mesh with a primitive per material the terrain shows, all sharing the vertex attributes. Each
//! primitive's glTF material carries the project's name and colour for it (linear, as glTF wants),
//! its emission (`emissiveFactor`, with `KHR_materials_emissive_strength` above 1) and its texture
//! (the PNG embedded, tiled by planar coordinates), so an engine can swap in its own shader per
//! material. `COLOR_0` is the baked light alone (white without a bake), for the engine to multiply
//! by the material colour. A triangle belongs to the material most of its corners take (ties: its
//! first corner's). Liquids are alpha-blended at 60 %. A mesh with no triangle is left out, because
//! glTF requires at least one primitive per mesh and one element per accessor.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::weld::Welded;
use crate::voxel::{srgb_to_linear, Material, MaterialTable, Textures};
use crate::{Error, Result};

const ARRAY_BUFFER: u32 = 34962;
const ELEMENT_ARRAY_BUFFER: u32 = 34963;
const FLOAT: u32 = 5126;
const UNSIGNED_INT: u32 = 5125;
/// Voxels one texture repeat covers.
pub const TEXTURE_TILE_VOXELS: f32 = 4.0;

/// The binary chunk and the JSON descriptions of its views and accessors.
#[derive(Default)]
struct Bin {
    bytes: Vec<u8>,
    views: Vec<Value>,
    accessors: Vec<Value>,
}

impl Bin {
    /// Append a float attribute of `N` components; returns its accessor index.
    fn floats<const N: usize>(&mut self, data: &[[f32; N]], with_bounds: bool) -> usize {
        let offset = self.bytes.len();
        let mut lo = [f32::INFINITY; N];
        let mut hi = [f32::NEG_INFINITY; N];
        for v in data {
            for a in 0..N {
                self.bytes.extend_from_slice(&v[a].to_le_bytes());
                lo[a] = lo[a].min(v[a]);
                hi[a] = hi[a].max(v[a]);
            }
        }
        self.views.push(json!({"buffer": 0, "byteOffset": offset,
            "byteLength": data.len() * 4 * N, "target": ARRAY_BUFFER}));
        let kind = ["SCALAR", "VEC2", "VEC3", "VEC4"][N - 1];
        let mut acc = json!({"bufferView": self.views.len() - 1, "componentType": FLOAT,
            "count": data.len(), "type": kind});
        if with_bounds {
            acc["min"] = json!(lo.to_vec());
            acc["max"] = json!(hi.to_vec());
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

    /// Append raw bytes (an image), 4-byte aligned; returns its buffer view index.
    fn blob(&mut self, data: &[u8]) -> usize {
        while !self.bytes.len().is_multiple_of(4) {
            self.bytes.push(0);
        }
        let offset = self.bytes.len();
        self.bytes.extend_from_slice(data);
        self.views
            .push(json!({"buffer": 0, "byteOffset": offset, "byteLength": data.len()}));
        self.views.len() - 1
    }
}

/// The material of each triangle: the one most of its corners take (ties: the first corner's).
fn triangle_material(w: &Welded, tri: &[u32]) -> u8 {
    majority_material(tri.iter().map(|&v| w.material[v as usize]))
}

/// The material most of a triangle's three corner materials name (ties: the first corner's), flag
/// bits dropped.
pub(crate) fn majority_material(corners: impl Iterator<Item = u8>) -> u8 {
    let mut m = [0u8; 3];
    for (slot, c) in m.iter_mut().zip(corners) {
        *slot = c & 0x3f;
    }
    if m[1] == m[2] {
        m[1]
    } else {
        m[0]
    }
}

/// Planar texture coordinates: each vertex projected along its normal's largest axis.
fn planar_uvs(w: &Welded) -> Vec<[f32; 2]> {
    w.positions
        .iter()
        .zip(&w.normals)
        .map(|(p, n)| planar_uv(*p, *n))
        .collect()
}

/// The planar texture coordinate of a vertex at `p` with normal `n`: `p` projected along the normal's
/// largest axis, one repeat per [`TEXTURE_TILE_VOXELS`].
pub(crate) fn planar_uv(p: [f32; 3], n: [f32; 3]) -> [f32; 2] {
    let a = n.map(f32::abs);
    let (u, v) = if a[1] >= a[0] && a[1] >= a[2] {
        (p[0], p[2])
    } else if a[0] >= a[2] {
        (p[2], -p[1])
    } else {
        (p[0], -p[1])
    };
    [u / TEXTURE_TILE_VOXELS, v / TEXTURE_TILE_VOXELS]
}

/// The glTF material of project material `m` (`texture`: its glTF texture index, if any).
pub(crate) fn material_json(
    m: &Material,
    liquid_alpha: f32,
    texture: Option<usize>,
) -> (Value, bool) {
    let (r, g, b) = m.color;
    let alpha = if m.liquid { liquid_alpha } else { 1.0 };
    let roughness = m.look.map_or(0.9, |l| l.roughness);
    let mut pbr = json!({
        "baseColorFactor": [srgb_to_linear(r), srgb_to_linear(g), srgb_to_linear(b), alpha],
        "metallicFactor": 0.0,
        "roughnessFactor": roughness,
    });
    if let Some(t) = texture {
        pbr["baseColorTexture"] = json!({"index": t, "texCoord": 0});
    }
    let mut out = json!({"name": m.name, "pbrMetallicRoughness": pbr});
    if m.liquid {
        out["alphaMode"] = json!("BLEND");
    }
    let mut strong = false;
    if let Some(e) = m.emission.filter(|e| !e.is_dark()) {
        let (r, g, b) = e.color;
        let c = [srgb_to_linear(r), srgb_to_linear(g), srgb_to_linear(b)];
        if e.strength > 1.0 {
            out["emissiveFactor"] = json!(c);
            out["extensions"] =
                json!({"KHR_materials_emissive_strength": {"emissiveStrength": e.strength}});
            strong = true;
        } else {
            out["emissiveFactor"] = json!(c.map(|v| v * e.strength));
        }
    }
    (out, strong)
}

/// The whole `.glb` file for a welded mesh; `textures` holds the images of textured materials (none
/// are written without it).
pub(crate) fn glb_bytes(
    w: &Welded,
    table: &MaterialTable,
    textures: Option<&Textures>,
) -> Result<Vec<u8>> {
    let mut bin = Bin::default();
    // Triangles by material id; liquids and solids kept apart (a water surface over sand).
    let mut groups: BTreeMap<(bool, u8), Vec<u32>> = BTreeMap::new();
    for (water, list) in [(false, &w.solid), (true, &w.water)] {
        for tri in list.chunks_exact(3) {
            groups
                .entry((water, triangle_material(w, tri)))
                .or_default()
                .extend_from_slice(tri);
        }
    }
    let mut doc = json!({
        "asset": {"version": "2.0", "generator": "Strata"},
        "scene": 0,
        "scenes": [{"nodes": []}],
    });
    if groups.is_empty() {
        return finish(doc, bin);
    }
    let pos = bin.floats(&w.positions, true);
    let nrm = bin.floats(&w.normals, false);
    let col = bin.floats(&w.light, false);
    let mut attributes = json!({"POSITION": pos, "NORMAL": nrm, "COLOR_0": col});
    let image_of = |id: u8| {
        let m = table.get(id)?;
        let t = m.texture?;
        textures?.png(&t)
    };
    if groups.keys().any(|&(_, id)| image_of(id).is_some()) {
        attributes["TEXCOORD_0"] = json!(bin.floats(&planar_uvs(w), false));
    }
    let (mut primitives, mut materials, mut images, mut gl_textures) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut strong = false;
    for (&(water, id), list) in &groups {
        let fallback = Material::new(format!("material {id}"), (128, 128, 128));
        let m = table.get(id).unwrap_or(&fallback);
        let texture = image_of(id).map(|png| {
            images.push(json!({"bufferView": bin.blob(png), "mimeType": "image/png"}));
            gl_textures.push(json!({"sampler": 0, "source": images.len() - 1}));
            gl_textures.len() - 1
        });
        let (mut mat, s) = material_json(m, 0.6, texture);
        if water && !m.liquid {
            // Water over this material (a liquid id the table lacks): drawn as water.
            mat["alphaMode"] = json!("BLEND");
        }
        strong |= s;
        materials.push(mat);
        let idx = bin.indices(list);
        primitives.push(json!({"attributes": attributes, "indices": idx,
            "material": materials.len() - 1, "mode": 4}));
    }
    doc["scenes"] = json!([{"nodes": [0]}]);
    let mut node = json!({"name": "terrain", "mesh": 0});
    let o = w.origin;
    if (o.x, o.y, o.z) != (0, 0, 0) {
        node["translation"] = json!([f64::from(o.x), f64::from(o.y), f64::from(o.z)]);
    }
    doc["nodes"] = json!([node]);
    doc["meshes"] = json!([{"name": "terrain", "primitives": primitives}]);
    doc["materials"] = Value::Array(materials);
    if !images.is_empty() {
        doc["images"] = Value::Array(images);
        doc["textures"] = Value::Array(gl_textures);
        doc["samplers"] = json!([{"magFilter": 9729, "minFilter": 9987, "wrapS": 10497,
            "wrapT": 10497}]);
    }
    if strong {
        doc["extensionsUsed"] = json!(["KHR_materials_emissive_strength"]);
    }
    finish(doc, bin)
}

/// Lay out the JSON and binary chunks.
fn finish(mut doc: Value, bin: Bin) -> Result<Vec<u8>> {
    let mut bin_bytes = bin.bytes;
    if !bin_bytes.is_empty() {
        doc["buffers"] = json!([{"byteLength": bin_bytes.len()}]);
        doc["bufferViews"] = Value::Array(bin.views);
        doc["accessors"] = Value::Array(bin.accessors);
    }
    let json_bytes =
        serde_json::to_vec(&doc).map_err(|e| Error::Invalid(format!("glTF JSON: {e}")))?;
    while !bin_bytes.len().is_multiple_of(4) {
        bin_bytes.push(0);
    }
    glb_container(json_bytes, &bin_bytes, "mesh")
}

/// The `.glb` layout around `json_bytes` and `bin` (already a multiple of 4 bytes long): header,
/// JSON chunk (space-padded), BIN chunk when not empty. `what` names the content in the error.
///
/// # Errors
/// [`Error::Invalid`] when the file would be over 4 GiB.
pub(crate) fn glb_container(mut json_bytes: Vec<u8>, bin: &[u8], what: &str) -> Result<Vec<u8>> {
    while !json_bytes.len().is_multiple_of(4) {
        json_bytes.push(b' ');
    }
    let total = 12 + 8 + json_bytes.len() + if bin.is_empty() { 0 } else { 8 + bin.len() };
    let total = u32::try_from(total)
        .map_err(|_| Error::Invalid(format!("the {what} is too large for a .glb file (4 GiB)")))?;
    let mut out = Vec::with_capacity(total as usize);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&total.to_le_bytes());
    out.extend_from_slice(&(json_bytes.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&json_bytes);
    if !bin.is_empty() {
        out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(bin);
    }
    Ok(out)
}
