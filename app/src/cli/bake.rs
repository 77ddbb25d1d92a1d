//! `strata bake FILE [-o OUT] [--quality draft|medium|final|custom] [--bounce 0|1|2]
//! [--denoise on|off] [--emission on|off] [--sun-dir X,Y,Z] [--sun-color R,G,B] [--sky-color R,G,B]
//! [--particles N] [--steps N] [--step-length L] [--sun-bias B] [--seed N] [--threads N] [--json]`:
//! bake the snowflake lighting of a project (sun, sky, glowing materials and the project's placed
//! lights) and save it in the file's light section.
//!
//! Settings that are not given take the engine defaults (not the previous bake's); `--quality`
//! starts from its preset instead, and the other flags override the preset's values. Without `-o` the
//! project is rewritten in place, atomically, keeping `FILE.bak`. `--threads` runs the bake on its own
//! rayon pool of that many threads; the light is the same for any count.

use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};
use strata_engine::light::settings::{MAX_PARTICLES, MAX_STEPS};
use strata_engine::light::{
    bake_scene, mean_light_by_material, BakeStats, LightScene, LightSettings, Quality, SolidVolume,
};

use super::args::parse_triple;
use super::progress::with_bar;
use crate::{AppError, AppResult};

/// Most threads `--threads` accepts.
pub const MAX_THREADS: u32 = 256;

/// `strata bake`.
#[derive(Debug, clap::Args)]
pub struct BakeArgs {
    /// Project file to bake.
    file: PathBuf,
    /// Write the baked project here instead of rewriting FILE.
    #[arg(short = 'o', long = "out")]
    out: Option<PathBuf>,
    /// Preset: draft (fast), medium (the default), final (clean: more particles, one bounce,
    /// denoise on) or custom (the defaults, changed by the flags).
    #[arg(long, value_parser = ["draft", "medium", "final", "custom"])]
    quality: Option<String>,
    /// Bounces of light between surfaces, 0 to 2. Default 0 (final: 1).
    #[arg(long, value_parser = ["0", "1", "2"])]
    bounce: Option<String>,
    /// The edge-aware filter over the surface. Default off (final: on).
    #[arg(long, value_parser = ["on", "off"])]
    denoise: Option<String>,
    /// Glowing materials light what is around them. Default on.
    #[arg(long, value_parser = ["on", "off"])]
    emission: Option<String>,
    /// Direction towards the sun X,Y,Z (Y up; any length but zero). Default 0.7,0.64,0.3.
    #[arg(long, allow_hyphen_values = true)]
    sun_dir: Option<String>,
    /// Sun colour R,G,B in linear light (0 to 64). Default 1,0.93,0.8.
    #[arg(long, allow_hyphen_values = true)]
    sun_color: Option<String>,
    /// Sky colour R,G,B in linear light (0 to 64). Default 1.6,1.8,2.2.
    #[arg(long, allow_hyphen_values = true)]
    sky_color: Option<String>,
    /// Sun particles, and again sky particles, per surface voxel (1 to 65536). Default 32.
    #[arg(long, allow_hyphen_values = true)]
    particles: Option<String>,
    /// Steps each particle must survive (1 to 4096). Default 48.
    #[arg(long, allow_hyphen_values = true)]
    steps: Option<String>,
    /// Step length in voxels (more than 0, at most 16). Default 1.
    #[arg(long, allow_hyphen_values = true)]
    step_length: Option<String>,
    /// How strongly sun particles lean towards the sun (0 to 64). Default 8.
    #[arg(long, allow_hyphen_values = true)]
    sun_bias: Option<String>,
    /// Random seed. Default 1.
    #[arg(long, allow_hyphen_values = true)]
    seed: Option<String>,
    /// Worker threads (1 to 256); default: one per core.
    #[arg(long, allow_hyphen_values = true)]
    threads: Option<String>,
    /// Print the bake report as JSON on stdout.
    #[arg(long)]
    json: bool,
}

fn number<T: std::str::FromStr>(text: &str, flag: &str) -> AppResult<T> {
    text.trim()
        .parse::<T>()
        .map_err(|_| AppError::Usage(format!("{flag} {text:?}: not a valid number")))
}

/// A whole number from 1 to `max`.
fn count(text: &str, flag: &str, max: u32) -> AppResult<u32> {
    let n: i128 = number(text, flag)?;
    u32::try_from(n)
        .ok()
        .filter(|n| (1..=max).contains(n))
        .ok_or_else(|| AppError::Usage(format!("{flag} {n}: must be 1 to {max}")))
}

