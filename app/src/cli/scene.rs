//! `strata export FILE OUT.glb|OUT.gltf --format scene [--tile N] [--lods K] [--collision on|off]
//! [--light bake|none] [--box X0,Y0,Z0,X1,Y1,Z1] [--compress none|meshopt]`: the world as a glTF
//! scene of tiles with levels of detail, material slots, blend weights, baked light and collision
//! (see `strata_engine::mesh::SceneOptions`), with a progress bar. Every option is checked and the
//! output opened before any meshing, so a bad call writes nothing.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::ValueEnum;
use strata_engine::format::AtomicFile;
use strata_engine::mesh::{scene_bytes, SceneCompression, SceneContainer, SceneOptions};

use super::args::parse_box;
use super::progress::with_bar;
use crate::{AppError, AppResult};

/// `--collision`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OnOff {
    /// Write a `tile_X_Z-col` node per tile.
    On,
    /// No collision nodes.
    Off,
}

/// `--light`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LightArg {
    /// The project's baked light as `COLOR_0`.
    Bake,
    /// No `COLOR_0`.
    None,
}

/// `--compress`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CompressArg {
    /// Plain `f32` attributes.
    None,
    /// `EXT_meshopt_compression` + `KHR_mesh_quantization`.
    Meshopt,
}

/// The options only `--format scene` takes, as given on the command line.
#[derive(Debug, Clone, Default)]
pub struct SceneArgs {
    /// `--tile N`.
    pub tile: Option<u32>,
    /// `--lods K`.
    pub lods: Option<u8>,
    /// `--collision on|off`.
    pub collision: Option<OnOff>,
    /// `--light bake|none`.
    pub light: Option<LightArg>,
    /// `--compress none|meshopt`.
    pub compress: Option<CompressArg>,
    /// `--box`.
    pub region: Option<String>,
}

impl SceneArgs {
    /// True when any scene-only option is given (other formats refuse them).
    pub fn any(&self) -> bool {
        self.tile.is_some()
            || self.collision.is_some()
            || self.light.is_some()
            || self.compress.is_some()
    }
}

/// Export `file` as a glTF scene at `out`.
///
/// # Errors
/// A bad option, an output that is a folder or cannot be written, an unreadable project, or
/// `--light bake` for a project with no baked light; nothing is written then.
pub fn export_scene(file: &Path, out: &Path, args: &SceneArgs) -> AppResult<()> {
    if out.is_dir() {
        return Err(AppError::Usage(format!(
            "{} is a folder: give a .glb or .gltf file to write",
            out.display()
        )));
    }
    let region = args.region.as_deref().map(parse_box).transpose()?;
    if let Some(b) = region {
        b.check_range("--box")?;
    }
    let project = super::project_edit::load(file)?;
    let mut options = SceneOptions::new(project.header.bounds);
    if let Some(t) = args.tile {
        options.tile_voxels = t;
    }
    if let Some(k) = args.lods {
        options.lods = u32::from(k);
    }
    options.collision = args.collision != Some(OnOff::Off);
    options.region = region;
    options.textures = Some(&project.textures);
    options.compression = match args.compress {
        Some(CompressArg::Meshopt) => SceneCompression::Meshopt,
        _ => SceneCompression::None,
    };
    options.container = SceneContainer::from_path(out);
    options.light = match (args.light, project.light.as_ref()) {
        (Some(LightArg::None), _) => None,
        (Some(LightArg::Bake), None) => {
            return Err(AppError::Usage(format!(
                "{} has no baked light: run `strata bake {}` first, or pass --light none",
                file.display(),
                file.display()
            )))
        }
        (_, light) => light,
    };
    options
        .check()
        .map_err(|e| AppError::Usage(e.to_string()))?;
    strata_engine::format::refuse_same_file(file, out)?;
    // Opened before the work: an unwritable output fails at once, and nothing is left on failure.
    let mut writer = AtomicFile::create(out)?;
    let target: PathBuf = writer.target().to_path_buf();
    let table = &project.header.materials;
    let (bytes, stats) = with_bar("exporting", |p| {
        scene_bytes(&project.grid, table, &options, p)
    })?;
    writer
        .write_all(&bytes)
        .map_err(|e| AppError::io(&target, e))?;
    writer.commit()?;
    let levels: Vec<String> = stats.lod_triangles.iter().map(usize::to_string).collect();
    note!(
        "{}: {} tiles of {} voxels, triangles per level {}, {} collision triangles, {} bytes{}{}",
        out.display(),
        stats.tiles,
        options.tile_voxels,
        levels.join(" / "),
        stats.collision_triangles,
        stats.bytes,
        if options.light.is_some() {
            ", lit by the baked light"
        } else {
            ""
        },
        if options.compression == SceneCompression::Meshopt {
            ", meshopt-compressed"
        } else {
            ""
        },
    )?;
    if stats.tiles == 0 {
        note!("note: the scene is empty: the world holds no terrain surface there")?;
    }
    Ok(())
}
