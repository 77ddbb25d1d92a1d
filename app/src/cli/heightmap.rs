//! `strata import MAP.png OUT.strata --format heightmap [--height H] [--colormap COLORS.png]
//! [--size X,Z] [--smooth [R]]`: a grayscale PNG heightmap into a new project (see
//! [`crate::files::heightmap`]).

use std::path::Path;
use std::time::Instant;

use super::args::parse_pair;
use super::progress::with_bar;
use crate::files::heightmap::HeightmapImport;
use crate::AppResult;

/// Run the heightmap import.
///
/// # Errors
/// Bad arguments, unreadable or corrupt PNGs, a colour map whose size differs from the heightmap's,
/// an unwritable output.
pub fn run(
    input: &Path,
    out: &Path,
    size: Option<&str>,
    height: Option<u32>,
    colormap: Option<&Path>,
    smooth: Option<u32>,
) -> AppResult<()> {
    let size = size
        .map(|text| parse_pair::<u32>(text, "--size X,Z"))
        .transpose()?;
    let import = HeightmapImport {
        map: input.to_path_buf(),
        colormap: colormap.map(Path::to_path_buf),
        size,
        height,
        smooth_radius: smooth.unwrap_or(0),
    };
    let started = Instant::now();
    let project = with_bar("building", |p| import.build(p))?;
    let built = started.elapsed();
    with_bar("saving", |p| project.save_with(out, p))?;
    let [sx, sy, sz] = project.header.bounds.size();
    note!(
        "{}: {} -> {}x{}x{} voxels, {} chunks, built in {:.2}s",
        out.display(),
        input.display(),
        sx,
        sy,
        sz,
        project.grid.chunk_count(),
        built.as_secs_f64()
    )?;
    Ok(())
}
