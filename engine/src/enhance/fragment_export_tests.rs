//! Faces and files: chunk meshes against a brute-force face count, raw bytes against reads, `.vox`
//! files parsed back with `dot_vox`, OBJ with `tobj` and glb with `gltf`.

use std::path::PathBuf;

use super::enhance_tests::{random_grid, terrain_grid};
use super::*;
use crate::progress::Progress;
use crate::storage::Grid;
use crate::voxel::{MaterialTable, VoxelBox, VoxelPos};

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("strata-enhance-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

fn methods() -> Vec<Method> {
    vec![
        Method::Subdivide(SubdivideParams {
            levels: 2,
            ..SubdivideParams::default()
        }),
        Method::Subdivide(SubdivideParams {
            levels: 3,
            threshold: Some(1),
            material_borders: true,
            ..SubdivideParams::default()
        }),
        Method::Resample(ResampleParams {
            factor: 3,
            count: 12,
            ..ResampleParams::default()
        }),
    ]
}

/// Solid–empty fragment pairs across faces of the fragments of `b` (fragments outside `b` count as
/// empty when `closed`), and per pair the solid side's material.
fn brute_faces(vol: &FragmentVolume<'_>, b: VoxelBox, closed: bool) -> usize {
    let f = vol.factor();
    let inner = FragmentBox::of_voxels(b, f);
    let outer = FragmentBox {
        min: inner.min.map(|v| v - 1),
        max: inner.max.map(|v| v + 1),
    };
    let mut frags = vec![0; outer.volume()];
    vol.read_box(outer, &mut frags);
    let s = outer.size();
    let inside = |x: usize, y: usize, z: usize| {
        x > 0 && y > 0 && z > 0 && x < s[0] - 1 && y < s[1] - 1 && z < s[2] - 1
    };
    let get = |x: usize, y: usize, z: usize| {
        if closed && !inside(x, y, z) {
            0
        } else {
            frags[(z * s[1] + y) * s[0] + x]
        }
    };
    let mut n = 0;
    for z in 1..s[2] - 1 {
        for y in 1..s[1] - 1 {
            for x in 1..s[0] - 1 {
                if get(x, y, z) == 0 {
                    continue;
                }
                for [dx, dy, dz] in crate::voxel::FACE_OFFSETS {
                    let q = (x as i32 + dx, y as i32 + dy, z as i32 + dz);
                    n += usize::from(get(q.0 as usize, q.1 as usize, q.2 as usize) == 0);
                }
            }
        }
    }
    n
}

/// Check every quad of `mesh` separates a solid fragment of its material (behind) from an empty one
/// (in front), and return the area in fragment faces.
fn check_quads(vol: &FragmentVolume<'_>, mesh: &FragmentMesh, clip: Option<VoxelBox>) -> usize {
    let f = vol.factor() as f64;
    let mut area = 0;
    for (q, quad) in mesh.positions.chunks(4).enumerate() {
        let n = mesh.normals[4 * q];
        let lo = [0, 1, 2].map(|a| {
            quad.iter()
                .map(|p| f64::from(p[a]))
                .fold(f64::MAX, f64::min)
        });
        let hi = [0, 1, 2].map(|a| {
            quad.iter()
                .map(|p| f64::from(p[a]))
                .fold(f64::MIN, f64::max)
        });
        let span = ((hi[0] - lo[0]).max(hi[1] - lo[1]) * f).round() as usize;
        area += span * span;
        let centre = [0, 1, 2].map(|a| (lo[a] + hi[a]) / 2.0 * f);
        let probe = |s: f64| centre_fragment(centre, n, s * 0.5);
        let behind = probe(-1.0);
        let front = probe(1.0);
        let front_voxel = VoxelPos::from(front.map(|v| v.div_euclid(vol.factor() as i64) as i32));
        let front_material = if clip.is_some_and(|c| !c.contains(front_voxel)) {
            0
        } else {
            vol.fragment(front)
        };
        assert_eq!(
            vol.fragment(behind),
            mesh.materials[4 * q],
            "quad {q}: behind"
        );
        assert_eq!(front_material, 0, "quad {q}: in front");
        for (i, &ni) in n.iter().enumerate() {
            let cross = [(i + 1) % 3, (i + 2) % 3];
            let e1 = [0, 1, 2].map(|a| quad[1][a] - quad[0][a]);
            let e2 = [0, 1, 2].map(|a| quad[2][a] - quad[0][a]);
            let c = e1[cross[0]] * e2[cross[1]] - e1[cross[1]] * e2[cross[0]];
            assert!(c * ni >= 0.0, "quad {q} winds against its normal");
        }
    }
    area
}

fn centre_fragment(centre: [f64; 3], n: [f32; 3], step: f64) -> [i64; 3] {
    [0, 1, 2].map(|a| (centre[a] + f64::from(n[a]) * step).floor() as i64)
}

#[test]
fn chunk_meshes_cover_exactly_the_visible_faces() {
    let table = MaterialTable::builtin();
    let world = VoxelBox::new(VoxelPos::new(-3, -2, 28), VoxelPos::new(9, 8, 37));
    let grid = random_grid(4, world, 0.5);
    for method in methods() {
        let e = Enhanced::build(&grid, &table, &method, None, &Progress::new()).expect("builds");
        let vol = e.volume(&grid);
        let all = VoxelBox::new(VoxelPos::new(-5, -4, 26), VoxelPos::new(11, 10, 39));
        let mut area = 0;
        let mut mesh = FragmentMesh::new();
        for pos in all.chunks() {
            mesh_fragment_chunk(&vol, &table, pos, None, &mut mesh);
            area += check_quads(&vol, &mesh, None);
        }
        assert_eq!(area, brute_faces(&vol, all, false), "{method:?}");
        let clip = VoxelBox::new(VoxelPos::new(-1, 0, 29), VoxelPos::new(5, 6, 34));
        let mut clipped = 0;
        for pos in clip.chunks() {
            mesh_fragment_chunk(&vol, &table, pos, Some(clip), &mut mesh);
            clipped += check_quads(&vol, &mesh, Some(clip));
        }
        assert_eq!(clipped, brute_faces(&vol, clip, true), "clipped {method:?}");
    }
}

#[test]
fn raw_export_is_the_read_box() {
    let table = MaterialTable::builtin();
    let grid = terrain_grid(2, [20, 12, 18]);
    let method = &methods()[0];
    let e = Enhanced::build(&grid, &table, method, None, &Progress::new()).expect("builds");
    let vol = e.volume(&grid);
    let b = VoxelBox::new(VoxelPos::new(3, 2, -1), VoxelPos::new(11, 9, 6));
    let path = temp("box.raw");
    let summary = export_raw(&vol, b, &path, &Progress::new()).expect("writes");
    let bytes = std::fs::read(&path).expect("read");
    let fb = FragmentBox::of_voxels(b, 4);
    let mut want = vec![0; fb.volume()];
    vol.read_box(fb, &mut want);
    assert_eq!(bytes, want);
    assert_eq!(summary.fragments, 8 * 7 * 7 * 64);
    assert_eq!(
        summary.solid_fragments,
        want.iter().filter(|&&c| c != 0).count() as u64
    );
}

#[test]
fn vox_files_parse_back_with_dot_vox() {
    let table = MaterialTable::builtin();
    let grid = terrain_grid(9, [40, 14, 36]);
    let method = Method::Subdivide(SubdivideParams {
        levels: 3,
        ..SubdivideParams::default()
    });
    let e = Enhanced::build(&grid, &table, &method, None, &Progress::new()).expect("builds");
    let vol = e.volume(&grid);
    // 37 × 12 × 33 voxels = 296 × 96 × 264 fragments: 2 × 2 × 1 models in MagicaVoxel space.
    let b = VoxelBox::new(VoxelPos::new(1, 1, 2), VoxelPos::new(38, 13, 35));
    let path = temp("box.vox");
    let summary = export_vox(&vol, b, &table, &path, &Progress::new()).expect("writes");
    let bytes = std::fs::read(&path).expect("read");
    let data = dot_vox::load_bytes(&bytes).expect("dot_vox parses it");
    assert_eq!(data.version, 150);
    assert_eq!(data.models.len(), summary.models);
    assert_eq!(summary.models, 4);
    let fb = FragmentBox::of_voxels(b, 8);
    let [sx, sy, sz] = fb.size();
    let mut frags = vec![0; fb.volume()];
    vol.read_box(fb, &mut frags);
    assert_eq!(
        data.models
            .iter()
            .map(|m| m.voxels.len() as u64)
            .sum::<u64>(),
        frags.iter().filter(|&&c| c != 0).count() as u64
    );
    for m in 1..24 {
        let c = data.palette[m - 1];
        assert_eq!((c.r, c.g, c.b), table.materials[m].color);
    }
    // Every model through its transform back to Strata coordinates.
    let mut seen = 0;
    for node in &data.scenes {
        let dot_vox::SceneNode::Transform { frames, child, .. } = node else {
            continue;
        };
        let Some(t) = frames[0].position() else {
            continue;
        };
        let dot_vox::SceneNode::Shape { models, .. } = &data.scenes[*child as usize] else {
            panic!("a positioned transform holds a shape");
        };
        let model = &data.models[models[0].model_id as usize];
        let size = [model.size.x, model.size.y, model.size.z].map(|s| s as i32);
        assert!(size.iter().all(|&s| s <= 256));
        let min = [t.x - size[0] / 2, t.y - size[1] / 2, t.z - size[2] / 2];
        for v in &model.voxels {
            let vox = [
                min[0] + i32::from(v.x),
                min[1] + i32::from(v.y),
                min[2] + i32::from(v.z),
            ];
            let (x, y, z) = (vox[0] as usize, vox[2] as usize, sz - 1 - vox[1] as usize);
            assert!(x < sx && y < sy && z < sz);
            assert_eq!(frags[(z * sy + y) * sx + x], v.i + 1, "at {x},{y},{z}");
            seen += 1;
        }
    }
    assert_eq!(seen as u64, summary.solid_fragments);
    let empty = VoxelBox::new(VoxelPos::new(0, 30, 0), VoxelPos::new(2, 32, 2));
    export_vox(&vol, empty, &table, &path, &Progress::new()).expect("writes");
    let data = dot_vox::load_bytes(&std::fs::read(&path).expect("read")).expect("parses");
    assert_eq!(data.models.len(), 1, "an empty box still has one model");
    assert!(data.models[0].voxels.is_empty());
}

#[test]
fn mesh_exports_load_in_standard_readers() {
    let table = MaterialTable::builtin();
    let grid = terrain_grid(5, [24, 12, 20]);
    for method in methods() {
        let e = Enhanced::build(&grid, &table, &method, None, &Progress::new()).expect("builds");
        let vol = e.volume(&grid);
        let b = VoxelBox::new(VoxelPos::new(2, 2, 2), VoxelPos::new(14, 10, 12));
        let obj = temp("piece.obj");
        let s = export_mesh(
            &vol,
            b,
            &table,
            OutputFormat::Obj,
            &obj,
            FaceLight::None,
            &Progress::new(),
        )
        .expect("obj");
        assert!(s.faces > 0);
        let (models, materials) = tobj::load_obj(
            &obj,
            &tobj::LoadOptions {
                triangulate: true,
                single_index: true,
                ..tobj::LoadOptions::default()
            },
        )
        .expect("tobj loads it");
        let triangles: usize = models.iter().map(|m| m.mesh.indices.len() / 3).sum();
        assert_eq!(triangles, 2 * s.faces, "{method:?}");
        assert!(materials.expect("mtl").len() >= 20);
        let glb = temp("piece.glb");
        let g = export_mesh(
            &vol,
            b,
            &table,
            OutputFormat::Glb,
            &glb,
            FaceLight::None,
            &Progress::new(),
        )
        .expect("glb");
        assert_eq!(g, s);
        let bytes = std::fs::read(&glb).expect("read");
        let doc = ::gltf::Gltf::from_slice(&bytes).expect("gltf validates it");
        let mesh = doc.meshes().next().expect("mesh");
        let mut indices = 0;
        for prim in mesh.primitives() {
            indices += prim.indices().expect("indices").count();
            let count = |s: ::gltf::Semantic| prim.get(&s).map(|a| a.count());
            assert_eq!(count(::gltf::Semantic::Positions), Some(g.vertices));
            assert_eq!(count(::gltf::Semantic::Normals), Some(g.vertices));
            assert_eq!(count(::gltf::Semantic::Colors(0)), Some(g.vertices));
        }
        assert_eq!(indices, 6 * g.faces);
    }
}

#[test]
fn size_limits_are_checked_first() {
    let b = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(1024, 64, 1024));
    assert!(
        OutputFormat::Raw.check_size(b, 4).is_ok(),
        "2^32 fragments exactly"
    );
    let e = OutputFormat::Raw.check_size(b, 5).expect_err("too large");
    assert!(e.to_string().contains("limited to 4294967296"), "{e}");
    assert!(OutputFormat::Vox.check_size(b, 1).is_ok());
    assert!(OutputFormat::Vox.check_size(b, 2).is_err());
    assert!(OutputFormat::Glb.check_size(b, 2).is_ok());
    assert!(OutputFormat::Obj.check_size(b, 3).is_err());
    assert_eq!(
        OutputFormat::from_path("a/B.VOX".as_ref()),
        Some(OutputFormat::Vox)
    );
    assert_eq!(OutputFormat::from_path("a/b.png".as_ref()), None);
    let grid = Grid::new();
    let table = MaterialTable::builtin();
    let e = Enhanced::new(&table, &Method::default(), None).expect("store");
    let huge = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(4096, 4096, 4096));
    let path = temp("never.raw");
    assert!(export_raw(&e.volume(&grid), huge, &path, &Progress::new()).is_err());
    assert!(!path.exists(), "nothing is written over the limit");
}
