//! The golden file of a project with its own materials (`tests/fixtures/project_materials.strata`):
//! a custom table with a textured material (Moss), an emissive liquid beyond Water (Lava) and a
//! recoloured built-in, the `TEXR` section, and an undo history whose steps carry material-table
//! changes (history section version 2). Later builds must keep reading it bit for bit.
//!
//! # How the file was made
//! `write_project_materials` below (ignored; run it with
//! `cargo test -p strata-tests --test golden_materials -- --ignored write_project_materials`) builds
//! it and writes `target/tmp/project_materials.strata`, which was copied to `tests/fixtures/`:
//!
//! 1. a 32×8×32 scene at the origin: a Rock floor (y 0..2), a Mud patch and a Grass patch on it;
//! 2. four undoable steps made through `strata_engine::materials`: "Add Moss" (textured, the 2×2 PNG
//!    [`MOSS_PNG`]), "Add Lava" (liquid, glowing), a "Paint" of Moss and Lava voxels recorded as
//!    boxes, and "Remove Mud" into Sand (the voxels remapped and every id above Mud moved down);
//! 3. one undo, so the removal waits on the redo stack.
//!
//! Never regenerate this file for a newer format; a new format gets its own golden file.

use strata_engine::format::project::{Project, ProjectHeader};
use strata_engine::materials::{add, apply_change, remove};
use strata_engine::progress::Progress;
use strata_engine::storage::Grid;
use strata_engine::voxel::{Emission, Material, MaterialTable, Voxel, VoxelBox, VoxelPos};

const GOLDEN: &[u8] = include_bytes!("../fixtures/project_materials.strata");

/// A 2×2 RGBA PNG (two greens), the Moss texture.
const MOSS_PNG: [u8; 77] = [
    137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 2, 0, 0, 0, 2, 8, 6, 0,
    0, 0, 114, 182, 13, 36, 0, 0, 0, 20, 73, 68, 65, 84, 120, 218, 99, 144, 139, 18, 249, 111, 211,
    164, 241, 159, 1, 198, 0, 0, 56, 62, 6, 225, 149, 139, 212, 51, 0, 0, 0, 0, 73, 69, 78, 68,
    174, 66, 96, 130,
];

fn cube(min: [i32; 3], max: [i32; 3]) -> VoxelBox {
    VoxelBox::new(
        VoxelPos::new(min[0], min[1], min[2]),
        VoxelPos::new(max[0], max[1], max[2]),
    )
}

fn id(t: &MaterialTable, name: &str) -> u8 {
    t.require(name).expect("in the table")
}

/// The voxels before any step, in the built-in table's ids.
fn scene(t: &MaterialTable) -> Grid {
    let mut g = Grid::new();
    g.fill_box(cube([0, 0, 0], [32, 2, 32]), Voxel::filled(id(t, "Rock")));
    g.fill_box(cube([4, 2, 4], [12, 3, 12]), Voxel::new(id(t, "Mud"), 200));
    g.fill_box(
        cube([20, 2, 20], [28, 3, 28]),
        Voxel::filled(id(t, "Grass")),
    );
    g
}

fn lava() -> Material {
    let mut m = Material::new("Lava", (230, 80, 10));
    m.liquid = true;
    m.emission = Some(Emission {
        color: (255, 120, 20),
        strength: 4.0,
    });
    m
}

fn build() -> Project {
    let builtin = MaterialTable::builtin();
    let bounds = cube([0, 0, 0], [32, 16, 32]);
    let mut p = Project::new(
        ProjectHeader::new("golden materials", bounds),
        scene(&builtin),
    );
    let progress = Progress::new();
    let tex = p.textures.add(MOSS_PNG.to_vec()).expect("png");
    let mut moss = Material::new("Moss", (60, 110, 40));
    moss.texture = Some(tex);
    let t = p.header.materials.clone();
    apply_change(&mut p, "Add Moss", add(&t, moss).expect("add"), &progress).expect("apply");
    let t = p.header.materials.clone();
    apply_change(&mut p, "Add Lava", add(&t, lava()).expect("add"), &progress).expect("apply");
    let t = p.header.materials.clone();
    let (moss_id, lava_id) = (id(&t, "Moss"), id(&t, "Lava"));
    let paint = cube([14, 2, 14], [18, 3, 18]);
    p.history.record(&p.grid, paint, "Paint");
    p.grid
        .fill_box(cube([14, 2, 14], [16, 3, 18]), Voxel::filled(moss_id));
    p.grid
        .fill_box(cube([16, 2, 14], [18, 3, 18]), Voxel::new(lava_id, 127));
    let t = p.header.materials.clone();
    let change = remove(&t, "Mud", "Sand").expect("remove");
    apply_change(&mut p, "Remove Mud", change, &progress).expect("apply");
    p.undo().expect("undo");
    p
}

