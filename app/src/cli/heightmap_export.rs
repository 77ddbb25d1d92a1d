//! `strata export FILE OUT.png|OUT.r16 --format heightmap [--size W,H] [--splat SPLAT.png]
//! [--layers DIR] [--box X0,Y0,Z0,X1,Y1,Z1]`: the world's top surface as a 16-bit heightmap with its
//! JSON sidecar, and optionally a splat map and per-material weight maps (see
//! [`crate::files::heightmap_export`]). Prints what it wrote, and a warning when overhangs or caves
//! were left out.

use std::path::{Path, PathBuf};

use strata_engine::export::MAX_MAP_SIDE;

use super::args::{parse_box, parse_pair};
use super::progress::with_bar;
use super::project_edit::refuse_clobbering;
use crate::files::heightmap_export::{sidecar_path, HeightmapExport};
use crate::{AppError, AppResult};

/// The heightmap options of `strata export`.
#[derive(Debug, Clone, Default)]
pub struct HeightmapArgs {
    /// `--size W,H`.
    pub size: Option<String>,
    /// `--splat SPLAT.png`.
    pub splat: Option<PathBuf>,
    /// `--layers DIR`.
    pub layers: Option<PathBuf>,
    /// `--box`.
    pub region: Option<String>,
}

/// Parse `--size W,H` for a heightmap: whole numbers from 1 to [`MAX_MAP_SIDE`].
///
/// # Errors
/// [`AppError::Usage`] naming the option and the accepted range.
fn parse_size(text: &str) -> AppResult<[u32; 2]> {
    let size = parse_pair::<u64>(text, "--size W,H")?;
    if size.iter().any(|&v| v == 0 || v > u64::from(MAX_MAP_SIDE)) {
        return Err(AppError::Usage(format!(
            "--size {text}: width and height must each be 1 to {MAX_MAP_SIDE} pixels \
             (Unity takes 1025 or 2049, Unreal 1009 or 2017)"
        )));
    }
    Ok([size[0] as u32, size[1] as u32])
}

/// Run the heightmap export of `file` to `out`.
///
/// # Errors
/// Bad options or paths, an unreadable project, a box outside the world, an output that would
/// replace the input, an unwritable output: nothing is written.
pub fn run(file: &Path, out: &Path, args: HeightmapArgs) -> AppResult<()> {
    let size = args.size.as_deref().map(parse_size).transpose()?;
    let region = args.region.as_deref().map(parse_box).transpose()?;
    let export = HeightmapExport {
        out: out.to_path_buf(),
        size,
        splat: args.splat.clone(),
        layers: args.layers.clone(),
        region,
    };
    export.check_paths()?;
    let mut writes = vec![out.to_path_buf(), sidecar_path(out)];
    writes.extend(args.splat.iter().cloned());
    refuse_clobbering(&[file], None, &writes)?;
    if let Some(dir) = &args.layers {
        refuse_clobbering(&[file], None, std::slice::from_ref(dir))?;
    }
    let project = super::project_edit::load(file)?;
    if let Some(b) = region {
        b.check_range("--box")?;
        let bounds = project.header.bounds;
        if b.intersect(&bounds) != b {
            return Err(AppError::Usage(format!(
                "--box {} reaches outside the world {} (bounds {}): give a box inside it",
                super::project_edit::fmt_box(b),
                file.display(),
                super::project_edit::fmt_box(bounds)
            )));
        }
    }
    let report = with_bar("exporting", |p| export.run(&project, Some(file), p))?;
    let [w, h] = report.size;
    for path in &report.files {
        note!("wrote {}", path.display())?;
    }
    note!(
        "{}: {w}x{h} heightmap of {}, {} empty columns at the floor",
        out.display(),
        file.display(),
        report.empty_columns
    )?;
    if let Some(warning) = report.overhang_warning() {
        note!("warning: {warning}")?;
    }
    Ok(())
}
