//! Storage benches: row and box reads against a plain dense array holding the same voxels, building
//! a chunk (row packing and mips, what loading a file does per chunk) against copying its dense
//! voxels, and the memory and file figures of the goal worlds.
//!
//! Printed before the criterion groups (`-- nomatch` prints only these lines):
//! - per goal world (`canyons`, `mountains`, `hills` 1024×256×1024 seed 1 and the nine-biome mix;
//!   `STRATA_BENCH_SMALL=1` skips them, `STRATA_BENCH_WORLD=canyons` keeps only that one): bytes per non-air voxel of the voxel data (level 0), of
//!   everything (hash table, chunk structs, level 0, mips), of the plain row-packed layout and of
//!   plain 32³ arrays; the plain layout against the voxel data; RLE and RLE+LZ4 bytes per non-air
//!   voxel (version 1 files' chunk records) and the column-coded records version 2 files store, with
//!   their ratio to RLE+LZ4; the wall and CPU time to encode the whole project file (the save
//!   without the disk) and to decode it (`Project::from_bytes`, the load), version 1 against version
//!   2, best of three alternated rounds;
//! - `read_row` and unaligned 48³ `read_box` time against the dense array on the 256×128×256
//!   `canyons` world: best of interleaved rounds (strata, then the array, repeated), so load from
//!   other processes hits both alike. `STRATA_BENCH_BOX_REPEAT=N` then reads the boxes N more times
//!   (strata only), for `perf record`.

mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rayon::prelude::*;
use strata_engine::format::project::{
    encode_chunk_rle, encoded_sizes, Project, ProjectHeader, MAGIC,
};
use strata_engine::storage::{Chunk, Grid, MemoryReport, RowBuf};
use strata_engine::voxel::{ChunkPos, Voxel, VoxelBox, VoxelPos};

fn memory_figures() {
    if std::env::var_os("STRATA_BENCH_SMALL").is_some() {
        return;
    }
    let only = std::env::var("STRATA_BENCH_WORLD").ok();
    for (name, world) in common::goal_worlds([1024, 256, 1024]) {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let grid = common::generate_settings(&world);
        let m = MemoryReport::of(&grid);
        let sizes = encoded_sizes(&grid);
        file_figures(name, ProjectHeader::new(name, world.bounds()), &grid);
        let per = |b: u64| m.per_voxel(b);
        // The plain layout's level 0 alone: 2-byte headers for all 1024 rows, every allocated row.
        let plain_level0: u64 = grid
            .chunks()
            .map(|(_, c)| 1024 * 2 + c.level0().allocated_rows() as u64 * 32 * 2)
            .sum();
        println!(
            "memory {name} 1024x256x1024 seed 1: {} non-air voxels; bytes per non-air voxel: \
             voxel data (level 0) {:.3}, everything {:.3}; plain row-packed everything {:.3} \
             ({:.2}x the voxel data), its level 0 {:.3} ({:.2}x); unpacked 32^3 arrays {:.3}; \
             file RLE {:.3}, RLE+LZ4 {:.3}, columns {:.4} ({:.2}x smaller than RLE+LZ4)",
            m.nonair_voxels,
            per(m.level0_bytes),
            per(m.total_bytes),
            per(m.plain_row_packed_bytes),
            m.plain_row_packed_bytes as f64 / m.level0_bytes as f64,
            per(plain_level0),
            plain_level0 as f64 / m.level0_bytes as f64,
            per(m.unpacked_bytes),
            per(sizes.rle_bytes),
            per(sizes.rle_lz4_bytes),
            per(sizes.column_bytes),
            sizes.rle_lz4_bytes as f64 / sizes.column_bytes as f64,
        );
    }
}