#[test]
#[ignore = "writes the golden file; run only to make a new one (see the module docs)"]
fn write_project_materials() {
    let bytes = build().to_bytes().expect("encode");
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(dir.join("project_materials.strata"), bytes).expect("write");
}

#[test]
fn golden_materials_load_bit_exactly() {
    let p = Project::from_bytes(GOLDEN).expect("the golden file loads");
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    let t = &p.header.materials;
    assert_eq!(t.len(), 26, "24 built-in materials, Moss and Lava");
    let moss = &t.materials[usize::from(id(t, "Moss"))];
    assert_eq!(moss.color, (60, 110, 40));
    let tex = moss.texture.expect("textured");
    assert_eq!((tex.width, tex.height), (2, 2));
    assert_eq!(p.textures.png(&tex), Some(&MOSS_PNG[..]));
    assert_eq!(p.textures.len(), 1);
    let lava_row = &t.materials[usize::from(id(t, "Lava"))];
    assert_eq!(*lava_row, lava());
    // The voxels after the paint, Mud still there (its removal was undone).
    let at = |x, y, z| p.grid.get(VoxelPos::new(x, y, z));
    assert_eq!(at(5, 2, 5), Voxel::new(id(t, "Mud"), 200));
    assert_eq!(at(14, 2, 15).material, id(t, "Moss"));
    assert_eq!(at(17, 2, 15), Voxel::new(id(t, "Lava"), 127));
    assert_eq!(at(1, 1, 1).material, id(t, "Rock"));
    assert_eq!(
        p.history.undo_names().collect::<Vec<_>>(),
        ["Paint", "Add Lava", "Add Moss"]
    );
    assert_eq!(p.history.redo_names().collect::<Vec<_>>(), ["Remove Mud"]);
}

#[test]
fn golden_materials_history_redoes_and_undoes_tables_and_voxels() {
    let mut p = Project::from_bytes(GOLDEN).expect("loads");
    let with_mud = p.header.materials.clone();
    p.redo().expect("redo");
    let t = p.header.materials.clone();
    assert_eq!(t.id_of("Mud"), None);
    assert_eq!(t.len(), 25);
    assert_eq!(
        p.grid.get(VoxelPos::new(5, 2, 5)),
        Voxel::new(id(&t, "Sand"), 200)
    );
    assert_eq!(p.grid.get(VoxelPos::new(1, 1, 1)).material, id(&t, "Rock"));
    assert_eq!(
        p.grid.get(VoxelPos::new(17, 2, 15)).material,
        id(&t, "Lava")
    );
    p.undo().expect("undo");
    assert_eq!(p.header.materials, with_mud);
    // Back to the built-in table and the scene's voxels.
    for _ in 0..3 {
        p.undo().expect("undo");
    }
    let builtin = MaterialTable::builtin();
    assert_eq!(p.header.materials, builtin);
    assert!(p.grid == scene(&builtin));
}

/// A section as (tag, payload).
type TaggedPayload<'a> = ([u8; 4], &'a [u8]);

/// The file's version and its sections.
fn sections(bytes: &[u8]) -> (u32, Vec<TaggedPayload<'_>>) {
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("version"));
    let (mut at, mut out) = (12, Vec::new());
    while at < bytes.len() {
        let tag: [u8; 4] = bytes[at..at + 4].try_into().expect("tag");
        let len = u64::from_le_bytes(bytes[at + 4..at + 12].try_into().expect("len")) as usize;
        out.push((tag, &bytes[at + 20..at + 20 + len]));
        at += 20 + len;
    }
    (version, out)
}

#[test]
fn golden_materials_resave_to_identical_bytes() {
    // This build writes format version 2, whose chunk records differ from the golden file's
    // (version 1): every other section must come out byte for byte, and the voxels unchanged.
    let p = Project::from_bytes(GOLDEN).expect("loads");
    let again = p.to_bytes().expect("encode");
    let (old_version, old) = sections(GOLDEN);
    let (new_version, new) = sections(&again);
    assert_eq!((old_version, new_version), (1, 2));
    assert_eq!(old.len(), new.len());
    for ((old_tag, old_payload), (new_tag, new_payload)) in old.iter().zip(&new) {
        assert_eq!(old_tag, new_tag);
        if old_tag != b"CHNK" {
            assert!(
                old_payload == new_payload,
                "re-saving changed the bytes of {}",
                String::from_utf8_lossy(old_tag)
            );
        }
    }
    let back = Project::from_bytes(&again).expect("the re-saved file loads");
    assert!(back.grid == p.grid, "re-saving changed the voxels");
    assert!(
        back.to_bytes().expect("encode") == again,
        "re-saving the re-saved file changed the bytes"
    );
}
