//! Heightmap export: the world's top surface as a 16-bit greyscale PNG or a little-endian `.r16`,
//! with its JSON sidecar (`OUT.json`), an optional RGBA splat map and an optional folder of 8-bit
//! weight maps, one per surface material. Shared by `strata export --format heightmap` and the
//! editor's File ▸ Export Heightmap; the maps come from the engine's `export::export_terrain_maps`.
//!
//! Every path is checked before any work, and every file is written through a temporary sibling and
//! renamed into place only once all of them are written, so a failure leaves nothing behind (a
//! layers folder made for the export is removed again).

use std::path::{Path, PathBuf};

use strata_engine::export::{
    export_terrain_maps, layer_file_names, r16_bytes, sidecar_json, Encoding, SidecarFiles,
    TerrainMaps, TerrainMapsRequest,
};
use strata_engine::format::project::Project;
use strata_engine::format::{names_same_file, refuse_overwriting_inputs, AtomicFile};
use strata_engine::progress::Progress;
use strata_engine::voxel::VoxelBox;

use crate::files::png::{encode_grey16, encode_grey8, encode_rgba};
use crate::{AppError, AppResult};

/// What to export and where.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HeightmapExport {
    /// The heightmap: `.png` (16-bit grey) or `.r16` (raw little-endian); the sidecar goes beside it
    /// as `.json`.
    pub out: PathBuf,
    /// Map size in pixels (`None`: one pixel per column of the box).
    pub size: Option<[u32; 2]>,
    /// The RGBA splat map (`.png`) of the four most used surface materials, if wanted.
    pub splat: Option<PathBuf>,
    /// A folder for one weight map per surface material, if wanted (made when missing).
    pub layers: Option<PathBuf>,
    /// The columns and Y range to export (`None`: the world's box).
    pub region: Option<VoxelBox>,
}

/// What an export wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeightmapReport {
    /// Every file written, the heightmap first, then the sidecar.
    pub files: Vec<PathBuf>,
    /// Map size in pixels.
    pub size: [u32; 2],
    /// Columns whose surface hides matter below air (a heightmap cannot show it).
    pub overhang_columns: u64,
    /// Columns with no surface, exported at the box's floor.
    pub empty_columns: u64,
}

impl HeightmapReport {
    /// The warning to show when the heightmap leaves matter out, if it does.
    pub fn overhang_warning(&self) -> Option<String> {
        (self.overhang_columns > 0).then(|| {
            format!(
                "{} columns hide matter under their top surface (overhangs or caves): a heightmap \
                 keeps only the top surface, so the engine's terrain will not have them",
                self.overhang_columns
            )
        })
    }
}

/// The sidecar's path for heightmap `out`: the same name with `.json`.
pub fn sidecar_path(out: &Path) -> PathBuf {
    out.with_extension("json")
}

/// The encoding `out`'s extension names (`.png`, `.r16`).
///
/// # Errors
/// [`AppError::Usage`] for any other extension.
pub fn encoding_of(out: &Path) -> AppResult<Encoding> {
    let ext = out
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("png") => Ok(Encoding::Png16),
        Some("r16") => Ok(Encoding::R16le),
        _ => Err(AppError::Usage(format!(
            "{}: a heightmap is written as .png (16-bit grey) or .r16 (raw little-endian 16-bit)",
            out.display()
        ))),
    }
}