/// A version 1 file of `grid` (RLE+LZ4 chunk records), assembled here from its spec
/// (`docs/formats/strata.md`) since this build writes version 2; chunks encoded in parallel like
/// the writer did.
fn version1_file(header: &ProjectHeader, grid: &Grid) -> Vec<u8> {
    fn section(out: &mut Vec<u8>, tag: &[u8; 4], payload: &[u8]) {
        let start = out.len();
        out.extend_from_slice(tag);
        out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        out.extend_from_slice(&crc32fast::hash(payload).to_le_bytes());
        let header_crc = crc32fast::hash(&out[start..]);
        out.extend_from_slice(&header_crc.to_le_bytes());
        out.extend_from_slice(payload);
    }
    let records: Vec<(ChunkPos, u32, Vec<u8>)> = grid
        .sorted_positions()
        .par_iter()
        .map(|&pos| {
            let mut rle = Vec::new();
            encode_chunk_rle(grid.chunk(pos).expect("stored"), &mut rle);
            (pos, rle.len() as u32, lz4_flex::block::compress(&rle))
        })
        .collect();
    let mut chunks = (records.len() as u32).to_le_bytes().to_vec();
    let mut offset = (4 + 32 * records.len()) as u64;
    for (pos, rle_len, lz4) in &records {
        for c in [pos.x, pos.y, pos.z] {
            chunks.extend_from_slice(&c.to_le_bytes());
        }
        chunks.extend_from_slice(&offset.to_le_bytes());
        chunks.extend_from_slice(&(lz4.len() as u32).to_le_bytes());
        chunks.extend_from_slice(&rle_len.to_le_bytes());
        chunks.extend_from_slice(&crc32fast::hash(lz4).to_le_bytes());
        offset += lz4.len() as u64;
    }
    for (_, _, lz4) in &records {
        chunks.extend_from_slice(lz4);
    }
    let mut file = MAGIC.to_vec();
    file.extend_from_slice(&1u32.to_le_bytes());
    section(
        &mut file,
        b"HEAD",
        header.to_ron().expect("header").as_bytes(),
    );
    section(&mut file, b"CHNK", &chunks);
    section(&mut file, b"END ", &[]);
    file
}

/// Wall and CPU seconds of `f`, with its result.
fn timed<T>(f: impl FnOnce() -> T) -> (T, f64, f64) {
    let (t, c) = (Instant::now(), common::cpu_seconds());
    let out = f();
    (out, t.elapsed().as_secs_f64(), common::cpu_seconds() - c)
}

