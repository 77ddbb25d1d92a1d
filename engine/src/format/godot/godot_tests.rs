//! Whole-forest round trips in memory: grid → region files → grid, across negative coordinates and
//! every compression, plus the LOD files against the mips.

use super::*;
use crate::progress::Progress;
use crate::storage::Grid;
use crate::voxel::{ChunkPos, Voxel, VoxelBox, VoxelPos};

fn sample_grid() -> Grid {
    let mut g = Grid::new();
    let b = VoxelBox::new(VoxelPos::new(-300, -20, -5), VoxelPos::new(40, 44, 37));
    let src: Vec<Voxel> = (0..b.volume())
        .map(|i| {
            let h = (i * 2_654_435_761) >> 7;
            match h % 5 {
                0 => Voxel::AIR,
                1 => Voxel::filled(7),
                _ => Voxel::new((h % 23 + 1) as u8, (h >> 5) as u8),
            }
        })
        .collect();
    g.write_box(b, &src);
    g.fill_box(
        VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(32, 32, 32)),
        Voxel::filled(9),
    );
    g
}

fn sources(regions: &[EncodedRegion]) -> Vec<RegionSource<'_>> {
    regions
        .iter()
        .filter(|r| r.lod == 0)
        .map(|r| RegionSource {
            pos: r.pos,
            bytes: &r.bytes,
            path: r.relative_path(),
        })
        .collect()
}

#[test]
fn forest_round_trip_is_bit_exact_for_every_compression() {
    let grid = sample_grid();
    let meta = forest_meta(&ForestOptions::default(), None);
    for compression in [
        container::Compression::None,
        container::Compression::Lz4,
        container::Compression::Zstd,
    ] {
        let options = ForestOptions {
            compression,
            lods: 2,
        };
        let regions = encode_forest(&grid, &options, &Progress::new()).expect("encodes");
        assert!(regions.iter().any(|r| r.pos[0] < -1), "negative regions");
        let back = decode_forest(
            &meta,
            &sources(&regions),
            &ImportRules::default(),
            &Progress::new(),
        )
        .expect("decodes");
        back.grid.assert_valid();
        assert!(back.grid == grid, "{compression:?}: voxels differ");
        assert_eq!(back.report.fallback_voxels, 0);
    }
}

#[test]
fn lod1_blocks_hold_the_16_mips() {
    let grid = sample_grid();
    let options = ForestOptions {
        compression: container::Compression::Lz4,
        lods: 4,
    };
    let regions = encode_forest(&grid, &options, &Progress::new()).expect("encodes");
    let lod1 = regions
        .iter()
        .find(|r| r.lod == 1 && r.pos == [-1, -1, -1])
        .expect("lod1 region");
    let reader = RegionReader::parse(&lod1.bytes, None).expect("parses");
    // Chunk (-2, -1, 0) is lod1 block (-2, -1, 0): region (-1, -1, 0) local (14, 15, 0).
    let lod1_zero = regions
        .iter()
        .find(|r| r.lod == 1 && r.pos == [-1, -1, 0])
        .expect("lod1 region");
    let reader0 = RegionReader::parse(&lod1_zero.bytes, None).expect("parses");
    let (_, c) = reader0.block([14, 15, 0]).expect("block present");
    let block = BlockData::decode(&container::decompress(c, 1 << 20).expect("lz4")).expect("v4");
    let (voxels, _) = block_to_voxel_vec(&block, &ImportRules::default()).expect("converts");
    let chunk = grid.chunk(ChunkPos::new(-2, -1, 0)).expect("stored");
    for (i, v) in voxels.iter().enumerate() {
        assert_eq!(*v, chunk.mip16().get(i % 16, (i / 16) % 16, i / 256));
    }
    assert!(reader.blocks().count() > 0);
    assert!(regions.iter().any(|r| r.lod == 3));
}

#[test]
fn bad_blocks_inside_regions_name_the_block_and_offset() {
    let mut w = RegionWriter::new(RegionFormat::default());
    let mut container = Vec::new();
    let mut payload = BlockData::new([16; 3]).to_bytes().expect("encodes");
    payload[0] = 3;
    container::compress(&payload, container::Compression::None, &mut container).expect("wraps");
    w.set([1, 0, 0], container);
    let bytes = w.to_bytes().expect("writes");
    let src = [RegionSource {
        pos: [0, 0, 0],
        bytes: &bytes,
        path: "r.0.0.0.vxr".into(),
    }];
    let meta = forest_meta(&ForestOptions::default(), None);
    let err = decode_forest(&meta, &src, &ImportRules::default(), &Progress::new())
        .expect_err("version 3 block");
    let text = err.to_string();
    assert!(text.contains("r.0.0.0.vxr"), "{text}");
    assert!(text.contains("block [1, 0, 0]"), "{text}");
    assert!(text.contains("unsupported version 3"), "{text}");
    assert!(
        text.contains(&format!("byte {}", 20 + 4 * 4096 + 4)),
        "{text}"
    );
}

#[test]
fn foreign_forests_with_small_blocks_and_regions_import() {
    // 4³ blocks, 4³ blocks per region: a region covers 16³ voxels, so chunks span regions.
    let meta = ForestMeta {
        block_size_po2: 2,
        region_size_po2: 2,
        ..forest_meta(&ForestOptions::default(), None)
    };
    let format = meta.region_format();
    let mut files = Vec::new();
    let mut expected = Grid::new();
    for (region, local, material) in [
        ([-1, 0, 0], [3, 0, 1], 5u8),
        ([0, 0, 0], [0, 0, 1], 6),
        ([-1, -1, -1], [3, 3, 3], 7),
    ] {
        let voxels: Vec<Voxel> = (0..64)
            .map(|i| Voxel::new(material, (i * 4) as u8))
            .collect();
        let block = block_from_voxels([4, 4, 4], &voxels);
        let mut container = Vec::new();
        container::compress(
            &block.to_bytes().expect("encodes"),
            container::Compression::Lz4,
            &mut container,
        )
        .expect("compresses");
        let mut w = RegionWriter::new(format.clone());
        w.set(local, container);
        files.push((region, w.to_bytes().expect("writes")));
        let min = VoxelPos::new(
            (region[0] * 4 + local[0] as i32) * 4,
            (region[1] * 4 + local[1] as i32) * 4,
            (region[2] * 4 + local[2] as i32) * 4,
        );
        expected.write_box(VoxelBox::from_min_size(min, [4, 4, 4]), &voxels);
    }
    let sources: Vec<RegionSource<'_>> = files
        .iter()
        .map(|(pos, bytes)| RegionSource {
            pos: *pos,
            bytes,
            path: "r.vxr".into(),
        })
        .collect();
    let back =
        decode_forest(&meta, &sources, &ImportRules::default(), &Progress::new()).expect("decodes");
    back.grid.assert_valid();
    assert!(back.grid == expected);
    assert_eq!(back.blocks, 3);
    assert_eq!(back.bounds.min, VoxelPos::new(-4, -4, -4));
    // Blocks larger than a chunk are refused.
    let big = ForestMeta {
        block_size_po2: 6,
        ..meta
    };
    assert!(decode_forest(&big, &sources, &ImportRules::default(), &Progress::new()).is_err());
}
