//! `strata export FILE OUT.obj|OUT.glb [--lod N] [--box X0,Y0,Z0,X1,Y1,Z1] [--no-light]`: the terrain
//! surface as a mesh (OBJ + .mtl, or binary glTF 2.0), meshed chunk by chunk with a progress bar and
//! welded. When the project has baked light, the vertex colours are multiplied by it unless
//! `--no-light` is given.

use std::path::Path;

use strata_engine::mesh::{export_glb_lit, export_obj_lit, ExportLooks, MAX_LOD};

use super::args::parse_box;
use super::progress::with_bar;
use super::Format;
use crate::{AppError, AppResult};

/// Export the surface of `file` to `out` as `format` (OBJ or glb).
///
/// # Errors
/// A LOD above the deepest mip, a bad box, an unreadable project, an unwritable output.
pub fn export_mesh(
    file: &Path,
    out: &Path,
    format: Format,
    lod: u32,
    region: Option<&str>,
    use_light: bool,
) -> AppResult<()> {
    if lod > MAX_LOD {
        return Err(AppError::Usage(format!(
            "--lod {lod} does not exist: levels are 0 (full resolution) to {MAX_LOD}"
        )));
    }
    let region = region.map(parse_box).transpose()?;
    if let Some(b) = region {
        b.check_range("--box")?;
    }
    let project = super::project_edit::load(file)?;
    let table = &project.header.materials;
    let looks = ExportLooks {
        light: project.light.as_ref().filter(|_| use_light),
        textures: Some(&project.textures),
    };
    strata_engine::format::refuse_same_file(file, out)?;
    let stats = with_bar("meshing", |p| match format {
        Format::Glb => export_glb_lit(&project.grid, table, lod, region, looks, out, p),
        _ => export_obj_lit(&project.grid, table, lod, region, looks, out, p),
    })?;
    note!(
        "{}: {} chunks, {} vertices, {} solid and {} water triangles{}",
        out.display(),
        stats.chunks,
        stats.vertices,
        stats.solid_triangles,
        stats.water_triangles,
        if looks.light.is_some() {
            ", lit by the baked light"
        } else {
            ""
        }
    )?;
    if stats.solid_triangles + stats.water_triangles == 0 {
        note!(
            "note: the mesh is empty: {} holds no terrain surface",
            region.map_or_else(|| "the world".to_owned(), |b| format!("--box {b:?}"))
        )?;
    }
    Ok(())
}
