//! Scene export tests: crack-free tile borders at every level, node names, material slots, blend
//! weights, collision budget and distance, light, compression and option checks.

use std::collections::BTreeMap;

use serde_json::Value;

use super::scene_tiles::{cut_tiles, LevelChunks, Tile, TileLevel};
use super::*;
use crate::gen::{generate, GeneratorSettings, Preset};
use crate::voxel::{VoxelBox, VoxelPos};
use crate::Error;

pub(super) fn world(size: [u32; 3]) -> Grid {
    let settings = GeneratorSettings {
        preset: Preset::Canyons,
        size,
        seed: 1,
    };
    generate(&settings, &MaterialTable::builtin(), &Progress::new()).expect("generates")
}

pub(super) fn bounds(size: [u32; 3]) -> VoxelBox {
    VoxelBox::from_min_size(VoxelPos::new(0, 0, 0), size)
}

/// The tiles of a scene, before they are written.
pub(super) fn tiles_of(grid: &Grid, options: &SceneOptions<'_>) -> Vec<Tile> {
    let table = MaterialTable::builtin();
    let levels: Vec<_> = scene_tiles::meshed_lods(options.lods)
        .into_iter()
        .map(|lod| {
            let chunks = chunks_to_mesh(grid, lod, options.region);
            let (origin, meshes) =
                mesh_chunk_buffers(grid, &table, lod, options.region, &chunks, &Progress::new())
                    .expect("meshes");
            LevelChunks {
                lod,
                origin,
                positions: chunks,
                chunks: meshes,
            }
        })
        .collect();
    cut_tiles(&levels, &table, options, 1, &Progress::new()).expect("cuts")
}

/// World position bits of every corner of every solid triangle of level `l` over all tiles.
fn world_triangles(tiles: &[Tile], l: usize) -> Vec<[[u32; 3]; 3]> {
    let mut out = Vec::new();
    for t in tiles {
        let level = &t.levels[l];
        for tri in level.solid.chunks_exact(3) {
            out.push([0, 1, 2].map(|k| {
                let p = level.positions[tri[k] as usize];
                [0, 1, 2].map(|a| (p[a] + t.corner[a] as f32).to_bits())
            }));
        }
    }
    out
}

/// How many triangles use each undirected edge.
fn edge_counts(tris: &[[[u32; 3]; 3]]) -> BTreeMap<([u32; 3], [u32; 3]), u32> {
    let mut edges: BTreeMap<([u32; 3], [u32; 3]), u32> = BTreeMap::new();
    for t in tris {
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            *edges.entry((a.min(b), a.max(b))).or_default() += 1;
        }
    }
    edges
}

/// Every undirected edge is used by exactly two triangles.
fn assert_closed(tris: &[[[u32; 3]; 3]], what: &str) {
    let edges = edge_counts(tris);
    let open = edges.values().filter(|&&c| c != 2).count();
    assert_eq!(open, 0, "{what}: {open} edges not shared by two triangles");
}

