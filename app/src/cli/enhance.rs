//! `strata enhance FILE --method subdivide|resample [...] --box X0,Y0,Z0,X1,Y1,Z1 --out OUT [--json]`:
//! voxel detail enhancement of a box, written as raw fragment bytes, a MagicaVoxel file, or the
//! fragments' visible faces as OBJ / glb.
//!
//! Every option is checked before the project is read: ranges, options that do not apply to the
//! method, the box, the output's extension and its size limit.

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::{json, Value};
use strata_engine::enhance::{
    bake_fragments, export_mesh, export_raw, export_vox, Enhanced, ExportSummary, FaceLight,
    HeightBand, Method, OutputFormat, ResampleParams, SubdivideParams, MAX_COUNT, MAX_FACTOR,
    MAX_LEVELS, MAX_SPREAD,
};
use strata_engine::light::LightSettings;
use strata_engine::voxel::{EnhanceThreshold, VoxelBox};

use super::args::parse_box;
use super::progress::with_bar;
use crate::{AppError, AppResult};

/// The enhancement methods.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum MethodArg {
    /// Recursive subdivision (2^levels fragments per voxel edge).
    Subdivide,
    /// Direct resampling (factor fragments per voxel edge).
    Resample,
}

/// `strata enhance`.
#[derive(Debug, clap::Args)]
pub struct EnhanceArgs {
    /// Project file.
    file: PathBuf,
    /// Enhancement method.
    #[arg(long, value_enum)]
    method: MethodArg,
    /// Subdivision levels, 1 to 4 (default 2).
    #[arg(long, allow_hyphen_values = true)]
    levels: Option<i64>,
    /// Subdivision threshold for every material, 1 to 4 (default: each material's own).
    #[arg(long, allow_hyphen_values = true)]
    threshold: Option<i64>,
    /// Resampling factor, 1 to 16 (default 4).
    #[arg(long, allow_hyphen_values = true)]
    factor: Option<i64>,
    /// Probes per fragment, 1 to 4096 (default 16).
    #[arg(long, allow_hyphen_values = true)]
    count: Option<i64>,
    /// Probe spread in voxels, 0 to 16 (default 1.0).
    #[arg(long, allow_hyphen_values = true)]
    spread: Option<f64>,
    /// Fraction of probes that must land in solid voxels, 0 to 1 (default 0.25).
    #[arg(long, allow_hyphen_values = true)]
    fraction: Option<f64>,
    /// Seed of the probe pattern (default 1).
    #[arg(long)]
    seed: Option<u64>,
    /// Half-open voxel box X0,Y0,Z0,X1,Y1,Z1 to enhance.
    #[arg(long = "box", allow_hyphen_values = true)]
    region: String,
    /// Output: .raw, .vox, .obj or .glb.
    #[arg(long)]
    out: PathBuf,
    /// Print a JSON summary on stdout.
    #[arg(long)]
    json: bool,
    /// Subdivision: count a neighbour of another material as empty (crisp material borders).
    #[arg(long)]
    material_borders: bool,
    /// Subdivision: the paper's single 7-bit table of whole blocks (approximate from 2 levels on).
    #[arg(long)]
    approximate_table: bool,
    /// Subdivision: altitude band Y0,Y1,T or Y0,Y1,EVEN,ODD whose thresholds replace the materials'
    /// (repeatable; the first band holding a voxel wins).
    #[arg(long = "band", allow_hyphen_values = true)]
    bands: Vec<String>,
    /// Mesh outputs: leave the project's baked light out of the face colours.
    #[arg(long, conflicts_with = "fragment_light")]
    no_light: bool,
    /// Mesh outputs: bake the light over the fragments themselves (the project's light settings, or
    /// the defaults) and colour the faces with it.
    #[arg(long)]
    fragment_light: bool,
}

/// Which light the mesh outputs carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LightChoice {
    Off,
    Voxels,
    Fragments,
}

fn range_i64(v: i64, lo: i64, hi: i64, flag: &str, what: &str) -> AppResult<u32> {
    if (lo..=hi).contains(&v) {
        Ok(v as u32)
    } else {
        Err(AppError::Usage(format!(
            "{flag} {v} is out of range: {what} {lo} to {hi}"
        )))
    }
}

