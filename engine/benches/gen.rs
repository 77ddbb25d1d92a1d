//! Terrain generation: a 1024×256×1024 world of mixed biomes with caves, beside the `hills` preset
//! of the same size (the peer), then the New World preview and heightmap import.
//!
//! - `generate_1024x256x1024`: `mix9_caves` (the nine Roblox biomes, biome size 256, caves on,
//!   seed 1) and `hills` (one biome, caves on). Memory per non-air voxel of the mixed world is
//!   printed once, before the timings.
//! - `preview`: `preview_topdown` of the same mixed settings at 256² and 128² (what the New World
//!   dialog draws per change), beside `render_topdown` of the generated world at 256² (reading its
//!   mips; the world itself takes the `generate` time above to make).
//! - `heightmap_import_1024`: a 1024² 16-bit map of the `mountains` preset's surface into a
//!   1024×256×1024 world, without and with terrace smoothing (radius 8).
//! - `generate_one_thread_256x128x256`: every preset's chunk columns filled in order on one thread
//!   (`Terrain::fill_column`), the generator's own cost without rayon.
//!
//! `STRATA_BENCH_SMALL=1` uses 512×128×512 worlds and a 512² map.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use strata_engine::gen::{
    generate_world, heightmap_grid, preview_topdown, BiomeSettings, GeneratorSettings, Heightmap,
    HeightmapSettings, Preset, Terrain, WorldSettings,
};
use strata_engine::progress::Progress;
use strata_engine::render::render_topdown;
use strata_engine::storage::MemoryReport;
use strata_engine::voxel::MaterialTable;

fn size() -> [u32; 3] {
    if std::env::var_os("STRATA_BENCH_SMALL").is_some() {
        [512, 128, 512]
    } else {
        [1024, 256, 1024]
    }
}

fn mix(size: [u32; 3]) -> WorldSettings {
    WorldSettings::with_biomes(size, 1, BiomeSettings::default())
}

fn hills(size: [u32; 3]) -> WorldSettings {
    WorldSettings::from_preset(&GeneratorSettings {
        preset: Preset::Hills,
        size,
        seed: 1,
    })
}

fn bench_generate(c: &mut Criterion) {
    let size = size();
    let table = MaterialTable::builtin();
    let grid = generate_world(&mix(size), &table, &Progress::new()).expect("generates");
    let m = MemoryReport::of(&grid);
    println!(
        "mix9_caves {}x{}x{}: {} chunks, {} non-air voxels, {:.3} B/voxel in memory (level 0: {:.3})",
        size[0],
        size[1],
        size[2],
        m.chunks,
        m.nonair_voxels,
        m.per_voxel(m.total_bytes),
        m.per_voxel(m.level0_bytes)
    );
    drop(grid);
    let mut g = c.benchmark_group(format!("generate_{}x{}x{}", size[0], size[1], size[2]));
    g.sample_size(10);
    for (name, world) in [("mix9_caves", mix(size)), ("hills", hills(size))] {
        g.bench_function(name, |b| {
            b.iter(|| {
                black_box(generate_world(&world, &table, &Progress::new())).expect("generates")
            })
        });
    }
    g.finish();
}

fn bench_preview(c: &mut Criterion) {
    let size = size();
    let table = MaterialTable::builtin();
    let world = mix(size);
    let grid = generate_world(&world, &table, &Progress::new()).expect("generates");
    let mut g = c.benchmark_group("preview");
    g.sample_size(20);
    for side in [256, 128] {
        g.bench_function(format!("preview_topdown_from_settings_{side}"), |b| {
            b.iter(|| black_box(preview_topdown(&world, &table, side)).expect("previews"))
        });
    }
    g.bench_function("render_topdown_of_generated_world", |b| {
        b.iter(|| black_box(render_topdown(&grid, &table, 256, 256)))
    });
    g.finish();
}

fn bench_heightmap(c: &mut Criterion) {
    let side = size()[0];
    let settings = GeneratorSettings {
        preset: Preset::Mountains,
        size: [side, 256, side],
        seed: 1,
    };
    let terrain = Terrain::new(&settings, &MaterialTable::builtin()).expect("terrain");
    let samples = (0..side * side)
        .map(|i| {
            let h = terrain.height_at((i % side) as i32, (i / side) as i32) / 256.0;
            (h.clamp(0.0, 1.0) * 65535.0).round() as u16
        })
        .collect();
    let map = Heightmap {
        width: side,
        depth: side,
        samples,
    };
    let table = MaterialTable::builtin();
    let mut g = c.benchmark_group(format!("heightmap_import_{side}"));
    g.sample_size(10);
    for radius in [0, 8] {
        let settings = HeightmapSettings {
            size: [side, side],
            height: 256,
            smooth_radius: radius,
        };
        g.bench_function(format!("smooth_{radius}"), |b| {
            b.iter(|| {
                black_box(heightmap_grid(
                    &map,
                    None,
                    &settings,
                    &table,
                    &Progress::new(),
                ))
                .expect("builds")
            })
        });
    }
    g.finish();
}

fn bench_one_thread(c: &mut Criterion) {
    let table = MaterialTable::builtin();
    let mut g = c.benchmark_group("generate_one_thread_256x128x256");
    g.sample_size(10);
    for preset in Preset::ALL {
        let settings = GeneratorSettings {
            preset,
            size: [256, 128, 256],
            seed: 1,
        };
        let terrain = Terrain::new(&settings, &table).expect("valid settings");
        g.bench_function(preset.to_string(), |b| {
            b.iter(|| {
                let mut chunks = 0usize;
                for (cx, cz) in terrain.chunk_columns() {
                    terrain.fill_column(cx, cz, &mut |_, c| {
                        chunks += 1;
                        black_box(c);
                    });
                }
                chunks
            })
        });
    }
    g.finish();
}

criterion_group!(
    benches,
    bench_generate,
    bench_preview,
    bench_heightmap,
    bench_one_thread
);
criterion_main!(benches);