#[test]
fn tile_borders_meet_without_cracks_at_every_level() {
    let size = [96, 64, 96];
    let grid = world(size);
    let mut options = SceneOptions::new(bounds(size));
    options.tile_voxels = 40;
    options.lods = 5;
    let tiles = tiles_of(&grid, &options);
    assert!(tiles.len() >= 9, "{} tiles", tiles.len());
    for l in 0..5 {
        let tris = world_triangles(&tiles, l);
        assert!(tris.len() > 100, "level {l}: {} triangles", tris.len());
        assert_closed(&tris, &format!("level {l}"));
        // Shared border vertices: every vertex of tile (1, 1) on an open edge of its own mesh
        // appears, at the same world position, in a neighbouring tile.
        let own: Vec<_> = world_triangles(
            &tiles
                .iter()
                .filter(|t| (t.x, t.z) == (1, 1))
                .cloned()
                .collect::<Vec<_>>(),
            l,
        );
        let others: std::collections::BTreeSet<[u32; 3]> = world_triangles(
            &tiles
                .iter()
                .filter(|t| (t.x, t.z) != (1, 1))
                .cloned()
                .collect::<Vec<_>>(),
            l,
        )
        .into_iter()
        .flatten()
        .collect();
        let edges = edge_counts(&own);
        let border: Vec<_> = edges.iter().filter(|(_, &c)| c == 1).collect();
        assert!(
            border.len() > 10,
            "level {l}: tile (1, 1) has {} border edges",
            border.len()
        );
        for ((a, b), _) in border {
            assert!(
                others.contains(a) && others.contains(b),
                "level {l}: unmatched border vertex"
            );
        }
    }
    let counts: Vec<usize> = (0..5).map(|l| world_triangles(&tiles, l).len()).collect();
    assert!(
        counts.windows(2).all(|w| w[1] < w[0]),
        "levels coarsen: {counts:?}"
    );
}

/// The JSON and binary chunks of a `.glb`.
pub(super) fn split_glb(bytes: &[u8]) -> (Value, Vec<u8>) {
    assert_eq!(&bytes[..4], b"glTF");
    let len = |at: usize| {
        u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]) as usize
    };
    let json_len = len(12);
    let doc: Value = serde_json::from_slice(&bytes[20..20 + json_len]).expect("json");
    let bin_at = 20 + json_len;
    let bin = if bytes.len() > bin_at {
        bytes[bin_at + 8..bin_at + 8 + len(bin_at)].to_vec()
    } else {
        Vec::new()
    };
    (doc, bin)
}

/// The raw elements of accessor `a` of a plain (uncompressed) scene.
pub(super) fn accessor_bytes(doc: &Value, bin: &[u8], a: u64) -> Vec<Vec<u8>> {
    let acc = &doc["accessors"][a as usize];
    let view = &doc["bufferViews"][acc["bufferView"].as_u64().expect("view") as usize];
    let offset = view["byteOffset"].as_u64().unwrap_or(0) as usize;
    let count = acc["count"].as_u64().expect("count") as usize;
    let size = match acc["componentType"].as_u64() {
        Some(5126 | 5125) => 4,
        Some(5123) => 2,
        _ => 1,
    } * match acc["type"].as_str() {
        Some("VEC2") => 2,
        Some("VEC3") => 3,
        Some("VEC4") => 4,
        _ => 1,
    };
    let stride = view["byteStride"].as_u64().map_or(size, |s| s as usize);
    (0..count)
        .map(|i| bin[offset + i * stride..offset + i * stride + size].to_vec())
        .collect()
}

fn scene(grid: &Grid, options: &SceneOptions<'_>) -> (Value, Vec<u8>, SceneStats) {
    let (bytes, stats) =
        scene_bytes(grid, &MaterialTable::builtin(), options, &Progress::new()).expect("exports");
    let (doc, bin) = split_glb(&bytes);
    (doc, bin, stats)
}

pub(super) fn node<'a>(doc: &'a Value, name: &str) -> Option<&'a Value> {
    doc["nodes"].as_array()?.iter().find(|n| n["name"] == name)
}

