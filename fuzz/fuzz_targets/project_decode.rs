//! Fuzz the project file decoder. Checksums stop random bytes at the first section, so inputs that
//! start with `S` (format version 1, RLE+LZ4 records) or `C` (version 2, column-coded records) are
//! wrapped into a well-formed file (valid magic, HEAD section and checksums) with the fuzz bytes as
//! the CHNK payload, which drives the chunk table and record decoding; `R` makes the rest one
//! version 2 chunk record with a valid table entry and checksum, which drives the column decoder
//! itself; inputs that start with `L` become the LAMP (placed lights) payload of an otherwise empty,
//! valid project.
#![no_main]

use libfuzzer_sys::fuzz_target;
use strata_engine::format::project::{Project, ProjectHeader};
use strata_engine::storage::Grid;
use strata_engine::voxel::{VoxelBox, VoxelPos};

fn section(out: &mut Vec<u8>, tag: &[u8; 4], payload: &[u8]) {
    let start = out.len();
    out.extend_from_slice(tag);
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(payload).to_le_bytes());
    let header_crc = crc32fast::hash(&out[start..]);
    out.extend_from_slice(&header_crc.to_le_bytes());
    out.extend_from_slice(payload);
}

/// A file of format `version` with a valid header and `chunks` as its CHNK payload.
fn wrap(version: u32, chunks: &[u8]) -> Vec<u8> {
    let bounds = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(64, 64, 64));
    let Ok(head) = ProjectHeader::new("fuzz", bounds).to_ron() else {
        return Vec::new();
    };
    let mut f = b"\x89STRATA\n".to_vec();
    f.extend_from_slice(&version.to_le_bytes());
    section(&mut f, b"HEAD", head.as_bytes());
    section(&mut f, b"CHNK", chunks);
    section(&mut f, b"END ", &[]);
    f
}

fuzz_target!(|data: &[u8]| {
    let file = match data.split_first() {
        Some((&b'S', chunks)) => wrap(1, chunks),
        Some((&b'C', chunks)) => wrap(2, chunks),
        Some((&b'R', record)) => {
            let mut chunks = 1u32.to_le_bytes().to_vec();
            for c in [0i32, 0, 0] {
                chunks.extend_from_slice(&c.to_le_bytes());
            }
            chunks.extend_from_slice(&32u64.to_le_bytes());
            chunks.extend_from_slice(&(record.len() as u32).to_le_bytes());
            chunks.extend_from_slice(&crc32fast::hash(record).to_le_bytes());
            chunks.extend_from_slice(record);
            wrap(2, &chunks)
        }
        Some((&b'L', lamps)) => {
            let bounds = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(64, 64, 64));
            let empty = Project::new(ProjectHeader::new("fuzz", bounds), Grid::new());
            let Ok(mut f) = empty.to_bytes() else {
                return;
            };
            // Drop the END section (its 20 bytes), add the LAMP section, end again.
            f.truncate(f.len() - 20);
            section(&mut f, b"LAMP", lamps);
            section(&mut f, b"END ", &[]);
            f
        }
        _ => data.to_vec(),
    };
    if let Ok(p) = Project::from_bytes(&file) {
        p.grid.assert_valid();
        for l in &p.lights {
            assert!(l.validate(&p.header.bounds).is_ok(), "loaded lights are valid");
        }
    }
});
