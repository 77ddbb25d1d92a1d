//! Whole-world generation: every chunk column filled in parallel (rayon), packed into chunks and
//! gathered into a [`Grid`], with progress and cancellation. The result does not depend on the number
//! of threads: each column is a pure function of the settings.

use rayon::prelude::*;

use super::{GeneratorSettings, Terrain, WorldSettings};
use crate::progress::Progress;
use crate::storage::{Chunk, Grid};
use crate::voxel::{ChunkPos, MaterialTable};
use crate::Result;

/// Generate the preset world described by `settings`. `progress` counts chunk columns; cancelling it
/// stops the job with [`crate::Error::Cancelled`].
///
/// # Errors
/// Invalid settings, a material the presets need missing from `materials`, or cancellation.
pub fn generate(
    settings: &GeneratorSettings,
    materials: &MaterialTable,
    progress: &Progress,
) -> Result<Grid> {
    settings.validate()?;
    generate_world(&WorldSettings::from_preset(settings), materials, progress)
}

/// Generate any world (a preset or a biome mix). `progress` counts chunk columns; cancelling it stops
/// the job with [`crate::Error::Cancelled`].
///
/// # Errors
/// Invalid settings (size, biome size, empty biome list), a material the generator needs missing
/// from `materials`, or cancellation.
pub fn generate_world(
    world: &WorldSettings,
    materials: &MaterialTable,
    progress: &Progress,
) -> Result<Grid> {
    let terrain = Terrain::from_world(world, materials)?;
    let columns = terrain.chunk_columns();
    progress.start(columns.len() as u64);
    let chunks = fill_columns(&terrain, &columns, progress)?;
    Ok(chunks.into_iter().flatten().collect())
}

/// The chunks of `columns`, filled in parallel, in column order.
pub(crate) fn fill_columns(
    terrain: &Terrain,
    columns: &[(i32, i32)],
    progress: &Progress,
) -> Result<Vec<Vec<(ChunkPos, Chunk)>>> {
    columns
        .par_iter()
        .map(|&(cx, cz)| {
            progress.check()?;
            let mut out = Vec::new();
            terrain.fill_column(cx, cz, &mut |pos, chunk| out.push((pos, chunk)));
            progress.advance(1);
            Ok(out)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::{Biome, BiomeSettings, Preset};

    #[test]
    fn same_world_on_any_thread_count() {
        let settings = GeneratorSettings {
            preset: Preset::Hills,
            size: [96, 64, 80],
            seed: 9,
        };
        let table = MaterialTable::builtin();
        let a = generate(&settings, &table, &Progress::new()).expect("generates");
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .expect("pool");
        let b = pool
            .install(|| generate(&settings, &table, &Progress::new()))
            .expect("generates");
        a.assert_valid();
        assert!(a == b);
        assert!(a.stats().nonair_voxels > 0);
    }

    #[test]
    fn mixed_worlds_are_the_same_on_any_thread_count() {
        let world = WorldSettings::with_biomes(
            [160, 96, 128],
            3,
            BiomeSettings {
                biomes: Biome::ALL.to_vec(),
                biome_size: 32,
                caves: true,
            },
        );
        let table = MaterialTable::builtin();
        let a = generate_world(&world, &table, &Progress::new()).expect("generates");
        for threads in [1, 3] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("pool");
            let b = pool
                .install(|| generate_world(&world, &table, &Progress::new()))
                .expect("generates");
            assert!(a == b, "{threads} threads");
        }
        a.assert_valid();
    }

    #[test]
    fn cancel_stops_generation() {
        let p = Progress::new();
        p.cancel();
        let r = generate(&GeneratorSettings::default(), &MaterialTable::builtin(), &p);
        assert!(matches!(r, Err(crate::Error::Cancelled)));
    }
}