fn parse_band(text: &str) -> AppResult<HeightBand> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let nums: Vec<i64> = parts
        .iter()
        .map(|p| p.parse::<i64>())
        .collect::<Result<_, _>>()
        .map_err(|_| {
            AppError::Usage(format!(
                "--band {text:?}: expected Y0,Y1,T or Y0,Y1,EVEN,ODD"
            ))
        })?;
    if !(3..=4).contains(&nums.len()) {
        return Err(AppError::Usage(format!(
            "--band {text:?}: expected Y0,Y1,T or Y0,Y1,EVEN,ODD"
        )));
    }
    let y = |v: i64| {
        i32::try_from(v)
            .map_err(|_| AppError::Usage(format!("--band {text:?}: altitude {v} is out of range")))
    };
    let (min_y, max_y) = (y(nums[0])?, y(nums[1])?);
    if min_y >= max_y {
        return Err(AppError::Usage(format!(
            "--band {text:?} is empty: Y1 must be greater than Y0"
        )));
    }
    let even = range_i64(nums[2], 1, 4, "--band threshold", "a threshold counts")? as u8;
    let odd = match nums.get(3) {
        Some(&t) => range_i64(t, 1, 4, "--band threshold", "a threshold counts")? as u8,
        None => even,
    };
    Ok(HeightBand {
        min_y,
        max_y,
        threshold: EnhanceThreshold { even, odd },
    })
}

impl EnhanceArgs {
    /// The method the options describe, checked.
    fn method(&self) -> AppResult<Method> {
        let not_for = |present: bool, flag: &str, method: &str| -> AppResult<()> {
            if present {
                Err(AppError::Usage(format!(
                    "{flag} applies to --method {method}"
                )))
            } else {
                Ok(())
            }
        };
        match self.method {
            MethodArg::Subdivide => {
                not_for(self.factor.is_some(), "--factor", "resample")?;
                not_for(self.count.is_some(), "--count", "resample")?;
                not_for(self.spread.is_some(), "--spread", "resample")?;
                not_for(self.fraction.is_some(), "--fraction", "resample")?;
                not_for(self.seed.is_some(), "--seed", "resample")?;
                let levels = match self.levels {
                    Some(l) => range_i64(l, 1, i64::from(MAX_LEVELS), "--levels", "levels are")?,
                    None => 2,
                };
                let threshold = self
                    .threshold
                    .map(|t| {
                        range_i64(t, 1, 4, "--threshold", "a threshold counts").map(|t| t as u8)
                    })
                    .transpose()?;
                let bands = self
                    .bands
                    .iter()
                    .map(|b| parse_band(b))
                    .collect::<AppResult<_>>()?;
                Ok(Method::Subdivide(SubdivideParams {
                    levels,
                    threshold,
                    bands,
                    material_borders: self.material_borders,
                    approximate_table: self.approximate_table,
                }))
            }
            MethodArg::Resample => {
                not_for(self.levels.is_some(), "--levels", "subdivide")?;
                not_for(self.threshold.is_some(), "--threshold", "subdivide")?;
                not_for(self.material_borders, "--material-borders", "subdivide")?;
                not_for(self.approximate_table, "--approximate-table", "subdivide")?;
                not_for(!self.bands.is_empty(), "--band", "subdivide")?;
                let d = ResampleParams::default();
                let factor = match self.factor {
                    Some(f) => range_i64(f, 1, i64::from(MAX_FACTOR), "--factor", "the factor is")?,
                    None => d.factor,
                };
                let count = match self.count {
                    Some(c) => range_i64(c, 1, i64::from(MAX_COUNT), "--count", "probes are")?,
                    None => d.count,
                };
                let spread = match self.spread {
                    Some(s) if !s.is_finite() || s < 0.0 || s > f64::from(MAX_SPREAD) => {
                        return Err(AppError::Usage(format!(
                            "--spread {s} is out of range: 0 to {MAX_SPREAD} voxels (not negative)"
                        )))
                    }
                    Some(s) => s as f32,
                    None => d.spread,
                };
                let fraction = match self.fraction {
                    Some(p) if !p.is_finite() || !(0.0..=1.0).contains(&p) => {
                        return Err(AppError::Usage(format!(
                            "--fraction {p} is out of range: 0 to 1"
                        )))
                    }
                    Some(p) => p as f32,
                    None => d.fraction,
                };
                Ok(Method::Resample(ResampleParams {
                    factor,
                    count,
                    spread,
                    fraction,
                    seed: self.seed.unwrap_or(d.seed),
                }))
            }
        }
    }

