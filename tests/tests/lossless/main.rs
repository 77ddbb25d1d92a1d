//! Lossless guard: digests of everything the engine derives from a world, pinned to the values the
//! code gave before the storage, mesher and physics speed-ups (issue 33), so a faster path that
//! changes a single voxel, row, mip, file byte, triangle or ray hit fails here.
//!
//! Worlds: every preset at 160×96×160 (seed 5), the nine-biome mix at 256×96×256 with 64-voxel
//! biome cells (seed 5), and a heightmap import (a seeded 128² map into 160×96×160, terrace
//! smoothing radius 3). For each world the digests cover:
//!
//! - `voxels`: every stored chunk's level 0 and its three mips, dense;
//! - `rows`: every row as `read_row` gives it, level 0 through the grid and each mip level;
//! - `boxes` / `gets`: seeded unaligned `read_box` boxes and single voxels;
//! - `stats`: voxel counts per material;
//! - `file`: the `.strata` bytes;
//! - `mesh`: `mesh_chunk` of every chunk that can own surface at LOD 0 to 3; `node`: `mesh_node` at
//!   levels 1 and 2;
//! - `physics`: world raycasts and broadphase queries; `kdtree`: kD trees of 8³ cell meshes and their
//!   raycasts, as two digests (`kdtree nodes`, `kdtree hits`); `chunk kdtree hits`: raycasts
//!   through the kD trees of whole 32³ chunk meshes, hits only (a tree's shape may change, its
//!   answers may not);
//! - `render`, `floating`, `region`, `godot`, `light`: the top-down render, floating pieces, a region
//!   copy read back, the vxr forest bytes and the light bake's surface voxels.
//!
//! The digests are FNV-1a 64 over the values' little-endian bytes (floats by their bits).
//! `STRATA_PRINT_DIGESTS=1` prints the table as it stands in this file.

mod derived_forms;
mod digest;
mod voxel_forms;
mod worlds;

use strata_engine::voxel::MaterialTable;

use derived_forms::{chunk_kdtree_hits, floating, kdtrees, light, meshes, nodes, physics, render};
use voxel_forms::{boxes, file, gets, godot, region, rows, stats, voxels};
use worlds::{worlds, World};

const ASPECTS: [&str; 17] = [
    "voxels",
    "rows",
    "boxes",
    "gets",
    "stats",
    "file",
    "mesh",
    "node",
    "physics",
    "kdtree nodes",
    "kdtree hits",
    "chunk kdtree hits",
    "render",
    "floating",
    "region",
    "godot",
    "light",
];

fn digests(w: &World, table: &MaterialTable) -> [u64; 17] {
    let (kdtree_nodes, kdtree_hits) = kdtrees(w, table);
    [
        voxels(w),
        rows(w),
        boxes(w),
        gets(w),
        stats(w),
        file(w),
        meshes(w, table),
        nodes(w, table),
        physics(w, table),
        kdtree_nodes,
        kdtree_hits,
        chunk_kdtree_hits(w, table),
        render(w, table),
        floating(w, table),
        region(w),
        godot(w),
        light(w, table),
    ]
}

