//! The glTF document of a scene: nodes, meshes, materials and vertex attributes of every tile.
//!
//! ```text
//!   scene.nodes = [tile_0_0, tile_1_0, ...]          sorted by Z, then X
//!   tile_X_Z       translation (X·N, 0, Z·N), extras {tile: [X, Z], tile_voxels: N}
//!     tile_X_Z_LODl  mesh "tile_X_Z_LODl", extras {triangles}; LOD0 also MSFT_lod {ids} and
//!                    extras.MSFT_screencoverage; with meshopt: translation + scale 1/q (quantized)
//!     tile_X_Z-col   mesh "tile_X_Z-col": POSITION + indices, no material
//!   primitive per (surface, material): POSITION NORMAL [COLOR_0] [TEXCOORD_0] _WEIGHTS0 _MATERIALS0
//! ```

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::scene_bin::{Layout, SceneBin, BYTE, FLOAT, UNSIGNED_BYTE, UNSIGNED_SHORT};
use super::scene_level::TileLevel;
use super::scene_options::{SceneCompression, SceneContainer, SceneOptions, SceneStats};
use super::scene_tiles::Tile;
use crate::mesh::gltf::{majority_material, material_json, planar_uv};
use crate::voxel::{Material, MaterialTable};
use crate::Result;

/// Screen coverage below which each level gives way to the next (MSFT_lod's hint), level 0 first.
const SCREEN_COVERAGE: [f64; 8] = [0.5, 0.25, 0.125, 0.0625, 0.03, 0.015, 0.008, 0.004];

/// The materials of a scene: one glTF material per (liquid surface, material id) that any tile uses.
struct Materials {
    index: BTreeMap<(bool, u8), usize>,
    textured: BTreeMap<(bool, u8), bool>,
}

/// Positions on one lattice of `1 / steps_per_voxel` voxel for the whole scene (meshopt only).
#[derive(Debug, Clone, Copy)]
struct Quantize {
    steps_per_voxel: f64,
}

/// Everything the per-level writer needs besides the level itself.
struct Ctx<'a> {
    options: &'a SceneOptions<'a>,
    materials: &'a Materials,
    quantize: Option<Quantize>,
}

