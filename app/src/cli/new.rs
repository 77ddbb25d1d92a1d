//! `strata new OUT.strata [--preset NAME] [--size X,Y,Z] [--seed N]`: generate and save a world.

use std::path::PathBuf;
use std::time::Instant;

use strata_engine::format::project::{Project, ProjectHeader};
use strata_engine::gen::{generate, GeneratorSettings, Preset};
use strata_engine::voxel::MaterialTable;

use super::args::parse_triple;
use super::progress::with_bar;
use crate::AppResult;

/// `strata new`.
#[derive(Debug, clap::Args)]
pub struct NewArgs {
    /// Output project file (.strata).
    out: PathBuf,
    /// Terrain preset: hills, mountains, canyons, islands or flat.
    #[arg(long, default_value = "hills")]
    preset: String,
    /// World size in voxels, X,Y,Z (Y is up).
    #[arg(long, default_value = "256,128,256")]
    size: String,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    seed: u32,
}

impl NewArgs {
    /// Run the command.
    ///
    /// # Errors
    /// Bad preset or size, generation or save failure.
    pub fn run(self) -> AppResult<()> {
        run(&self.out, &self.preset, &self.size, self.seed)
    }
}

fn run(out: &std::path::Path, preset: &str, size: &str, seed: u32) -> AppResult<()> {
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
