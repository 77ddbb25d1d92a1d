//! Shared bench inputs: one seeded generated level, as dense chunks and as a grid.

use strata_engine::gen::{generate, GeneratorSettings, Preset};
use strata_engine::progress::Progress;
use strata_engine::storage::Grid;
use strata_engine::voxel::MaterialTable;

/// `canyons` of the given size, seed 1.
pub fn canyons(size: [u32; 3]) -> Grid {
    let settings = GeneratorSettings {
        preset: Preset::Canyons,
        size,
        seed: 1,
    };
    generate(&settings, &MaterialTable::builtin(), &Progress::new()).expect("generates")
}

/// Size of the level used for timing (memory figures use the full 1024×256×1024 world).
pub fn timing_size() -> [u32; 3] {
    [256, 128, 256]
}