/// The `.glb` or `.gltf` bytes of `tiles`, and what they hold.
///
/// # Errors
/// [`crate::Error::Invalid`] when the encoder fails or a `.glb` would pass 4 GiB.
pub(super) fn write_scene(
    tiles: &[Tile],
    table: &MaterialTable,
    options: &SceneOptions<'_>,
) -> Result<(Vec<u8>, SceneStats)> {
    let compress = options.compression == SceneCompression::Meshopt;
    let mut bin = SceneBin::new(compress);
    let (materials, materials_json, strong) = collect_materials(tiles, table, options, &mut bin);
    let ctx = Ctx {
        options,
        materials: &materials,
        quantize: compress.then(|| lattice(tiles)),
    };
    let mut nodes: Vec<Value> = Vec::new();
    let mut meshes: Vec<Value> = Vec::new();
    let mut roots = Vec::new();
    let mut stats = SceneStats {
        lod_triangles: vec![0; options.lods as usize],
        ..SceneStats::default()
    };
    for tile in tiles {
        let name = format!("tile_{}_{}", tile.x, tile.z);
        let mut children = Vec::new();
        let mut lod_nodes = Vec::new();
        for (l, level) in tile.levels.iter().enumerate() {
            if level.triangles() == 0 {
                continue;
            }
            stats.lod_triangles[l] += level.triangles();
            let node_name = format!("{name}_LOD{l}");
            let mesh = level_mesh(&ctx, level, &node_name, &mut bin)?;
            meshes.push(mesh);
            let mut node = json!({"name": node_name, "mesh": meshes.len() - 1,
                "extras": {"triangles": level.triangles(), "lod": l}});
            place(&mut node, level, ctx.quantize);
            nodes.push(node);
            lod_nodes.push((l, nodes.len() - 1));
            children.push(nodes.len() - 1);
        }
        if let Some((_, first)) = lod_nodes.first().copied() {
            if lod_nodes.len() > 1 {
                let ids: Vec<usize> = lod_nodes[1..].iter().map(|&(_, n)| n).collect();
                let coverage: Vec<f64> = lod_nodes
                    .iter()
                    .map(|&(l, _)| SCREEN_COVERAGE[l.min(7)])
                    .collect();
                nodes[first]["extensions"] = json!({"MSFT_lod": {"ids": ids}});
                nodes[first]["extras"]["MSFT_screencoverage"] = json!(coverage);
            }
        }
        if let Some(col) = tile.collision.as_ref().filter(|c| c.triangles() > 0) {
            stats.collision_triangles += col.triangles();
            let col_name = format!("{name}-col");
            meshes.push(collision_mesh(&ctx, col, &col_name, &mut bin)?);
            let mut node = json!({"name": col_name, "mesh": meshes.len() - 1,
                "extras": {"triangles": col.triangles()}});
            place(&mut node, col, ctx.quantize);
            nodes.push(node);
            children.push(nodes.len() - 1);
        }
        if children.is_empty() {
            continue;
        }
        stats.tiles += 1;
        nodes.push(json!({"name": name, "children": children,
            "translation": tile.corner.map(f64::from),
            "extras": {"tile": [tile.x, tile.z], "tile_voxels": options.tile_voxels}}));
        roots.push(nodes.len() - 1);
    }
    let mut doc = json!({
        "asset": {"version": "2.0", "generator": "Strata scene export"},
        "scene": 0,
        "scenes": [{"name": "terrain", "nodes": roots}],
    });
    let mut used = Vec::new();
    if !nodes.is_empty() {
        doc["nodes"] = Value::Array(nodes);
        doc["meshes"] = Value::Array(meshes);
    }
    if !materials_json.0.is_empty() {
        doc["materials"] = Value::Array(materials_json.0);
    }
    if !materials_json.1.is_empty() {
        doc["images"] = Value::Array(materials_json.1);
        doc["textures"] = Value::Array(materials_json.2);
        doc["samplers"] = json!([{"magFilter": 9729, "minFilter": 9987, "wrapS": 10497,
            "wrapT": 10497}]);
    }
    if stats.lod_triangles.iter().skip(1).any(|&t| t > 0) {
        used.push("MSFT_lod");
    }
    if strong {
        used.push("KHR_materials_emissive_strength");
    }
    if compress && stats.lod_triangles[0] > 0 {
        used.extend(["EXT_meshopt_compression", "KHR_mesh_quantization"]);
        doc["extensionsRequired"] = json!(["EXT_meshopt_compression", "KHR_mesh_quantization"]);
    }
    if !used.is_empty() {
        doc["extensionsUsed"] = json!(used);
    }
    let bytes = bin.finish(doc, options.container == SceneContainer::Gltf)?;
    Ok((bytes, stats))
}

/// The glTF JSON of the materials, images and textures.
type MaterialJson = (Vec<Value>, Vec<Value>, Vec<Value>);

/// Every (surface, material) any level uses, with its glTF material (and texture image), and
/// whether one needs `KHR_materials_emissive_strength`.
fn collect_materials(
    tiles: &[Tile],
    table: &MaterialTable,
    options: &SceneOptions<'_>,
    bin: &mut SceneBin,
) -> (Materials, MaterialJson, bool) {
    let mut keys = std::collections::BTreeSet::new();
    for level in tiles.iter().flat_map(|t| &t.levels) {
        for (list, water) in [(&level.solid, false), (&level.water, true)] {
            for tri in list.chunks_exact(3) {
                keys.insert((water, triangle_material(level, tri)));
            }
        }
    }
    let mut out = Materials {
        index: BTreeMap::new(),
        textured: BTreeMap::new(),
    };
    let (mut mats, mut images, mut textures) = (Vec::new(), Vec::new(), Vec::new());
    let mut strong = false;
    for key @ (water, id) in keys {
        let fallback = Material::new(format!("material {id}"), (128, 128, 128));
        let m = table.get(id).unwrap_or(&fallback);
        let png = m
            .texture
            .as_ref()
            .and_then(|t| options.textures.and_then(|x| x.png(t)));
        let texture = png.map(|png| {
            images.push(json!({"bufferView": bin.blob(png), "mimeType": "image/png"}));
            textures.push(json!({"sampler": 0, "source": images.len() - 1}));
            textures.len() - 1
        });
        let (mut mat, s) = material_json(m, 0.6, texture);
        if water && !m.liquid {
            mat["alphaMode"] = json!("BLEND");
        }
        strong |= s;
        mats.push(mat);
        out.index.insert(key, mats.len() - 1);
        out.textured.insert(key, texture.is_some());
    }
    (out, (mats, images, textures), strong)
}

fn triangle_material(level: &TileLevel, tri: &[u32]) -> u8 {
    majority_material(tri.iter().map(|&v| level.slots[v as usize][0]))
}