impl HeightmapExport {
    /// Check the output paths before any work: the extensions, no output a folder, the splat map and
    /// the sidecar distinct from the heightmap, the layers folder not a file nor another output.
    ///
    /// # Errors
    /// [`AppError::Usage`] naming the path and what is wrong with it.
    pub fn check_paths(&self) -> AppResult<()> {
        encoding_of(&self.out)?;
        let sidecar = sidecar_path(&self.out);
        let mut files = vec![
            ("the heightmap", self.out.clone()),
            ("its sidecar", sidecar),
        ];
        if let Some(splat) = &self.splat {
            let png = splat
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("png"));
            if !png {
                return Err(AppError::Usage(format!(
                    "--splat {}: the splat map is an RGBA PNG; give a .png name",
                    splat.display()
                )));
            }
            for (what, other) in &files {
                if names_same_file(splat, other) {
                    return Err(AppError::Usage(format!(
                        "--splat {} is {what} ({}): give the splat map its own name",
                        splat.display(),
                        other.display()
                    )));
                }
            }
            files.push(("the splat map", splat.clone()));
        }
        for (what, file) in &files {
            if file.is_dir() {
                return Err(AppError::Usage(format!(
                    "{} is a folder: give a file name for {what}",
                    file.display()
                )));
            }
        }
        if let Some(dir) = &self.layers {
            if dir.exists() && !dir.is_dir() {
                return Err(AppError::Usage(format!(
                    "--layers {} is an existing file: give a folder for the weight maps",
                    dir.display()
                )));
            }
            if let Some((what, _)) = files.iter().find(|(_, f)| names_same_file(dir, f)) {
                return Err(AppError::Usage(format!(
                    "--layers {} is {what}: give the weight maps their own folder",
                    dir.display()
                )));
            }
        }
        Ok(())
    }

    /// Make the maps of `project` and write every file. `input` is the project's own file, which no
    /// output may replace. `progress` counts the scan, then each map; cancelling writes nothing.
    ///
    /// # Errors
    /// Bad paths (as [`HeightmapExport::check_paths`]), a box outside the world, a bad size, an
    /// output that would replace the input, an unwritable output, cancellation: nothing is written.
    pub fn run(
        &self,
        project: &Project,
        input: Option<&Path>,
        progress: &Progress,
    ) -> AppResult<HeightmapReport> {
        self.check_paths()?;
        let bounds = project.header.bounds;
        let region = self.region.unwrap_or(bounds);
        if region.intersect(&bounds) != region {
            return Err(AppError::Usage(format!(
                "the box {:?}..{:?} reaches outside the world's bounds {:?}..{:?}",
                region.min.to_array(),
                region.max.to_array(),
                bounds.min.to_array(),
                bounds.max.to_array()
            )));
        }
        let request = TerrainMapsRequest {
            region,
            size: self.size,
            splat: self.splat.is_some(),
            layers: self.layers.is_some(),
        };
        let table = &project.header.materials;
        let maps = export_terrain_maps(&project.grid, table, &request, progress)?;
        let outputs = self.encode(&maps, project)?;
        let paths: Vec<PathBuf> = outputs.iter().map(|o| o.0.clone()).collect();
        if let Some(input) = input {
            refuse_overwriting_inputs(&[input], None, &paths)
                .map_err(|e| AppError::Usage(e.to_string()))?;
        }
        progress.check()?;
        self.write_all(&outputs)?;
        Ok(HeightmapReport {
            files: paths,
            size: [maps.width, maps.height],
            overhang_columns: maps.overhang_columns,
            empty_columns: maps.empty_columns,
        })
    }

    /// Every file's path and bytes: heightmap, sidecar, splat map, layers.
    fn encode(&self, maps: &TerrainMaps, project: &Project) -> AppResult<Vec<(PathBuf, Vec<u8>)>> {
        let encoding = encoding_of(&self.out)?;
        let (w, h) = (maps.width, maps.height);
        let table = &project.header.materials;
        let heightmap = match encoding {
            Encoding::Png16 => encode_grey16(&maps.samples, w, h, &self.out)?,
            Encoding::R16le => r16_bytes(&maps.samples),
        };
        let file_name = |p: &Path| {
            p.file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
        };
        let layer_names = maps
            .layers
            .as_ref()
            .map(|l| layer_file_names(table, &l.materials))
            .unwrap_or_default();
        let beside = |p: &Path| relative_to_sidecar(&self.out, p);
        let files = SidecarFiles {
            heightmap: file_name(&self.out),
            splat: self.splat.as_deref().map(beside),
            layers_dir: self.layers.as_deref().map(beside),
            layers: layer_names.clone(),
        };
        let sidecar = sidecar_json(maps, table, encoding, &files);
        let mut out = vec![
            (self.out.clone(), heightmap),
            (sidecar_path(&self.out), sidecar.into_bytes()),
        ];
        if let (Some(path), Some(splat)) = (&self.splat, &maps.splat) {
            out.push((path.clone(), encode_rgba(&splat.rgba, w, h, path)?));
        }
        if let (Some(dir), Some(layers)) = (&self.layers, &maps.layers) {
            for (plane, name) in layers.planes.iter().zip(&layer_names) {
                let path = dir.join(name);
                let png = encode_grey8(plane, w, h, &path)?;
                out.push((path, png));
            }
        }
        Ok(out)
    }

    /// Write `outputs` all or nothing: every temporary file first, then the renames.
    fn write_all(&self, outputs: &[(PathBuf, Vec<u8>)]) -> AppResult<()> {
        let made_dir = match &self.layers {
            Some(dir) if !dir.exists() => {
                std::fs::create_dir_all(dir).map_err(|e| AppError::io(dir, e))?;
                Some(dir.clone())
            }
            _ => None,
        };
        let written = write_temporaries(outputs).and_then(|files| {
            for f in files {
                f.commit()?;
            }
            Ok(())
        });
        if written.is_err() {
            if let Some(dir) = made_dir {
                // Only an empty folder goes: a failed commit may have left nothing else.
                let _ = std::fs::remove_dir(dir);
            }
        }
        written
    }
}

