//! RLE benches on every chunk of one generated level: decode throughput against lz4_flex decompressing
//! the raw 2-byte chunk and a plain memcpy of it, plus RLE+LZ4 decode and RLE encode, and the column
//! coding of version 2 project files (decode and encode) beside RLE+LZ4, the version 1 records.
//!
//! Printed before the criterion groups (`-- nomatch` prints only these lines): the sizes, and the
//! time to decode every chunk's column record against its RLE+LZ4 record, best of five alternated
//! rounds.

mod common;

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::time::Instant;

use strata_engine::codec::{column_coder, rle};
use strata_engine::format::project::encode_chunk_rle;
use strata_engine::storage::Chunk;
use strata_engine::voxel::Voxel;

struct Inputs {
    rle: Vec<Vec<u8>>,
    rle_lz4: Vec<(Vec<u8>, usize)>,
    columns: Vec<Vec<u8>>,
    raw: Vec<Vec<u8>>,
    raw_lz4: Vec<Vec<u8>>,
    dense: Vec<Vec<Voxel>>,
}

fn inputs() -> Inputs {
    let grid = common::canyons(common::timing_size());
    let mut i = Inputs {
        rle: vec![],
        rle_lz4: vec![],
        columns: vec![],
        raw: vec![],
        raw_lz4: vec![],
        dense: vec![],
    };
    for pos in grid.sorted_positions() {
        let chunk = grid.chunk(pos).expect("stored");
        let mut r = Vec::new();
        encode_chunk_rle(chunk, &mut r);
        let mut d = vec![Voxel::AIR; Chunk::VOLUME];
        chunk.level0().to_dense(&mut d);
        let raw: Vec<u8> = d.iter().flat_map(|v| [v.material, v.occupancy]).collect();
        i.rle_lz4.push((lz4_flex::block::compress(&r), r.len()));
        i.raw_lz4.push(lz4_flex::block::compress(&raw));
        let mut col = Vec::new();
        column_coder::encode_chunk(&d, &mut col);
        i.columns.push(col);
        i.rle.push(r);
        i.raw.push(raw);
        i.dense.push(d);
    }
    let rle: usize = i.rle.iter().map(Vec::len).sum();
    let lz: usize = i.raw_lz4.iter().map(Vec::len).sum();
    let rle_lz4: usize = i.rle_lz4.iter().map(|r| r.0.len()).sum();
    let columns: usize = i.columns.iter().map(Vec::len).sum();
    println!(
        "{} chunks: RLE {rle} bytes, LZ4(raw) {lz} bytes, RLE+LZ4 {rle_lz4} bytes, columns {columns} \
         bytes ({:.2}x smaller than RLE+LZ4)",
        i.rle.len(),
        rle_lz4 as f64 / columns as f64
    );
    i
}

/// Decode every chunk's RLE+LZ4 record and every column record, alternating, best of `rounds`.
fn column_decode_ratio(inp: &Inputs, rounds: usize) {
    let mut out = vec![Voxel::AIR; Chunk::VOLUME];
    let mut scratch = vec![0u8; Chunk::VOLUME * 2];
    let (mut old, mut new) = (f64::MAX, f64::MAX);
    for _ in 0..rounds {
        let t = Instant::now();
        for (z, n) in &inp.rle_lz4 {
            let k = lz4_flex::block::decompress_into(z, &mut scratch[..*n]).expect("valid");
            rle::decode(&scratch[..k], &mut out).expect("valid");
        }
        old = old.min(t.elapsed().as_secs_f64());
        let t = Instant::now();
        for c in &inp.columns {
            column_coder::decode_chunk(c, &mut out).expect("valid");
        }
        new = new.min(t.elapsed().as_secs_f64());
    }
    let voxels = (inp.columns.len() * Chunk::VOLUME) as f64;
    println!(
        "decode every chunk, best of {rounds} alternated rounds: columns {:.1} ms ({:.0} M voxels/s), \
         RLE+LZ4 {:.1} ms ({:.0} M voxels/s): columns take {:.2}x the time",
        new * 1e3,
        voxels / new / 1e6,
        old * 1e3,
        voxels / old / 1e6,
        new / old
    );
}

fn decode(c: &mut Criterion) {
    let inp = inputs();
    let voxels = (inp.rle.len() * Chunk::VOLUME) as u64;
    let mut out = vec![Voxel::AIR; Chunk::VOLUME];
    let mut raw_out = vec![0u8; Chunk::VOLUME * 2];
    let mut scratch = vec![0u8; Chunk::VOLUME * 2];
    column_decode_ratio(&inp, 5);

    let mut g = c.benchmark_group("decode_chunk");
    g.throughput(Throughput::Elements(voxels));
    g.bench_function("rle", |b| {
        b.iter(|| {
            for r in &inp.rle {
                rle::decode(r, &mut out).expect("valid");
            }
            black_box(out[5])
        });
    });
    g.bench_function("lz4_flex_raw", |b| {
        b.iter(|| {
            for z in &inp.raw_lz4 {
                lz4_flex::block::decompress_into(z, &mut raw_out).expect("valid");
            }
            black_box(raw_out[5])
        });
    });
    g.bench_function("memcpy_raw", |b| {
        b.iter(|| {
            for r in &inp.raw {
                raw_out.copy_from_slice(r);
            }
            black_box(raw_out[5])
        });
    });
    g.bench_function("rle_lz4", |b| {
        b.iter(|| {
            for (z, n) in &inp.rle_lz4 {
                let k = lz4_flex::block::decompress_into(z, &mut scratch[..*n]).expect("valid");
                rle::decode(&scratch[..k], &mut out).expect("valid");
            }
            black_box(out[5])
        });
    });
    g.bench_function("columns", |b| {
        b.iter(|| {
            for z in &inp.columns {
                column_coder::decode_chunk(z, &mut out).expect("valid");
            }
            black_box(out[5])
        });
    });
    g.finish();

    let mut g = c.benchmark_group("encode_chunk");
    g.throughput(Throughput::Elements(voxels));
    let mut bytes = Vec::with_capacity(Chunk::VOLUME * 2);
    g.bench_function("rle", |b| {
        b.iter(|| {
            for d in &inp.dense {
                bytes.clear();
                rle::encode(d, &mut bytes);
            }
            black_box(bytes.len())
        });
    });
    g.bench_function("lz4_flex_raw", |b| {
        b.iter(|| {
            let mut n = 0;
            for r in &inp.raw {
                n += lz4_flex::block::compress(r).len();
            }
            black_box(n)
        });
    });
    g.bench_function("columns", |b| {
        b.iter(|| {
            for d in &inp.dense {
                bytes.clear();
                column_coder::encode_chunk(d, &mut bytes);
            }
            black_box(bytes.len())
        });
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = decode
}
criterion_main!(benches);
