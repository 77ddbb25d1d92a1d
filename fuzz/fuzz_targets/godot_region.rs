//! Fuzz the godot_voxel region reader and the forest import path behind it: any bytes as
//! `r.0.0.0.vxr` of a default forest, never a panic; an imported grid is valid.
#![no_main]

use libfuzzer_sys::fuzz_target;
use strata_engine::format::godot::{
    decode_forest, forest_meta, ForestOptions, ImportRules, RegionReader, RegionSource,
};
use strata_engine::progress::Progress;

fuzz_target!(|data: &[u8]| {
    let meta = forest_meta(&ForestOptions::default(), None);
    if let Ok(r) = RegionReader::parse(data, Some(&meta.region_format())) {
        for (local, at, container) in r.blocks() {
            assert!(local.iter().all(|&c| c < 16));
            assert!(at + container.len() <= data.len());
        }
    }
    let src = [RegionSource {
        pos: [0, -1, 0],
        bytes: data,
        path: "r.0.-1.0.vxr".into(),
    }];
    if let Ok(imported) = decode_forest(&meta, &src, &ImportRules::default(), &Progress::new()) {
        imported.grid.assert_valid();
    }
});