#[test]
fn nodes_are_named_by_tile_level_and_collision() {
    let size = [96, 64, 96];
    let grid = world(size);
    let mut options = SceneOptions::new(bounds(size));
    options.tile_voxels = 64;
    let (doc, _, stats) = scene(&grid, &options);
    assert_eq!(stats.tiles, 4);
    let roots = doc["scenes"][0]["nodes"].as_array().expect("roots");
    assert_eq!(roots.len(), 4);
    for (x, z) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
        let tile = node(&doc, &format!("tile_{x}_{z}")).expect("tile node");
        assert_eq!(
            tile["translation"],
            serde_json::json!([f64::from(x * 64), 0.0, f64::from(z * 64)])
        );
        let children: Vec<&str> = tile["children"]
            .as_array()
            .expect("children")
            .iter()
            .map(|c| {
                doc["nodes"][c.as_u64().expect("index") as usize]["name"]
                    .as_str()
                    .expect("name")
            })
            .collect();
        let want: Vec<String> = ["_LOD0", "_LOD1", "_LOD2", "-col"]
            .iter()
            .map(|s| format!("tile_{x}_{z}{s}"))
            .collect();
        assert_eq!(children, want);
        let lod0 = node(&doc, &want[0]).expect("lod0");
        let ids: Vec<u64> = lod0["extensions"]["MSFT_lod"]["ids"]
            .as_array()
            .expect("MSFT_lod")
            .iter()
            .filter_map(Value::as_u64)
            .collect();
        let names: Vec<&str> = ids
            .iter()
            .map(|&i| doc["nodes"][i as usize]["name"].as_str().expect("name"))
            .collect();
        assert_eq!(names, [want[1].as_str(), want[2].as_str()]);
        let tris: Vec<u64> = want[..3]
            .iter()
            .map(|n| {
                node(&doc, n).expect("level")["extras"]["triangles"]
                    .as_u64()
                    .expect("count")
            })
            .collect();
        assert!(tris[1] < tris[0] && tris[2] < tris[1], "{tris:?}");
        let mesh = &doc["meshes"][lod0["mesh"].as_u64().expect("mesh") as usize];
        let indices: u64 = mesh["primitives"]
            .as_array()
            .expect("primitives")
            .iter()
            .map(|p| {
                doc["accessors"][p["indices"].as_u64().expect("i") as usize]["count"]
                    .as_u64()
                    .expect("n")
            })
            .sum();
        assert_eq!(indices / 3, tris[0], "extras count the mesh's triangles");
    }
    let used = doc["extensionsUsed"].as_array().expect("used");
    assert!(used.iter().any(|e| e == "MSFT_lod"));
}

#[test]
fn one_primitive_per_material_with_weights_summing_to_one() {
    let size = [96, 64, 96];
    let grid = world(size);
    let table = MaterialTable::builtin();
    let options = SceneOptions::new(bounds(size));
    let (doc, bin, _) = scene(&grid, &options);
    let materials = doc["materials"].as_array().expect("materials");
    assert!(materials.len() >= 2, "{} materials", materials.len());
    for m in materials {
        let name = m["name"].as_str().expect("name");
        assert!(
            table.materials.iter().any(|t| t.name == name),
            "{name} is in the table"
        );
    }
    let mut checked = 0;
    for mesh in doc["meshes"].as_array().expect("meshes") {
        let prims = mesh["primitives"].as_array().expect("primitives");
        if mesh["name"].as_str().is_some_and(|n| n.ends_with("-col")) {
            assert_eq!(prims.len(), 1);
            continue;
        }
        let mats: Vec<u64> = prims
            .iter()
            .filter_map(|p| p["material"].as_u64())
            .collect();
        let mut unique = mats.clone();
        unique.dedup();
        assert_eq!(mats.len(), prims.len(), "every primitive has a material");
        assert_eq!(
            unique.len(),
            mats.len(),
            "one primitive per material in {}",
            mesh["name"]
        );
        let attrs = &prims[0]["attributes"];
        let weights = accessor_bytes(&doc, &bin, attrs["_WEIGHTS0"].as_u64().expect("weights"));
        let ids = accessor_bytes(&doc, &bin, attrs["_MATERIALS0"].as_u64().expect("ids"));
        assert_eq!(
            doc["accessors"][attrs["_WEIGHTS0"].as_u64().expect("w") as usize]["normalized"],
            true
        );
        for (w, m) in weights.iter().zip(&ids) {
            assert_eq!(
                w.iter().map(|&b| u32::from(b)).sum::<u32>(),
                255,
                "weights sum to 1"
            );
            assert!(w.windows(2).all(|p| p[0] >= p[1]), "heaviest first: {w:?}");
            assert!(m.iter().all(|&id| id < 64));
            checked += 1;
        }
        for p in prims {
            let name = materials[p["material"].as_u64().expect("m") as usize]["name"]
                .as_str()
                .expect("n");
            let list = accessor_bytes(&doc, &bin, p["indices"].as_u64().expect("i"));
            let index = |e: &Vec<u8>| {
                if e.len() == 2 {
                    usize::from(u16::from_le_bytes([e[0], e[1]]))
                } else {
                    u32::from_le_bytes([e[0], e[1], e[2], e[3]]) as usize
                }
            };
            for tri in list.chunks_exact(3) {
                let heaviest = tri
                    .iter()
                    .filter(|e| table.get(ids[index(e)][0]).is_some_and(|t| t.name == name));
                assert!(
                    heaviest.count() >= 1,
                    "a triangle of {name} has a corner whose heaviest material is {name}"
                );
            }
        }
    }
    assert!(checked > 1000);
}

