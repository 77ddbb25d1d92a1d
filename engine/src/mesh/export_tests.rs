//! Mesh export tests: OBJ and glTF files that real readers load, welded and closed region exports,
//! Cancel, and the materials a glTF carries.

use super::mesh_tests::{assert_watertight, pool_world, world};
use super::*;
use crate::gen::Preset;
use crate::progress::Progress;
use crate::storage::Grid;
use crate::voxel::{MaterialTable, Voxel, VoxelBox, VoxelPos};

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("strata-mesh-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn obj_export_loads_in_tobj() {
    let table = MaterialTable::builtin();
    let grid = pool_world();
    let dir = temp_dir("obj");
    let path = dir.join("world.obj");
    let progress = Progress::new();
    let stats = export_obj(&grid, &table, 0, None, &path, &progress).expect("exports");
    assert_eq!(progress.counts().0, progress.counts().1);
    assert!(stats.solid_triangles > 1000 && stats.water_triangles > 100);
    let options = tobj::LoadOptions {
        single_index: true,
        ..tobj::LoadOptions::default()
    };
    let (models, materials) = tobj::load_obj(&path, &options).expect("tobj loads the OBJ");
    let materials = materials.expect("tobj loads the MTL");
    assert_eq!(materials.len(), table.len());
    let faces: usize = models.iter().map(|m| m.mesh.indices.len() / 3).sum();
    assert_eq!(faces, stats.solid_triangles + stats.water_triangles);
    assert!(models
        .iter()
        .all(|m| m.mesh.vertex_color.len() == m.mesh.positions.len()));
    assert!(models
        .iter()
        .all(|m| m.mesh.normals.len() == m.mesh.positions.len()));
    let text = std::fs::read_to_string(&path).expect("reads");
    assert_eq!(
        text.lines().filter(|l| l.starts_with("v ")).count(),
        stats.vertices
    );
    std::fs::remove_dir_all(&dir).expect("cleans up");
}

#[test]
fn glb_export_is_valid_gltf_with_welded_chunks() {
    let table = MaterialTable::builtin();
    let grid = pool_world();
    let dir = temp_dir("glb");
    let path = dir.join("world.glb");
    let stats = export_glb(&grid, &table, 1, None, &path, &Progress::new()).expect("exports");
    let bytes = std::fs::read(&path).expect("reads");
    let gltf =
        ::gltf::Gltf::from_slice(&bytes).expect("the .glb passes the gltf crate's validation");
    let mesh = gltf.meshes().next().expect("one mesh");
    let prims: Vec<_> = mesh.primitives().collect();
    // A primitive per material shown, named and coloured from the table; liquids blend.
    assert!(prims.len() >= 2, "{}", prims.len());
    let count = |p: &::gltf::Primitive, s: ::gltf::Semantic| p.get(&s).map(|a| a.count());
    let mut tris = [0usize; 2];
    for p in &prims {
        assert_eq!(count(p, ::gltf::Semantic::Positions), Some(stats.vertices));
        assert_eq!(count(p, ::gltf::Semantic::Normals), Some(stats.vertices));
        assert_eq!(count(p, ::gltf::Semantic::Colors(0)), Some(stats.vertices));
        let m = p.material();
        let name = m.name().expect("named");
        let id = table.id_of(name).expect("a material of the table");
        let row = &table.materials[usize::from(id)];
        let base = m.pbr_metallic_roughness().base_color_factor();
        let (r, g, b) = row.color;
        let want = [r, g, b].map(crate::voxel::srgb_to_linear);
        assert!(
            (0..3).all(|k| (base[k] - want[k]).abs() < 1e-6),
            "{name}: {base:?}"
        );
        let water = m.alpha_mode() == ::gltf::material::AlphaMode::Blend;
        assert_eq!(water, row.liquid, "{name}");
        tris[usize::from(water)] += p.indices().map_or(0, |a| a.count() / 3);
    }
    assert_eq!(tris, [stats.solid_triangles, stats.water_triangles]);
    // Welding: no two vertices of the same surface share a position, and the solid is closed.
    let welded =
        mesh_export::mesh_world(
            &grid,
            &table,
            1,
            None,
            None,
            &Progress::new(),
            |_, _| Ok(()),
        )
        .expect("meshes");
    assert_eq!(welded.positions.len(), stats.vertices);
    assert_watertight(&welded.solid);
    std::fs::remove_dir_all(&dir).expect("cleans up");
}

