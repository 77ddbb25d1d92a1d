//! The selection to and from files in the editor (File ▸ Export Selection, File ▸ Import as Stamp):
//! every block format the command line knows, chosen by the file's extension.
//!
//! | extension | format | size |
//! |---|---|---|
//! | `.strata` | stamp project (as `strata copy` writes) | its header bounds |
//! | `.v4` | one godot_voxel v4 block in a compressed container (as `export --format v4`), or a bare block | the block's header |
//! | `.rle` | the RLE stream (as `export --format rle`) | sidecar or prompt |
//! | `.raw` | 2 bytes per voxel (as `export --format raw`) | sidecar or prompt |
//!
//! RLE and raw carry no size, so an export writes a sidecar beside the file, `NAME.rle.json`
//! (`{"format":"rle","size":[X,Y,Z]}`); an import reads it, or asks for the size when it is missing.
//! Their material ids are the world's (the built-in table for worlds made by Strata).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use strata_engine::format::godot::{container, BlockData, ImportRules, BLOCK_VERSION};
use strata_engine::format::write_atomic;
use strata_engine::progress::Progress;
use strata_engine::region::Region;
use strata_engine::voxel::MaterialTable;

use crate::{AppError, AppResult};

/// Largest `.v4` file read whole; a block's decompressed size is capped by the same figure.
const MAX_V4_BYTES: usize = 1 << 30;
/// Largest sidecar read.
const MAX_SIDECAR_BYTES: u64 = 4096;

/// A file format of the selection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SelectionFormat {
    /// A `.strata` stamp project.
    Stamp,
    /// A godot_voxel v4 block.
    V4,
    /// The RLE stream.
    Rle,
    /// Raw bytes, 2 per voxel.
    Raw,
}

impl SelectionFormat {
    /// Every format, in menu order.
    pub const ALL: [SelectionFormat; 4] = [
        SelectionFormat::Stamp,
        SelectionFormat::V4,
        SelectionFormat::Rle,
        SelectionFormat::Raw,
    ];

    /// The file extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            SelectionFormat::Stamp => "strata",
            SelectionFormat::V4 => "v4",
            SelectionFormat::Rle => "rle",
            SelectionFormat::Raw => "raw",
        }
    }

    /// What file prompts call it.
    pub fn description(self) -> &'static str {
        match self {
            SelectionFormat::Stamp => "Strata stamp",
            SelectionFormat::V4 => "godot_voxel v4 block",
            SelectionFormat::Rle => "RLE voxels (size in a sidecar)",
            SelectionFormat::Raw => "Raw voxels, 2 bytes each (size in a sidecar)",
        }
    }

    /// The format a path's extension names.
    pub fn from_path(path: &Path) -> Option<Self> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        Self::ALL.into_iter().find(|f| f.extension() == ext)
    }

    /// True when the size travels beside the file (RLE, raw).
    pub fn needs_size(self) -> bool {
        matches!(self, SelectionFormat::Rle | SelectionFormat::Raw)
    }
}

/// The file-prompt filters of every format.
pub fn filters() -> Vec<(String, Vec<String>)> {
    SelectionFormat::ALL
        .into_iter()
        .map(|f| (f.description().to_owned(), vec![f.extension().to_owned()]))
        .collect()
}

/// What the sidecar of an RLE or raw file says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sidecar {
    /// `rle` or `raw`.
    pub format: String,
    /// Voxels along X, Y, Z.
    pub size: [u32; 3],
}

/// Where the sidecar of `path` lives: the file name with `.json` appended.
pub fn sidecar_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".json");
    PathBuf::from(name)
}

/// The size the sidecar of `path` gives, if there is a readable one.
///
/// # Errors
/// When the sidecar exists but is too big, unreadable or malformed.
pub fn read_sidecar(path: &Path) -> AppResult<Option<[u32; 3]>> {
    let side = sidecar_path(path);
    let Ok(meta) = std::fs::metadata(&side) else {
        return Ok(None);
    };
    if meta.len() > MAX_SIDECAR_BYTES {
        return Err(AppError::Usage(format!(
            "{}: {} bytes is too big for a sidecar",
            side.display(),
            meta.len()
        )));
    }
    let text = std::fs::read_to_string(&side).map_err(|e| AppError::io(&side, e))?;
    let sidecar: Sidecar = serde_json::from_str(&text)
        .map_err(|e| AppError::Usage(format!("{}: not a size sidecar: {e}", side.display())))?;
    Ok(Some(sidecar.size))
}

/// Write `region` to `path` in the format its extension names; `name` and `materials` go into a
/// stamp. Returns a line for the status bar.
///
/// # Errors
/// An unknown extension, a region too big for a v4 block, an unwritable file.
pub fn write_selection(
    path: &Path,
    region: &Region,
    name: &str,
    materials: &MaterialTable,
) -> AppResult<String> {
    let format = SelectionFormat::from_path(path).ok_or_else(|| unknown(path))?;
    let mut bytes = Vec::new();
    match format {
        SelectionFormat::Stamp => region.save_stamp(path, name, materials)?,
        SelectionFormat::V4 => {
            let payload = region.to_block()?.to_bytes()?;
            container::compress(&payload, container::Compression::Lz4, &mut bytes)?;
        }
        SelectionFormat::Rle => region.encode_rle(&mut bytes),
        SelectionFormat::Raw => region.encode_raw(&mut bytes),
    }
    if format != SelectionFormat::Stamp {
        write_atomic(path, &bytes)?;
    }
    let [x, y, z] = region.size();
    if format.needs_size() {
        let sidecar = Sidecar {
            format: format.extension().to_owned(),
            size: region.size(),
        };
        let text = serde_json::to_string(&sidecar)
            .map_err(|e| AppError::Usage(format!("sidecar: {e}")))?;
        write_atomic(&sidecar_path(path), text.as_bytes())?;
    }
    Ok(format!(
        "Exported {x}×{y}×{z} voxels to {} ({})",
        path.display(),
        format.description()
    ))
}

