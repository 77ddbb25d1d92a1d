//! The seeded worlds the digests are taken of, and seeded samples inside them.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use strata_engine::format::project::ProjectHeader;
use strata_engine::gen::{
    generate_world, heightmap_grid, BiomeSettings, GeneratorSettings, Heightmap, HeightmapSettings,
    Preset, WorldSettings,
};
use strata_engine::progress::Progress;
use strata_engine::storage::Grid;
use strata_engine::voxel::{MaterialTable, VoxelBox, VoxelPos};

/// One world with the header its file gets and its bounds.
pub struct World {
    pub name: &'static str,
    pub grid: Grid,
    pub header: ProjectHeader,
    pub bounds: VoxelBox,
}

/// Every preset, the biome mix and a heightmap import (see the test's module docs).
pub fn worlds(table: &MaterialTable) -> Vec<World> {
    let mut out = Vec::new();
    let generated = |name, settings: WorldSettings| {
        let grid = generate_world(&settings, table, &Progress::new()).expect("generates");
        let bounds = settings.bounds();
        let mut header = ProjectHeader::new(name, bounds);
        header.set_world(&settings);
        World {
            name,
            grid,
            header,
            bounds,
        }
    };
    for preset in Preset::ALL {
        let settings = WorldSettings::from_preset(&GeneratorSettings {
            preset,
            size: [160, 96, 160],
            seed: 5,
        });
        out.push(generated(preset.name(), settings));
    }
    let mix = BiomeSettings {
        biome_size: 64,
        ..BiomeSettings::default()
    };
    out.push(generated(
        "mix9",
        WorldSettings::with_biomes([256, 96, 256], 5, mix),
    ));
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let (w, d) = (128u32, 128u32);
    let bumps: Vec<[f32; 4]> = (0..12)
        .map(|_| {
            [
                rng.random_range(0.0..128.0),
                rng.random_range(0.0..128.0),
                rng.random_range(6.0..30.0),
                rng.random_range(-9000.0..16000.0),
            ]
        })
        .collect();
    let samples = (0..w * d)
        .map(|i| {
            let (x, z) = ((i % w) as f32, (i / w) as f32);
            let h = 20000.0
                + 3000.0 * (x * 0.11).sin() * (z * 0.07).cos()
                + bumps
                    .iter()
                    .map(|b| {
                        let r2 = ((x - b[0]).powi(2) + (z - b[1]).powi(2)) / (b[2] * b[2]);
                        b[3] * (-r2).exp()
                    })
                    .sum::<f32>();
            (h + rng.random_range(0.0..40.0)).clamp(0.0, 65535.0) as u16
        })
        .collect();
    let map = Heightmap {
        width: w,
        depth: d,
        samples,
    };
    let settings = HeightmapSettings {
        size: [160, 160],
        height: 96,
        smooth_radius: 3,
    };
    let grid = heightmap_grid(&map, None, &settings, table, &Progress::new()).expect("imports");
    let bounds = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(160, 96, 160));
    out.push(World {
        name: "heightmap",
        grid,
        header: ProjectHeader::new("heightmap", bounds),
        bounds,
    });
    out
}

pub fn random_box(rng: &mut ChaCha8Rng, bounds: VoxelBox, max_edge: u32) -> VoxelBox {
    let min = VoxelPos::new(
        rng.random_range(bounds.min.x - 8..bounds.max.x),
        rng.random_range(bounds.min.y - 8..bounds.max.y),
        rng.random_range(bounds.min.z - 8..bounds.max.z),
    );
    let size = [0; 3].map(|_| rng.random_range(1..=max_edge));
    VoxelBox::from_min_size(min, size)
}

pub fn random_ray(rng: &mut ChaCha8Rng, bounds: VoxelBox) -> ([f32; 3], [f32; 3]) {
    let lo = [bounds.min.x, bounds.min.y, bounds.min.z].map(|v| v as f32);
    let hi = [bounds.max.x, bounds.max.y, bounds.max.z].map(|v| v as f32);
    let origin: [f32; 3] = std::array::from_fn(|a| rng.random_range(lo[a] - 4.0..hi[a] + 4.0));
    let target: [f32; 3] = std::array::from_fn(|a| rng.random_range(lo[a]..hi[a]));
    (origin, std::array::from_fn(|a| target[a] - origin[a]))
}