/// Save (encode the file, no disk) and load (`Project::from_bytes`) of version 1 against version 2,
/// alternated, three rounds: best wall and CPU seconds of each.
fn file_figures(name: &str, header: ProjectHeader, grid: &Grid) {
    let project = Project::new(header.clone(), grid.clone());
    let mut best = [[f64::MAX; 2]; 4];
    let mut lens = [0; 2];
    for _ in 0..3 {
        let (v1, w, c) = timed(|| version1_file(&header, grid));
        best[0] = [best[0][0].min(w), best[0][1].min(c)];
        let (v2, w, c) = timed(|| project.to_bytes().expect("encodes"));
        best[1] = [best[1][0].min(w), best[1][1].min(c)];
        for (k, bytes) in [&v1, &v2].into_iter().enumerate() {
            let (back, w, c) = timed(|| Project::from_bytes(bytes).expect("decodes"));
            best[2 + k] = [best[2 + k][0].min(w), best[2 + k][1].min(c)];
            assert!(back.grid == *grid, "the file loads to the same voxels");
            lens[k] = bytes.len();
        }
    }
    println!(
        "file {name} 1024x256x1024 seed 1: version 1 {} bytes, version 2 {} bytes ({:.2}x smaller); \
         save v1 {:.3} s ({:.2} s CPU), v2 {:.3} s ({:.2} s CPU): {:.2}x the CPU; load v1 {:.3} s \
         ({:.2} s CPU), v2 {:.3} s ({:.2} s CPU): {:.2}x the CPU (best of 3 alternated rounds)",
        lens[0],
        lens[1],
        lens[0] as f64 / lens[1] as f64,
        best[0][0],
        best[0][1],
        best[1][0],
        best[1][1],
        best[1][1] / best[0][1],
        best[2][0],
        best[2][1],
        best[3][0],
        best[3][1],
        best[3][1] / best[2][1],
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
    read_figures(&grid, &dense, &positions, &boxes);
    repeat_boxes(&grid, &boxes);

    let mut g = c.benchmark_group("read_row");
    g.throughput(Throughput::Elements(voxels));
    g.bench_function("strata", |b| b.iter(|| rows_strata(&grid, &positions)));
    g.bench_function("dense_array", |b| b.iter(|| rows_dense(&dense, &positions)));
    g.finish();

    let mut out = vec![Voxel::AIR; 48 * 48 * 48];
    let mut g = c.benchmark_group("read_box_48");
    g.throughput(Throughput::Elements(boxes.len() as u64 * 48 * 48 * 48));
    g.bench_function("strata", |b| {
        b.iter(|| boxes_strata(&grid, &boxes, &mut out))
    });
    g.bench_function("dense_array", |b| {
        b.iter(|| boxes_dense(&dense, &boxes, &mut out))
    });
    g.finish();
}

fn rows_strata(grid: &Grid, positions: &[ChunkPos]) -> u32 {
    let mut s = 0u32;
    let mut buf = RowBuf::new();
    for &p in positions {
        let chunk = grid.chunk(p).expect("stored");
        for z in 0..32 {
            for y in 0..32 {
                s = s.wrapping_add(sum_occupancy(chunk.read_row(y, z, &mut buf)));
            }
        }
    }
    black_box(s)
}

fn rows_dense(dense: &Dense, positions: &[ChunkPos]) -> u32 {
    let mut s = 0u32;
    for &p in positions {
        let o = p.min_voxel();
        for z in 0..32 {
            for y in 0..32 {
                s = s.wrapping_add(sum_occupancy(dense.row(o.y + y, o.z + z, o.x, 32)));
            }
        }
    }
    black_box(s)
}

fn boxes_strata(grid: &Grid, boxes: &[VoxelBox], out: &mut [Voxel]) -> Voxel {
    for bx in boxes {
        grid.read_box(*bx, out);
    }
    black_box(out[7])
}

fn boxes_dense(dense: &Dense, boxes: &[VoxelBox], out: &mut [Voxel]) -> Voxel {
    for bx in boxes {
        dense.read_box(*bx, out);
    }
    black_box(out[7])
}

/// The fastest of `rounds` alternating runs of `a` and `b`.
fn best_of(rounds: usize, mut a: impl FnMut(), mut b: impl FnMut()) -> (Duration, Duration) {
    let (mut ta, mut tb) = (Duration::MAX, Duration::MAX);
    for _ in 0..rounds {
        let t = Instant::now();
        a();
        ta = ta.min(t.elapsed());
        let t = Instant::now();
        b();
        tb = tb.min(t.elapsed());
    }
    (ta, tb)
}

/// The read ratios, printed before the criterion groups.
fn read_figures(grid: &Grid, dense: &Dense, positions: &[ChunkPos], boxes: &[VoxelBox]) {
    let (ts, td) = best_of(
        30,
        || {
            rows_strata(grid, positions);
        },
        || {
            rows_dense(dense, positions);
        },
    );
    println!(
        "read_row, every row of {} chunks (256x128x256 canyons): strata {:.3} ms, dense array {:.3} ms \
         -> strata / dense {:.2}x the time",
        positions.len(),
        ts.as_secs_f64() * 1e3,
        td.as_secs_f64() * 1e3,
        ts.as_secs_f64() / td.as_secs_f64()
    );
    let mut out = vec![Voxel::AIR; 48 * 48 * 48];
    let mut out2 = vec![Voxel::AIR; 48 * 48 * 48];
    let (ts, td) = best_of(
        30,
        || {
            boxes_strata(grid, boxes, &mut out);
        },
        || {
            boxes_dense(dense, boxes, &mut out2);
        },
    );
    assert_eq!(out, out2, "both read the same last box");
    println!(
        "read_box 48^3 unaligned, {} boxes: strata {:.3} ms, dense array {:.3} ms \
         -> strata / dense {:.2}x the time",
        boxes.len(),
        ts.as_secs_f64() * 1e3,
        td.as_secs_f64() * 1e3,
        ts.as_secs_f64() / td.as_secs_f64()
    );
}

/// `STRATA_BENCH_BOX_REPEAT=N`: read the boxes N more times (strata only), long enough for
/// `perf record`, and print the time per pass.
fn repeat_boxes(grid: &Grid, boxes: &[VoxelBox]) {
    let Some(n) = std::env::var("STRATA_BENCH_BOX_REPEAT")
        .ok()
        .and_then(|s| s.parse::<u32>().ok())
    else {
        return;
    };
    let mut out = vec![Voxel::AIR; 48 * 48 * 48];
    let t = Instant::now();
    for _ in 0..n {
        boxes_strata(grid, boxes, &mut out);
    }
    println!(
        "read_box repeated {n} times: strata {:.3} ms per pass",
        t.elapsed().as_secs_f64() * 1e3 / f64::from(n.max(1))
    );
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