/// Read the region in `path` (format from its extension) for a world with `materials`: stamp ids
/// are moved to the world's table by name; RLE and raw ids must be in it. `size` is required for
/// RLE and raw (see [`read_sidecar`]).
///
/// # Errors
/// An unknown extension, a missing size, a corrupt file (named, with the byte offset where the
/// decoder knows it), a material the world lacks.
pub fn read_selection(
    path: &Path,
    size: Option<[u32; 3]>,
    materials: &MaterialTable,
    progress: &Progress,
) -> AppResult<Region> {
    let format = SelectionFormat::from_path(path).ok_or_else(|| unknown(path))?;
    let region = match format {
        SelectionFormat::Stamp => {
            let (mut region, table) = Region::load_stamp(path, progress)?;
            region
                .remap_materials(&table, materials)
                .map_err(|e| e.in_file(path))?;
            region
        }
        SelectionFormat::V4 => {
            let bytes = read_capped(path)?;
            let block = if bytes.first() == Some(&BLOCK_VERSION) {
                BlockData::decode(&bytes)
            } else {
                container::decompress(&bytes, MAX_V4_BYTES).and_then(|p| BlockData::decode(&p))
            }
            .map_err(|e| e.in_file(path))?;
            Region::from_block(&block, &ImportRules::default())
                .map_err(|e| e.in_file(path))?
                .0
        }
        SelectionFormat::Rle | SelectionFormat::Raw => {
            let size = size.ok_or_else(|| {
                AppError::Usage(format!(
                    "{}: the size of an {} file is needed (no sidecar {})",
                    path.display(),
                    format.extension(),
                    sidecar_path(path).display()
                ))
            })?;
            let bytes = read_capped(path)?;
            if format == SelectionFormat::Rle {
                Region::decode_rle(&bytes, size, materials)
            } else {
                Region::decode_raw(&bytes, size, materials)
            }
            .map_err(|e| e.in_file(path))?
        }
    };
    Ok(region)
}

fn unknown(path: &Path) -> AppError {
    AppError::Usage(format!(
        "{}: unknown selection format (use .strata, .v4, .rle or .raw)",
        path.display()
    ))
}

fn read_capped(path: &Path) -> AppResult<Vec<u8>> {
    let len = std::fs::metadata(path)
        .map_err(|e| AppError::io(path, e))?
        .len();
    if len > MAX_V4_BYTES as u64 {
        return Err(AppError::Usage(format!(
            "{}: {len} bytes is over the {MAX_V4_BYTES}-byte limit",
            path.display()
        )));
    }
    std::fs::read(path).map_err(|e| AppError::io(path, e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use strata_engine::voxel::Voxel;

    fn sample() -> Region {
        let size = [5, 4, 3];
        let voxels: Vec<Voxel> = (0..60u32)
            .map(|i| match i % 4 {
                0 => Voxel::AIR,
                1 => Voxel::new(2, 255),
                2 => Voxel::new(3, (i * 7 % 256) as u8),
                _ => Voxel::new(1, 128),
            })
            .collect();
        Region::from_dense(size, &voxels).expect("region")
    }

    #[test]
    fn every_format_round_trips_and_bad_files_are_refused() {
        let dir = std::env::temp_dir().join(format!("strata-selfiles-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let table = MaterialTable::builtin();
        let region = sample();
        let progress = Progress::new();
        for format in SelectionFormat::ALL {
            let path = dir.join(format!("s.{}", format.extension()));
            write_selection(&path, &region, "s", &table).expect("write");
            let size = read_sidecar(&path).expect("sidecar");
            assert_eq!(size.is_some(), format.needs_size(), "{format:?}");
            let back = read_selection(&path, size, &table, &progress).expect("read");
            assert_eq!(back.to_dense(), region.to_dense(), "{format:?}");
            assert_eq!(back.size(), region.size());
        }
        // Without a size, RLE and raw are refused; with a wrong one they are corrupt.
        let raw = dir.join("s.raw");
        assert!(read_selection(&raw, None, &table, &progress).is_err());
        assert!(read_selection(&raw, Some([5, 4, 4]), &table, &progress).is_err());
        let v4 = dir.join("s.v4");
        std::fs::write(&v4, [9u8, 1, 2, 3]).expect("write");
        let err = read_selection(&v4, None, &table, &progress).expect_err("corrupt");
        assert!(err.to_string().contains("s.v4"), "{err}");
        std::fs::write(sidecar_path(&raw), "{").expect("write");
        assert!(read_sidecar(&raw).is_err());
        assert!(read_selection(&dir.join("s.txt"), None, &table, &progress).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
