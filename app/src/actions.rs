//! File actions of the editor: new, open, save, save as, imports and exports. Each runs as a
//! background [`Job`] with progress; the dialogs that ask for paths are the platform's own (rfd).

use std::path::{Path, PathBuf};

use strata_engine::format::godot::{export_forest, import_forest, ForestOptions, ImportRules};
use strata_engine::format::project::{Project, ProjectHeader};
use strata_engine::gen::{generate, GeneratorSettings};
use strata_engine::mesh::{export_glb, export_obj};
use strata_engine::voxel::MaterialTable;

use crate::app::EditorApp;
use crate::jobs::{Job, JobOutput};
use crate::AppError;

/// Ask for a project file to open.
pub fn pick_project_to_open() -> Option<PathBuf> {
    rfd::FileDialog::new()
        .add_filter("Strata project", &["strata"])
        .set_title("Open")
        .pick_file()
}

fn stem(path: &Path) -> String {
    path.file_stem().map_or_else(
        || "untitled".to_owned(),
        |s| s.to_string_lossy().into_owned(),
    )
}

impl EditorApp {
    /// Generate a new world in the background; it opens unsaved when done.
    pub fn generate(&mut self, settings: GeneratorSettings) {
        if self.busy() {
            return;
        }
        let label = format!(
            "Generating {} {}×{}×{}",
            settings.preset.name(),
            settings.size[0],
            settings.size[1],
            settings.size[2]
        );
        self.job = Some(Job::spawn(label, move |progress| {
            settings.validate()?;
            let materials = MaterialTable::builtin();
            let grid = generate(&settings, &materials, progress)?;
            let mut header = ProjectHeader::new(settings.preset.name(), settings.bounds());
            header.materials = materials;
            header.generator = Some(settings);
            Ok(JobOutput::Opened {
                project: Box::new(Project::new(header, grid)),
                path: None,
            })
        }));
    }

    /// Open `path` in the background.
    pub fn open_path(&mut self, path: PathBuf) {
        if self.busy() {
            return;
        }
        let label = format!("Opening {}", path.display());
        let thumbs = self
            .config
            .as_ref()
            .map(|c| crate::panels::recent::folder(c));
        self.job = Some(Job::spawn(label, move |progress| {
            let project = Project::load_with(&path, progress)?;
            if let Some(dir) = thumbs {
                // Files made elsewhere get their picture the first time they are opened.
                let _ = crate::panels::recent::ensure_thumbnail(&dir, &path, &project);
            }
            Ok(JobOutput::Opened {
                project: Box::new(project),
                path: Some(path),
            })
        }));
    }

    /// Open the autosave left by a crashed session as an unsaved document.
    pub fn recover(&mut self) {
        let Some(dir) = self.config.clone() else {
            return;
        };
        self.dialogs.recover = None;
        let path = crate::autosave::project_path(&crate::autosave::folder(&dir));
        self.job = Some(Job::spawn("Recovering", move |progress| {
            let project = Project::load_with(&path, progress)?;
            // The recovered world opens unsaved; the autosave stays until it is saved or the editor
            // closes cleanly, so a second crash loses nothing either.
            Ok(JobOutput::Opened {
                project: Box::new(project),
                path: None,
            })
        }));
    }

    /// Save to the document's file, or ask for one.
    pub fn save(&mut self) {
        let path = self.doc.as_ref().and_then(|d| d.path.clone());
        match path {
            Some(p) => self.save_to(p),
            None => self.save_as(),
        }
    }

    /// Ask for a file and save there.
    pub fn save_as(&mut self) {
        let Some(doc) = self.doc.as_ref() else {
            return;
        };
        let suggested = format!("{}.strata", doc.project.header.name);
        if let Some(mut path) = rfd::FileDialog::new()
            .add_filter("Strata project", &["strata"])
            .set_file_name(suggested)
            .set_title("Save As")
            .save_file()
        {
            if path.extension().is_none() {
                path.set_extension("strata");
            }
            self.save_to(path);
        }
    }

