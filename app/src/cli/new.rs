//! `strata new OUT.strata [--preset NAME | --biomes LIST [--biome-size N]] [--caves on|off]
//! [--size X,Y,Z] [--seed N]`: generate and save a world.

use std::path::{Path, PathBuf};
use std::time::Instant;

use strata_engine::format::project::{Project, ProjectHeader};
use strata_engine::gen::{
    generate_world, Biome, BiomeSettings, GeneratorSettings, Preset, WorldSettings,
    DEFAULT_BIOME_SIZE,
};
use strata_engine::voxel::MaterialTable;

use super::args::parse_triple;
use super::progress::with_bar;
use crate::{AppError, AppResult};

/// `--caves on|off`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Switch {
    /// Carve caves.
    On,
    /// No caves.
    Off,
}

/// `strata new`.
#[derive(Debug, clap::Args)]
pub struct NewArgs {
    /// Output project file (.strata).
    out: PathBuf,
    /// Terrain preset: hills (the default), mountains, canyons, islands or flat. A preset is a
    /// one-biome world.
    #[arg(long, conflicts_with = "biomes")]
    preset: Option<String>,
    /// Biomes instead of a preset, comma-separated: water, plains, dunes, mountains, arctic,
    /// marsh, hills, canyons, lavascape, islands, flat.
    #[arg(long)]
    biomes: Option<String>,
    /// Typical width of one biome cell in voxels, 16 to 16384 (with --biomes; default 256).
    #[arg(long, requires = "biomes")]
    biome_size: Option<u32>,
    /// Carve caves (default: on for --biomes; the preset's own choice for presets).
    #[arg(long, value_enum)]
    caves: Option<Switch>,
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
    /// Bad preset, biome list, biome size or world size; generation or save failure.
    pub fn run(self) -> AppResult<()> {
        let world = self.settings()?;
        run(&self.out, &world)
    }

    /// The world the arguments describe.
    fn settings(&self) -> AppResult<WorldSettings> {
        if self.biome_size.is_some() && self.biomes.is_none() {
            return Err(AppError::Usage(
                "--biome-size applies to --biomes, not to a preset (a one-biome world)".into(),
            ));
        }
        let size = parse_triple::<u32>(&self.size, "--size")?;
        let mut world = match &self.biomes {
            Some(list) => WorldSettings::with_biomes(
                size,
                self.seed,
                BiomeSettings {
                    biomes: Biome::parse_list(list).map_err(|e| usage("--biomes", e))?,
                    biome_size: self.biome_size.unwrap_or(DEFAULT_BIOME_SIZE),
                    caves: true,
                },
            ),
            None => WorldSettings::from_preset(&GeneratorSettings {
                preset: Preset::from_name(self.preset.as_deref().unwrap_or("hills"))?,
                size,
                seed: self.seed,
            }),
        };
        if let Some(caves) = self.caves {
            world.biomes.caves = caves == Switch::On;
        }
        world
            .biomes
            .validate()
            .map_err(|e| usage("--biome-size", e))?;
        world.validate()?;
        Ok(world)
    }
}

/// Refuse a world whose estimated memory is over what the machine has available; announce a long one.
fn check_cost(world: &WorldSettings, materials: &MaterialTable) -> AppResult<()> {
    let Some(e) = super::new_estimate::estimate(world, materials)? else {
        return Ok(());
    };
    let gib = |b: u64| b as f64 / f64::from(1u32 << 30);
    if let Some(free) = super::new_estimate::available_bytes() {
        if e.bytes > free {
            return Err(AppError::Usage(format!(
                "--size {}x{}x{}: this world would need about {:.1} GiB of memory ({} chunk columns, \
                 measured on sample columns) but {:.1} GiB is available; choose a smaller --size",
                world.size[0],
                world.size[1],
                world.size[2],
                gib(e.bytes),
                e.columns,
                gib(free)
            )));
        }
    }
    if e.seconds > 30.0 {
        note!(
            "generating {} chunk columns: about {:.0} minutes and {:.1} GiB of memory (estimated)",
            e.columns,
            (e.seconds / 60.0).max(1.0),
            gib(e.bytes)
        )?;
    }
    Ok(())
}

/// A usage error naming the flag an engine error is about.
fn usage(flag: &str, e: strata_engine::Error) -> AppError {
    match e {
        strata_engine::Error::Invalid(m) => AppError::Usage(format!("{flag}: {m}")),
        other => other.into(),
    }
}

/// How `world` is described in the summary line: the preset, or the biome list and its options.
fn describe(world: &WorldSettings) -> String {
    let caves = if world.biomes.caves { "on" } else { "off" };
    if world.preset == Preset::Custom {
        let names: Vec<&str> = world.biomes.biomes.iter().map(|b| b.name()).collect();
        format!(
            "biomes {} (size {}, caves {caves})",
            names.join(","),
            world.biomes.biome_size
        )
    } else {
        format!("{} (caves {caves})", world.preset)
    }
}

fn run(out: &Path, world: &WorldSettings) -> AppResult<()> {
    let materials = MaterialTable::builtin();
    check_cost(world, &materials)?;
    let started = Instant::now();
    let grid = with_bar("generating", |p| generate_world(world, &materials, p))?;
    let generated = started.elapsed();
    let name = out.file_stem().map_or_else(
        || "untitled".to_owned(),
        |s| s.to_string_lossy().into_owned(),
    );
    let mut header = ProjectHeader::new(name, world.bounds());
    header.materials = materials;
    header.set_world(world);
    let project = Project::new(header, grid);
    let saving = Instant::now();
    with_bar("saving", |p| project.save_with(out, p))?;
    note!(
        "{}: {} {}x{}x{} seed {}: {} chunks, generated in {:.2}s, saved in {:.2}s",
        out.display(),
        describe(world),
        world.size[0],
        world.size[1],
        world.size[2],
        world.seed,
        project.grid.chunk_count(),
        generated.as_secs_f64(),
        saving.elapsed().as_secs_f64()
    )?;
    Ok(())
}
