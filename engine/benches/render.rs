//! Top-down render and heightmap import on the 1024×256×1024 `canyons` world (seed 1).
//!
//! - `render_topdown` into 512², 1024² (full resolution) and 128² (thumbnail) images: the 512² map
//!   reads the 16³ mips, the thumbnail the 4³ ones.
//! - `heightmap_grid` of a 1024² 16-bit map (a fixed sum of sines) into a 1024×256×1024 world.

#[allow(dead_code)] // this bench uses only the world builder
mod common;

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use strata_engine::gen::{heightmap_grid, Heightmap, HeightmapSettings};
use strata_engine::progress::Progress;
use strata_engine::render::render_topdown;
use strata_engine::voxel::MaterialTable;

fn bench_render(c: &mut Criterion) {
    let grid = common::canyons([1024, 256, 1024]);
    let table = MaterialTable::builtin();
    let mut g = c.benchmark_group("render_topdown_1024_world");
    g.sample_size(10);
    for side in [128u32, 512, 1024] {
        g.bench_function(format!("{side}x{side}"), |b| {
            b.iter(|| black_box(render_topdown(&grid, &table, side, side)))
        });
    }
    g.finish();
}

fn bench_heightmap(c: &mut Criterion) {
    let side = 1024u32;
    let samples = (0..side * side)
        .map(|i| {
            let (x, z) = ((i % side) as f32, (i / side) as f32);
            let h = 0.5 + 0.25 * (x / 37.0).sin() * (z / 53.0).cos() + 0.2 * (x / 211.0).sin();
            (h.clamp(0.0, 1.0) * 65535.0) as u16
        })
        .collect();
    let map = Heightmap {
        width: side,
        depth: side,
        samples,
    };
    let settings = HeightmapSettings {
        size: [side, side],
        height: 256,
        smooth_radius: 0,
    };
    let table = MaterialTable::builtin();
    let mut g = c.benchmark_group("heightmap_import");
    g.sample_size(10);
    g.bench_function("1024x1024_to_1024x256x1024", |b| {
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
    g.finish();
}

criterion_group!(benches, bench_render, bench_heightmap);
criterion_main!(benches);
