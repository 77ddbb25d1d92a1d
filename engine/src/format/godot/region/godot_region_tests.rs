//! Region file layout (hand-checked header bytes) and hostile tables.

use super::*;

fn two_block_region() -> Vec<u8> {
    let mut w = RegionWriter::new(RegionFormat::default());
    w.set([0, 0, 0], vec![0xaa; 10]);
    w.set([1, 2, 3], vec![0xbb; 600]);
    w.to_bytes().expect("writes")
}

const HEADER_LEN: usize = 20 + 4 * 4096;

#[test]
fn header_lut_and_sectors_are_laid_out_as_godot_reads_them() {
    let bytes = two_block_region();
    assert_eq!(
        &bytes[..20],
        &[
            b'V', b'X', b'R', b'_', 3, // magic, version
            4, 16, 16, 16, // block size 2^4, region 16³
            1, 1, 0, 1, 1, 0, 0, 0, // default channel depths
            0x00, 0x02, // sector size 512
            0,    // no palette
        ]
    );
    // Block (0,0,0): LUT 0, sector 0, 1 sector. Block (1,2,3): LUT 2 + 16·(1 + 16·3) = 786,
    // sector 1, ceil(604 / 512) = 2 sectors.
    assert_eq!(&bytes[20..24], &[0x01, 0, 0, 0]);
    let e = 20 + 4 * 786;
    assert_eq!(&bytes[e..e + 4], &[0x02, 0x01, 0, 0]);
    assert_eq!(bytes.len(), HEADER_LEN + 3 * 512);
    assert_eq!(&bytes[HEADER_LEN..HEADER_LEN + 5], &[10, 0, 0, 0, 0xaa]);
    assert_eq!(
        &bytes[HEADER_LEN + 512..HEADER_LEN + 517],
        &[0x58, 0x02, 0, 0, 0xbb]
    );
    let r = RegionReader::parse(&bytes, None).expect("parses");
    assert_eq!(r.format, RegionFormat::default());
    let found: Vec<_> = r.blocks().map(|(p, _, c)| (p, c.len())).collect();
    assert_eq!(found, vec![([0, 0, 0], 10), ([1, 2, 3], 600)]);
    assert_eq!(r.block([1, 2, 3]).map(|(at, _)| at), Some(HEADER_LEN + 516));
    assert!(r.block([2, 2, 3]).is_none());
}

fn corrupt_at(bytes: &[u8]) -> u64 {
    match RegionReader::parse(bytes, None) {
        Err(Error::Corrupt { offset, .. }) => offset,
        other => panic!("expected corrupt, got {other:?}"),
    }
}

#[test]
fn rejects_hostile_region_files() {
    let good = two_block_region();
    let mut b = good.clone();
    b[0] = b'X';
    assert_eq!(corrupt_at(&b), 0);
    let mut b = good.clone();
    b[4] = 4;
    assert!(matches!(
        RegionReader::parse(&b, None),
        Err(Error::UnsupportedVersion { found: 4, .. })
    ));
    let mut b = good.clone();
    b[4] = 2;
    assert_eq!(corrupt_at(&b), 4, "version 2 needs the forest's format");
    let mut b = good.clone();
    b[9] = 7;
    assert_eq!(corrupt_at(&b), 9, "unknown depth");
    let mut b = good.clone();
    b[19] = 1;
    assert_eq!(corrupt_at(&b), 19, "bad palette hint");
    let mut b = good.clone();
    b[5] = 0;
    assert_eq!(corrupt_at(&b), 5, "block size 2^0");
    assert_eq!(corrupt_at(&good[..1000]), 20, "table cut short");
    // A table entry pointing past the end of the file.
    let mut b = good.clone();
    b[20..24].copy_from_slice(&((100u32 << 8) | 1).to_le_bytes());
    assert_eq!(corrupt_at(&b), 20);
    // Overlapping sectors: block (0,0,0) pointed at the second block's sectors 1..3.
    let mut b = good.clone();
    b[20..24].copy_from_slice(&((1u32 << 8) | 2).to_le_bytes());
    assert_eq!(corrupt_at(&b), 20 + 4 * 786);
    // Zero sectors, and a length longer than the sectors.
    let mut b = good.clone();
    b[20..24].copy_from_slice(&(1u32 << 8).to_le_bytes());
    assert_eq!(corrupt_at(&b), 20);
    let mut b = good.clone();
    b[HEADER_LEN..HEADER_LEN + 4].copy_from_slice(&600u32.to_le_bytes());
    assert_eq!(corrupt_at(&b), HEADER_LEN as u64);
    // A block whose length runs past the end of a file cut inside its sector.
    assert_eq!(
        corrupt_at(&good[..HEADER_LEN + 512 + 100]),
        (HEADER_LEN + 512) as u64
    );
}

#[test]
fn version_2_uses_the_forest_format() {
    let v3 = two_block_region();
    let mut v2 = b"VXR_\x02".to_vec();
    v2.extend_from_slice(&v3[20..]);
    let format = RegionFormat::default();
    let r = RegionReader::parse(&v2, Some(&format)).expect("parses");
    assert_eq!(r.version, 2);
    assert_eq!(r.blocks().count(), 2);
    assert_eq!(
        r.block([0, 0, 0]).map(|(_, c)| c.to_vec()),
        Some(vec![0xaa; 10])
    );
}
