//! File work of the editor: what each file prompt asks for ([`PathPurpose`], [`PathSpec`]), the
//! platform's own file dialog (rfd), and the background jobs that open, save, import and export.
//! Every job works on its own copy, reports progress and can be cancelled ([`crate::app::jobs`]).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use strata_engine::format::godot::{export_forest, import_forest, ForestOptions, ImportRules};
use strata_engine::format::project::{Project, ProjectHeader};
use strata_engine::gen::{generate_world, Preset, WorldSettings};
use strata_engine::mesh::{export_glb_lit, export_obj_lit, ExportLooks};
use strata_engine::storage::Grid;
use strata_engine::voxel::{MaterialTable, Textures, VoxelBox};

use crate::app::job_output::JobOutput;
use crate::app::jobs::{Job, JobKind};
use crate::files::heightmap::HeightmapImport;
use crate::AppError;

/// What a file prompt is for, and so what it shows and what happens with the answer.
#[derive(Debug, Clone, PartialEq)]
pub enum PathPurpose {
    /// File ▸ Open.
    OpenProject,
    /// File ▸ Save As (suggested file name).
    SaveProject(String),
    /// File ▸ Import godot_voxel Regions (a folder).
    ImportVxr,
    /// File ▸ Export Mesh (suggested file name).
    ExportMesh(String),
    /// File ▸ Export godot_voxel Regions (a folder).
    ExportVxr,
    /// A file for a panel's own field; the answer goes back to that panel with `tag`.
    Panel {
        /// The panel asking.
        panel: &'static str,
        /// Which of its fields.
        tag: u32,
        /// What to show.
        spec: PathSpec,
    },
}

/// How a file prompt looks.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PathSpec {
    /// Window title.
    pub title: String,
    /// File type filters: (description, extensions without dots). Empty: any file.
    pub filters: Vec<(String, Vec<String>)>,
    /// Ask for a new file name (save) rather than an existing file; with `folder`, a folder to
    /// write into, which may not exist yet.
    pub save: bool,
    /// Ask for a folder.
    pub folder: bool,
    /// Suggested file name for saves.
    pub suggested: Option<String>,
}

fn filter(name: &str, exts: &[&str]) -> (String, Vec<String>) {
    (
        name.to_owned(),
        exts.iter().map(|e| (*e).to_owned()).collect(),
    )
}

impl PathPurpose {
    /// What the prompt shows.
    pub fn spec(&self) -> PathSpec {
        match self {
            PathPurpose::OpenProject => PathSpec {
                title: "Open".into(),
                filters: vec![filter("Strata project", &["strata"])],
                ..Default::default()
            },
            PathPurpose::SaveProject(name) => PathSpec {
                title: "Save As".into(),
                filters: vec![filter("Strata project", &["strata"])],
                save: true,
                suggested: Some(format!("{name}.strata")),
                ..Default::default()
            },
            PathPurpose::ImportVxr => PathSpec {
                title: "Import godot_voxel regions".into(),
                folder: true,
                ..Default::default()
            },
            PathPurpose::ExportMesh(name) => PathSpec {
                title: "Export Mesh".into(),
                filters: vec![
                    filter("glTF binary", &["glb"]),
                    filter("Wavefront OBJ", &["obj"]),
                ],
                save: true,
                suggested: Some(format!("{name}.glb")),
                ..Default::default()
            },
            PathPurpose::ExportVxr => PathSpec {
                title: "Export godot_voxel regions".into(),
                folder: true,
                // A folder to write into: one that does not exist yet is created by the export.
                save: true,
                ..Default::default()
            },
            PathPurpose::Panel { spec, .. } => spec.clone(),
        }
    }
}

/// What the platform's dialog answered.
#[derive(Debug, Clone, PartialEq)]
pub enum NativeAnswer {
    /// A path was chosen.
    Chosen(PathBuf),
    /// The user closed the dialog.
    Cancelled,
    /// No dialog could be shown (no desktop portal, no display): use the in-app browser.
    Unavailable,
}

/// A dialog that returns within this long was never shown: nobody cancels that fast.
const NOT_SHOWN: Duration = Duration::from_millis(250);

/// Ask with the platform's own dialog (blocks until it closes).
pub fn ask_native(spec: &PathSpec) -> NativeAnswer {
    let mut dialog = rfd::FileDialog::new().set_title(&spec.title);
    for (name, exts) in &spec.filters {
        dialog = dialog.add_filter(name, exts);
    }
    if let Some(name) = &spec.suggested {
        dialog = dialog.set_file_name(name);
    }
    let asked = Instant::now();
    let answer = if spec.folder {
        dialog.pick_folder()
    } else if spec.save {
        dialog.save_file()
    } else {
        dialog.pick_file()
    };
    match answer {
        Some(path) => NativeAnswer::Chosen(path),
        None if asked.elapsed() < NOT_SHOWN => NativeAnswer::Unavailable,
        None => NativeAnswer::Cancelled,
    }
}

/// The file stem of `path`, or "untitled".
pub fn stem(path: &Path) -> String {
    path.file_stem().map_or_else(
        || "untitled".to_owned(),
        |s| s.to_string_lossy().into_owned(),
    )
}

