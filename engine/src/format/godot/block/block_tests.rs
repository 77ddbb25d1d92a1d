//! Golden bytes (hand-checked against the reference notes) and reject tests for `BlockData` v4.

use super::*;
use crate::format::godot::channel::{CHANNEL_SDF, CHANNEL_TYPE};
use crate::format::godot::metadata::{MetadataItem, MetadataItems, VoxelMetadata};

/// The all-default 16³ block from the reference notes, section 4.
const DEFAULT_16: [u8; 31] = [
    0x04, // version
    0x10, 0x00, 0x10, 0x00, 0x10, 0x00, // size 16,16,16
    0x11, 0x00, 0x00, // TYPE    uniform 16-bit 0
    0x11, 0xff, 0x7f, // SDF     uniform 16-bit 0x7fff
    0x01, 0x00, // COLOR   uniform 8-bit 0
    0x11, 0x10, 0x32, // INDICES uniform 16-bit 0x3210
    0x11, 0x0f, 0x00, // WEIGHTS uniform 16-bit 0x000f
    0x01, 0x00, 0x01, 0x00, 0x01, 0x00, // DATA5..7 uniform 8-bit 0
    0x0d, 0xf0, 0x0d, 0x90, // epilogue
];

/// The default channels after TYPE and SDF (COLOR .. DATA7), shared by the vectors below.
const DEFAULT_TAIL: [u8; 14] = [
    0x01, 0x00, 0x11, 0x10, 0x32, 0x11, 0x0f, 0x00, 0x01, 0x00, 0x01, 0x00, 0x01, 0x00,
];

fn with_tail(head: &[u8], meta: &[u8]) -> Vec<u8> {
    let mut v = head.to_vec();
    v.extend_from_slice(&DEFAULT_TAIL);
    v.extend_from_slice(meta);
    v.extend_from_slice(&[0x0d, 0xf0, 0x0d, 0x90]);
    v
}

#[test]
fn all_default_block_is_the_31_reference_bytes() {
    let b = BlockData::new([16, 16, 16]);
    assert_eq!(b.to_bytes().expect("encodes"), DEFAULT_16);
    assert_eq!(BlockData::decode(&DEFAULT_16).expect("decodes"), b);
}

#[test]
fn dense_16_bit_type_channel_is_zxy_little_endian() {
    // Size x=2, y=1, z=2: index = y + 1·(x + 2·z) = x + 2z.
    let mut b = BlockData::new([2, 1, 2]);
    let mut bytes = vec![0u8; 8];
    for (x, z, v) in [(0, 0, 1u16), (1, 0, 2), (0, 1, 3), (1, 1, 0x0104)] {
        let i = b.index(x, 0, z);
        bytes[2 * i..2 * i + 2].copy_from_slice(&v.to_le_bytes());
    }
    b.channels[CHANNEL_TYPE].data = ChannelData::Dense(bytes);
    let golden = with_tail(
        &[
            0x04, 0x02, 0x00, 0x01, 0x00, 0x02, 0x00, // version, size 2,1,2
            0x10, 0x01, 0x00, 0x02, 0x00, 0x03, 0x00, 0x04, 0x01, // TYPE dense 16-bit
            0x11, 0xff, 0x7f, // SDF uniform
        ],
        &[],
    );
    assert_eq!(b.to_bytes().expect("encodes"), golden);
    let back = BlockData::decode(&golden).expect("decodes");
    assert_eq!(back, b);
    assert_eq!(back.channels[CHANNEL_TYPE].raw(back.index(1, 0, 1)), 0x0104);
}

#[test]
fn dense_8_bit_sdf_channel_is_y_fastest() {
    // Size x=2, y=2, z=1: index = y + 2·x, so Y varies fastest.
    let mut depths = crate::format::godot::channel::DEFAULT_DEPTHS;
    depths[CHANNEL_SDF] = Depth::Bit8;
    let mut b = BlockData::with_depths([2, 2, 1], depths);
    let mut bytes = vec![0u8; 4];
    for (x, y, v) in [(0, 0, -127i8), (0, 1, -1), (1, 0, 0), (1, 1, 127)] {
        bytes[b.index(x, y, 0)] = v as u8;
    }
    b.channels[CHANNEL_SDF].data = ChannelData::Dense(bytes);
    let golden = with_tail(
        &[
            0x04, 0x02, 0x00, 0x02, 0x00, 0x01, 0x00, // version, size 2,2,1
            0x11, 0x00, 0x00, // TYPE uniform 0
            0x00, 0x81, 0xff, 0x00, 0x7f, // SDF dense 8-bit: (0,0) (0,1) (1,0) (1,1)
        ],
        &[],
    );
    assert_eq!(b.to_bytes().expect("encodes"), golden);
    assert_eq!(BlockData::decode(&golden).expect("decodes"), b);
}

