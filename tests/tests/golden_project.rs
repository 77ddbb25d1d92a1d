//! The golden `.strata` files of format versions 1 and 2 (`tests/fixtures/project_v1_history.strata`,
//! `tests/fixtures/project_v2_history.strata`): the same project written by each version's writer.
//! Later versions must keep reading both, with the same voxels, header and undo/redo results;
//! re-saving either unchanged must give the version 2 file's bytes (sections other than CHNK are the
//! same in both versions).
//!
//! # How the files were made
//! The version 1 file was written by the version 1 writer (the commit that added it) from the
//! project [`build`] makes, then with the built-in material table of that time:
//!
//! 1. the base scene ([`scene`]): a 24×16×24 box at (−8, 0, −8) over four chunks with negative chunk
//!    coordinates: Rock and Ground layers, a Grass surface with a different occupancy per column,
//!    and a Water pool;
//! 2. four undoable steps ([`STEPS`]) recorded with `History` exactly as the editor records them: a
//!    grouped three-box "Add" stroke, a "Paint", a "Dig" and a "Sea Level";
//! 3. two undos, so the file holds two undo steps and two redo steps.
//!
//! The version 2 file is the version 1 file loaded and saved again by the version 2 writer (its header
//! keeps the material table of the version 1 file, which is smaller than today's built-in one):
//! `write_project_v2_history` below (ignored; run it with
//! `cargo test -p strata-tests --test golden_project -- --ignored write_project_v2_history`) writes
//! `target/tmp/project_v2_history.strata`, which was copied to `tests/fixtures/`.
//!
//! Never regenerate these files for a newer format: they pin what version 1 and 2 files look like. A
//! new format version gets its own golden file beside them. Every expected state below is rebuilt
//! from plain `Grid::set` / `Grid::fill_box` calls, not from the history, so the checks do not depend
//! on the code they check.

use strata_engine::format::project::{Camera, Project, ProjectHeader};
use strata_engine::storage::Grid;
use strata_engine::voxel::{MaterialTable, Voxel, VoxelBox, VoxelPos};

const GOLDEN: &[u8] = include_bytes!("../fixtures/project_v1_history.strata");
const GOLDEN_V2: &[u8] = include_bytes!("../fixtures/project_v2_history.strata");
/// FNV-1a 64 of the voxels both golden files hold (see [`voxel_digest`]).
const VOXEL_DIGEST: u64 = 0xe1a0_5706_4fbe_daab;

/// The material ids the scene uses, looked up by name in a table.
struct Ids {
    water: u8,
    grass: u8,
    ground: u8,
    sand: u8,
    rock: u8,
}

impl Ids {
    fn of(table: &MaterialTable) -> Self {
        let id = |name: &str| table.require(name).expect("material in the table");
        Self {
            water: id("Water"),
            grass: id("Grass"),
            ground: id("Ground"),
            sand: id("Sand"),
            rock: id("Rock"),
        }
    }
}

fn pos(x: i32, y: i32, z: i32) -> VoxelPos {
    VoxelPos::new(x, y, z)
}

fn cube(min: [i32; 3], max: [i32; 3]) -> VoxelBox {
    VoxelBox::new(pos(min[0], min[1], min[2]), pos(max[0], max[1], max[2]))
}

fn bounds() -> VoxelBox {
    cube([-8, 0, -8], [16, 16, 16])
}

/// The base scene, from plain arithmetic.
fn scene(ids: &Ids) -> Grid {
    let mut g = Grid::new();
    let b = bounds();
    g.fill_box(cube([-8, 0, -8], [16, 3, 16]), Voxel::filled(ids.rock));
    g.fill_box(cube([-8, 3, -8], [16, 5, 16]), Voxel::filled(ids.ground));
    for z in b.min.z..b.max.z {
        for x in b.min.x..b.max.x {
            let h = 5 + (x + 2 * z).rem_euclid(3);
            g.fill_box(
                cube([x, 5, z], [x + 1, h, z + 1]),
                Voxel::filled(ids.ground),
            );
            let occupancy = 63 + 64 * (x - z).rem_euclid(3) as u8;
            g.set(pos(x, h, z), Voxel::new(ids.grass, occupancy));
        }
    }
    g.fill_box(cube([2, 5, 2], [10, 7, 10]), Voxel::filled(ids.water));
    g.fill_box(cube([2, 7, 2], [10, 8, 10]), Voxel::new(ids.water, 127));
    g
}

