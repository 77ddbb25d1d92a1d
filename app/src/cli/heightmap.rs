//! `strata import MAP.png OUT.strata --format heightmap [--height H] [--colormap COLORS.png]
//! [--size X,Z] [--smooth [R]]`: a grayscale PNG heightmap into a new project (see
//! [`crate::files::heightmap`]).

use std::path::Path;
use std::time::Instant;

use super::args::parse_pair;
use super::progress::with_bar;
use crate::files::heightmap::{HeightmapImport, LoadedHeightmap};
use crate::{AppError, AppResult};

/// Refuse a world whose estimated memory is over what this process may still use, before anything
/// is built (as `strata new` does).
fn check_memory(loaded: &LoadedHeightmap, input: &Path) -> AppResult<()> {
    let (bytes, chunks) = loaded.estimate()?;
    let Some(free) = super::new_estimate::available_bytes() else {
        return Ok(());
    };
    if bytes > free {
        let gib = |b: u64| b as f64 / f64::from(1u32 << 30);
        let [x, y, z] = loaded.size();
        return Err(AppError::Usage(format!(
            "{}: a {x}x{y}x{z} world from this heightmap would need about {:.1} GiB of memory \
             ({chunks} chunks) but {:.1} GiB is available; choose a smaller --size or --height",
            input.display(),
            gib(bytes),
            gib(free)
        )));
    }
    Ok(())
}

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
    let loaded = import.load(import.smooth_radius)?;
    check_memory(&loaded, input)?;
    let started = Instant::now();
    let project = with_bar("building", |p| loaded.build(p))?;
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