impl BakeArgs {
    /// The bake settings: defaults, overridden by the given flags, validated.
    ///
    /// # Errors
    /// [`AppError::Usage`] for a malformed number, [`AppError::Engine`] for values out of range.
    pub fn settings(&self) -> AppResult<LightSettings> {
        let mut s = LightSettings::default();
        if let Some(q) = &self.quality {
            s = Quality::parse(q)?.apply(&s);
        }
        if let Some(b) = &self.bounce {
            s.bounce = b
                .parse()
                .map_err(|_| AppError::Usage(format!("--bounce {b}: must be 0, 1 or 2")))?;
        }
        if let Some(d) = &self.denoise {
            s.denoise = d == "on";
        }
        if let Some(e) = &self.emission {
            s.emission = e == "on";
        }
        if let Some(v) = &self.sun_dir {
            s.sun_dir = parse_triple(v, "--sun-dir")?;
        }
        if let Some(v) = &self.sun_color {
            s.sun_color = parse_triple(v, "--sun-color")?;
        }
        if let Some(v) = &self.sky_color {
            s.sky_color = parse_triple(v, "--sky-color")?;
        }
        if let Some(v) = &self.particles {
            s.particles = count(v, "--particles", MAX_PARTICLES)?;
        }
        if let Some(v) = &self.steps {
            s.steps = count(v, "--steps", MAX_STEPS)?;
        }
        if let Some(v) = &self.step_length {
            s.step_length = number(v, "--step-length")?;
        }
        if let Some(v) = &self.sun_bias {
            s.sun_bias = number(v, "--sun-bias")?;
        }
        if let Some(v) = &self.seed {
            s.seed = number(v, "--seed")?;
        }
        s.validate()?;
        Ok(s)
    }

    /// Run the command.
    ///
    /// # Errors
    /// Bad settings or thread count, an unreadable project, a world with nothing to light, a failed
    /// save.
    pub fn run(self) -> AppResult<()> {
        let settings = self.settings()?;
        let threads = self
            .threads
            .as_deref()
            .map(|t| count(t, "--threads", MAX_THREADS).map(|n| n as usize))
            .transpose()?;
        let out = self.out.clone().unwrap_or_else(|| self.file.clone());
        super::project_edit::refuse_clobbering(
            &[&self.file],
            Some(&self.file),
            std::slice::from_ref(&out),
        )?;
        run(&self.file, &out, &settings, threads, self.json)
    }
}

fn run(
    file: &Path,
    out: &Path,
    settings: &LightSettings,
    threads: Option<usize>,
    json: bool,
) -> AppResult<()> {
    let mut project = super::project_edit::load(file)?;
    let table = project.header.materials.clone();
    let (grid, lights) = (&project.grid, &project.lights);
    let mut emissive = 0;
    let mut job = |p: &strata_engine::progress::Progress| {
        let started = std::time::Instant::now();
        let volume = SolidVolume::from_grid(grid, &table)?;
        let scene = LightScene::new(grid, &table, &volume, lights, settings);
        emissive = scene.emissive_voxels();
        let (light, mut stats) = bake_scene(&volume, &scene, settings, p)?;
        stats.seconds = started.elapsed().as_secs_f64();
        Ok::<_, strata_engine::Error>((light, stats))
    };
    let (light, stats) = match threads {
        Some(n) => {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map_err(|e| AppError::Usage(format!("--threads {n}: {e}")))?;
            with_bar("baking", |p| pool.install(|| job(p)))?
        }
        None => with_bar("baking", job)?,
    };
    if light.is_empty() {
        return Err(AppError::Usage(format!(
            "{}: nothing to light: the world has no solid voxel (occupancy at least 0.5, not a liquid)",
            file.display()
        )));
    }
    let means = mean_light_by_material(&light, &project.grid, &table);
    project.light = Some(light);
    with_bar("saving", |p| project.save_with(out, p))?;
    let mut report = report(&stats, &means, &table, out);
    report["quality"] = json!(Quality::of(settings).name());
    report["lights"] = json!(project.lights.len());
    report["emissive_voxels"] = json!(emissive);
    report["bounce"] = json!(settings.bounce);
    report["denoised"] = json!(settings.denoise);
    if json {
        out!(
            "{}",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        )?;
    } else {
        note!(
            "{}: {} surface voxels, {} walk steps in {:.2} s ({:.0} M steps/s)",
            out.display(),
            stats.surface_voxels,
            stats.walk_steps,
            stats.seconds,
            stats.steps_per_second() / 1e6
        )?;
    }
    Ok(())
}

fn report(
    stats: &BakeStats,
    means: &[Option<[f64; 3]>],
    table: &strata_engine::voxel::MaterialTable,
    out: &Path,
) -> Value {
    let mut by_material = Map::new();
    for (m, mean) in table.materials.iter().zip(means) {
        if let Some(rgb) = mean {
            by_material.insert(m.name.clone(), json!(rgb));
        }
    }
    json!({
        "file": out.display().to_string(),
        "surface_voxels": stats.surface_voxels,
        "walk_steps": stats.walk_steps,
        "seconds": stats.seconds,
        "steps_per_second": stats.steps_per_second(),
        "mean_light_by_material": by_material,
    })
}
