//! Container vectors: hand-made LZ4 blocks, zstd frames made by the reference `zstd` tool (libzstd,
//! the library godot_voxel links), every header, and hostile sizes.

use super::*;

/// The 31-byte all-default 16³ block (reference notes, section 4).
const BLOCK_31: [u8; 31] = [
    0x04, 0x10, 0x00, 0x10, 0x00, 0x10, 0x00, 0x11, 0x00, 0x00, 0x11, 0xff, 0x7f, 0x01, 0x00, 0x11,
    0x10, 0x32, 0x11, 0x0f, 0x00, 0x01, 0x00, 0x01, 0x00, 0x01, 0x00, 0x0d, 0xf0, 0x0d, 0x90,
];

/// A literal-only LZ4 block of [`BLOCK_31`]: token 0xF0 (15+ literals), 0x10 (15 + 16 = 31), data.
fn lz4_literal_block() -> Vec<u8> {
    let mut v = vec![0xf0, 0x10];
    v.extend_from_slice(&BLOCK_31);
    v
}

/// `zstd -3 --no-check` of `"godot-voxel " × 100` (1200 bytes), made with libzstd 1.5.4.
const ZSTD_GODOT_VOXEL: [u8; 29] = [
    0x28, 0xb5, 0x2f, 0xfd, 0x60, 0xb0, 0x03, 0x9d, 0x00, 0x00, 0x60, 0x67, 0x6f, 0x64, 0x6f, 0x74,
    0x2d, 0x76, 0x6f, 0x78, 0x65, 0x6c, 0x20, 0x01, 0x00, 0xa1, 0xfc, 0x2f, 0x49,
];

fn container(header: u8, size: [u8; 4], data: &[u8]) -> Vec<u8> {
    let mut v = vec![header];
    v.extend_from_slice(&size);
    v.extend_from_slice(data);
    v
}

#[test]
fn none_is_the_header_byte_and_the_payload() {
    let mut out = Vec::new();
    compress(&BLOCK_31, Compression::None, &mut out).expect("compresses");
    assert_eq!(out[0], 0);
    assert_eq!(&out[1..], BLOCK_31);
    assert_eq!(decompress(&out, 1 << 20).expect("reads"), BLOCK_31);
}

#[test]
fn reads_lz4_in_every_header_form() {
    let data = lz4_literal_block();
    for c in [
        container(HEADER_LZ4, 31u32.to_le_bytes(), &data),
        container(HEADER_LZ4_BE, 31u32.to_be_bytes(), &data),
        // godot_voxel 1.6's script API: header 1 with a little-endian size.
        container(HEADER_LZ4_BE, 31u32.to_le_bytes(), &data),
    ] {
        assert_eq!(decompress(&c, 1 << 20).expect("reads"), BLOCK_31);
    }
    let mut out = Vec::new();
    compress(&BLOCK_31, Compression::Lz4, &mut out).expect("compresses");
    assert_eq!(&out[..5], &[0x02, 0x1f, 0x00, 0x00, 0x00]);
    assert_eq!(decompress(&out, 1 << 20).expect("reads"), BLOCK_31);
}

#[test]
fn reads_libzstd_frames_and_writes_its_own() {
    let raw = [
        0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x1f, 0xf9, 0x00, 0x00, // frame + raw block header
    ];
    let mut frame = raw.to_vec();
    frame.extend_from_slice(&BLOCK_31);
    let c = container(HEADER_ZSTD, 31u32.to_le_bytes(), &frame);
    assert_eq!(decompress(&c, 1 << 20).expect("reads"), BLOCK_31);
    let c = container(HEADER_ZSTD, 1200u32.to_le_bytes(), &ZSTD_GODOT_VOXEL);
    assert_eq!(
        decompress(&c, 1 << 20).expect("reads"),
        b"godot-voxel ".repeat(100)
    );
    let payload: Vec<u8> = (0..20_000u32).map(|i| (i / 7 % 13) as u8).collect();
    let mut out = Vec::new();
    compress(&payload, Compression::Zstd, &mut out).expect("compresses");
    assert_eq!(out[0], 3);
    assert!(out.len() < payload.len() / 4, "zstd compresses");
    assert_eq!(decompress(&out, 1 << 20).expect("reads"), payload);
}

fn offset_of(bytes: &[u8], cap: usize) -> u64 {
    match decompress(bytes, cap) {
        Err(Error::Corrupt { offset, .. }) => offset,
        other => panic!("expected corrupt, got {other:?}"),
    }
}

#[test]
fn rejects_hostile_containers() {
    assert_eq!(offset_of(&[], 100), 0);
    assert_eq!(offset_of(&[7, 1, 2], 100), 0);
    assert_eq!(offset_of(&[2, 1, 2], 100), 1);
    // Declared sizes over the cap, or over what the data could expand to: refused before allocating.
    let data = lz4_literal_block();
    assert_eq!(offset_of(&container(2, [0xff; 4], &data), usize::MAX), 1);
    assert_eq!(offset_of(&container(2, 31u32.to_le_bytes(), &data), 30), 1);
    assert_eq!(offset_of(&container(3, [0xff; 4], &[0; 8]), usize::MAX), 1);
    assert_eq!(offset_of(&container(0, [0; 4], &[]), 3), 1);
    // Sizes that do not match what the data decodes to.
    assert_eq!(offset_of(&container(2, 30u32.to_le_bytes(), &data), 100), 5);
    assert_eq!(offset_of(&container(2, 32u32.to_le_bytes(), &data), 100), 5);
    assert_eq!(offset_of(&container(1, 32u32.to_be_bytes(), &data), 100), 5);
    let c = container(HEADER_ZSTD, 1201u32.to_le_bytes(), &ZSTD_GODOT_VOXEL);
    assert_eq!(offset_of(&c, 1 << 20), 5);
    assert_eq!(
        offset_of(&container(3, 10u32.to_le_bytes(), &[0; 10]), 100),
        5
    );
}
