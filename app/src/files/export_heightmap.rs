//! File ▸ Export Heightmap: choose the heightmap file (16-bit PNG or raw `.r16`), its size (the
//! world's, Unity's 1025, Unreal's 1009 or any), and whether to write a splat map and per-material
//! weight layers beside it; Export runs [`crate::files::heightmap_export`] as a background job on a
//! copy of the project, with progress and Cancel, and reports the files written and any overhangs
//! the heightmap leaves out.

use std::path::{Path, PathBuf};

use eframe::egui;
use strata_engine::export::MAX_MAP_SIDE;
use strata_engine::format::project::Project;

use crate::app::action::Action;
use crate::app::job_output::JobOutput;
use crate::app::jobs::{Job, JobKind};
use crate::app::panel::{panel_path, Panel, Placement, View};
use crate::files::file_jobs::PathSpec;
use crate::files::heightmap_export::{sidecar_path, HeightmapExport};

/// The window's name.
pub const NAME: &str = "Export Heightmap";

const OUT: u32 = 0;

/// The map size choices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SizePreset {
    /// One pixel per column of the world.
    World,
    /// 1025 × 1025 (Unity's `2ⁿ + 1`).
    Unity,
    /// 1009 × 1009 (one of Unreal's recommended landscape sizes).
    Unreal,
    /// Any width and height.
    Custom,
}

impl SizePreset {
    const ALL: [SizePreset; 4] = [Self::World, Self::Unity, Self::Unreal, Self::Custom];

    fn label(self) -> &'static str {
        match self {
            Self::World => "World size (one pixel per column)",
            Self::Unity => "Unity 1025 × 1025",
            Self::Unreal => "Unreal 1009 × 1009",
            Self::Custom => "Custom",
        }
    }
}

/// The Export Heightmap window.
pub struct ExportHeightmapWindow {
    out: Option<PathBuf>,
    /// Write `.r16` rather than `.png`.
    raw: bool,
    preset: SizePreset,
    custom: [u32; 2],
    splat: bool,
    layers: bool,
}

impl Default for ExportHeightmapWindow {
    fn default() -> Self {
        Self {
            out: None,
            raw: false,
            preset: SizePreset::World,
            custom: [1025, 1025],
            splat: true,
            layers: false,
        }
    }
}

impl ExportHeightmapWindow {
    /// The heightmap's path with the chosen format's extension.
    fn out_path(&self) -> Option<PathBuf> {
        let out = self.out.as_ref()?;
        Some(out.with_extension(if self.raw { "r16" } else { "png" }))
    }

    /// The export these settings describe, when an output is chosen: the splat map as
    /// `NAME_splat.png` and the layers in `NAME_layers/`, beside the heightmap.
    pub fn export(&self) -> Option<HeightmapExport> {
        let out = self.out_path()?;
        let stem = out.file_stem()?.to_string_lossy().into_owned();
        let beside = |name: String| out.with_file_name(name);
        let size = match self.preset {
            SizePreset::World => None,
            SizePreset::Unity => Some([1025, 1025]),
            SizePreset::Unreal => Some([1009, 1009]),
            SizePreset::Custom => Some(self.custom),
        };
        Some(HeightmapExport {
            size,
            splat: self.splat.then(|| beside(format!("{stem}_splat.png"))),
            layers: self.layers.then(|| beside(format!("{stem}_layers"))),
            region: None,
            out,
        })
    }

    fn options_ui(&mut self, ui: &mut egui::Ui, view: &View<'_>, out: &mut Vec<Action>) {
        egui::Grid::new("export-heightmap-grid")
            .num_columns(2)
            .show(ui, |ui| {
                ui.label("File");
                ui.horizontal(|ui| {
                    let name = self
                        .out_path()
                        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
                        .unwrap_or_else(|| "none".to_owned());
                    ui.label(name);
                    if ui.button("Choose…").clicked() {
                        let name = view.doc.map_or_else(
                            || "untitled".to_owned(),
                            crate::files::file_jobs::export_name,
                        );
                        out.push(Action::AskPath(panel_path(
                            NAME,
                            OUT,
                            spec(&name, self.raw),
                        )));
                    }
                });
                ui.end_row();
                ui.label("Format");
                ui.horizontal(|ui| {
                    ui.radio_value(&mut self.raw, false, "16-bit PNG");
                    ui.radio_value(&mut self.raw, true, "RAW .r16 (little-endian)");
                });
                ui.end_row();
                let label = ui.label("Map size");
                egui::ComboBox::from_id_salt("heightmap-size")
                    .selected_text(self.preset.label())
                    .show_ui(ui, |ui| {
                        for p in SizePreset::ALL {
                            ui.selectable_value(&mut self.preset, p, p.label());
                        }
                    })
                    .response
                    .labelled_by(label.id);
                ui.end_row();
                if self.preset == SizePreset::Custom {
                    ui.label("Width, height");
                    ui.horizontal(|ui| {
                        for v in &mut self.custom {
                            ui.add(
                                egui::DragValue::new(v)
                                    .range(1..=MAX_MAP_SIDE)
                                    .suffix(" px"),
                            );
                        }
                    });
                    ui.end_row();
                }
                ui.label("Splat map");
                ui.checkbox(&mut self.splat, "RGBA weights of the four main materials");
                ui.end_row();
                ui.label("Weight layers");
                ui.checkbox(
                    &mut self.layers,
                    "One 8-bit PNG per material (Unreal layers)",
                );
                ui.end_row();
            });
    }
}

