//! The command line (clap) and its dispatch. Every command exits non-zero with a clear message on bad
//! input; long jobs show a progress bar when stderr is a terminal.
//!
//! Each subcommand lives in one file that holds its arguments (a `clap::Args` struct) and its `run`.
//! To add a command: write that file, declare it below, and add one line to the `commands!` list.
//!
//! Commands print with `out!` (stdout) and `note!` (stderr), which return an error instead of
//! panicking when the stream is broken (`>/dev/full`, a closed pipe).

/// `println!` that returns [`crate::AppResult`]: a failed write to stdout is an error, not a panic.
macro_rules! out {
    ($($t:tt)*) => {
        $crate::cli::write_line(false, format_args!($($t)*))
    };
}

/// `eprintln!` that returns [`crate::AppResult`]: a failed write to stderr is an error, not a panic.
macro_rules! note {
    ($($t:tt)*) => {
        $crate::cli::write_line(true, format_args!($($t)*))
    };
}

mod args;
mod bake;
mod cleanup;
mod copy;
mod delete;
mod drop;
mod enhance;
pub mod escape;
mod export;
mod fill;
mod floating;
mod format;
mod frames;
mod godot;
mod heightmap;
mod heightmap_export;
mod import;
mod info;
mod lights;
mod materials;
mod mesh;
mod new;
mod new_estimate;
mod open;
mod paste;
mod progress;
mod project_edit;
mod raycast;
mod render;
mod scene;
mod script;
mod sculpt;
mod sea_level;

use clap::{Parser, Subcommand};

use crate::AppResult;
pub use args::{parse_box, parse_in_range, parse_pair, parse_point, parse_triple};
pub use format::Format;
pub use godot::CompressionArg;
pub use progress::with_bar;

/// Strata: a level editor for smooth voxel terrain.
#[derive(Debug, Parser)]
#[command(name = "strata", version, about)]
pub struct Cli {
    /// What to do; with none, the editor opens on the built-in default world.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Declares [`Command`] from a list of `Variant(module::Args)` lines (with their help text) and
/// dispatches each variant to its arguments' `run`.
macro_rules! commands {
    ($($(#[$doc:meta])* $variant:ident($($args:ident)::+),)*) => {
        /// Subcommands.
        #[derive(Debug, Subcommand)]
        pub enum Command {
            $($(#[$doc])* $variant($($args)::+),)*
        }

        impl Command {
            /// Run the command.
            ///
            /// # Errors
            /// Whatever the command reports.
            pub fn run(self) -> AppResult<()> {
                match self {
                    $(Command::$variant(args) => args.run(),)*
                }
            }
        }
    };
}

commands! {
    /// Generate a new world and save it as a project file.
    New(new::NewArgs),
    /// Print facts about a project file.
    Info(info::InfoArgs),
    /// Export a box of voxels, the surface as a mesh, the whole world as a godot_voxel region forest,
    /// or its top surface as a heightmap (with splat and weight maps) for game engines.
    Export(export::ExportArgs),
    /// Import voxels, or a PNG heightmap, into a new project file.
    Import(import::ImportArgs),
    /// Draw a top-down shaded map of a project as a PNG.
    Render(render::RenderArgs),
    /// Open a project file in the editor.
    Open(open::OpenArgs),
    /// Cast rays against the terrain surface: `hit t x y z nx ny nz material` or `miss` per ray.
    Raycast(raycast::RaycastArgs),
    /// Drop rigid bodies (spheres, boxes, capsules) onto the terrain, simulate, and report how they
    /// landed: final positions, deepest penetration, at rest, in water.
    Drop(drop::DropArgs),
    /// Find solid terrain not connected to the world's bottom layer (floating pieces), and optionally
    /// delete it as one undo step.
    Floating(floating::FloatingArgs),
    /// Turn matter no surface shows (left by older versions' digging) into Air, as one undo step.
    Cleanup(cleanup::CleanupArgs),
    /// Bake snowflake lighting (sun and sky particles, glowing materials, point and spot lights,
    /// bounces) into a project's light section.
    Bake(bake::BakeArgs),
    /// Voxel detail enhancement of a box (recursive subdivision or direct resampling), written as raw
    /// fragments, a MagicaVoxel .vox, or the fragments' visible faces as .obj / .glb.
    Enhance(enhance::EnhanceArgs),
    /// List or edit the project's material table (add, change, remove, apply a palette), each
    /// edit one undo step.
    Materials(materials::MaterialsArgs),
    /// List or edit the project's point and spot lights (add, remove), each edit one undo step.
    Lights(lights::LightsArgs),
    /// Copy a box of a world into a stamp file (a project of its own, origin at 0,0,0).
    Copy(copy::CopyArgs),
    /// Paste a stamp into a world at a position, turned and mirrored, as one undo step.
    Paste(paste::PasteArgs),
    /// Fill a box with one material (and occupancy) as one undo step.
    Fill(fill::FillArgs),
    /// Turn a box to Air as one undo step.
    Delete(delete::DeleteArgs),
    /// Sculpt with the editor's brushes: N dabs of one tool at one spot, as one undo step.
    Sculpt(sculpt::SculptArgs),
    /// Fill every empty voxel below a height with water (or clear water), as one undo step.
    SeaLevel(sea_level::SeaLevelArgs),
    /// Run a Luau terrain script (Roblox's terrain API and Strata's own) on projects, each edited
    /// as one undo step.
    Script(script::ScriptArgs),
    /// Measure the editor's frame interval while the camera orbits a project (JSON line).
    Frames(frames::FramesArgs),
}

/// Write one line to stdout (`stderr` false) or stderr, flushed.
///
/// # Errors
/// [`crate::AppError::Io`] naming the stream when the write fails (a full disk, a closed pipe).
pub fn write_line(stderr: bool, args: std::fmt::Arguments<'_>) -> AppResult<()> {
    use std::io::Write;
    let (name, result) = if stderr {
        let mut e = std::io::stderr().lock();
        (
            "standard error",
            writeln!(e, "{args}").and_then(|()| e.flush()),
        )
    } else {
        let mut o = std::io::stdout().lock();
        (
            "standard output",
            writeln!(o, "{args}").and_then(|()| o.flush()),
        )
    };
    result.map_err(|e| crate::AppError::io(name, e))
}

/// Run a parsed command line: the editor on the default world without a subcommand.
///
/// # Errors
/// Whatever the command reports; printed by `main` and turned into a non-zero exit.
pub fn run(cli: Cli) -> AppResult<()> {
    match cli.command {
        None => crate::app::launch::run(
            crate::app::Start::DefaultWorld,
            crate::app::launch::RunOptions::default(),
        ),
        Some(command) => command.run(),
    }
}