#[test]
fn metadata_section_round_trips_opaque_items() {
    let mut b = BlockData::new([1, 1, 1]);
    b.metadata = Metadata::from_items(&MetadataItems {
        block: MetadataItem::U64(5),
        voxels: vec![VoxelMetadata {
            pos: [0, 0, 0],
            item: MetadataItem::Opaque {
                type_id: 40,
                bytes: vec![0x01, 0x02],
            },
        }],
    });
    let golden = with_tail(
        &[
            0x04, 0x01, 0x00, 0x01, 0x00, 0x01, 0x00, // version, size 1,1,1
            0x11, 0x00, 0x00, 0x11, 0xff, 0x7f, // TYPE, SDF defaults
        ],
        &[
            0x12, 0x00, 0x00, 0x00, // metadata size 18
            0x01, 0x05, 0, 0, 0, 0, 0, 0, 0, // block: u64 5
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x28, 0x01, 0x02, // (0,0,0): type 40
        ],
    );
    assert_eq!(b.to_bytes().expect("encodes"), golden);
    let back = BlockData::decode(&golden).expect("decodes");
    assert_eq!(back, b);
    assert_eq!(back.metadata.items().expect("items").voxels.len(), 1);
}

#[test]
fn dense_channel_with_one_value_is_written_uniform() {
    let mut b = BlockData::new([16, 16, 16]);
    b.channels[CHANNEL_TYPE].data = ChannelData::Dense(vec![0; 2 * 4096]);
    assert_eq!(b.to_bytes().expect("encodes"), DEFAULT_16);
}

fn corrupt_offset(bytes: &[u8]) -> u64 {
    match BlockData::decode(bytes) {
        Err(Error::Corrupt { offset, .. }) => offset,
        other => panic!("expected a corrupt-data error, got {other:?}"),
    }
}

#[test]
fn rejects_bad_blocks_with_offsets() {
    for n in 0..DEFAULT_16.len() {
        assert!(
            BlockData::decode(&DEFAULT_16[..n]).is_err(),
            "{n} bytes decode"
        );
    }
    for version in [2u8, 3, 5, 0] {
        let mut b = DEFAULT_16;
        b[0] = version;
        assert!(matches!(
            BlockData::decode(&b),
            Err(Error::UnsupportedVersion { found, .. }) if found == u32::from(version)
        ));
    }
    let mut b = DEFAULT_16;
    b[7] = 0x41; // depth 4
    assert_eq!(corrupt_offset(&b), 7);
    b[7] = 0x12; // compression 2
    assert_eq!(corrupt_offset(&b), 7);
    let mut b = DEFAULT_16;
    b[30] = 0x91;
    assert_eq!(corrupt_offset(&b), 27);
    let mut b = DEFAULT_16;
    b[3] = 0;
    b[4] = 0;
    assert_eq!(corrupt_offset(&b), 1);
    // 65535³ voxels dense in a 40-byte block: refused before allocating.
    let mut b = DEFAULT_16.to_vec();
    b[1..7].fill(0xff);
    b[7] = 0x30;
    assert_eq!(corrupt_offset(&b), 8);
    // A metadata size larger than what is left.
    let mut b = DEFAULT_16[..27].to_vec();
    b.extend_from_slice(&[0xff, 0, 0, 0, 0, 0x0d, 0xf0, 0x0d, 0x90]);
    assert_eq!(corrupt_offset(&b), 27);
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    fn channel(volume: usize) -> impl Strategy<Value = Channel> {
        (0u8..4, any::<bool>(), any::<u64>(), any::<u8>()).prop_map(
            move |(code, dense, value, seed)| {
                let depth = Depth::from_code(code).unwrap_or(Depth::Bit8);
                if dense {
                    let bytes = (0..volume * depth.bytes())
                        .map(|i| (i as u8).wrapping_mul(seed) ^ (i / 3) as u8)
                        .collect();
                    Channel {
                        depth,
                        data: ChannelData::Dense(bytes),
                    }
                } else {
                    Channel::uniform(depth, value)
                }
            },
        )
    }

    fn block() -> impl Strategy<Value = BlockData> {
        (
            1u16..6,
            1u16..6,
            1u16..6,
            proptest::collection::vec(any::<u8>(), 0..12),
        )
            .prop_flat_map(|(x, y, z, meta)| {
                let volume = usize::from(x) * usize::from(y) * usize::from(z);
                proptest::collection::vec(channel(volume), 8).prop_map(move |channels| BlockData {
                    size: [x, y, z],
                    channels: channels.try_into().unwrap_or_else(|_| {
                        std::array::from_fn(|i| Channel::default_for(i, Depth::Bit8))
                    }),
                    metadata: Metadata::from_bytes(meta.clone()),
                })
            })
    }

    proptest! {
        #[test]
        fn encode_decode_keeps_every_value(b in block()) {
            let bytes = b.to_bytes().expect("encodes");
            let back = BlockData::decode(&bytes).expect("decodes");
            prop_assert_eq!(back.size, b.size);
            prop_assert_eq!(&back.metadata, &b.metadata);
            for (c, d) in b.channels.iter().zip(&back.channels) {
                prop_assert_eq!(c.depth, d.depth);
                for i in 0..b.volume() {
                    prop_assert_eq!(c.raw(i), d.raw(i));
                }
            }
            prop_assert_eq!(back.to_bytes().expect("encodes"), bytes);
        }
    }
}