/// Generate a world (a preset or a biome mix); it opens unsaved.
pub fn generate_job(world: WorldSettings) -> Job {
    let what = if world.preset == Preset::Custom {
        "biome mix"
    } else {
        world.preset.name()
    };
    let [sx, sy, sz] = world.size;
    let label = format!("Generating {what} {sx}×{sy}×{sz}");
    Job::spawn(label, JobKind::Document, move |progress| {
        world.validate()?;
        let materials = MaterialTable::builtin();
        let grid = generate_world(&world, &materials, progress)?;
        let mut header = ProjectHeader::new(what, world.bounds());
        header.materials = materials;
        header.set_world(&world);
        Ok(JobOutput::opened(Project::new(header, grid), None, None))
    })
}

/// Open `path`; `thumbs` is the thumbnail folder (files made elsewhere get their picture now).
pub fn open_job(path: PathBuf, thumbs: Option<PathBuf>) -> Job {
    let label = format!("Opening {}", path.display());
    Job::spawn(label, JobKind::Document, move |progress| {
        let project = Project::load_with(&path, progress)?;
        if let Some(dir) = thumbs {
            // A missing thumbnail only costs a picture in the recent list.
            let _ = crate::files::thumbnails::ensure(&dir, &path, &project);
        }
        Ok(JobOutput::opened(project, Some(path), None))
    })
}

/// Open the autosave at `autosave` as an unsaved document that saves to `original`.
pub fn recover_job(autosave: PathBuf, original: Option<PathBuf>) -> Job {
    Job::spawn("Recovering", JobKind::Document, move |progress| {
        let project = Project::load_with(&autosave, progress)?;
        // The recovered world opens unsaved; the autosave stays until it is saved or the editor
        // closes cleanly, so a second crash loses nothing either.
        Ok(JobOutput::opened(project, None, original))
    })
}

/// Save `project` (document revision `revision`) to `path`, atomically with a `.bak`.
pub fn save_job(project: Project, path: PathBuf, revision: u64, thumbs: Option<PathBuf>) -> Job {
    let label = format!("Saving {}", path.display());
    Job::spawn(label, JobKind::Modal, move |progress| {
        project.save_with(&path, progress)?;
        if let Some(dir) = thumbs {
            // A missing thumbnail only costs a picture in the recent list.
            let _ = crate::files::thumbnails::write(&dir, &path, &project);
        }
        Ok(JobOutput::Saved { path, revision })
    })
}

/// Export the surface of `grid` at full resolution to `path` (.obj or .glb) with the project's
/// materials: `table`'s names, colours and emission, and `textures`' images for the materials that
/// carry one (as `strata export` does).
pub fn export_mesh_job(grid: Grid, table: MaterialTable, textures: Textures, path: PathBuf) -> Job {
    Job::spawn("Exporting mesh", JobKind::Modal, move |progress| {
        let ext = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        let looks = ExportLooks {
            light: None,
            textures: Some(&textures),
        };
        let stats = match ext.as_deref() {
            Some("obj") => export_obj_lit(&grid, &table, 0, None, looks, &path, progress)?,
            Some("glb") | None => export_glb_lit(&grid, &table, 0, None, looks, &path, progress)?,
            Some(other) => {
                return Err(AppError::Usage(format!(
                    "{}: unknown mesh format .{other} (use .obj or .glb)",
                    path.display()
                )))
            }
        };
        Ok(JobOutput::Wrote {
            message: format!(
                "Exported {} triangles to {}",
                stats.solid_triangles + stats.water_triangles,
                path.display()
            ),
        })
    })
}

/// Export `grid` within `bounds` as a godot_voxel region forest in `dir`.
pub fn export_vxr_job(grid: Grid, bounds: VoxelBox, dir: PathBuf) -> Job {
    Job::spawn("Exporting regions", JobKind::Modal, move |progress| {
        let report = export_forest(
            &grid,
            Some(bounds),
            &dir,
            &ForestOptions::default(),
            progress,
        )?;
        Ok(JobOutput::Wrote {
            message: format!("Wrote {} region files to {}", report.files, dir.display()),
        })
    })
}

/// Import the godot_voxel region forest in `dir` as a new document.
pub fn import_vxr_job(dir: PathBuf) -> Job {
    Job::spawn("Importing regions", JobKind::Document, move |progress| {
        let imported = import_forest(&dir, &ImportRules::default(), progress)?;
        let header = ProjectHeader::new(stem(&dir), imported.bounds);
        Ok(JobOutput::opened(
            Project::new(header, imported.grid),
            None,
            None,
        ))
    })
}

/// Build a new document from a heightmap.
pub fn heightmap_job(import: HeightmapImport) -> Job {
    let label = format!("Importing {}", import.map.display());
    Job::spawn(label, JobKind::Document, move |progress| {
        Ok(JobOutput::opened(import.build(progress)?, None, None))
    })
}

/// The name exports suggest: the project's file name, or `untitled` before it is saved (never
/// the generator's description, such as a biome list).
pub fn export_name(doc: &crate::document::Document) -> String {
    doc.path().map_or_else(|| "untitled".to_owned(), stem)
}
