//! Fuzz the seed RLE decoder and the RLE+LZ4 unpacker: any bytes, any box size, never a panic, and a
//! successful decode re-encodes to a stream that decodes to the same voxels.
#![no_main]

use libfuzzer_sys::fuzz_target;
use strata_engine::codec::{lz4, rle};
use strata_engine::voxel::Voxel;

fuzz_target!(|data: &[u8]| {
    let Some((&n, bytes)) = data.split_first() else {
        return;
    };
    let mut out = vec![Voxel::AIR; usize::from(n) * 16];
    if rle::decode(bytes, &mut out).is_ok() {
        let mut again = Vec::new();
        rle::encode(&out, &mut again);
        let mut back = vec![Voxel::AIR; out.len()];
        assert!(rle::decode(&again, &mut back).is_ok());
        assert_eq!(back, out);
    }
    let mut scratch = Vec::new();
    let _ = lz4::unpack_into(bytes, usize::from(n) * 8, &mut out, &mut scratch);
});