/// The collision mesh of `t`, checked to hold at most a quarter of level 0's triangles.
fn collision_within_budget(t: &Tile) -> &TileLevel {
    let col = t.collision.as_ref().expect("collision");
    let lod0 = t.levels[0].triangles();
    assert!(
        col.triangles() * 4 <= lod0,
        "tile {},{}: {} of {lod0}",
        t.x,
        t.z,
        col.triangles()
    );
    col
}

/// Distance from `p` to triangle `t`.
fn point_triangle(p: [f32; 3], t: [[f32; 3]; 3]) -> f32 {
    let q = crate::physics::body::math::closest_point_on_triangle(p, t);
    crate::vec3::length(crate::vec3::sub(p, q))
}

#[test]
fn collision_keeps_a_quarter_of_the_triangles_within_a_voxel() {
    let size = [96, 64, 96];
    let grid = world(size);
    let mut options = SceneOptions::new(bounds(size));
    options.tile_voxels = 48;
    let tiles = tiles_of(&grid, &options);
    // Level-0 triangles in world units, bucketed by 2-voxel cells for the distance queries.
    let mut cells: BTreeMap<[i32; 3], Vec<[[f32; 3]; 3]>> = BTreeMap::new();
    for t in &tiles {
        let l = &t.levels[0];
        for tri in l.solid.chunks_exact(3) {
            let w = [0, 1, 2].map(|k| {
                let p = l.positions[tri[k] as usize];
                [0, 1, 2].map(|a| p[a] + t.corner[a] as f32)
            });
            let c = [0, 1, 2].map(|a| ((w[0][a] + w[1][a] + w[2][a]) / 6.0).floor() as i32);
            cells.entry(c).or_default().push(w);
        }
    }
    let mut worst = 0.0f32;
    let mut samples = 0;
    for t in &tiles {
        let col = collision_within_budget(t);
        assert!(col.triangles() > 0);
        let first = &t.levels[1];
        assert_eq!(
            col.positions,
            first.compacted(&first.solid, &[]).positions,
            "tile {},{}: collision is level 1's solid",
            t.x,
            t.z
        );
        for tri in col.solid.chunks_exact(3) {
            let w = [0, 1, 2].map(|k| {
                let p = col.positions[tri[k] as usize];
                [0, 1, 2].map(|a| p[a] + t.corner[a] as f32)
            });
            let centre = [0, 1, 2].map(|a| (w[0][a] + w[1][a] + w[2][a]) / 3.0);
            let mids = [0, 1, 2].map(|k| [0, 1, 2].map(|a| (w[k][a] + w[(k + 1) % 3][a]) / 2.0));
            for p in w.into_iter().chain([centre]).chain(mids) {
                let c = p.map(|v| (v / 2.0).floor() as i32);
                let mut best = f32::INFINITY;
                for dz in -2..=2 {
                    for dy in -2..=2 {
                        for dx in -2..=2 {
                            for t0 in cells
                                .get(&[c[0] + dx, c[1] + dy, c[2] + dz])
                                .into_iter()
                                .flatten()
                            {
                                best = best.min(point_triangle(p, *t0));
                            }
                        }
                    }
                }
                worst = worst.max(best);
                samples += 1;
            }
        }
    }
    assert!(samples > 1000);
    assert!(worst <= 1.0, "collision strays {worst} voxels from level 0");
}