/// The digests of the code before the speed-ups, per world in the order of [`worlds`], per aspect in
/// the order of [`ASPECTS`]; `mesh` and `node` since the skirts became flaps and coarse nodes keep
/// thin layers (issue 27's cracks), which changed those meshes on purpose; `file` since project file
/// version 2 codes chunk records by columns (issue 33's file size), which changed the bytes on
/// purpose: `file` also loads the new bytes back and checks their voxels and rows against this
/// table's `voxels` and `rows`, which did not change. The old `kdtree` digest (nodes and hits in one)
/// was split into `kdtree nodes` and `kdtree hits`, and `chunk kdtree hits` added (issue 33's
/// raycasts, fourth round), on unchanged trees and pinned to their values, so that a change of the
/// trees' shape can be told from a change of their answers. `kdtree nodes` was re-pinned when each
/// branch began to mark which of its children are leaves (issue 33's raycasts, fifth round): the
/// same trees, new bits in the branches, every hit digest unchanged.
const EXPECTED: &[(&str, [u64; 17])] = &[
    (
        "hills",
        [
            0x9ffcae9385eeaec1,
            0x31896d83d79a5580,
            0xa70522c2e9497690,
            0xcbe73cd129e48fa6,
            0xbc34a145a396b25e,
            0x19bbcd8dd1c5197d,
            0x2282f43abb29f1ab,
            0xdb59f827a1a3fc9a,
            0x7356df427cc6c512,
            0x689328e6c325363d,
            0x9ad2247266093e24,
            0x05b5beb54282d527,
            0x836312f1191742ff,
            0x08a8f6625440faec,
            0x80d5a4d77b4dcf82,
            0x3ac423fe66e6d294,
            0x2f7b3f17b8a88711,
        ],
    ),
    (
        "mountains",
        [
            0xb66c0acb068ca0dc,
            0x66c8eeb6b646af3e,
            0xce5918dcc1f53695,
            0xb0673618655b227a,
            0x803b9227f3fdbee0,
            0xd47558eae9325e1a,
            0xd01a07d3bfe2e363,
            0x86972f9b37052ce8,
            0xb3a19c166836808b,
            0xe89ade91fd64e4de,
            0x621a1a97f031c1d1,
            0x149970c9ab02a572,
            0x15595b730f3ea719,
            0x98b47be3cff7600d,
            0xa1c7a7508343189c,
            0x457695bccd03c701,
            0x3fe9bef6e63aafe4,
        ],
    ),
    (
        "canyons",
        [
            0xabae0fdad5b4a441,
            0x27e310909167bf59,
            0x0646a2dcc6c3f8f6,
            0x965eeb41173f4484,
            0x3618c094367ee690,
            0x4bd294bb59f47d08,
            0x111c928190dc3eca,
            0xcc22e438adde969d,
            0x6195554d772a1138,
            0x8110e2d58e7bee5b,
            0xb1eda80038327b38,
            0x10c1afacea71968a,
            0x3cf4f800e97ece78,
            0xf31de5c3e42a21f4,
            0xa2b8d14ede7d4c77,
            0x03b3c87856fae989,
            0xe678e049cf8dfb60,
        ],
    ),
    (
        "islands",
        [
            0x38d34b03b5b5bb02,
            0x65b444e82dc43736,
            0x250988fca88fc38b,
            0xec8505f5a3f7fcea,
            0x9f4f83fd56097c65,
            0x3bfa8e97aaa9ced5,
            0xf59c09fe3af4eb58,
            0x4aca7e0a9470b947,
            0x6a15eacc4b4e5f95,
            0x93a510d083ec30d4,
            0xeef117c9b7f8ea3e,
            0xa27fdd11fee991d4,
            0x74df9600105660a5,
            0xddbcfd38c4159c52,
            0xad68f7f290fb67f4,
            0x2684d20e93150957,
            0x8254e05cdcc87a7e,
        ],
    ),
    (
        "flat",
        [
            0x6e83206053adddf5,
            0xd6a468c8c9c96ec5,
            0x4c7b29c3dca338a4,
            0x652749ef20c2ac6c,
            0x4acfa1b7bfbc6839,
            0xc02ba4de75b62398,
            0x33848caf7beba750,
            0x1d26b47a054372ca,
            0xc106096911d425ef,
            0x2e8fa84b8cf42f4c,
            0x3d6f3cc7b6b3438e,
            0xb2f09cf386da685a,
            0x72b90d48368f0125,
            0x14b905b26ca229ff,
            0xdd9a18fbffeaeca6,
            0xd7b69fe4f46623fa,
            0x9492369ee4367975,
        ],
    ),
    (
        "mix9",
        [
            0xb254344ccff51bc2,
            0xae11d76a9a570551,
            0x0da6484e1e6fa9b5,
            0x8440a73905e1dbfa,
            0x3ef90be995cbd491,
            0x9422e5f1e4cd19da,
            0x050516ee24ea3c11,
            0x2d5ed0bbf76a76ee,
            0x6196e729f5b2a3c6,
            0x9832d44261e3f5e0,
            0xaee0844b34a90025,
            0xf03f0a45ee24006f,
            0x3845c0af110e2c8b,
            0x1d8a8a87fa039e8a,
            0xa752be46e65fdebb,
            0x931540ae84a781e6,
            0x14d259e7d2098fe9,
        ],
    ),
    (
        "heightmap",
        [
            0x4e62c90de528e461,
            0x20180c7220c95e1b,
            0xda80bd87ea910c81,
            0x4977de4e2f2cbc28,
            0x96b3151a7830fc48,
            0x8956891f9419aa33,
            0xec48aa519cf13de2,
            0xb156a5f13f2ca981,
            0x06165382f9024c2b,
            0xd273ed0c5094147c,
            0xe6764bc74ebd5c53,
            0x1cb130e12c177094,
            0xc35e6f7626921c38,
            0x4ce6cbbdaf771c15,
            0x8d0c77e5521b823d,
            0xa8a63d4347ef72db,
            0xbea21722e4207070,
        ],
    ),
];

#[test]
fn every_derived_form_of_every_world_is_unchanged() {
    let table = MaterialTable::builtin();
    let got: Vec<(&str, [u64; 17])> = worlds(&table)
        .iter()
        .map(|w| {
            w.grid.assert_valid();
            (w.name, digests(w, &table))
        })
        .collect();
    let table_text: String = got
        .iter()
        .map(|(name, d)| {
            let list: Vec<String> = d.iter().map(|v| format!("0x{v:016x}")).collect();
            format!("    (\"{name}\", [{}]),\n", list.join(", "))
        })
        .collect();
    if std::env::var_os("STRATA_PRINT_DIGESTS").is_some() {
        println!("{table_text}");
    }
    assert_eq!(got.len(), EXPECTED.len(), "digest table:\n{table_text}");
    for ((name, d), (want_name, want)) in got.iter().zip(EXPECTED) {
        assert_eq!(name, want_name);
        for (k, aspect) in ASPECTS.iter().enumerate() {
            assert_eq!(
                d[k], want[k],
                "{name}: {aspect} differs from the code before\n{table_text}"
            );
        }
    }
}
