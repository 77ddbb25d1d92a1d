//! Crafted hostile files: every file here is built in the test, byte by byte where the
//! writer could never produce it, and must be refused (or loaded) without unbounded memory or time.

use super::sections::write_section;
use super::*;
use crate::codec::rle::RleEncoder;
use crate::storage::Chunk;
use crate::voxel::{ChunkPos, Voxel, VoxelBox, VoxelPos, CHUNK_LIMIT};

fn header_bytes() -> Vec<u8> {
    let bounds = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(32, 32, 32));
    ProjectHeader::new("hostile", bounds)
        .to_ron()
        .expect("header")
        .into_bytes()
}

/// A version 1 file (chunk records in RLE+LZ4) with the given CHNK payload and optional HIST payload.
fn file_with(chunks: &[u8], history: Option<&[u8]>) -> Vec<u8> {
    file_of_version(1, chunks, history)
}

/// A file of `version` with the given CHNK payload and optional HIST payload.
fn file_of_version(version: u32, chunks: &[u8], history: Option<&[u8]>) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&version.to_le_bytes());
    write_section(&mut out, TAG_HEAD, &header_bytes());
    write_section(&mut out, TAG_CHUNKS, chunks);
    if let Some(h) = history {
        write_section(&mut out, TAG_HISTORY, h);
    }
    write_section(&mut out, TAG_END, &[]);
    out
}

/// A table entry.
struct Entry {
    pos: ChunkPos,
    offset: u64,
    lz4: Vec<u8>,
    rle_len: u32,
}

/// A CHNK payload whose table holds `entries` and whose record area is `records`.
fn chunk_payload(entries: &[Entry], records: &[u8]) -> Vec<u8> {
    let mut out = (entries.len() as u32).to_le_bytes().to_vec();
    for e in entries {
        for c in [e.pos.x, e.pos.y, e.pos.z] {
            out.extend_from_slice(&c.to_le_bytes());
        }
        out.extend_from_slice(&e.offset.to_le_bytes());
        out.extend_from_slice(&(e.lz4.len() as u32).to_le_bytes());
        out.extend_from_slice(&e.rle_len.to_le_bytes());
        out.extend_from_slice(&crc32fast::hash(&e.lz4).to_le_bytes());
    }
    out.extend_from_slice(records);
    out
}

/// The LZ4 record and RLE length of a chunk of alternating materials (the most memory per record
/// byte: every row is mixed, and the stream repeats, so LZ4 packs it ~200×).
fn striped_record() -> (Vec<u8>, u32) {
    let voxels: Vec<Voxel> = (0..Chunk::VOLUME)
        .map(|i| Voxel::filled(1 + (i % 2) as u8))
        .collect();
    let mut rle = Vec::new();
    super::encode_chunk_rle(&Chunk::from_dense(&voxels), &mut rle);
    (lz4_flex::block::compress(&rle), rle.len() as u32)
}