/// What an export writes, in a line: "Writes w.png, w.json (sidecar), w_splat.png, w_layers/".
fn written_text(export: Option<&HeightmapExport>) -> String {
    let Some(e) = export else {
        return String::new();
    };
    let name = |p: &Path| {
        p.file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
    };
    let mut parts = vec![
        name(&e.out),
        format!("{} (sidecar)", name(&sidecar_path(&e.out))),
    ];
    parts.extend(e.splat.as_deref().map(name));
    parts.extend(e.layers.as_deref().map(|d| format!("{}/", name(d))));
    format!("Writes {}", parts.join(", "))
}

/// The file prompt for the heightmap, suggesting `NAME.png` (or `.r16`).
fn spec(name: &str, raw: bool) -> PathSpec {
    let ext = if raw { "r16" } else { "png" };
    PathSpec {
        title: "Export Heightmap".into(),
        filters: vec![
            ("16-bit PNG".to_owned(), vec!["png".to_owned()]),
            ("RAW 16-bit".to_owned(), vec!["r16".to_owned()]),
        ],
        save: true,
        suggested: Some(format!("{name}.{ext}")),
        ..Default::default()
    }
}

/// Export `project` as `export` in the background (modal progress with Cancel).
pub fn export_job(project: Project, file: Option<PathBuf>, export: HeightmapExport) -> Job {
    Job::spawn("Exporting heightmap", JobKind::Modal, move |progress| {
        let report = export.run(&project, file.as_deref(), progress)?;
        let [w, h] = report.size;
        let mut message = format!(
            "Exported a {w} × {h} heightmap to {} ({} files)",
            export.out.display(),
            report.files.len()
        );
        if report.overhang_columns > 0 {
            message.push_str(&format!(
                "; {} columns hide overhangs or caves it cannot show",
                report.overhang_columns
            ));
        }
        Ok(JobOutput::Wrote { message })
    })
}

impl Panel for ExportHeightmapWindow {
    fn name(&self) -> &'static str {
        NAME
    }

    fn placement(&self) -> Placement {
        Placement::Window
    }

    fn on_document(&mut self, _doc: Option<&crate::document::Document>) {
        // Another world: its heightmap gets its own file, never the last world's by accident.
        self.out = None;
    }

    fn on_path(&mut self, tag: u32, path: &Path, _out: &mut Vec<Action>) {
        if tag == OUT {
            let ext = path
                .extension()
                .map(|e| e.to_string_lossy().to_ascii_lowercase());
            self.raw = ext.as_deref() == Some("r16");
            self.out = Some(path.to_path_buf());
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, view: &View<'_>, out: &mut Vec<Action>) {
        self.options_ui(ui, view, out);
        let export = self.export();
        let problem = match (&export, view.doc) {
            (_, None) => Some("Open a world to export.".to_owned()),
            (None, _) => Some("Choose a file for the heightmap.".to_owned()),
            (Some(e), _) => e.check_paths().err().map(|e| e.to_string()),
        };
        match &problem {
            Some(p) => {
                ui.colored_label(ui.visuals().warn_fg_color, p);
            }
            None => {
                ui.weak(written_text(export.as_ref()));
            }
        }
        ui.horizontal(|ui| {
            let ready = problem.is_none() && !view.busy;
            if ui.add_enabled(ready, egui::Button::new("Export")).clicked() {
                if let (Some(export), Some(doc)) = (export, view.doc) {
                    let job = export_job(
                        doc.project().clone(),
                        doc.path().map(Path::to_path_buf),
                        export,
                    );
                    out.push(Action::Start(job));
                    out.push(Action::TogglePanel(NAME));
                }
            }
            if ui.button("Cancel").clicked() {
                out.push(Action::TogglePanel(NAME));
            }
        });
    }
}
