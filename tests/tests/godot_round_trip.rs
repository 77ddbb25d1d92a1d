//! Strata → godot_voxel region forest → Strata must be bit-exact: `canyons 256,128,256 seed 3`, every
//! voxel's material and occupancy byte, through the files on disk.

use strata_engine::format::godot::container::Compression;
use strata_engine::format::godot::{
    export_forest, import_forest, ForestOptions, ImportRules, RegionReader,
};
use strata_engine::gen::{generate, GeneratorSettings, Preset};
use strata_engine::progress::Progress;
use strata_engine::voxel::MaterialTable;

#[test]
fn canyons_round_trip_through_vxr_is_bit_exact() {
    let settings = GeneratorSettings {
        preset: Preset::Canyons,
        size: [256, 128, 256],
        seed: 3,
    };
    let grid = generate(&settings, &MaterialTable::builtin(), &Progress::new()).expect("generates");
    let dir = std::env::temp_dir().join(format!("strata-godot-e2e-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let options = ForestOptions::default();
    let written = export_forest(
        &grid,
        Some(settings.bounds()),
        &dir,
        &options,
        &Progress::new(),
    )
    .expect("exports");
    assert_eq!(written.blocks.len(), 4);
    assert_eq!(written.blocks[0], grid.chunk_count() * 8);
    let lod0 = std::fs::read(dir.join("regions/lod0/r.0.0.0.vxr")).expect("region file");
    assert_eq!(&lod0[..5], b"VXR_\x03");
    assert!(
        RegionReader::parse(&lod0, None)
            .expect("parses")
            .blocks()
            .count()
            > 0
    );

    let back = import_forest(&dir, &ImportRules::default(), &Progress::new()).expect("imports");
    back.grid.assert_valid();
    assert_eq!(back.bounds, settings.bounds());
    assert_eq!(back.report.fallback_voxels, 0);
    assert!(back.grid == grid, "voxels differ after the round trip");

    // Exporting again with fewer LODs and zstd replaces the forest, stale LOD files included.
    let again = ForestOptions {
        compression: Compression::Zstd,
        lods: 1,
    };
    let report = export_forest(&grid, None, &dir, &again, &Progress::new()).expect("exports");
    assert_eq!(report.removed, 3);
    assert!(!dir.join("regions/lod1/r.0.0.0.vxr").exists());
    let back = import_forest(&dir, &ImportRules::default(), &Progress::new()).expect("imports");
    assert!(back.grid == grid, "voxels differ after the zstd round trip");
    std::fs::remove_dir_all(&dir).expect("cleanup");
}