/// `path` as the sidecar of `out` names it: relative to its folder when `path` lies there or below,
/// else as given.
fn relative_to_sidecar(out: &Path, path: &Path) -> String {
    let folder = out.parent().unwrap_or(Path::new(""));
    path.strip_prefix(folder)
        .ok()
        .filter(|rel| !rel.as_os_str().is_empty())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// Create and fill the temporary file of every output (dropped, and so removed, on any error).
fn write_temporaries(outputs: &[(PathBuf, Vec<u8>)]) -> AppResult<Vec<AtomicFile>> {
    use std::io::Write;
    let mut files = Vec::with_capacity(outputs.len());
    for (path, bytes) in outputs {
        let mut f = AtomicFile::create(path)?;
        f.write_all(bytes).map_err(|e| AppError::io(path, e))?;
        files.push(f);
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;
    use strata_engine::format::project::ProjectHeader;
    use strata_engine::gen::{generate, GeneratorSettings, Preset};
    use strata_engine::voxel::MaterialTable;

    fn project() -> Project {
        let settings = GeneratorSettings {
            preset: Preset::Hills,
            size: [40, 32, 24],
            seed: 3,
        };
        let grid = generate(&settings, &MaterialTable::builtin(), &Progress::new()).expect("gen");
        Project::new(ProjectHeader::new("t", settings.bounds()), grid)
    }

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("strata-hmx-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("dir");
        d
    }

    #[test]
    fn a_cancelled_or_failed_export_leaves_nothing() {
        let d = scratch("nothing");
        let project = project();
        let export = HeightmapExport {
            out: d.join("h.png"),
            splat: Some(d.join("s.png")),
            layers: Some(d.join("layers")),
            ..Default::default()
        };
        let cancelled = Progress::new();
        cancelled.cancel();
        assert!(export.run(&project, None, &cancelled).is_err());
        assert_eq!(std::fs::read_dir(&d).expect("dir").count(), 0);
        // The layers folder is made, then the splat map cannot be: the folder goes again.
        let failing = HeightmapExport {
            splat: Some(d.join("missing").join("s.png")),
            ..export.clone()
        };
        assert!(failing.run(&project, None, &Progress::new()).is_err());
        assert_eq!(std::fs::read_dir(&d).expect("dir").count(), 0);
        let report = export
            .run(&project, None, &Progress::new())
            .expect("export");
        assert_eq!(report.size, [40, 24]);
        assert_eq!(report.files[0], d.join("h.png"));
        assert_eq!(report.files[1], d.join("h.json"));
        assert!(report.files.iter().all(|f| f.is_file()));
        let _ = std::fs::remove_dir_all(&d);
    }
}
