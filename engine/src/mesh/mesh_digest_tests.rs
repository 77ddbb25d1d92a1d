//! Lossless guard for the mesher's speed work: the exact bytes it emits (every vertex's position,
//! normal, materials and weights, every index list) on seeded worlds of every preset, the nine-biome
//! mix, a heightmap import and a water basin, hashed and compared with digests recorded from the
//! mesher before its optimisations. Chunks are meshed at every LOD (the narrow, row-bit path) and each
//! world once more as one wide box (the path for rows longer than 64 samples).
//!
//! A digest that changes means the mesh changed: a speed change must leave all of them alone.

use super::mesh_tests::{candidate_chunks, mesh_whole, pool_world, world};
use super::*;
use crate::gen::{
    generate_world, heightmap_grid, BiomeSettings, Heightmap, HeightmapSettings, Preset,
    WorldSettings,
};
use crate::progress::Progress;
use crate::storage::Grid;
use crate::voxel::MaterialTable;

/// FNV-1a, 64 bits: stable across Rust versions, unlike the standard library's hasher.
struct Fnv(u64);

impl Fnv {
    fn new() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }

    fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn u32s(&mut self, words: impl IntoIterator<Item = u32>) {
        for w in words {
            self.bytes(&w.to_le_bytes());
        }
    }
}

/// Everything a mesh holds, in order.
fn hash_buffer(h: &mut Fnv, buf: &MeshBuffer) {
    h.u32s([buf.positions.len() as u32]);
    h.u32s(buf.positions.iter().flatten().map(|c| c.to_bits()));
    h.u32s(buf.normals.iter().flatten().map(|c| c.to_bits()));
    for (m, w) in buf.materials.iter().zip(&buf.weights) {
        h.bytes(m);
        h.bytes(w);
    }
    for list in [&buf.solid_indices, &buf.water_indices, &buf.skirt_indices] {
        h.u32s([list.len() as u32]);
        h.u32s(list.iter().copied());
    }
}

/// Digest of `grid` meshed chunk by chunk at every LOD, then as one wide box.
fn digest(grid: &Grid) -> u64 {
    let table = MaterialTable::builtin();
    let mut h = Fnv::new();
    let mut buf = MeshBuffer::new();
    for pos in candidate_chunks(grid) {
        for lod in 0..=MAX_LOD {
            mesh_chunk(grid, pos, lod, &table, &mut buf).expect("meshes");
            buf.assert_valid();
            hash_buffer(&mut h, &buf);
        }
    }
    mesh_whole(grid, &table, &mut buf);
    hash_buffer(&mut h, &buf);
    h.0
}

/// A rolling heightmap with a ridge and a flat shelf, imported at 96×96, 60 voxels high.
fn heightmap_world() -> Grid {
    let (width, depth) = (48u32, 48u32);
    let samples = (0..depth)
        .flat_map(|z| {
            (0..width).map(move |x| {
                let (fx, fz) = (x as f32, z as f32);
                let wave = (fx * 0.31).sin() * (fz * 0.23).cos();
                let ridge = 1.0 - ((fx - fz).abs() / 24.0).min(1.0);
                let shelf = if x > 36 { 0.6 } else { 0.5 + 0.3 * wave };
                ((shelf + 0.35 * ridge).min(1.0) * 65535.0) as u16
            })
        })
        .collect();
    let map = Heightmap {
        width,
        depth,
        samples,
    };
    let settings = HeightmapSettings {
        size: [96, 96],
        height: 60,
        smooth_radius: 1,
    };
    heightmap_grid(
        &map,
        None,
        &settings,
        &MaterialTable::builtin(),
        &Progress::new(),
    )
    .expect("imports")
}

/// Digests recorded from the mesher before its speed work (commit 99c1d3a).
#[test]
fn mesher_output_is_unchanged_on_seeded_worlds() {
    let mut worlds: Vec<(String, Grid)> = Vec::new();
    for preset in Preset::ALL {
        for seed in [1, 7] {
            worlds.push((
                format!("{preset:?} seed {seed}"),
                world(preset, [96, 64, 96], seed),
            ));
        }
    }
    let mix = BiomeSettings {
        biome_size: 32,
        ..BiomeSettings::default()
    };
    let settings = WorldSettings::with_biomes([128, 64, 128], 5, mix);
    let grid =
        generate_world(&settings, &MaterialTable::builtin(), &Progress::new()).expect("generates");
    worlds.push(("nine-biome mix seed 5".into(), grid));
    worlds.push(("heightmap import".into(), heightmap_world()));
    worlds.push(("islands with a basin".into(), pool_world()));
    let got: Vec<String> = worlds
        .iter()
        .map(|(name, grid)| format!("{name}: {:016x}", digest(grid)))
        .collect();
    let expected = [
        "Hills seed 1: 68df5597822a9566",
        "Hills seed 7: a3dbbb8838073907",
        "Mountains seed 1: 3a62cd4ae586a133",
        "Mountains seed 7: b57478ec7477e578",
        "Canyons seed 1: 974be87543a4e0f9",
        "Canyons seed 7: df3fc0536b6c4eb5",
        "Islands seed 1: a71fb381d8b7651f",
        "Islands seed 7: 149116ed9de60f52",
        "Flat seed 1: 239d5f7fb0db780a",
        "Flat seed 7: 239d5f7fb0db780a",
        "nine-biome mix seed 5: c28e3c9535de641b",
        "heightmap import: a4c1e5cc23414003",
        "islands with a basin: b0c6295a9e9a0064",
    ];
    assert_eq!(got, expected, "mesher output changed");
}
