//! Fuzz the region decoders (raw bytes and RLE streams with a size from the first three bytes):
//! never a panic, and a region that decodes is valid and encodes back to bytes that decode to it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use strata_engine::region::Region;
use strata_engine::voxel::MaterialTable;

fuzz_target!(|data: &[u8]| {
    let Some((head, bytes)) = data.split_first_chunk::<3>() else {
        return;
    };
    let size = head.map(|b| u32::from(b % 24));
    let table = MaterialTable::builtin();
    if let Ok(r) = Region::decode_raw(bytes, size, &table) {
        r.assert_valid();
        let mut again = Vec::new();
        r.encode_raw(&mut again);
        assert_eq!(again, bytes);
    }
    if let Ok(r) = Region::decode_rle(bytes, size, &table) {
        r.assert_valid();
        let mut again = Vec::new();
        r.encode_rle(&mut again);
        assert_eq!(Region::decode_rle(&again, size, &table).ok(), Some(r));
    }
});