    /// Save the document to `path` in the background (atomic, previous file kept as `.bak`).
    pub fn save_to(&mut self, path: PathBuf) {
        if self.busy() {
            return;
        }
        let Some(doc) = self.doc.as_mut() else {
            return;
        };
        self.tools.finish(doc);
        let mut project = doc.project.clone();
        project.header.camera = self.viewport.camera.to_saved();
        if doc.path.as_deref() != Some(path.as_path()) {
            project.header.name = stem(&path);
        }
        let revision = doc.revision();
        let thumbs = self
            .config
            .as_ref()
            .map(|c| crate::panels::recent::folder(c));
        let label = format!("Saving {}", path.display());
        self.job = Some(Job::spawn(label, move |progress| {
            project.save_with(&path, progress)?;
            if let Some(dir) = thumbs {
                // A missing thumbnail only costs a picture in the recent list.
                let _ = crate::panels::recent::write_thumbnail(&dir, &path, &project);
            }
            Ok(JobOutput::Saved { path, revision })
        }));
    }

    /// Ask for a mesh file (.obj or .glb) and export the whole world at full resolution.
    pub fn export_mesh(&mut self) {
        let Some(doc) = self.doc.as_ref() else {
            return;
        };
        let Some(path) = rfd::FileDialog::new()
            .add_filter("glTF binary", &["glb"])
            .add_filter("Wavefront OBJ", &["obj"])
            .set_file_name(format!("{}.glb", doc.project.header.name))
            .set_title("Export Mesh")
            .save_file()
        else {
            return;
        };
        let grid = doc.project.grid.clone();
        let table = doc.project.header.materials.clone();
        self.job = Some(Job::spawn("Exporting mesh", move |progress| {
            let ext = path
                .extension()
                .map(|e| e.to_string_lossy().to_ascii_lowercase());
            let stats = match ext.as_deref() {
                Some("obj") => export_obj(&grid, &table, 0, None, &path, progress)?,
                Some("glb") | None => export_glb(&grid, &table, 0, None, &path, progress)?,
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
        }));
    }

    /// Ask for a folder and export a godot_voxel region forest (.vxr).
    pub fn export_vxr(&mut self) {
        let Some(doc) = self.doc.as_ref() else {
            return;
        };
        let Some(dir) = rfd::FileDialog::new()
            .set_title("Export godot_voxel regions")
            .pick_folder()
        else {
            return;
        };
        let grid = doc.project.grid.clone();
        let bounds = doc.project.header.bounds;
        self.job = Some(Job::spawn("Exporting regions", move |progress| {
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
        }));
    }

    /// Ask for a region forest folder and import it as a new document.
    pub fn import_vxr(&mut self) {
        let Some(dir) = rfd::FileDialog::new()
            .set_title("Import godot_voxel regions")
            .pick_folder()
        else {
            return;
        };
        self.job = Some(Job::spawn("Importing regions", move |progress| {
            let imported = import_forest(&dir, &ImportRules::default(), progress)?;
            let header = ProjectHeader::new(stem(&dir), imported.bounds);
            Ok(JobOutput::Opened {
                project: Box::new(Project::new(header, imported.grid)),
                path: None,
            })
        }));
    }

    /// Ask for a grayscale PNG heightmap (8 or 16 bit) and, optionally, a color map of the same size,
    /// and build a new world from them in the background (as `strata import --format heightmap`).
    pub fn import_heightmap(&mut self) {
        let Some(map_path) = rfd::FileDialog::new()
            .add_filter("PNG heightmap", &["png"])
            .set_title("Import Heightmap")
            .pick_file()
        else {
            return;
        };
        let colormap = rfd::FileDialog::new()
            .add_filter("PNG color map", &["png"])
            .set_title("Color map (optional: cancel for none)")
            .pick_file();
        let label = format!("Importing {}", map_path.display());
        self.job = Some(Job::spawn(label, move |progress| {
            let import = crate::heightmap::HeightmapImport {
                map: map_path,
                colormap,
                ..Default::default()
            };
            let project = import.build(progress)?;
            Ok(JobOutput::Opened {
                project: Box::new(project),
                path: None,
            })
        }));
    }
}
