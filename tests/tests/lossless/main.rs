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
//!   raycasts;
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

use derived_forms::{floating, kdtrees, light, meshes, nodes, physics, render};
use voxel_forms::{boxes, file, gets, godot, region, rows, stats, voxels};
use worlds::{worlds, World};

const ASPECTS: [&str; 15] = [
    "voxels", "rows", "boxes", "gets", "stats", "file", "mesh", "node", "physics", "kdtree",
    "render", "floating", "region", "godot", "light",
];

fn digests(w: &World, table: &MaterialTable) -> [u64; 15] {
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
        kdtrees(w, table),
        render(w, table),
        floating(w, table),
        region(w),
        godot(w),
        light(w, table),
    ]
}

/// The digests of the code before the speed-ups, per world in the order of [`worlds`], per aspect in
/// the order of [`ASPECTS`].
const EXPECTED: &[(&str, [u64; 15])] = &[
    (
        "hills",
        [
            0x35f9671689e652bf,
            0x4743eccf5bddfb16,
            0x3f478f34ee0a1ded,
            0xd443a9c6a16779f4,
            0x3182b4e550e705bd,
            0xf34daa19be7f9588,
            0xf01a98d18978a6d1,
            0xad5a37f219d0dbd3,
            0xab6a1e5d67a5f566,
            0xfe863feea95a3439,
            0x62b9b9a46ea00218,
            0x7239330968263c28,
            0x46fc143616ca04e5,
            0x582fe62a0ead17e0,
            0x2f7b3f17b8a88711,
        ],
    ),
    (
        "mountains",
        [
            0x79855ef2e98a0744,
            0xcd85493ce2a23c32,
            0xb4af05b2dc0539c5,
            0xfbea4585889ca5a6,
            0xf80cf024a6bcbc2d,
            0x387d4b8cf09cce0d,
            0xac0f359fc6b81f4b,
            0x7c16a520141ddd2a,
            0xf6a9e0ad29dbe917,
            0x3b087b46e5b294af,
            0xeb29dd52aa2f902a,
            0xf9810a2802f87377,
            0xd1eb28ad4b7cc06e,
            0x829f0597f0921199,
            0x3fe9bef6e63aafe4,
        ],
    ),
    (
        "canyons",
        [
            0x6d3549cf47d6920c,
            0xee52e189788d01b4,
            0xe73dde72b319071a,
            0x74a07722c9bcb209,
            0x0882711c51a5988e,
            0x9ba4b436de0aaa54,
            0x13fd9e49676ff36e,
            0xa8f973dfbb9568f5,
            0xa9aeabf22423a18c,
            0x44a3f01ca7c196c1,
            0xedc3ef3d07cda01a,
            0x8b90f99d4e55d26d,
            0x9a584022ac411d61,
            0x880791a1e24341af,
            0xe678e049cf8dfb60,
        ],
    ),
    (
        "islands",
        [
            0xd2a5c353aba168c5,
            0xd0d0a2baf29ecc75,
            0x143401a4158cb320,
            0xe88b931e1f321f1e,
            0xd4de920cf21ce2cf,
            0x47cedcf7454419a5,
            0xceb277ed912a49b6,
            0x0feb18e06ea5c42f,
            0xd4cb9699e685c59d,
            0x80c566e2ef5a1c50,
            0x9013f3e20678860f,
            0x3c4accf684cb0356,
            0xf4381a0efbd4d276,
            0x79874aa864468552,
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
            0x39a95ee9f84252e7,
            0xd4b30ecad8550e47,
            0x9016234a0ea67928,
            0xc106096911d425ef,
            0x4d9dd2e90b235016,
            0x72b90d48368f0125,
            0x78fbd9f0da2e6839,
            0xdd9a18fbffeaeca6,
            0xd7b69fe4f46623fa,
            0x9492369ee4367975,
        ],
    ),
    (
        "mix9",
        [
            0xebde8c721067fd27,
            0xe01ef91ab67eb928,
            0xdad601048ed17e47,
            0xf27844eda0e980a7,
            0x64380d1648e75ed6,
            0x5b906ce852b62082,
            0x1bfd72e5678dd085,
            0xdd35383cd5d30f27,
            0xf8f50bbc31fa41ca,
            0x34059f4a5c19c235,
            0x9ba9e763bf8eff85,
            0x7289780966b70fdd,
            0x39dc40bf1d791fd2,
            0xfa2c422991b38747,
            0x3657f722ead93c61,
        ],
    ),
    (
        "heightmap",
        [
            0xfee15209cf5d465d,
            0x794a5c1df8f41537,
            0xc0f7deadc46d3392,
            0x06981308a2e5ef3b,
            0x9ca59110ffec372b,
            0x69361693ca583ced,
            0x78bd622e2c7cbbb1,
            0xd438c4fce1a1ec00,
            0x3251076949d2ba07,
            0x143f76439e68bc74,
            0xb970a83b9c23dcce,
            0x2e2d5bedbe690eb4,
            0x8cdac0e8dd73c006,
            0x02802f142f82499d,
            0xbea21722e4207070,
        ],
    ),
];

#[test]
fn every_derived_form_of_every_world_is_unchanged() {
    let table = MaterialTable::builtin();
    let got: Vec<(&str, [u64; 15])> = worlds(&table)
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