#[test]
fn tiny_tiles_keep_the_collision_budget_and_closed_levels() {
    let size = [24, 32, 24];
    let grid = world(size);
    let mut options = SceneOptions::new(bounds(size));
    options.tile_voxels = 3;
    let tiles = tiles_of(&grid, &options);
    assert!(tiles.len() >= 49, "{} tiles", tiles.len());
    for t in &tiles {
        collision_within_budget(t);
    }
    // Each tile simplifies alone, so where a thin feature crosses a tile corner two tiles can fold
    // their parts onto the same locked border vertices: back-to-back triangles, four to an edge.
    // Watertight still: no edge has an odd count (an open crack).
    for l in 0..3 {
        let odd = edge_counts(&world_triangles(&tiles, l))
            .values()
            .filter(|&&c| c % 2 == 1)
            .count();
        assert_eq!(
            odd, 0,
            "level {l}: {odd} edges with an odd count of triangles"
        );
    }
}

#[test]
fn light_none_leaves_color_out_and_bake_writes_it() {
    let size = [64, 48, 64];
    let grid = world(size);
    let table = MaterialTable::builtin();
    let mut options = SceneOptions::new(bounds(size));
    let (doc, _, _) = scene(&grid, &options);
    let attrs = &doc["meshes"][0]["primitives"][0]["attributes"];
    assert!(attrs.get("COLOR_0").is_none());
    let volume = crate::light::SolidVolume::from_grid(&grid, &table).expect("volume");
    let settings = crate::light::LightSettings::default();
    let (light, _) = crate::light::bake(&volume, &settings, &Progress::new()).expect("bakes");
    options.light = Some(&light);
    let (doc, bin, _) = scene(&grid, &options);
    let attrs = &doc["meshes"][0]["primitives"][0]["attributes"];
    let colors = accessor_bytes(&doc, &bin, attrs["COLOR_0"].as_u64().expect("COLOR_0"));
    assert!(
        colors.iter().any(|c| c != &1.0f32.to_le_bytes().repeat(3)),
        "light is not all white"
    );
}

#[test]
fn bad_options_are_refused_before_work() {
    let size = [64, 32, 64];
    let world_box = bounds(size);
    type Change = fn(&mut SceneOptions<'_>);
    let cases: [(&str, Change); 5] = [
        ("tile size 0", |o| o.tile_voxels = 0),
        ("tile wider than the world", |o| o.tile_voxels = 65),
        ("0 levels", |o| o.lods = 0),
        ("9 levels", |o| o.lods = 9),
        ("box outside", |o| {
            o.region = Some(VoxelBox::new(
                VoxelPos::new(100, 0, 100),
                VoxelPos::new(120, 10, 120),
            ));
        }),
    ];
    for (what, change) in cases {
        let mut o = SceneOptions::new(world_box);
        change(&mut o);
        let err = o.check().expect_err(what);
        assert!(matches!(err, Error::Invalid(_)), "{what}: {err}");
    }
    let mut o = SceneOptions::new(world_box);
    o.lods = 8;
    o.tile_voxels = 64;
    assert!(o.check().is_ok());
}

#[test]
fn cancelled_export_stops() {
    let size = [64, 32, 64];
    let grid = world(size);
    let p = Progress::new();
    p.cancel();
    let err = scene_bytes(
        &grid,
        &MaterialTable::builtin(),
        &SceneOptions::new(bounds(size)),
        &p,
    );
    assert!(matches!(err, Err(Error::Cancelled)));
}
