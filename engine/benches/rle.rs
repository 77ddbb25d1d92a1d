//! RLE benches on every chunk of one generated level: decode throughput against lz4_flex decompressing
//! the raw 2-byte chunk and a plain memcpy of it, plus RLE+LZ4 decode and RLE encode.

mod common;

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use strata_engine::codec::rle;
use strata_engine::format::project::encode_chunk_rle;
use strata_engine::storage::Chunk;
use strata_engine::voxel::Voxel;

struct Inputs {
    rle: Vec<Vec<u8>>,
    rle_lz4: Vec<(Vec<u8>, usize)>,
    raw: Vec<Vec<u8>>,
    raw_lz4: Vec<Vec<u8>>,
    dense: Vec<Vec<Voxel>>,
}

fn inputs() -> Inputs {
    let grid = common::canyons(common::timing_size());
    let mut i = Inputs {
        rle: vec![],
        rle_lz4: vec![],
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
        i.rle.push(r);
        i.raw.push(raw);
        i.dense.push(d);
    }
    let rle: usize = i.rle.iter().map(Vec::len).sum();
    let lz: usize = i.raw_lz4.iter().map(Vec::len).sum();
    println!(
        "{} chunks: RLE {rle} bytes, LZ4(raw) {lz} bytes",
        i.rle.len()
    );
    i
}

fn decode(c: &mut Criterion) {
    let inp = inputs();
    let voxels = (inp.rle.len() * Chunk::VOLUME) as u64;
    let mut out = vec![Voxel::AIR; Chunk::VOLUME];
    let mut raw_out = vec![0u8; Chunk::VOLUME * 2];
    let mut scratch = vec![0u8; Chunk::VOLUME * 2];

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
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = decode
}
criterion_main!(benches);
