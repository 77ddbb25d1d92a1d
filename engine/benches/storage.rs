//! Storage benches: row and box reads against a plain dense array holding the same voxels, building
//! a chunk (row packing and mips, what loading a file does per chunk) against copying its dense
//! voxels, and the memory figures of `canyons 1024,256,1024 seed 1` (printed once; set STRATA_BENCH_SMALL=1 to skip
//! the big world).

mod common;

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use strata_engine::storage::{Chunk, Grid, MemoryReport};
use strata_engine::voxel::{ChunkPos, Voxel, VoxelBox, VoxelPos};

fn memory_figures() {
    if std::env::var_os("STRATA_BENCH_SMALL").is_some() {
        return;
    }
    let grid = common::canyons([1024, 256, 1024]);
    let m = MemoryReport::of(&grid);
    println!(
        "memory canyons 1024x256x1024 seed 1: {} non-air voxels; bytes per non-air voxel: \
         strata {:.3} (level 0 only {:.3}), plain row-packed {:.3}, unpacked 32^3 arrays {:.3}",
        m.nonair_voxels,
        m.per_voxel(m.total_bytes),
        m.per_voxel(m.level0_bytes),
        m.per_voxel(m.plain_row_packed_bytes),
        m.per_voxel(m.unpacked_bytes),
    );
}

/// The world as one dense array over its chunk-aligned bounds, X fastest.
struct Dense {
    min: VoxelPos,
    size: [usize; 3],
    voxels: Vec<Voxel>,
}

impl Dense {
    fn of(grid: &Grid) -> Self {
        let b = world_box(grid);
        Self {
            min: b.min,
            size: b.size(),
            voxels: grid.read_box_vec(b),
        }
    }

    fn row(&self, y: i32, z: i32, x0: i32, len: usize) -> &[Voxel] {
        let i = ((z - self.min.z) as usize * self.size[1] + (y - self.min.y) as usize)
            * self.size[0]
            + (x0 - self.min.x) as usize;
        &self.voxels[i..i + len]
    }

    fn read_box(&self, b: VoxelBox, out: &mut [Voxel]) {
        let [sx, sy, _] = b.size();
        let mut o = 0;
        for z in b.min.z..b.max.z {
            for y in b.min.y..b.max.y {
                out[o..o + sx].copy_from_slice(self.row(y, z, b.min.x, sx));
                o += sx;
            }
        }
        debug_assert_eq!(o, sx * sy * b.size()[2]);
    }
}

fn world_box(grid: &Grid) -> VoxelBox {
    let pos = grid.sorted_positions();
    let lo = pos.iter().fold(pos[0], |a, p| {
        ChunkPos::new(a.x.min(p.x), a.y.min(p.y), a.z.min(p.z))
    });
    let hi = pos.iter().fold(pos[0], |a, p| {
        ChunkPos::new(a.x.max(p.x), a.y.max(p.y), a.z.max(p.z))
    });
    VoxelBox::new(
        lo.min_voxel(),
        ChunkPos::new(hi.x + 1, hi.y + 1, hi.z + 1).min_voxel(),
    )
}

fn sum_occupancy(row: &[Voxel]) -> u32 {
    row.iter().map(|v| u32::from(v.occupancy)).sum()
}

fn reads(c: &mut Criterion) {
    memory_figures();
    let grid = common::canyons(common::timing_size());
    let dense = Dense::of(&grid);
    let positions = grid.sorted_positions();
    let voxels = (positions.len() * 32 * 32 * 32) as u64;

    let mut g = c.benchmark_group("read_row");
    g.throughput(Throughput::Elements(voxels));
    g.bench_function("strata", |b| {
        b.iter(|| {
            let mut s = 0u32;
            for &p in &positions {
                let chunk = grid.chunk(p).expect("stored");
                for z in 0..32 {
                    for y in 0..32 {
                        s = s.wrapping_add(sum_occupancy(chunk.read_row(y, z)));
                    }
                }
            }
            black_box(s)
        });
    });
    g.bench_function("dense_array", |b| {
        b.iter(|| {
            let mut s = 0u32;
            for &p in &positions {
                let o = p.min_voxel();
                for z in 0..32 {
                    for y in 0..32 {
                        s = s.wrapping_add(sum_occupancy(dense.row(o.y + y, o.z + z, o.x, 32)));
                    }
                }
            }
            black_box(s)
        });
    });
    g.finish();

    // Unaligned boxes spread over the world.
    let wb = world_box(&grid);
    let boxes: Vec<VoxelBox> = (0..64)
        .map(|i| {
            let [sx, sy, sz] = wb.size().map(|s| s as i32);
            let min = VoxelPos::new(
                wb.min.x + (i * 37) % (sx - 48),
                wb.min.y + (i * 13) % (sy - 48),
                wb.min.z + (i * 53) % (sz - 48),
            );
            VoxelBox::from_min_size(min, [48, 48, 48])
        })
        .collect();
    let mut out = vec![Voxel::AIR; 48 * 48 * 48];
    let mut g = c.benchmark_group("read_box_48");
    g.throughput(Throughput::Elements(boxes.len() as u64 * 48 * 48 * 48));
    g.bench_function("strata", |b| {
        b.iter(|| {
            for bx in &boxes {
                grid.read_box(*bx, &mut out);
            }
            black_box(out[7])
        });
    });
    g.bench_function("dense_array", |b| {
        b.iter(|| {
            for bx in &boxes {
                dense.read_box(*bx, &mut out);
            }
            black_box(out[7])
        });
    });
    g.finish();
}

/// Building every chunk of the timing world from its dense voxels, as a file load does after
/// decoding, against the plain copy an unpacked store would make.
fn builds(c: &mut Criterion) {
    let grid = common::canyons(common::timing_size());
    let dense: Vec<Vec<Voxel>> = grid
        .sorted_positions()
        .into_iter()
        .map(|p| {
            let mut v = vec![Voxel::AIR; Chunk::VOLUME];
            grid.read_box(VoxelBox::from_min_size(p.min_voxel(), [32, 32, 32]), &mut v);
            v
        })
        .collect();
    let mut g = c.benchmark_group("build_chunk");
    g.throughput(Throughput::Elements((dense.len() * Chunk::VOLUME) as u64));
    g.bench_function("strata", |b| {
        b.iter(|| {
            for v in &dense {
                black_box(Chunk::from_dense(v));
            }
        });
    });
    g.bench_function("dense_copy", |b| {
        b.iter(|| {
            for v in &dense {
                black_box(v.clone());
            }
        });
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = reads, builds
}
criterion_main!(benches);