/// One edit: the change made after recording box `i` of its step, from plain grid calls.
type Edit = fn(&Ids, &mut Grid, usize);

/// A recorded box as `[min, max]`.
type BoxCorners = [[i32; 3]; 2];

/// One undoable step: its name, the boxes it records (in order) and its edit.
type Step = (&'static str, &'static [BoxCorners], Edit);

/// The four steps.
const STEPS: [Step; 4] = [
    (
        "Add",
        &[
            [[-6, 7, -6], [0, 11, 0]],
            [[-3, 8, -3], [3, 12, 3]],
            [[0, 9, 0], [6, 13, 6]],
        ],
        |ids, g, i| {
            let o = 3 * i as i32;
            g.fill_box(
                cube(
                    [-5 + o, 8 + i as i32, -5 + o],
                    [-1 + o, 11 + i as i32, -1 + o],
                ),
                Voxel::new(ids.sand, 200 + i as u8),
            );
        },
    ),
    ("Paint", &[[[-8, 0, 6], [16, 16, 10]]], |ids, g, _| {
        for z in 6..10 {
            for y in 0..16 {
                for x in -8..16 {
                    let v = g.get(pos(x, y, z));
                    if v.material == ids.ground {
                        g.set(pos(x, y, z), Voxel::new(ids.grass, v.occupancy));
                    }
                }
            }
        }
    }),
    ("Dig", &[[[10, 2, -8], [16, 10, -2]]], |_, g, _| {
        g.fill_box(cube([10, 2, -8], [16, 10, -2]), Voxel::AIR)
    }),
    ("Sea Level", &[[[-8, 0, -8], [16, 6, 16]]], |ids, g, _| {
        for z in -8..16 {
            for y in 0..6 {
                for x in -8..16 {
                    if g.get(pos(x, y, z)).material == 0 {
                        g.set(pos(x, y, z), Voxel::filled(ids.water));
                    }
                }
            }
        }
    }),
];

/// The scene after the first `steps` steps, without any history.
fn state(ids: &Ids, steps: usize) -> Grid {
    let mut g = scene(ids);
    for (_, boxes, edit) in &STEPS[..steps] {
        for i in 0..boxes.len() {
            edit(ids, &mut g, i);
        }
    }
    g
}

/// The header the golden file carries.
fn header() -> ProjectHeader {
    let mut h = ProjectHeader::new("golden v1", bounds());
    h.camera = Camera {
        target: [8.5, 6.25, -3.75],
        yaw_degrees: -30.0,
        pitch_degrees: 52.5,
        distance: 41.0,
    };
    h
}

/// Build the golden project with today's writer (see the module docs).
fn build() -> Project {
    let table = MaterialTable::builtin();
    let ids = Ids::of(&table);
    let mut p = Project::new(header(), scene(&ids));
    for (name, boxes, edit) in &STEPS {
        let grouped = boxes.len() > 1;
        if grouped {
            p.history.begin_group(name);
        }
        for (i, b) in boxes.iter().enumerate() {
            p.history.record(&p.grid, cube(b[0], b[1]), name);
            edit(&ids, &mut p.grid, i);
        }
        if grouped {
            p.history.end_group();
        }
    }
    for _ in 0..2 {
        p.history.undo(&mut p.grid).expect("undo");
    }
    p
}

#[test]
#[ignore = "writes the golden file; run only to make a new one (see the module docs)"]
fn write_project_v2_history() {
    let bytes = Project::from_bytes(GOLDEN)
        .expect("loads")
        .to_bytes()
        .expect("encode");
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(dir.join("project_v2_history.strata"), bytes).expect("write");
}

