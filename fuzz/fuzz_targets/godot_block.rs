//! Fuzz the godot_voxel v4 block decoder: any bytes, never a panic; a block that decodes re-encodes
//! to bytes that decode to the same block, and converts to Strata voxels without a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use strata_engine::format::godot::{block_to_voxel_vec, BlockData, ImportRules};

fuzz_target!(|data: &[u8]| {
    let Ok(block) = BlockData::decode(data) else {
        return;
    };
    let bytes = block.to_bytes().expect("a decoded block encodes");
    let again = BlockData::decode(&bytes).expect("an encoded block decodes");
    assert_eq!(again.to_bytes().expect("encodes"), bytes);
    assert_eq!(again.size, block.size);
    if block.volume() <= 1 << 16 {
        let (voxels, _) = block_to_voxel_vec(&block, &ImportRules::default()).expect("small");
        assert!(voxels.iter().all(|v| v.is_normalized()));
    }
});
