//! Whole-world generation: every chunk column filled in parallel (rayon), packed into chunks and
//! gathered into a [`Grid`], with progress and cancellation. The result does not depend on the number
//! of threads: each column is a pure function of the settings.

use rayon::prelude::*;

use super::{GeneratorSettings, Terrain};
use crate::progress::Progress;
use crate::storage::{Chunk, Grid};
use crate::voxel::{ChunkPos, MaterialTable};
use crate::Result;

/// Generate the world described by `settings`. `progress` counts chunk columns; cancelling it stops
/// the job with [`crate::Error::Cancelled`].
///
/// # Errors
/// Invalid settings, a material the presets need missing from `materials`, or cancellation.
pub fn generate(
    settings: &GeneratorSettings,
    materials: &MaterialTable,
    progress: &Progress,
) -> Result<Grid> {
    settings.validate()?;
    let terrain = Terrain::new(settings, materials)?;
    let columns = terrain.chunk_columns();
    progress.start(columns.len() as u64);
    let chunks: Vec<Vec<(ChunkPos, Chunk)>> = columns
        .par_iter()
        .map(|&(cx, cz)| {
            progress.check()?;
            let mut out = Vec::new();
            terrain.fill_column(cx, cz, &mut |pos, voxels| {
                out.push((pos, Chunk::from_dense(voxels)))
            });
            progress.advance(1);
            Ok(out)
        })
        .collect::<Result<_>>()?;
    Ok(chunks.into_iter().flatten().collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::Preset;

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
    fn cancel_stops_generation() {
        let p = Progress::new();
        p.cancel();
        let r = generate(&GeneratorSettings::default(), &MaterialTable::builtin(), &p);
        assert!(matches!(r, Err(crate::Error::Cancelled)));
    }
}
