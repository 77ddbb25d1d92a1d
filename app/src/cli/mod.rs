//! Command-line definitions (clap) and dispatch. Every command exits non-zero with a clear message on
//! bad input; long jobs show a progress bar when stderr is a terminal.

mod args;
mod drop;
mod export;
mod godot;
pub mod heightmap;
mod import;
mod info;
mod mesh;
mod new;
mod progress;
mod raycast;
mod render;

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

use crate::AppResult;
pub use args::{parse_box, parse_triple};
pub use godot::CompressionArg;

/// Strata: a level editor for smooth voxel terrain.
#[derive(Debug, Parser)]
#[command(name = "strata", version, about)]
pub struct Cli {
    /// What to do; with none, the editor opens on the default world (until it lands: this help).
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Data formats for `export` and `import`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// 2 bytes per voxel (material id, occupancy), X fastest, then Y, then Z; no header.
    Raw,
    /// The seed RLE stream of the box, same order; no header.
    Rle,
    /// A godot_voxel region forest (a folder: meta.vxrm + regions/lod*/r.X.Y.Z.vxr).
    Vxr,
    /// One godot_voxel v4 block in a compressed container.
    V4,
    /// Wavefront OBJ mesh of the surface (with a .mtl beside it).
    Obj,
    /// Binary glTF 2.0 mesh of the surface.
    Glb,
    /// A grayscale PNG heightmap, 8- or 16-bit (colour images by luminance); import only.
    Heightmap,
}

impl Format {
    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Format::Raw => "raw",
            Format::Rle => "rle",
            Format::Vxr => "vxr",
            Format::V4 => "v4",
            Format::Obj => "obj",
            Format::Glb => "glb",
            Format::Heightmap => "heightmap",
        }
    }

    /// The format an output file's extension names (`.raw`, `.rle`, `.obj`, `.glb`).
    pub fn from_extension(path: &std::path::Path) -> Option<Self> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "raw" => Some(Format::Raw),
            "rle" => Some(Format::Rle),
            "obj" => Some(Format::Obj),
            "glb" => Some(Format::Glb),
            _ => None,
        }
    }
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Generate a new world and save it as a project file.
    New {
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
    },
    /// Print facts about a project file.
    Info {
        /// Project file.
        file: PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Export a box of voxels, or the whole world as a godot_voxel region forest.
    Export {
        /// Project file.
        file: PathBuf,
        /// Output file (a folder for --format vxr).
        out: PathBuf,
        /// Output format; defaults to the output's extension (.raw, .rle, .obj, .glb).
        #[arg(long, value_enum)]
        format: Option<Format>,
        /// Half-open box X0,Y0,Z0,X1,Y1,Z1 (raw, rle and v4; optional for obj and glb).
        #[arg(long = "box", allow_hyphen_values = true)]
        region: Option<String>,
        /// Block compression for vxr and v4 (default lz4).
        #[arg(long, value_enum)]
        compression: Option<CompressionArg>,
        /// Number of LOD levels for vxr, 1 to 4 (default 4).
        #[arg(long)]
        lods: Option<u8>,
        /// Mesh level of detail for obj and glb: 0 = full resolution, 1..=3 = coarser mips.
        #[arg(long)]
        lod: Option<u32>,
    },
    /// Import voxels, or a PNG heightmap, into a new project file.
    Import {
        /// Input data file (a folder for --format vxr).
        input: PathBuf,
        /// Output project file (.strata).
        out: PathBuf,
        /// Input format (raw, vxr, v4 or heightmap); defaults to heightmap for .png, raw for .raw.
        #[arg(long, value_enum)]
        format: Option<Format>,
        /// Size of the raw box, X,Y,Z; for heightmap the world's X,Z (default: the image's size).
        #[arg(long)]
        size: Option<String>,
        /// World position of the box's first voxel, X,Y,Z.
        #[arg(long, default_value = "0,0,0", allow_hyphen_values = true)]
        origin: String,
        /// Heightmap only: world height in voxels of the whitest sample (default 128).
        #[arg(long)]
        height: Option<u32>,
        /// Heightmap only: PNG of the same size whose colours pick each column's surface material.
        #[arg(long)]
        colormap: Option<PathBuf>,
    },
    /// Draw a top-down shaded map of a project as a PNG.
    Render {
        /// Project file.
        file: PathBuf,
        /// Output image (.png).
        out: PathBuf,
        /// Image size W,H in pixels; default 512 on the longer side with the world's aspect.
        #[arg(long)]
        size: Option<String>,
    },
    /// Open a project file in the editor.
    Open {
        /// Project file (.strata).
        file: PathBuf,
        /// Save a PNG screenshot of the window once the world is shown, then exit.
        #[arg(long)]
        screenshot: Option<PathBuf>,
        /// Window size in points, W,H (default 1280,800).
        #[arg(long)]
        window_size: Option<String>,
    },
    /// Cast rays against the terrain surface: `hit t x y z nx ny nz material` or `miss` per ray.
    Raycast {
        /// Project file.
        file: PathBuf,
        /// Ray origin X,Y,Z (with --dir).
        #[arg(
            long,
            allow_hyphen_values = true,
            requires = "dir",
            required_unless_present = "rays"
        )]
        from: Option<String>,
        /// Ray direction X,Y,Z, any non-zero length (with --from).
        #[arg(long, allow_hyphen_values = true, requires = "from")]
        dir: Option<String>,
        /// File of rays, one `ox oy oz dx dy dz` per line (instead of --from/--dir).
        #[arg(long, conflicts_with_all = ["from", "dir"])]
        rays: Option<PathBuf>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Drop rigid bodies (spheres, boxes, capsules) onto the terrain, simulate, and report how they
    /// landed: final positions, deepest penetration, at rest, in water.
    Drop {
        /// Project file.
        file: PathBuf,
        /// Number of bodies.
        #[arg(long, default_value_t = 32)]
        bodies: usize,
        /// Body shape: sphere, box, capsule or mixed.
        #[arg(long, default_value = "mixed")]
        shape: String,
        /// Random seed of placement, sizes and orientations.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Simulated seconds.
        #[arg(long, default_value_t = 10.0, allow_hyphen_values = true)]
        seconds: f32,
        /// Drop the bodies around this point X,Y,Z instead of over the whole world.
        #[arg(long, allow_hyphen_values = true)]
        at: Option<String>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}