    /// Run the command.
    ///
    /// # Errors
    /// Bad options (before anything is read), an unreadable project, an unwritable output.
    pub fn run(self) -> AppResult<()> {
        let method = self.method()?;
        method.validate()?;
        let region = parse_box(&self.region)?;
        region.check_range("--box")?;
        let format = OutputFormat::from_path(&self.out).ok_or_else(|| {
            AppError::Usage(format!(
                "cannot tell the output format of {}: use .raw, .vox, .obj or .glb",
                self.out.display()
            ))
        })?;
        format.check_size(region, method.factor() as usize)?;
        check_work(&method, region)?;
        let light = match (self.no_light, self.fragment_light) {
            (true, _) => LightChoice::Off,
            (false, true) => LightChoice::Fragments,
            (false, false) => LightChoice::Voxels,
        };
        if light != LightChoice::Voxels && !matches!(format, OutputFormat::Obj | OutputFormat::Glb)
        {
            return Err(AppError::Usage(format!(
                "--no-light and --fragment-light apply to .obj and .glb outputs, not .{}",
                format.extension()
            )));
        }
        run(
            &self.file, &method, region, format, &self.out, self.json, light,
        )
    }
}

/// The most probe evaluations one resampling may make: fragments in the box × probes per
/// fragment. Resampling a box this large takes about five minutes on two cores (surface-heavy
/// terrain; buried and empty blocks cost nothing), so larger jobs are refused before the project
/// is read instead of running for hours.
pub const MAX_RESAMPLE_PROBES: u128 = 1 << 38;

/// Refuse a resampling past [`MAX_RESAMPLE_PROBES`].
fn check_work(method: &Method, region: VoxelBox) -> AppResult<()> {
    let Method::Resample(p) = method else {
        return Ok(());
    };
    let f = u128::from(p.factor);
    let fragments: u128 = region.size().iter().map(|&s| s as u128 * f).product();
    let probes = fragments * u128::from(p.count);
    if probes > MAX_RESAMPLE_PROBES {
        return Err(AppError::Usage(format!(
            "resampling the box takes {fragments} fragments × {} probes = {probes} probe \
             evaluations, past the limit of {MAX_RESAMPLE_PROBES} (2^38, about five minutes): use a \
             smaller box, a smaller --factor or fewer --count probes",
            p.count
        )));
    }
    Ok(())
}