#[test]
fn region_exports_are_closed_and_cancellable() {
    let table = MaterialTable::builtin();
    let grid = world(Preset::Canyons, [96, 64, 64], 1);
    let region = VoxelBox::new(VoxelPos::new(10, 5, 7), VoxelPos::new(70, 60, 50));
    let welded = mesh_export::mesh_world(
        &grid,
        &table,
        0,
        Some(region),
        None,
        &Progress::new(),
        |_, _| Ok(()),
    )
    .expect("meshes");
    assert!(welded.solid.len() > 3000);
    assert_watertight(&welded.solid);
    let lo = [9.0f32, 4.0, 6.0];
    let hi = [71.0f32, 61.0, 51.0];
    assert!(welded
        .positions
        .iter()
        .all(|p| (0..3).all(|a| p[a] >= lo[a] && p[a] <= hi[a])));
    let progress = Progress::new();
    progress.cancel();
    let dir = temp_dir("cancel");
    let r = export_glb(&grid, &table, 0, None, &dir.join("x.glb"), &progress);
    assert!(matches!(r, Err(crate::Error::Cancelled)));
    assert!(!dir.join("x.glb").exists());
    std::fs::remove_dir_all(&dir).expect("cleans up");
}

/// The project's own materials reach the glTF: a textured material carries its PNG and texture
/// coordinates, an emissive liquid its emission (with the strength extension past 1), and the
/// light stays in `COLOR_0`, white without a bake.
#[test]
fn glb_materials_carry_textures_and_emission() {
    use crate::voxel::{Emission, Material, Textures};
    const PNG: [u8; 77] = [
        137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 2, 0, 0, 0, 2, 8, 6,
        0, 0, 0, 114, 182, 13, 36, 0, 0, 0, 20, 73, 68, 65, 84, 120, 218, 99, 144, 139, 18, 249,
        111, 211, 164, 241, 159, 1, 198, 0, 0, 56, 62, 6, 225, 149, 139, 212, 51, 0, 0, 0, 0, 73,
        69, 78, 68, 174, 66, 96, 130,
    ];
    let mut table = MaterialTable::builtin();
    let mut textures = Textures::default();
    let mut moss = Material::new("Moss", (60, 110, 40));
    moss.texture = Some(textures.add(PNG.to_vec()).expect("png"));
    let mut lava = Material::new("Lava", (230, 80, 10));
    lava.liquid = true;
    lava.emission = Some(Emission {
        color: (255, 120, 20),
        strength: 4.0,
    });
    table.materials.push(moss);
    table.materials.push(lava);
    let (moss_id, lava_id) = ((table.len() - 2) as u8, (table.len() - 1) as u8);
    let mut grid = Grid::new();
    grid.fill_box(
        VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(40, 4, 40)),
        Voxel::filled(moss_id),
    );
    grid.fill_box(
        VoxelBox::new(VoxelPos::new(10, 4, 10), VoxelPos::new(20, 6, 20)),
        Voxel::filled(lava_id),
    );
    let dir = temp_dir("glb-materials");
    let path = dir.join("m.glb");
    let looks = ExportLooks {
        light: None,
        textures: Some(&textures),
    };
    export_glb_lit(&grid, &table, 0, None, looks, &path, &Progress::new()).expect("exports");
    let bytes = std::fs::read(&path).expect("reads");
    let gltf = ::gltf::Gltf::from_slice(&bytes).expect("valid glTF");
    assert_eq!(gltf.images().count(), 1);
    assert_eq!(gltf.textures().count(), 1);
    let mut seen = Vec::new();
    for p in gltf.meshes().next().expect("mesh").primitives() {
        let m = p.material();
        let name = m.name().expect("named").to_owned();
        assert!(p.get(&::gltf::Semantic::TexCoords(0)).is_some());
        let reader = p.reader(|_| gltf.blob.as_deref());
        let light: Vec<[f32; 3]> = reader
            .read_colors(0)
            .expect("COLOR_0")
            .into_rgb_f32()
            .collect();
        assert!(
            light.iter().all(|c| *c == [1.0, 1.0, 1.0]),
            "no bake: white"
        );
        match name.as_str() {
            "Moss" => {
                let t = m
                    .pbr_metallic_roughness()
                    .base_color_texture()
                    .expect("texture");
                assert_eq!(t.texture().source().index(), 0);
            }
            "Lava" => {
                let e = m.emissive_factor();
                assert!(e[0] > 0.9 && e[2] < 0.01, "{e:?}");
                assert_eq!(m.emissive_strength(), Some(4.0));
                assert_eq!(m.alpha_mode(), ::gltf::material::AlphaMode::Blend);
            }
            _ => {}
        }
        seen.push(name);
    }
    assert!(
        seen.contains(&"Moss".to_owned()) && seen.contains(&"Lava".to_owned()),
        "{seen:?}"
    );
    std::fs::remove_dir_all(&dir).expect("cleans up");
}
