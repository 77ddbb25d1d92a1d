//! Fuzz the RLE decoder and the RLE+LZ4 unpacker: any bytes, any box size, never a panic, and a
//! successful decode re-encodes to a stream that decodes to the same voxels. The run-by-run reader
//! (`rle::Runs`, used by `strata import --format rle`) must agree with `decode` on every input: the
//! same voxels, or the same first error.
#![no_main]

use libfuzzer_sys::fuzz_target;
use strata_engine::codec::{lz4, rle};
use strata_engine::voxel::Voxel;

fuzz_target!(|data: &[u8]| {
    let Some((&n, bytes)) = data.split_first() else {
        return;
    };
    let mut out = vec![Voxel::AIR; usize::from(n) * 16];
    let decoded = rle::decode(bytes, &mut out).map_err(|e| e.to_string());
    let mut by_runs = vec![Voxel::AIR; out.len()];
    let runs: Result<(), String> = rle::Runs::new(bytes, out.len() as u64).try_for_each(|run| {
        let run = run.map_err(|e| e.to_string())?;
        let first = run.first as usize;
        by_runs[first..first + run.count].fill(run.voxel);
        Ok(())
    });
    assert_eq!(runs, decoded);
    if decoded.is_ok() {
        assert_eq!(by_runs, out);
        let mut again = Vec::new();
        rle::encode(&out, &mut again);
        let mut back = vec![Voxel::AIR; out.len()];
        assert!(rle::decode(&again, &mut back).is_ok());
        assert_eq!(back, out);
    }
    let mut scratch = Vec::new();
    let _ = lz4::unpack_into(bytes, usize::from(n) * 8, &mut out, &mut scratch);
});