/// The one lattice step for every quantized position: the finest power of two that keeps every
/// mesh's extent within 16 bits.
fn lattice(tiles: &[Tile]) -> Quantize {
    let mut widest = 1.0f64;
    let meshes = tiles
        .iter()
        .flat_map(|t| t.levels.iter().chain(t.collision.as_ref()));
    for level in meshes {
        let (lo, hi) = extent(level);
        for a in 0..3 {
            widest = widest.max(f64::from(hi[a]).ceil() - f64::from(lo[a]).floor() + 1.0);
        }
    }
    let mut steps = 1.0f64;
    while widest * steps * 2.0 <= f64::from(u16::MAX) {
        steps *= 2.0;
    }
    while widest * steps > f64::from(u16::MAX) {
        steps /= 2.0;
    }
    Quantize {
        steps_per_voxel: steps,
    }
}

fn extent(level: &TileLevel) -> ([f32; 3], [f32; 3]) {
    let mut lo = [f32::INFINITY; 3];
    let mut hi = [f32::NEG_INFINITY; 3];
    for p in &level.positions {
        for a in 0..3 {
            lo[a] = lo[a].min(p[a]);
            hi[a] = hi[a].max(p[a]);
        }
    }
    (lo, hi)
}

/// The lattice corner of a quantized mesh: its lowest point rounded down to the lattice.
fn lattice_corner(level: &TileLevel, q: Quantize) -> [f64; 3] {
    let (lo, _) = extent(level);
    lo.map(|v| (f64::from(v) * q.steps_per_voxel).floor() / q.steps_per_voxel)
}

/// Give a quantized mesh's node the translation and scale that undo its quantization.
fn place(node: &mut Value, level: &TileLevel, quantize: Option<Quantize>) {
    if let Some(q) = quantize {
        node["translation"] = json!(lattice_corner(level, q));
        node["scale"] = json!(vec![1.0 / q.steps_per_voxel; 3]);
    }
}

/// The POSITION accessor of `level`: `f32`, or `u16` on the lattice.
fn positions(ctx: &Ctx<'_>, level: &TileLevel, bin: &mut SceneBin) -> Result<usize> {
    let Some(q) = ctx.quantize else {
        let (lo, hi) = extent(level);
        let raw = pack(&level.positions, 12, |p, out| {
            for a in 0..3 {
                out[4 * a..4 * a + 4].copy_from_slice(&p[a].to_le_bytes());
            }
        });
        let layout = Layout {
            component: FLOAT,
            components: 3,
            normalized: false,
        };
        let bounds = (lo.map(f64::from).to_vec(), hi.map(f64::from).to_vec());
        return bin.attribute(&raw, 12, layout, Some(bounds));
    };
    let corner = lattice_corner(level, q);
    let mut lo = [u16::MAX; 3];
    let mut hi = [0u16; 3];
    let raw = pack(&level.positions, 8, |p, out| {
        for a in 0..3 {
            let v = ((f64::from(p[a]) - corner[a]) * q.steps_per_voxel).round();
            let v = v.clamp(0.0, f64::from(u16::MAX)) as u16;
            lo[a] = lo[a].min(v);
            hi[a] = hi[a].max(v);
            out[2 * a..2 * a + 2].copy_from_slice(&v.to_le_bytes());
        }
    });
    let layout = Layout {
        component: UNSIGNED_SHORT,
        components: 3,
        normalized: false,
    };
    let bounds = (lo.map(f64::from).to_vec(), hi.map(f64::from).to_vec());
    bin.attribute(&raw, 8, layout, Some(bounds))
}

/// `items` packed `stride` bytes each by `write`.
fn pack<T>(items: &[T], stride: usize, mut write: impl FnMut(&T, &mut [u8])) -> Vec<u8> {
    let mut raw = vec![0u8; items.len() * stride];
    for (item, out) in items.iter().zip(raw.chunks_exact_mut(stride)) {
        write(item, out);
    }
    raw
}

