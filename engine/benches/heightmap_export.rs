//! Heightmap export of the 1024×256×1024 `canyons` world (seed 1) against a plain top-voxel scan of
//! the same world in the same run.
//!
//! - `top_voxel_scan` (the peer): per column, the highest voxel at least half full, read top down row
//!   by row in parallel over chunk columns: whole-voxel heights, no overhang count, no materials.
//! - `scan_top_surface`: the export's scan (sub-voxel heights from occupancy, surface materials, and
//!   every column walked to the bottom to count overhangs).
//! - `export_world_size`: scan + 16-bit samples at one pixel per column.
//! - `export_1025_splat_layers`: scan, resampled to Unity's 1025², splat map and weight layers.
//!
//! After the criterion groups, a summary times each once more (best of 3) and prints its ratio to the
//! peer.

#[allow(dead_code)] // this bench uses only the world builder
mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use rayon::prelude::*;
use strata_engine::export::{export_terrain_maps, scan_top_surface, TerrainMapsRequest};
use strata_engine::progress::Progress;
use strata_engine::storage::{Grid, RowBuf};
use strata_engine::voxel::{ChunkPos, MaterialTable, VoxelBox, VoxelPos, CHUNK_SIZE};

const SIZE: [u32; 3] = [1024, 256, 1024];

fn world_box() -> VoxelBox {
    VoxelBox::new(
        VoxelPos::new(0, 0, 0),
        VoxelPos::new(SIZE[0] as i32, SIZE[1] as i32, SIZE[2] as i32),
    )
}

/// The peer: the highest voxel at least half full per column (whole voxels), as a naive exporter
/// would read it.
fn top_voxel_scan(grid: &Grid) -> Vec<u16> {
    let n = CHUNK_SIZE;
    let (cx, cy, cz) = (
        SIZE[0] as usize / n,
        SIZE[1] as usize / n,
        SIZE[2] as usize / n,
    );
    let tiles: Vec<Vec<u16>> = (0..cx * cz)
        .into_par_iter()
        .map(|c| {
            let (x, z) = ((c % cx) as i32, (c / cx) as i32);
            let mut tile = vec![0u16; n * n];
            let mut found = vec![false; n * n];
            let mut buf = RowBuf::new();
            for y in (0..cy as i32).rev() {
                let Some(chunk) = grid.chunk(ChunkPos::new(x, y, z)) else {
                    continue;
                };
                for ly in (0..n).rev() {
                    for lz in 0..n {
                        let row = chunk.read_row(ly, lz, &mut buf);
                        for (lx, v) in row.iter().enumerate() {
                            let i = lz * n + lx;
                            if !found[i] && v.occupancy_f32() >= 0.5 {
                                found[i] = true;
                                tile[i] = (y as usize * n + ly + 1) as u16;
                            }
                        }
                    }
                }
            }
            tile
        })
        .collect();
    tiles.into_iter().flatten().collect()
}

fn request(size: Option<[u32; 2]>, maps: bool) -> TerrainMapsRequest {
    TerrainMapsRequest {
        region: world_box(),
        size,
        splat: maps,
        layers: maps,
    }
}

fn best_of_3(mut f: impl FnMut()) -> Duration {
    (0..3)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn bench_export(c: &mut Criterion) {
    let grid = common::canyons(SIZE);
    let table = MaterialTable::builtin();
    let liquid: [bool; 64] = std::array::from_fn(|i| table.get(i as u8).is_some_and(|m| m.liquid));
    let mut g = c.benchmark_group("heightmap_export_1024x256x1024");
    g.sample_size(10);
    g.bench_function("top_voxel_scan", |b| {
        b.iter(|| black_box(top_voxel_scan(&grid)))
    });
    g.bench_function("scan_top_surface", |b| {
        b.iter(|| {
            black_box(scan_top_surface(
                &grid,
                world_box(),
                &liquid,
                &Progress::new(),
            ))
        })
    });
    g.bench_function("export_world_size", |b| {
        b.iter(|| {
            black_box(export_terrain_maps(
                &grid,
                &table,
                &request(None, false),
                &Progress::new(),
            ))
        })
    });
    g.bench_function("export_1025_splat_layers", |b| {
        b.iter(|| {
            black_box(export_terrain_maps(
                &grid,
                &table,
                &request(Some([1025, 1025]), true),
                &Progress::new(),
            ))
        })
    });
    g.finish();
    let peer = best_of_3(|| {
        black_box(top_voxel_scan(&grid));
    });
    let rows: [(&str, Duration); 3] = [
        (
            "scan_top_surface",
            best_of_3(|| {
                let _ = black_box(scan_top_surface(
                    &grid,
                    world_box(),
                    &liquid,
                    &Progress::new(),
                ));
            }),
        ),
        (
            "export_world_size",
            best_of_3(|| {
                let _ = black_box(export_terrain_maps(
                    &grid,
                    &table,
                    &request(None, false),
                    &Progress::new(),
                ));
            }),
        ),
        (
            "export_1025_splat_layers",
            best_of_3(|| {
                let _ = black_box(export_terrain_maps(
                    &grid,
                    &table,
                    &request(Some([1025, 1025]), true),
                    &Progress::new(),
                ));
            }),
        ),
    ];
    println!("heightmap export summary (best of 3), peer top_voxel_scan {peer:.2?}:");
    for (name, t) in rows {
        println!(
            "  {name}: {t:.2?} = {:.2}x the top-voxel scan",
            t.as_secs_f64() / peer.as_secs_f64().max(1e-9)
        );
    }
}

criterion_group!(benches, bench_export);
criterion_main!(benches);