fn load_error(bytes: &[u8]) -> String {
    match Project::from_bytes(bytes) {
        Ok(_) => panic!("a hostile file loaded"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn overlapping_records_are_refused() {
    let (lz4, rle_len) = striped_record();
    // Many entries that share one record: the 3.2 MB file that asked for 7.7 GB, in small.
    let first = 4 + 32 * 100u64;
    let entries: Vec<Entry> = (0..100)
        .map(|x| Entry {
            pos: ChunkPos::new(x, 0, 0),
            offset: first,
            lz4: lz4.clone(),
            rle_len,
        })
        .collect();
    let e = load_error(&file_with(&chunk_payload(&entries, &lz4), None));
    assert!(e.contains("overlaps"), "{e}");
    assert!(e.contains("ChunkPos { x: 1, y: 0, z: 0 }"), "{e}");
}

#[test]
fn out_of_order_records_and_records_inside_the_table_are_refused() {
    let (lz4, rle_len) = striped_record();
    let table = 4 + 32 * 2u64;
    let second = table + lz4.len() as u64;
    // The table lists the second record first.
    let entries = [
        Entry {
            pos: ChunkPos::new(0, 0, 0),
            offset: second,
            lz4: lz4.clone(),
            rle_len,
        },
        Entry {
            pos: ChunkPos::new(1, 0, 0),
            offset: table,
            lz4: lz4.clone(),
            rle_len,
        },
    ];
    let records = [lz4.clone(), lz4.clone()].concat();
    let e = load_error(&file_with(&chunk_payload(&entries, &records), None));
    assert!(e.contains("out of order"), "{e}");
    // A record that starts inside the table.
    let inside = [Entry {
        pos: ChunkPos::new(0, 0, 0),
        offset: 0,
        lz4: lz4.clone(),
        rle_len,
    }];
    let mut payload = chunk_payload(&inside, &lz4);
    payload.extend_from_slice(&lz4);
    let e = load_error(&file_with(&payload, None));
    assert!(e.contains("overlaps the table"), "{e}");
    // In order and disjoint (with a gap) still loads.
    let ok = [
        Entry {
            pos: ChunkPos::new(0, 0, 0),
            offset: table,
            lz4: lz4.clone(),
            rle_len,
        },
        Entry {
            pos: ChunkPos::new(1, 0, 0),
            offset: table + lz4.len() as u64 + 3,
            lz4: lz4.clone(),
            rle_len,
        },
    ];
    let records = [lz4.clone(), vec![0; 3], lz4.clone()].concat();
    let p = Project::from_bytes(&file_with(&chunk_payload(&ok, &records), None)).expect("loads");
    assert_eq!(p.grid.chunk_count(), 2);
}

#[test]
fn chunks_whose_voxels_overflow_the_range_are_refused() {
    let (lz4, rle_len) = striped_record();
    for pos in [
        ChunkPos::new(CHUNK_LIMIT, 0, 0),
        ChunkPos::new(0, -CHUNK_LIMIT - 1, 0),
        ChunkPos::new(0, 0, i32::MAX >> 5),
        ChunkPos::new(0, 0, i32::MAX),
    ] {
        let entries = [Entry {
            pos,
            offset: 36,
            lz4: lz4.clone(),
            rle_len,
        }];
        let e = load_error(&file_with(&chunk_payload(&entries, &lz4), None));
        assert!(e.contains("outside the world's coordinate range"), "{e}");
    }
    // The last chunk inside the range loads.
    let edge = ChunkPos::new(CHUNK_LIMIT - 1, -CHUNK_LIMIT, 0);
    let entries = [Entry {
        pos: edge,
        offset: 36,
        lz4: lz4.clone(),
        rle_len,
    }];
    let p = Project::from_bytes(&file_with(&chunk_payload(&entries, &lz4), None)).expect("loads");
    assert!(p.grid.chunk(edge).is_some());
}

#[test]
fn decoded_memory_is_capped_against_the_file_size() {
    let (lz4, rle_len) = striped_record();
    let n = 100;
    let first = 4 + 32 * n as u64;
    let entries: Vec<Entry> = (0..n)
        .map(|i| Entry {
            pos: ChunkPos::new(i as i32, 0, 0),
            offset: first + (i * lz4.len()) as u64,
            lz4: lz4.clone(),
            rle_len,
        })
        .collect();
    let payload = chunk_payload(&entries, &lz4.repeat(n));
    let header = ProjectHeader::from_ron(&header_bytes(), 0).expect("header");
    let need = n * striped_chunk_bytes();
    let e = chunks::decode_within(&payload, 0, ChunkCoding::RleLz4, &header, &Progress::new(), need - 1)
        .expect_err("over the budget")
        .to_string();
    assert!(e.contains("decompression bomb"), "{e}");
    let grid = chunks::decode_within(&payload, 0, ChunkCoding::RleLz4, &header, &Progress::new(), need).expect("fits");
    assert_eq!(grid.chunk_count(), n);
    // The stated ratio leaves real files far below it, and the floor accepts any small file.
    let real = super::project_tests::sample_bytes();
    let p = Project::from_bytes(&real).expect("a real file loads");
    assert!(p.grid.memory_bytes() * 16 < real.len() * ChunkCoding::Columns.max_expansion());
    for coding in [ChunkCoding::RleLz4, ChunkCoding::Columns] {
        assert_eq!(
            chunks::decoded_budget(10, coding),
            chunks::EXPANSION_FLOOR_BYTES
        );
    }
}

fn striped_chunk_bytes() -> usize {
    let voxels: Vec<Voxel> = (0..Chunk::VOLUME)
        .map(|i| Voxel::filled(1 + (i % 2) as u8))
        .collect();
    Chunk::from_dense(&voxels).heap_bytes() + size_of::<Chunk>()
}

/// A HIST payload of `steps` undo steps, each one box of 512³ = 2²⁷ voxels of Air packed to a few KB.
fn history_bomb(steps: u32) -> Vec<u8> {
    let mut rle = Vec::new();
    let mut e = RleEncoder::new();
    let slab = vec![Voxel::AIR; 1 << 16];
    for _ in 0..(1 << 27) / slab.len() {
        e.push(&slab, &mut rle);
    }
    e.finish(&mut rle);
    let lz4 = lz4_flex::block::compress(&rle);
    let mut out = vec![1u8];
    out.extend_from_slice(&(u64::MAX).to_le_bytes());
    out.extend_from_slice(&steps.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    for _ in 0..steps {
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&1u32.to_le_bytes());
        for c in [0i32, 0, 0, 512, 512, 512] {
            out.extend_from_slice(&c.to_le_bytes());
        }
        out.extend_from_slice(&(rle.len() as u32).to_le_bytes());
        out.extend_from_slice(&(lz4.len() as u32).to_le_bytes());
        out.extend_from_slice(&lz4);
        out.push(0);
    }
    out
}

#[test]
fn history_bomb_loads_in_time_proportional_to_its_bytes() {
    // 128 boxes claim 2³⁴ voxels (32 GiB unpacked); checking them must not unpack them.
    let hist = history_bomb(128);
    let file = file_with(&chunk_payload(&[], &[]), Some(&hist));
    let started = std::time::Instant::now();
    let p = Project::from_bytes(&file).expect("a valid (if huge) history loads");
    let took = started.elapsed();
    assert_eq!(p.history.undo_len(), 128);
    assert!(
        took.as_secs_f64() < 5.0,
        "loading took {took:?}: the boxes were unpacked"
    );
}

#[test]
fn history_boxes_outside_the_range_are_refused() {
    let mut hist = history_bomb(1);
    // Move the box (at byte 1 + 8 + 4 + 4 + 4 + 4 = 25) to the top of i32.
    hist[25..29].copy_from_slice(&(i32::MAX - 512).to_le_bytes());
    hist[37..41].copy_from_slice(&i32::MAX.to_le_bytes());
    let e = load_error(&file_with(&chunk_payload(&[], &[]), Some(&hist)));
    assert!(e.contains("outside the world's coordinate range"), "{e}");
}
