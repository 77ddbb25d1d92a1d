//! The files materials travel in, shared by the Materials panel and `strata materials`: a texture
//! PNG read and checked before it reaches a project, and a project's table written as a `.ron`
//! palette (textures left out: a palette names no image another project holds).

use std::path::Path;

use strata_engine::format::project::Project;
use strata_engine::voxel::{MaterialTable, MAX_TEXTURE_BYTES};

use crate::{AppError, AppResult};

/// A texture PNG's bytes, checked to be within the engine's caps (bytes, pixels a side) and to
/// decode.
///
/// # Errors
/// An unreadable or too large file, not a PNG, a corrupt PNG; the message names the file.
pub fn read_texture(path: &Path) -> AppResult<Vec<u8>> {
    let bytes = strata_engine::format::input::read_input(path, MAX_TEXTURE_BYTES as u64)?;
    strata_engine::voxel::png_size(&bytes).map_err(|e| e.in_file(path))?;
    crate::files::png::decode(&bytes)
        .map_err(|e| AppError::Usage(format!("{}: {e}", path.display())))?;
    Ok(bytes)
}

/// Drop texture references whose images the project does not hold (a palette from another
/// project).
pub fn strip_missing_textures(table: &mut MaterialTable, project: &Project) {
    for m in &mut table.materials {
        if m.texture
            .is_some_and(|t| project.textures.png(&t).is_none())
        {
            m.texture = None;
        }
    }
}

/// `table` as the text of a `.ron` palette (without textures).
///
/// # Errors
/// When the table cannot be written as RON (it always can).
pub fn palette_text(table: &MaterialTable) -> AppResult<String> {
    let mut table = table.clone();
    for m in &mut table.materials {
        m.texture = None;
    }
    ron::ser::to_string_pretty(&table, ron::ser::PrettyConfig::default())
        .map_err(|e| AppError::Usage(format!("material table: {e}")))
}

/// Write `table` to `path` as a `.ron` palette (atomically).
///
/// # Errors
/// An unwritable path.
pub fn write_palette(table: &MaterialTable, path: &Path) -> AppResult<()> {
    let text = palette_text(table)?;
    strata_engine::format::write_atomic(path, text.as_bytes())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_palette_reads_back_as_the_table_without_textures() {
        let dir = std::env::temp_dir().join(format!("strata-palette-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("p.ron");
        let table = MaterialTable::builtin();
        write_palette(&table, &path).expect("write");
        let back = strata_engine::materials::read_palette(&path).expect("read");
        assert_eq!(back, strata_engine::materials::Palette::Table(table));
        let bad = dir.join("bad.png");
        std::fs::write(
            &bad,
            b"\x89PNG\r\n\x1a\n0000IHDR\0\0\0\x10\0\0\0\x10garbage",
        )
        .expect("w");
        let e = read_texture(&bad).expect_err("corrupt");
        assert!(e.to_string().contains("bad.png"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