/// The vertex attributes of one level, shared by its primitives.
fn level_attributes(
    ctx: &Ctx<'_>,
    level: &TileLevel,
    textured: bool,
    bin: &mut SceneBin,
) -> Result<Value> {
    let compress = ctx.quantize.is_some();
    let mut attributes = json!({"POSITION": positions(ctx, level, bin)?});
    attributes["NORMAL"] = json!(if compress {
        let raw = pack(&level.normals, 4, |n, out| {
            for a in 0..3 {
                out[a] = ((n[a].clamp(-1.0, 1.0) * 127.0).round() as i8) as u8;
            }
        });
        let layout = Layout {
            component: BYTE,
            components: 3,
            normalized: true,
        };
        bin.attribute(&raw, 4, layout, None)?
    } else {
        let raw = pack(&level.normals, 12, |n, out| {
            for a in 0..3 {
                out[4 * a..4 * a + 4].copy_from_slice(&n[a].to_le_bytes());
            }
        });
        let layout = Layout {
            component: FLOAT,
            components: 3,
            normalized: false,
        };
        bin.attribute(&raw, 12, layout, None)?
    });
    if ctx.options.light.is_some() {
        attributes["COLOR_0"] = json!(if compress {
            let raw = pack(&level.light, 8, |c, out| {
                for a in 0..3 {
                    let v = (c[a].clamp(0.0, 1.0) * 65535.0).round() as u16;
                    out[2 * a..2 * a + 2].copy_from_slice(&v.to_le_bytes());
                }
            });
            let layout = Layout {
                component: UNSIGNED_SHORT,
                components: 3,
                normalized: true,
            };
            bin.attribute(&raw, 8, layout, None)?
        } else {
            let raw = pack(&level.light, 12, |c, out| {
                for a in 0..3 {
                    out[4 * a..4 * a + 4].copy_from_slice(&c[a].clamp(0.0, 1.0).to_le_bytes());
                }
            });
            let layout = Layout {
                component: FLOAT,
                components: 3,
                normalized: false,
            };
            bin.attribute(&raw, 12, layout, None)?
        });
    }
    if textured {
        let uvs: Vec<[f32; 2]> = level
            .positions
            .iter()
            .zip(&level.normals)
            .map(|(p, n)| planar_uv(*p, *n))
            .collect();
        let raw = pack(&uvs, 8, |t, out| {
            out[..4].copy_from_slice(&t[0].to_le_bytes());
            out[4..].copy_from_slice(&t[1].to_le_bytes());
        });
        let layout = Layout {
            component: FLOAT,
            components: 2,
            normalized: false,
        };
        attributes["TEXCOORD_0"] = json!(bin.attribute(&raw, 8, layout, None)?);
    }
    let bytes4 = |normalized| Layout {
        component: UNSIGNED_BYTE,
        components: 4,
        normalized,
    };
    let raw = pack(&level.weights, 4, |w, out| out.copy_from_slice(w));
    attributes["_WEIGHTS0"] = json!(bin.attribute(&raw, 4, bytes4(true), None)?);
    let raw = pack(&level.slots, 4, |m, out| out.copy_from_slice(m));
    attributes["_MATERIALS0"] = json!(bin.attribute(&raw, 4, bytes4(false), None)?);
    Ok(attributes)
}

/// The mesh of one level: a primitive per (surface, material).
fn level_mesh(ctx: &Ctx<'_>, level: &TileLevel, name: &str, bin: &mut SceneBin) -> Result<Value> {
    let mut groups: BTreeMap<(bool, u8), Vec<u32>> = BTreeMap::new();
    for (list, water) in [(&level.solid, false), (&level.water, true)] {
        for tri in list.chunks_exact(3) {
            groups
                .entry((water, triangle_material(level, tri)))
                .or_default()
                .extend_from_slice(tri);
        }
    }
    let textured = groups
        .keys()
        .any(|k| ctx.materials.textured.get(k).copied().unwrap_or(false));
    let attributes = level_attributes(ctx, level, textured, bin)?;
    let mut primitives = Vec::new();
    for (key, list) in &groups {
        let indices = bin.indices(list, level.positions.len())?;
        let mut p = json!({"attributes": attributes, "indices": indices, "mode": 4});
        if let Some(&m) = ctx.materials.index.get(key) {
            p["material"] = json!(m);
        }
        primitives.push(p);
    }
    Ok(json!({"name": name, "primitives": primitives}))
}

/// The mesh of a collision level: positions and one triangle list, no material.
fn collision_mesh(
    ctx: &Ctx<'_>,
    level: &TileLevel,
    name: &str,
    bin: &mut SceneBin,
) -> Result<Value> {
    let position = positions(ctx, level, bin)?;
    let indices = bin.indices(&level.solid, level.positions.len())?;
    Ok(
        json!({"name": name, "primitives": [{"attributes": {"POSITION": position},
        "indices": indices, "mode": 4}]}),
    )
}