/// Run a parsed command line.
///
/// # Errors
/// Whatever the command reports; printed by `main` and turned into a non-zero exit.
pub fn run(cli: Cli) -> AppResult<()> {
    match cli.command {
        None => crate::editor::run(
            crate::app::Start::DefaultWorld,
            crate::editor::RunOptions::default(),
        ),
        Some(Command::Open {
            file,
            screenshot,
            window_size,
        }) => {
            let size = window_size
                .map(|s| args::parse_pair::<f32>(&s, "--window-size"))
                .transpose()?;
            if !file.is_file() {
                return Err(crate::AppError::Usage(format!(
                    "{}: no such file",
                    file.display()
                )));
            }
            crate::editor::run(
                crate::app::Start::Open(file),
                crate::editor::RunOptions { size, screenshot },
            )
        }
        Some(Command::New {
            out,
            preset,
            size,
            seed,
        }) => new::run(&out, &preset, &size, seed),
        Some(Command::Info { file, json }) => info::run(&file, json),
        Some(Command::Export {
            file,
            out,
            format,
            region,
            compression,
            lods,
            lod,
        }) => {
            let format = format
                .or_else(|| Format::from_extension(&out))
                .ok_or_else(|| {
                    crate::AppError::Usage(format!(
                        "cannot tell the format of {} from its extension: pass --format",
                        out.display()
                    ))
                })?;
            if let Format::Obj | Format::Glb = format {
                if compression.is_some() || lods.is_some() {
                    return Err(crate::AppError::Usage(
                        "--compression and --lods apply to vxr and v4, not mesh exports".into(),
                    ));
                }
                return mesh::export_mesh(&file, &out, format, lod.unwrap_or(0), region.as_deref());
            }
            if format == Format::Heightmap {
                return Err(crate::AppError::Usage(
                    "heightmap is an import format; `strata render` draws a top-down image".into(),
                ));
            }
            if lod.is_some() {
                return Err(crate::AppError::Usage(format!(
                    "--lod applies to obj and glb exports, not {}",
                    format.name()
                )));
            }
            export::run(
                &file,
                &out,
                format,
                region.as_deref(),
                export::GodotArgs { compression, lods },
            )
        }
        Some(Command::Import {
            input,
            out,
            format,
            size,
            origin,
            height,
            colormap,
        }) => {
            let format = format
                .or_else(|| import::format_of(&input))
                .ok_or_else(|| {
                    crate::AppError::Usage(format!(
                        "cannot tell the format of {} from its extension: pass --format",
                        input.display()
                    ))
                })?;
            let heightmap = import::HeightmapArgs {
                height,
                colormap: colormap.as_deref(),
            };
            import::run(&input, &out, format, size.as_deref(), &origin, heightmap)
        }
        Some(Command::Render { file, out, size }) => render::run(&file, &out, size.as_deref()),
        Some(Command::Raycast {
            file,
            from,
            dir,
            rays,
            json,
        }) => {
            let source = match (&rays, &from, &dir) {
                (Some(path), _, _) => raycast::RaySource::File(path),
                (None, Some(from), Some(dir)) => raycast::RaySource::One { from, dir },
                _ => {
                    return Err(crate::AppError::Usage(
                        "raycast needs --from X,Y,Z --dir X,Y,Z or --rays FILE".into(),
                    ))
                }
            };
            raycast::run(&file, source, json)
        }
        Some(Command::Drop {
            file,
            bodies,
            shape,
            seed,
            seconds,
            at,
            json,
        }) => drop::run(
            &file,
            &drop::DropArgs {
                bodies,
                shape: &shape,
                seed,
                seconds,
                at: at.as_deref(),
                json,
            },
        ),
    }
}
