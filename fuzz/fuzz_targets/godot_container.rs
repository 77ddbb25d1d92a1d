//! Fuzz the godot_voxel compressed container: any bytes, never a panic and never more than the cap
//! allocated; whatever decompresses survives a compress/decompress round trip in every mode.
#![no_main]

use libfuzzer_sys::fuzz_target;
use strata_engine::format::godot::container::{compress, decompress, Compression};

const CAP: usize = 1 << 20;

fuzz_target!(|data: &[u8]| {
    let Ok(payload) = decompress(data, CAP) else {
        return;
    };
    assert!(payload.len() <= CAP);
    for c in [Compression::None, Compression::Lz4, Compression::Zstd] {
        let mut out = Vec::new();
        compress(&payload, c, &mut out).expect("compresses");
        assert_eq!(decompress(&out, CAP).expect("round trip"), payload);
    }
});