fn run(
    file: &Path,
    method: &Method,
    region: VoxelBox,
    format: OutputFormat,
    out: &Path,
    json: bool,
    light: LightChoice,
) -> AppResult<()> {
    let mut writes = vec![out.to_path_buf()];
    if format == OutputFormat::Obj {
        writes.push(strata_engine::mesh::obj_material_path(out));
    }
    super::project_edit::refuse_clobbering(&[file], None, &writes)?;
    let project = super::project_edit::load(file)?;
    let table = &project.header.materials;
    let started = Instant::now();
    let enhanced = with_bar("enhancing", |p| {
        Enhanced::build(&project.grid, table, method, Some(region), p)
    })?;
    let enhance_ms = started.elapsed().as_secs_f64() * 1e3;
    let volume = enhanced.volume(&project.grid);
    let mesh = matches!(format, OutputFormat::Obj | OutputFormat::Glb);
    let fragment_light = if mesh && light == LightChoice::Fragments {
        let settings = project
            .light
            .as_ref()
            .map_or_else(LightSettings::default, |l| *l.settings());
        Some(with_bar("lighting fragments", |p| {
            bake_fragments(&volume, region, &settings, p)
        })?)
    } else {
        None
    };
    let face_light = match (&fragment_light, light, project.light.as_ref()) {
        (Some((map, _)), _, _) => FaceLight::Fragments(map),
        (None, LightChoice::Voxels, Some(map)) => FaceLight::Voxels(map),
        _ => FaceLight::None,
    };
    let started = Instant::now();
    let summary = with_bar("writing", |p| match format {
        OutputFormat::Raw => export_raw(&volume, region, out, p),
        OutputFormat::Vox => export_vox(&volume, region, table, out, p),
        _ => export_mesh(&volume, region, table, format, out, face_light, p),
    })?;
    let write_ms = started.elapsed().as_secs_f64() * 1e3;
    let stats = enhanced.stats();
    let f = enhanced.factor();
    let report = Report {
        file,
        out,
        format,
        method,
        region,
        factor: f,
        summary,
        blocks: stats.blocks,
        memory_bytes: stats.memory_bytes,
        enhance_ms,
        write_ms,
        light: if mesh { face_light.name() } else { "none" },
    };
    if json {
        out!("{}", report.json())?;
    } else {
        out!("{}", report.text())?;
    }
    Ok(())
}

/// What `enhance` prints.
struct Report<'a> {
    file: &'a Path,
    out: &'a Path,
    format: OutputFormat,
    method: &'a Method,
    region: VoxelBox,
    factor: usize,
    summary: ExportSummary,
    blocks: usize,
    memory_bytes: usize,
    enhance_ms: f64,
    write_ms: f64,
    light: &'static str,
}

impl Report<'_> {
    fn json(&self) -> Value {
        let size = self.region.size().map(|d| d * self.factor);
        let mut j = json!({
            "file": self.file.display().to_string(),
            "out": self.out.display().to_string(),
            "format": self.format.extension(),
            "method": self.method.name(),
            "box": {"min": self.region.min.to_array(), "max": self.region.max.to_array()},
            "factor": self.factor,
            "size": size,
            "fragments": self.summary.fragments,
            "solid_fragments": self.summary.solid_fragments,
            "models": self.summary.models,
            "faces": self.summary.faces,
            "vertices": self.summary.vertices,
            "stored_blocks": self.blocks,
            "memory_bytes": self.memory_bytes,
            "enhance_ms": self.enhance_ms,
            "write_ms": self.write_ms,
            "light": self.light,
        });
        match self.method {
            Method::Subdivide(p) => {
                j["levels"] = json!(p.levels);
                j["threshold"] = json!(p.threshold);
                j["material_borders"] = json!(p.material_borders);
                j["approximate_table"] = json!(p.approximate_table);
                j["bands"] = Value::Array(
                    p.bands
                        .iter()
                        .map(|b| {
                            json!({"min_y": b.min_y, "max_y": b.max_y,
                            "even": b.threshold.even, "odd": b.threshold.odd})
                        })
                        .collect(),
                );
            }
            Method::Resample(p) => {
                j["count"] = json!(p.count);
                j["spread"] = json!(p.spread);
                j["fraction"] = json!(p.fraction);
                j["seed"] = json!(p.seed);
            }
        }
        j
    }

    fn text(&self) -> String {
        let [x, y, z] = self.region.size().map(|d| d * self.factor);
        let mut s = format!(
            "{}: {} ({} fragments per voxel edge), {x}×{y}×{z} fragments",
            self.out.display(),
            self.method.name(),
            self.factor
        );
        match self.format {
            OutputFormat::Raw => s.push_str(&format!(", {} solid", self.summary.solid_fragments)),
            OutputFormat::Vox => s.push_str(&format!(
                ", {} solid in {} models",
                self.summary.solid_fragments, self.summary.models
            )),
            _ => s.push_str(&format!(
                ", {} faces, {} vertices",
                self.summary.faces, self.summary.vertices
            )),
        }
        s.push_str(&format!(
            "\n{} surface blocks stored ({} bytes); enhanced in {:.1} ms, written in {:.1} ms",
            self.blocks, self.memory_bytes, self.enhance_ms, self.write_ms
        ));
        s
    }
}
