//! Scene export tests of `--compress meshopt`: the file is smaller, its streams decode, and the
//! decoded positions are the plain file's on the quantization lattice.

use super::scene_tests::{accessor_bytes, bounds, node, split_glb, world};
use super::*;

#[test]
fn meshopt_scene_is_smaller_and_decodes() {
    let size = [96, 64, 96];
    let grid = world(size);
    let mut options = SceneOptions::new(bounds(size));
    let (plain, _) =
        scene_bytes(&grid, &MaterialTable::builtin(), &options, &Progress::new()).expect("plain");
    options.compression = SceneCompression::Meshopt;
    let (packed, _) =
        scene_bytes(&grid, &MaterialTable::builtin(), &options, &Progress::new()).expect("packed");
    assert!(
        packed.len() * 2 < plain.len(),
        "{} vs {}",
        packed.len(),
        plain.len()
    );
    let (doc, bin) = split_glb(&packed);
    let required = doc["extensionsRequired"].as_array().expect("required");
    assert_eq!(required.len(), 2);
    assert_eq!(
        doc["buffers"][1]["extensions"]["EXT_meshopt_compression"]["fallback"],
        true
    );
    let mut decoded = 0;
    for view in doc["bufferViews"].as_array().expect("views") {
        let Some(ext) = view["extensions"].get("EXT_meshopt_compression") else {
            continue;
        };
        let at = ext["byteOffset"].as_u64().expect("offset") as usize;
        let data = &bin[at..at + ext["byteLength"].as_u64().expect("len") as usize];
        let count = ext["count"].as_u64().expect("count") as usize;
        match (ext["mode"].as_str(), ext["byteStride"].as_u64()) {
            (Some("TRIANGLES"), _) => {
                meshopt::encoding::decode_index_buffer::<u32>(data, count).expect("indices");
            }
            (_, Some(4)) => {
                meshopt::encoding::decode_vertex_buffer::<[u8; 4]>(data, count).expect("vertices");
            }
            (_, Some(8)) => {
                meshopt::encoding::decode_vertex_buffer::<[u8; 8]>(data, count).expect("vertices");
            }
            _ => {}
        }
        decoded += 1;
    }
    assert!(decoded > 20);
}

#[test]
fn meshopt_positions_decode_to_the_plain_positions_on_the_lattice() {
    let size = [96, 64, 96];
    let grid = world(size);
    let table = MaterialTable::builtin();
    let mut options = SceneOptions::new(bounds(size));
    options.tile_voxels = 48;
    let (plain, _) = scene_bytes(&grid, &table, &options, &Progress::new()).expect("plain");
    options.compression = SceneCompression::Meshopt;
    let (packed, _) = scene_bytes(&grid, &table, &options, &Progress::new()).expect("packed");
    let (pdoc, pbin) = split_glb(&plain);
    let (qdoc, qbin) = split_glb(&packed);
    let mut compared = 0;
    for n in pdoc["nodes"].as_array().expect("nodes") {
        let Some(mesh) = n["mesh"].as_u64() else {
            continue;
        };
        let name = n["name"].as_str().expect("name");
        let q = node(&qdoc, name).expect("same node in the packed scene");
        let scale = q["scale"][0].as_f64().expect("scale");
        let shift: Vec<f64> = (0..3)
            .map(|a| q["translation"][a].as_f64().expect("t"))
            .collect();
        let pos = pdoc["meshes"][mesh as usize]["primitives"][0]["attributes"]["POSITION"]
            .as_u64()
            .expect("position");
        let plain_pos = accessor_bytes(&pdoc, &pbin, pos);
        let qmesh = q["mesh"].as_u64().expect("mesh") as usize;
        let qpos = qdoc["meshes"][qmesh]["primitives"][0]["attributes"]["POSITION"]
            .as_u64()
            .expect("position");
        let acc = &qdoc["accessors"][qpos as usize];
        let view = &qdoc["bufferViews"][acc["bufferView"].as_u64().expect("view") as usize];
        let ext = &view["extensions"]["EXT_meshopt_compression"];
        let at = ext["byteOffset"].as_u64().expect("offset") as usize;
        let data = &qbin[at..at + ext["byteLength"].as_u64().expect("len") as usize];
        let decoded: Vec<[u16; 4]> =
            meshopt::encoding::decode_vertex_buffer(data, plain_pos.len()).expect("decodes");
        for (p, d) in plain_pos.iter().zip(&decoded) {
            for a in 0..3 {
                let f = f32::from_le_bytes([p[4 * a], p[4 * a + 1], p[4 * a + 2], p[4 * a + 3]]);
                let back = shift[a] + f64::from(d[a]) * scale;
                assert!(
                    (back - f64::from(f)).abs() <= scale * 0.5 + 1e-6,
                    "{name}: {back} vs {f}"
                );
            }
            compared += 1;
        }
    }
    assert!(compared > 10_000, "{compared} vertices compared");
}