/// FNV-1a 64 over every stored chunk, in (Z, Y, X) order: its position, then its voxels dense
/// (X fastest), material and occupancy bytes.
fn voxel_digest(g: &Grid) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut eat = |bytes: &[u8]| {
        for b in bytes {
            h = (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    let mut dense = vec![Voxel::AIR; 32 * 32 * 32];
    for pos in g.sorted_positions() {
        for c in [pos.x, pos.y, pos.z] {
            eat(&c.to_le_bytes());
        }
        g.chunk(pos).expect("stored").level0().to_dense(&mut dense);
        for v in &dense {
            eat(&[v.material, v.occupancy]);
        }
    }
    h
}

/// The tags of the file's sections, in order, after checking the magic and the version.
fn section_tags(bytes: &[u8]) -> Vec<[u8; 4]> {
    section_tags_of_version(bytes, 1)
}

/// [`section_tags`] of a file of `version`.
fn section_tags_of_version(bytes: &[u8], version: u32) -> Vec<[u8; 4]> {
    assert_eq!(&bytes[..8], b"\x89STRATA\n");
    assert_eq!(
        &bytes[8..12],
        &version.to_le_bytes(),
        "format version {version}"
    );
    let (mut at, mut tags) = (12, Vec::new());
    while at < bytes.len() {
        let tag: [u8; 4] = bytes[at..at + 4].try_into().expect("tag");
        let len = u64::from_le_bytes(bytes[at + 4..at + 12].try_into().expect("len"));
        tags.push(tag);
        at += 20 + len as usize;
    }
    assert_eq!(
        at,
        bytes.len(),
        "sections end exactly at the end of the file"
    );
    tags
}

#[test]
fn golden_v1_file_layout() {
    assert!(
        GOLDEN.len() < 12 << 10,
        "a small file: {} bytes",
        GOLDEN.len()
    );
    assert_eq!(
        section_tags(GOLDEN),
        [*b"HEAD", *b"CHNK", *b"HIST", *b"END "]
    );
}

#[test]
fn golden_v1_loads_bit_exactly() {
    let p = Project::from_bytes(GOLDEN).expect("the golden file loads");
    assert_eq!(p.header.name, "golden v1");
    assert_eq!(p.header.bounds, bounds());
    assert_eq!(p.header.generator, None);
    assert_eq!(p.header.camera, header().camera);
    // The file keeps its own material table; ids are looked up in it.
    let table = &p.header.materials;
    assert_eq!(table.len(), 24);
    assert_eq!(table.get(0).map(|m| m.name.as_str()), Some("Air"));
    let ids = Ids::of(table);
    assert_eq!(
        [ids.water, ids.grass, ids.ground, ids.sand, ids.rock],
        [1, 2, 3, 5, 7]
    );
    p.grid.assert_valid();
    for k in 0..STEPS.len() {
        assert!(
            state(&ids, k) != state(&ids, k + 1),
            "step {k} changes voxels"
        );
    }
    assert!(p.grid == state(&ids, 2), "voxels after two of four steps");
    assert_eq!(p.history.undo_names().collect::<Vec<_>>(), ["Paint", "Add"]);
    assert_eq!(
        p.history.redo_names().collect::<Vec<_>>(),
        ["Dig", "Sea Level"]
    );
}

#[test]
fn golden_v1_history_undoes_and_redoes_bit_exactly() {
    let mut p = Project::from_bytes(GOLDEN).expect("loads");
    let ids = Ids::of(&p.header.materials);
    let mut at = 2;
    let check = |p: &Project, at: usize| {
        p.grid.assert_valid();
        assert!(p.grid == state(&ids, at), "voxels after {at} steps");
    };
    for name in ["Dig", "Sea Level"] {
        assert_eq!(
            p.history.redo(&mut p.grid).expect("redo").as_deref(),
            Some(name)
        );
        at += 1;
        check(&p, at);
    }
    assert_eq!(p.history.redo(&mut p.grid).expect("redo"), None);
    for name in ["Sea Level", "Dig", "Paint", "Add"] {
        assert_eq!(
            p.history.undo(&mut p.grid).expect("undo").as_deref(),
            Some(name)
        );
        at -= 1;
        check(&p, at);
    }
    assert_eq!(p.history.undo(&mut p.grid).expect("undo"), None);
    for _ in 0..4 {
        p.history.redo(&mut p.grid).expect("redo");
    }
    check(&p, 4);
}

#[test]
fn golden_v1_resaves_as_the_v2_golden() {
    // Re-saving writes version 2: the version 2 golden file, byte for byte (it was
    // `golden_v1_resaves_to_identical_bytes` while this build wrote version 1).
    let p = Project::from_bytes(GOLDEN).expect("loads");
    let again = p.to_bytes().expect("encode");
    assert!(
        again == GOLDEN_V2,
        "re-saving did not give the version 2 file"
    );
    // An undo and a redo bring back the same state, and the same bytes.
    let mut q = Project::from_bytes(GOLDEN).expect("loads");
    q.history.undo(&mut q.grid).expect("undo");
    q.history.redo(&mut q.grid).expect("redo");
    assert!(q.to_bytes().expect("encode") == GOLDEN_V2);
}

#[test]
fn golden_v2_file_layout() {
    assert!(
        GOLDEN_V2.len() < 8 << 10,
        "a small file: {} bytes",
        GOLDEN_V2.len()
    );
    assert!(GOLDEN_V2.len() < GOLDEN.len(), "smaller than version 1");
    assert_eq!(
        section_tags_of_version(GOLDEN_V2, 2),
        [*b"HEAD", *b"CHNK", *b"HIST", *b"END "]
    );
}

#[test]
fn golden_v2_decodes_to_the_pinned_voxels() {
    let p = Project::from_bytes(GOLDEN_V2).expect("the version 2 golden file loads");
    p.grid.assert_valid();
    let ids = Ids::of(&p.header.materials);
    assert!(p.grid == state(&ids, 2), "voxels after two of four steps");
    assert_eq!(voxel_digest(&p.grid), VOXEL_DIGEST);
    let v1 = Project::from_bytes(GOLDEN).expect("the version 1 golden file loads");
    assert_eq!(
        voxel_digest(&v1.grid),
        VOXEL_DIGEST,
        "both versions hold the same voxels"
    );
    assert_eq!(p.header.name, "golden v1");
    assert_eq!(p.header.camera, header().camera);
    assert_eq!(p.history.undo_names().collect::<Vec<_>>(), ["Paint", "Add"]);
    assert_eq!(
        p.history.redo_names().collect::<Vec<_>>(),
        ["Dig", "Sea Level"]
    );
}

#[test]
fn golden_v2_is_what_the_writer_writes() {
    let p = Project::from_bytes(GOLDEN_V2).expect("loads");
    assert!(
        p.to_bytes().expect("encode") == GOLDEN_V2,
        "re-saving changed the bytes"
    );
    // The voxels rebuilt from plain grid calls, under the file's header and history, encode to the
    // same bytes: the chunk records depend on the voxels alone.
    let ids = Ids::of(&p.header.materials);
    // The project `build` makes today holds the same voxels and steps (its header has today's table).
    let built = build();
    assert!(
        built.grid == p.grid,
        "build() no longer makes the golden voxels"
    );
    assert_eq!(
        built.history.undo_names().collect::<Vec<_>>(),
        p.history.undo_names().collect::<Vec<_>>()
    );
    let mut rebuilt = Project::new(p.header.clone(), state(&ids, 2));
    rebuilt.history = p.history.clone();
    assert!(
        rebuilt.to_bytes().expect("encode") == GOLDEN_V2,
        "the writer no longer writes the version 2 golden bytes"
    );
}
