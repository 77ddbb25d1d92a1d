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
    let need = n * striped_chunk_bytes();
    let e = decode_with_budget(&payload, ChunkCoding::RleLz4, need - 1)
        .expect_err("over the budget")
        .to_string();
    assert!(e.contains("decompression bomb"), "{e}");
    let grid = decode_with_budget(&payload, ChunkCoding::RleLz4, need).expect("fits");
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

/// Decode a CHNK `payload` under the test header with at most `budget` bytes of decoded memory.
fn decode_with_budget(payload: &[u8], coding: ChunkCoding, budget: usize) -> Result<Grid> {
    let header = ProjectHeader::from_ron(&header_bytes(), 0).expect("header");
    chunks::decode_within(payload, 0, coding, &header, &Progress::new(), budget)
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

/// A version 2 CHNK payload: a 28-byte entry per (position, offset, record), then `records`.
fn column_payload(entries: &[(ChunkPos, u64, &[u8])], records: &[u8]) -> Vec<u8> {
    let mut out = (entries.len() as u32).to_le_bytes().to_vec();
    for (pos, offset, record) in entries {
        for c in [pos.x, pos.y, pos.z] {
            out.extend_from_slice(&c.to_le_bytes());
        }
        out.extend_from_slice(&offset.to_le_bytes());
        out.extend_from_slice(&(record.len() as u32).to_le_bytes());
        out.extend_from_slice(&crc32fast::hash(record).to_le_bytes());
    }
    out.extend_from_slice(records);
    out
}

/// The column-coded record of a terrain-like chunk: layers, a sloped partial surface, a cave.
fn column_record() -> Vec<u8> {
    let voxels: Vec<Voxel> = (0..Chunk::VOLUME)
        .map(|i| {
            let (x, y, z) = (i % 32, i / 32 % 32, i / 1024);
            let h = 10.0 + 0.4 * x as f32 + 0.2 * z as f32;
            let d = h - y as f32;
            if (12..15).contains(&x) && (4..7).contains(&y) {
                Voxel::AIR
            } else if d >= 1.0 {
                Voxel::filled(if d > 4.0 { 7 } else { 3 })
            } else if d > 0.0 {
                Voxel::new(2, (d * 255.0) as u8)
            } else {
                Voxel::AIR
            }
        })
        .collect();
    let mut record = Vec::new();
    crate::codec::column_coder::encode_chunk(&voxels, &mut record);
    record
}

fn one_column_file(record: &[u8]) -> Vec<u8> {
    let entries = [(ChunkPos::new(0, 0, 0), 32, record)];
    file_of_version(2, &column_payload(&entries, record), None)
}

#[test]
fn version_2_records_load_and_every_cut_is_refused() {
    let record = column_record();
    let p = Project::from_bytes(&one_column_file(&record)).expect("a well-formed record loads");
    assert_eq!(p.grid.chunk_count(), 1);
    // The entry claims fewer bytes than the record has (checksum fixed): cut short.
    for cut in 0..record.len() {
        let e = load_error(&one_column_file(&record[..cut]));
        assert!(e.contains("ChunkPos { x: 0, y: 0, z: 0 }"), "{e}");
    }
    // Bytes after the record's end inside its length: refused as trailing bytes.
    let mut longer = record.clone();
    longer.extend_from_slice(&[0x5a; 3]);
    let e = load_error(&one_column_file(&longer));
    assert!(e.contains("after the end"), "{e}");
}

#[test]
fn version_2_records_with_flipped_bits_never_panic() {
    // The checksum is fixed after each flip, so every flip reaches the column decoder.
    let record = column_record();
    let mut refused = 0;
    for bit in 0..record.len() * 8 {
        let mut r = record.clone();
        r[bit / 8] ^= 1 << (bit % 8);
        match Project::from_bytes(&one_column_file(&r)) {
            Ok(p) => p.grid.assert_valid(),
            Err(_) => refused += 1,
        }
    }
    assert!(refused > 0);
}

#[test]
fn version_2_lying_lengths_and_counts_are_refused() {
    let record = column_record();
    let pos = ChunkPos::new(0, 0, 0);
    // A length past the section's end.
    let mut payload = column_payload(&[(pos, 32, &record)], &record);
    payload[24..28].copy_from_slice(&(record.len() as u32 + 1).to_le_bytes());
    let e = load_error(&file_of_version(2, &payload, None));
    assert!(e.contains("outside the section"), "{e}");
    // A count the table cannot hold.
    let mut payload = column_payload(&[(pos, 32, &record)], &record);
    payload[..4].copy_from_slice(&1000u32.to_le_bytes());
    let e = load_error(&file_of_version(2, &payload, None));
    assert!(e.contains("does not fit"), "{e}");
    // Two entries sharing one record.
    let entries = [
        (pos, 60, &record[..]),
        (ChunkPos::new(1, 0, 0), 60, &record[..]),
    ];
    let e = load_error(&file_of_version(
        2,
        &column_payload(&entries, &record),
        None,
    ));
    assert!(e.contains("overlaps"), "{e}");
    // Version 1 records in a version 2 file: refused, not misread.
    let (lz4, rle_len) = striped_record();
    let v1 = chunk_payload(
        &[Entry {
            pos,
            offset: 36,
            lz4: lz4.clone(),
            rle_len,
        }],
        &lz4,
    );
    assert!(Project::from_bytes(&file_of_version(2, &v1, None)).is_err());
    // Random record bytes behind a good checksum.
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    for len in [0, 1, 5, 6, 40, 300] {
        let junk: Vec<u8> = (0..len)
            .map(|i| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                if i == 0 {
                    0
                } else {
                    s as u8
                }
            })
            .collect();
        if let Ok(p) = Project::from_bytes(&one_column_file(&junk)) {
            p.grid.assert_valid();
        }
    }
}

#[test]
fn version_2_decoded_memory_is_capped() {
    let record = column_record();
    let n = 50;
    let first = 4 + 28 * n as u64;
    let entries: Vec<(ChunkPos, u64, &[u8])> = (0..n)
        .map(|i| {
            (
                ChunkPos::new(i as i32, 0, 0),
                first + (i * record.len()) as u64,
                &record[..],
            )
        })
        .collect();
    let payload = column_payload(&entries, &record.repeat(n));
    let grid = decode_with_budget(&payload, ChunkCoding::Columns, usize::MAX).expect("decodes");
    let need: usize = grid
        .chunks()
        .map(|(_, c)| c.heap_bytes() + size_of::<Chunk>())
        .sum();
    let e = decode_with_budget(&payload, ChunkCoding::Columns, need - 1)
        .expect_err("over the budget")
        .to_string();
    assert!(e.contains("decompression bomb"), "{e}");
    // The stated ratio covers the densest chunk a record and its entry can give.
    let per_chunk = striped_chunk_bytes();
    assert!(per_chunk < (28 + 5) * ChunkCoding::Columns.max_expansion());
}
