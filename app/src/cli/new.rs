//! `strata new OUT.strata [--preset NAME] [--size X,Y,Z] [--seed N]`: generate and save a world.

use std::path::Path;
use std::time::Instant;

use strata_engine::format::project::{Project, ProjectHeader};
use strata_engine::gen::{generate, GeneratorSettings, Preset};
use strata_engine::voxel::MaterialTable;

use super::args::parse_triple;
use super::progress::with_bar;
use crate::AppResult;

/// Run the command.
///
/// # Errors
/// Bad preset or size, generation or save failure.
pub fn run(out: &Path, preset: &str, size: &str, seed: u32) -> AppResult<()> {
    let settings = GeneratorSettings {
        preset: Preset::from_name(preset)?,
        size: parse_triple::<u32>(size, "--size")?,
        seed,
    };
    settings.validate()?;
    let materials = MaterialTable::builtin();
    let started = Instant::now();
    let grid = with_bar("generating", |p| generate(&settings, &materials, p))?;
    let generated = started.elapsed();
    let name = out.file_stem().map_or_else(
        || "untitled".to_owned(),
        |s| s.to_string_lossy().into_owned(),
    );
    let mut header = ProjectHeader::new(name, settings.bounds());
    header.materials = materials;
    header.generator = Some(settings.clone());
    let project = Project::new(header, grid);
    let saving = Instant::now();
    with_bar("saving", |p| project.save_with(out, p))?;
    eprintln!(
        "{}: {} {}x{}x{} seed {}: {} chunks, generated in {:.2}s, saved in {:.2}s",
        out.display(),
        settings.preset,
        settings.size[0],
        settings.size[1],
        settings.size[2],
        settings.seed,
        project.grid.chunk_count(),
        generated.as_secs_f64(),
        saving.elapsed().as_secs_f64()
    );
    Ok(())
}
