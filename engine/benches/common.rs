//! Shared bench inputs: one seeded generated level, as dense chunks and as a grid.

use strata_engine::gen::{
    generate, generate_world, BiomeSettings, GeneratorSettings, Preset, WorldSettings,
};
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

/// The worlds the memory and file-size goals are measured on, by name: `canyons`, `mountains` and
/// `hills` (seed 1) and the nine-biome mix (`mix9`: 256-voxel cells, caves, seed 1), of `size`.
#[allow(dead_code)]
pub fn goal_worlds(size: [u32; 3]) -> Vec<(&'static str, WorldSettings)> {
    let preset = |preset| {
        WorldSettings::from_preset(&GeneratorSettings {
            preset,
            size,
            seed: 1,
        })
    };
    vec![
        ("canyons", preset(Preset::Canyons)),
        ("mountains", preset(Preset::Mountains)),
        ("hills", preset(Preset::Hills)),
        (
            "mix9",
            WorldSettings::with_biomes(size, 1, BiomeSettings::default()),
        ),
    ]
}

/// Generate `world` with the built-in materials.
#[allow(dead_code)]
pub fn generate_settings(world: &WorldSettings) -> Grid {
    generate_world(world, &MaterialTable::builtin(), &Progress::new()).expect("generates")
}

/// Size of the level used for timing (memory figures use the full 1024×256×1024 world).
pub fn timing_size() -> [u32; 3] {
    [256, 128, 256]
}

/// CPU seconds this process has used, all threads, user and system (`/proc/self/stat`, 10 ms
/// ticks); 0 off Linux. Differences measure work without the waiting a loaded machine adds.
#[allow(dead_code)]
pub fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    let Some((_, rest)) = stat.rsplit_once(')') else {
        return 0.0;
    };
    // After the command name: state is field 0, utime field 11, stime field 12.
    let ticks: u64 = rest
        .split_whitespace()
        .skip(11)
        .take(2)
        .filter_map(|f| f.parse::<u64>().ok())
        .sum();
    ticks as f64 / 100.0
}
