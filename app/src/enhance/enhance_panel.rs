//! The Enhance panel: voxel detail enhancement (recursive subdivision or direct resampling) of the
//! whole world or a box, previewed in the viewport in place of the smooth terrain.
//!
//! ```text
//!   settings ──Build (worker: grid snapshot)──> Enhanced store + a face mesh per chunk
//!                                                 └─> Action::FragmentPreview (viewport)
//!   every edit ─on_edit─> Enhanced::update (the voxels whose window meets the edit)
//!                           └─> dirty chunks, re-meshed in `tick` within a frame budget
//! ```
//!
//! The preview follows painting incrementally: an edit recomputes exactly the voxels whose
//! dependency window meets it (fast: well under a millisecond for a brush dab at two levels), and
//! only the chunks whose faces can change are meshed again, a few per frame. The flat-shaded faces
//! carry their material's colour, times the baked light when the world has been baked.

use std::sync::Arc;
use std::time::{Duration, Instant};

use eframe::egui;
use rustc_hash::FxHashSet;

use strata_engine::enhance::{
    bake_fragments, mesh_fragment_chunk, Enhanced, FragmentMesh, HeightBand, Method,
    ResampleParams, SubdivideParams, MAX_COUNT, MAX_FACTOR, MAX_LEVELS, MAX_SPREAD,
};
use strata_engine::light::{LightMap, LightSettings};
use strata_engine::progress::Progress;
use strata_engine::storage::Grid;
use strata_engine::voxel::{
    ChunkPos, EnhanceThreshold, MaterialTable, VoxelBox, VoxelPos, FACE_OFFSETS,
};

use crate::app::action::Action;
use crate::app::jobs::{Inbox, JobKind};
use crate::app::panel::{Panel, View};
use crate::document::Document;
use crate::viewport::fragments::{FragmentLight, FragmentPreview};
use crate::AppResult;

/// The panel's name.
pub const NAME: &str = "Enhance";

/// Time per frame spent re-meshing chunks an edit touched.
const MESH_BUDGET: Duration = Duration::from_millis(8);

/// Which method the form edits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MethodKind {
    /// Recursive subdivision.
    Subdivide,
    /// Direct resampling.
    Resample,
}

/// The form: both methods' parameters, so switching back and forth keeps them.
#[derive(Debug, Clone, PartialEq)]
pub struct EnhanceForm {
    /// The method in use.
    pub kind: MethodKind,
    /// Subdivision parameters (`threshold: None` uses the material table's thresholds).
    pub subdivide: SubdivideParams,
    /// Resampling parameters.
    pub resample: ResampleParams,
    /// Whole world (`None`) or a box: minimum (inclusive) and maximum (exclusive) corners.
    pub region: Option<[[i32; 3]; 2]>,
    /// Strata by altitude: one band with its even/odd thresholds.
    pub band: Option<HeightBand>,
    /// Per-material thresholds (index = material id) used instead of the document's table; empty
    /// until the panel first shows a document.
    pub material_thresholds: Vec<EnhanceThreshold>,
}

impl Default for EnhanceForm {
    fn default() -> Self {
        Self {
            kind: MethodKind::Subdivide,
            subdivide: SubdivideParams::default(),
            resample: ResampleParams::default(),
            region: None,
            band: None,
            material_thresholds: Vec::new(),
        }
    }
}

impl EnhanceForm {
    /// The method these settings describe.
    pub fn method(&self) -> Method {
        match self.kind {
            MethodKind::Subdivide => {
                let mut p = self.subdivide.clone();
                p.bands = self.band.into_iter().collect();
                Method::Subdivide(p)
            }
            MethodKind::Resample => Method::Resample(self.resample),
        }
    }

    /// `table` with this form's per-material thresholds.
    pub fn table(&self, table: &MaterialTable) -> MaterialTable {
        let mut t = table.clone();
        for (m, threshold) in t.materials.iter_mut().zip(&self.material_thresholds) {
            m.enhance = Some(*threshold);
        }
        t
    }

    /// The box, or `None` for the whole world.
    pub fn region_box(&self) -> Option<VoxelBox> {
        self.region.map(|[a, b]| {
            VoxelBox::new(
                VoxelPos::new(a[0], a[1], a[2]),
                VoxelPos::new(b[0], b[1], b[2]),
            )
        })
    }

    /// Why these settings cannot run, if they cannot.
    fn problem(&self) -> Option<String> {
        if let Err(e) = self.method().validate() {
            return Some(e.to_string());
        }
        if self.region_box().is_some_and(|b| b.is_empty()) {
            return Some("The box is empty: each maximum must exceed its minimum.".into());
        }
        None
    }
}

/// What a build job returns.
struct Built {
    form: EnhanceForm,
    store: Enhanced,
    meshes: Vec<(ChunkPos, Option<FragmentMesh>)>,
    took: Duration,
}

/// What a fragment-light job returns.
struct Lit {
    form: EnhanceForm,
    revision: u64,
    light: LightMap,
    meshes: Vec<(ChunkPos, Option<FragmentMesh>)>,
    took: Duration,
}

/// What a job of this panel hands back.
enum Done {
    Built(Built),
    Lit(Lit),
}

/// The Enhance panel.
#[derive(Default)]
pub struct EnhancePanel {
    /// The settings.
    pub form: EnhanceForm,
    /// Show the fragments in the viewport.
    pub preview: bool,
    store: Option<Enhanced>,
    /// The settings `store` was built with.
    built_for: Option<EnhanceForm>,
    /// Settings a job is building (not started again until they change).
    requested: Option<EnhanceForm>,
    running: Option<Arc<Progress>>,
    /// Edits made while a build ran (its snapshot predates them).
    edits_since: Vec<VoxelBox>,
    /// Those edits, to apply to the arrived store in the next `tick` (which can read the grid).
    catch_up: Vec<VoxelBox>,
    /// Chunks whose faces an edit may have changed, waiting for a new mesh.
    dirty: FxHashSet<ChunkPos>,
    last: Option<String>,
    error: Option<String>,
    /// Bake the light at fragment resolution.
    pub lit: bool,
    light: Option<FragmentLight>,
    /// The settings and document revision the fragment light was baked for.
    light_for: Option<(EnhanceForm, u64)>,
    lighting: Option<Arc<Progress>>,
    /// Fragment bakes cancelled by a rebuild whose (cancelled) results are still to come.
    abandoned: usize,
    light_note: Option<String>,
    /// Where this panel's jobs deliver.
    inbox: Inbox<Done>,
}

/// Every chunk whose fragment faces can be non-empty: the chunks the store computes and every
/// stored grid chunk (whose outer faces meet empty neighbours), within `region`.
fn chunks_to_mesh(store: &Enhanced, grid: &Grid) -> Vec<ChunkPos> {
    let mut set: FxHashSet<ChunkPos> = store.chunks_to_compute(grid).into_iter().collect();
    let region = store.region();
    for (p, _) in grid.chunks() {
        for d in std::iter::once([0, 0, 0]).chain(FACE_OFFSETS) {
            let q = ChunkPos::new(p.x + d[0], p.y + d[1], p.z + d[2]);
            if region.is_none_or(|r| !r.intersect(&q.voxel_box()).is_empty()) {
                set.insert(q);
            }
        }
    }
    let mut v: Vec<ChunkPos> = set.into_iter().collect();
    v.sort_unstable_by_key(|p| (p.z, p.y, p.x));
    v
}

/// The face mesh of chunk `pos` (`None`: no faces).
fn mesh_one(
    store: &Enhanced,
    grid: &Grid,
    table: &MaterialTable,
    pos: ChunkPos,
) -> Option<FragmentMesh> {
    let mut mesh = FragmentMesh::new();
    mesh_fragment_chunk(&store.volume(grid), table, pos, store.region(), &mut mesh);
    (mesh.quad_count() > 0).then_some(mesh)
}

/// The face mesh of every chunk that can have faces, checking `progress` for a cancel between chunks.
fn mesh_all(
    store: &Enhanced,
    grid: &Grid,
    table: &MaterialTable,
    progress: &Progress,
) -> strata_engine::Result<Vec<(ChunkPos, Option<FragmentMesh>)>> {
    chunks_to_mesh(store, grid)
        .into_iter()
        .map(|pos| {
            progress.check()?;
            Ok((pos, mesh_one(store, grid, table, pos)))
        })
        .collect()
}

/// A job's progress bar and its Cancel button; true when Cancel was pressed (the job is cancelled).
fn progress_row(ui: &mut egui::Ui, progress: &Progress) -> bool {
    ui.add(
        egui::ProgressBar::new(progress.fraction())
            .show_percentage()
            .desired_width(120.0),
    );
    let cancel = ui.button("Cancel").clicked();
    if cancel {
        progress.cancel();
    }
    cancel
}

impl EnhancePanel {
    /// The fragment store the preview shows, once built.
    pub fn store(&self) -> Option<&Enhanced> {
        self.store.as_ref()
    }

    /// True while a build or a fragment bake runs, or edits wait to be re-meshed.
    pub fn working(&self) -> bool {
        self.running.is_some()
            || self.lighting.is_some()
            || !self.dirty.is_empty()
            || !self.catch_up.is_empty()
    }

    /// The light baked over the fragments, once baked.
    pub fn fragment_light(&self) -> Option<&LightMap> {
        self.light.as_ref().map(|l| l.map.as_ref())
    }

    /// Bake the light over the current fragments (the document's light settings, or the defaults)
    /// and mesh them again with it, on a worker.
    fn start_light(&mut self, doc: &Document, out: &mut Vec<Action>) {
        let Some(store) = self.store.clone() else {
            return;
        };
        let Some(form) = self.built_for.clone() else {
            return;
        };
        let grid = doc.grid().clone();
        let table = form.table(doc.materials());
        let settings = doc
            .light()
            .map_or_else(LightSettings::default, |l| *l.settings());
        let voxels = store.region().unwrap_or_else(|| doc.bounds());
        let revision = doc.revision();
        let job = self
            .inbox
            .spawn("Lighting fragments", JobKind::Background, move |progress| {
                let started = Instant::now();
                let (light, _) = bake_fragments(&store.volume(&grid), voxels, &settings, progress)?;
                let meshes = mesh_all(&store, &grid, &table, progress)?;
                Ok(Done::Lit(Lit {
                    form,
                    revision,
                    light,
                    meshes,
                    took: started.elapsed(),
                }))
            })
            .owned_by(NAME);
        self.lighting = Some(job.progress());
        self.light_note = None;
        out.push(Action::Start(job));
    }

    fn start_build(&mut self, doc: &Document, out: &mut Vec<Action>) {
        let form = self.form.clone();
        let grid = doc.grid().clone();
        let table = form.table(doc.materials());
        let for_job = form.clone();
        let job = self
            .inbox
            .spawn("Enhancing", JobKind::Background, move |progress| {
                let started = Instant::now();
                let store = Enhanced::build(
                    &grid,
                    &table,
                    &for_job.method(),
                    for_job.region_box(),
                    progress,
                )?;
                let meshes = mesh_all(&store, &grid, &table, progress)?;
                Ok(Done::Built(Built {
                    form: for_job,
                    store,
                    meshes,
                    took: started.elapsed(),
                }))
            })
            .owned_by(NAME);
        if let Some(p) = self.lighting.take() {
            p.cancel();
            self.abandoned += 1;
        }
        self.running = Some(job.progress());
        self.requested = Some(form);
        self.edits_since.clear();
        self.error = None;
        out.push(Action::Start(job));
    }

    fn turn_off(&mut self, out: &mut Vec<Action>) {
        self.preview = false;
        self.store = None;
        self.built_for = None;
        self.requested = None;
        self.dirty.clear();
        self.catch_up.clear();
        self.light = None;
        self.light_for = None;
        if let Some(p) = self.running.take() {
            p.cancel();
        }
        if let Some(p) = self.lighting.take() {
            p.cancel();
        }
        out.push(Action::FragmentPreview(FragmentPreview::Off));
    }

    fn method_ui(&mut self, ui: &mut egui::Ui, table: &MaterialTable) {
        let form = &mut self.form;
        ui.horizontal(|ui| {
            ui.selectable_value(&mut form.kind, MethodKind::Subdivide, "Subdivide")
                .on_hover_text("Recursive subdivision: each level splits a voxel into 2×2×2");
            ui.selectable_value(&mut form.kind, MethodKind::Resample, "Resample")
                .on_hover_text("Direct resampling: random probes around each fragment");
        });
        egui::Grid::new("enhance-grid")
            .num_columns(2)
            .show(ui, |ui| match form.kind {
                MethodKind::Subdivide => {
                    let p = &mut form.subdivide;
                    let label = ui.label("Levels");
                    ui.add(egui::DragValue::new(&mut p.levels).range(1..=MAX_LEVELS))
                        .labelled_by(label.id)
                        .on_hover_text("Fragments per voxel edge: 2 to the power of the levels");
                    ui.end_row();
                    ui.label("Threshold");
                    ui.horizontal(|ui| {
                        let mut per_material = p.threshold.is_none();
                        if ui
                            .checkbox(&mut per_material, "Per material")
                            .on_hover_text("Use each material's threshold from the material table")
                            .changed()
                        {
                            p.threshold = if per_material { None } else { Some(2) };
                        }
                        if let Some(t) = p.threshold.as_mut() {
                            ui.add(egui::Slider::new(t, 1..=4).text("solid of 4"));
                        }
                    });
                    ui.end_row();
                    ui.label("");
                    ui.checkbox(&mut p.material_borders, "Crisp material borders")
                        .on_hover_text("Count a neighbour of another material as empty");
                    ui.end_row();
                    ui.label("");
                    ui.checkbox(&mut p.approximate_table, "Approximate (paper's table)")
                        .on_hover_text(
                            "The paper's single 7-bit table: faster, but an approximation from \
                             two levels on",
                        );
                    ui.end_row();
                    ui.label("Strata");
                    let mut on = form.band.is_some();
                    ui.checkbox(&mut on, "Band by altitude")
                        .on_hover_text("Thresholds alternating by fragment altitude within a band");
                    ui.end_row();
                    match (on, form.band.as_mut()) {
                        (false, _) => form.band = None,
                        (true, None) => {
                            form.band = Some(HeightBand {
                                min_y: 0,
                                max_y: 64,
                                threshold: EnhanceThreshold { even: 2, odd: 3 },
                            });
                        }
                        (true, Some(b)) => {
                            let label = ui.label("Band Y");
                            ui.horizontal(|ui| {
                                ui.add(egui::DragValue::new(&mut b.min_y).prefix("from "))
                                    .labelled_by(label.id);
                                ui.add(egui::DragValue::new(&mut b.max_y).prefix("to "))
                                    .labelled_by(label.id);
                            });
                            ui.end_row();
                            let label = ui.label("Even / odd");
                            ui.horizontal(|ui| {
                                ui.add(egui::DragValue::new(&mut b.threshold.even).range(1..=4))
                                    .labelled_by(label.id);
                                ui.add(egui::DragValue::new(&mut b.threshold.odd).range(1..=4))
                                    .labelled_by(label.id);
                            });
                            ui.end_row();
                        }
                    }
                }
                MethodKind::Resample => {
                    let p = &mut form.resample;
                    let label = ui.label("Factor");
                    ui.add(egui::DragValue::new(&mut p.factor).range(1..=MAX_FACTOR))
                        .labelled_by(label.id)
                        .on_hover_text("Fragments per voxel edge");
                    ui.end_row();
                    let label = ui.label("Probes");
                    ui.add(egui::DragValue::new(&mut p.count).range(1..=MAX_COUNT))
                        .labelled_by(label.id);
                    ui.end_row();
                    let label = ui.label("Spread");
                    ui.add(
                        egui::DragValue::new(&mut p.spread)
                            .range(0.0..=MAX_SPREAD)
                            .speed(0.05)
                            .suffix(" voxels"),
                    )
                    .labelled_by(label.id);
                    ui.end_row();
                    let label = ui.label("Fraction");
                    ui.add(egui::Slider::new(&mut p.fraction, 0.0..=1.0))
                        .labelled_by(label.id)
                        .on_hover_text("Solid when more than this share of the probes is solid");
                    ui.end_row();
                    let label = ui.label("Seed");
                    ui.add(egui::DragValue::new(&mut p.seed))
                        .labelled_by(label.id);
                    ui.end_row();
                }
            });
        if form.material_thresholds.len() != table.materials.len() {
            form.material_thresholds = table
                .materials
                .iter()
                .map(|m| m.enhance_threshold())
                .collect();
        }
        if form.kind == MethodKind::Subdivide && form.subdivide.threshold.is_none() {
            egui::CollapsingHeader::new("Per-material thresholds")
                .id_salt("enhance-material-thresholds")
                .show(ui, |ui| {
                    ui.weak("Solid neighbours of 4 a fragment needs, at even / odd altitudes");
                    egui::Grid::new("enhance-thresholds")
                        .num_columns(3)
                        .show(ui, |ui| {
                            for (m, t) in table
                                .materials
                                .iter()
                                .zip(form.material_thresholds.iter_mut())
                                .skip(1)
                                .filter(|(m, _)| !m.liquid)
                            {
                                let label = ui.label(&m.name);
                                ui.add(egui::DragValue::new(&mut t.even).range(1..=4))
                                    .labelled_by(label.id);
                                ui.add(egui::DragValue::new(&mut t.odd).range(1..=4))
                                    .labelled_by(label.id);
                                ui.end_row();
                            }
                        });
                    if ui.small_button("From the material table").clicked() {
                        form.material_thresholds.clear();
                    }
                });
        }
    }

    fn scope_ui(&mut self, ui: &mut egui::Ui, bounds: VoxelBox) {
        ui.horizontal(|ui| {
            ui.label("Scope");
            let mut whole = self.form.region.is_none();
            if ui.radio_value(&mut whole, true, "Whole world").clicked() {
                self.form.region = None;
            }
            if ui.radio_value(&mut whole, false, "Box").clicked() && self.form.region.is_none() {
                let c = [
                    (bounds.min.x + bounds.max.x) / 2,
                    (bounds.min.y + bounds.max.y) / 2,
                    (bounds.min.z + bounds.max.z) / 2,
                ];
                self.form.region = Some([
                    [c[0] - 16, bounds.min.y, c[2] - 16],
                    [c[0] + 16, bounds.max.y.min(c[1] + 32), c[2] + 16],
                ]);
            }
        });
        if let Some(region) = self.form.region.as_mut() {
            egui::Grid::new("enhance-box")
                .num_columns(2)
                .show(ui, |ui| {
                    for (corner, name) in [(0, "Box min"), (1, "Box max")] {
                        let label = ui.label(name);
                        ui.horizontal(|ui| {
                            for (axis, a) in ["X", "Y", "Z"].iter().enumerate() {
                                ui.add(egui::DragValue::new(&mut region[corner][axis]).prefix(*a))
                                    .labelled_by(label.id);
                            }
                        });
                        ui.end_row();
                    }
                });
        }
    }
}

impl Panel for EnhancePanel {
    fn name(&self) -> &'static str {
        NAME
    }

    fn open_by_default(&self) -> bool {
        false
    }

    fn ui(&mut self, ui: &mut egui::Ui, view: &View<'_>, out: &mut Vec<Action>) {
        let Some(doc) = view.doc else {
            ui.weak("Open or create a world to enhance it");
            return;
        };
        self.method_ui(ui, doc.materials());
        self.scope_ui(ui, doc.bounds());
        let problem = self.form.problem();
        if let Some(p) = &problem {
            ui.colored_label(ui.visuals().error_fg_color, p);
        }
        ui.horizontal(|ui| {
            let mut on = self.preview;
            if ui
                .add_enabled(
                    problem.is_none() || self.preview,
                    egui::Checkbox::new(&mut on, "Show fragments"),
                )
                .on_hover_text("Draw the enhanced fragments in place of the smooth terrain")
                .changed()
            {
                if on {
                    self.preview = true;
                } else {
                    self.turn_off(out);
                }
            }
            if let Some(progress) = &self.running {
                if progress_row(ui, progress) {
                    self.preview = false;
                }
            }
        });
        if let Some(e) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        } else if let Some(last) = &self.last {
            ui.weak(last);
        }
        ui.horizontal(|ui| {
            ui.add_enabled(
                self.preview,
                egui::Checkbox::new(&mut self.lit, "Light fragments"),
            )
            .on_hover_text(
                "Bake the snowflake light over the fragments themselves (the Lighting panel's \
                 settings), so fragment overhangs shade what lies under them",
            );
            if let Some(progress) = &self.lighting {
                if progress_row(ui, progress) {
                    self.lit = false;
                }
            } else if self.lit
                && self.light.is_some()
                && self
                    .light_for
                    .as_ref()
                    .is_some_and(|(_, rev)| *rev != doc.revision())
                && ui
                    .button("Re-light")
                    .on_hover_text("The terrain changed since the fragments were lit")
                    .clicked()
            {
                self.start_light(doc, out);
            }
        });
        if let Some(note) = &self.light_note {
            ui.weak(note);
        }
    }

    fn tick(&mut self, view: &View<'_>, out: &mut Vec<Action>) {
        let Some(doc) = view.doc else { return };
        if !self.preview {
            return;
        }
        let stale = self.built_for.as_ref() != Some(&self.form);
        if stale
            && self.running.is_none()
            && self.form.problem().is_none()
            && self.requested.as_ref() != Some(&self.form)
        {
            self.start_build(doc, out);
        }
        if stale {
            return;
        }
        let light_wanted = self.lit
            && self.lighting.is_none()
            && self.store.is_some()
            && self.light_for.as_ref().map(|(f, _)| f) != self.built_for.as_ref();
        if light_wanted {
            self.start_light(doc, out);
        }
        if !self.lit && self.light.is_some() {
            // Back to the voxel light: every chunk is meshed again without the fragment light.
            self.light = None;
            self.light_for = None;
            if let Some(store) = self.store.as_ref() {
                self.dirty.extend(chunks_to_mesh(store, doc.grid()));
            }
        }
        let Some(store) = self.store.as_mut() else {
            return;
        };
        for b in std::mem::take(&mut self.catch_up) {
            self.dirty.extend(store.update(doc.grid(), b));
        }
        if self.dirty.is_empty() {
            return;
        }
        let started = Instant::now();
        let mut order: Vec<ChunkPos> = self.dirty.iter().copied().collect();
        order.sort_unstable_by_key(|p| (p.z, p.y, p.x));
        let mut chunks = Vec::new();
        for pos in order {
            if started.elapsed() > MESH_BUDGET {
                break;
            }
            self.dirty.remove(&pos);
            chunks.push((pos, mesh_one(store, doc.grid(), doc.materials(), pos)));
        }
        out.push(Action::FragmentPreview(FragmentPreview::Meshes {
            reset: false,
            chunks,
            light: self.light.clone(),
        }));
    }

    fn on_edit(&mut self, doc: &Document, changed: VoxelBox) {
        if self.running.is_some() {
            self.edits_since.push(changed);
        }
        if let Some(store) = self.store.as_mut() {
            self.dirty.extend(store.update(doc.grid(), changed));
        }
    }

    fn on_document(&mut self, _doc: Option<&Document>) {
        self.store = None;
        self.built_for = None;
        self.requested = None;
        self.dirty.clear();
        self.catch_up.clear();
        self.edits_since.clear();
        if let Some(p) = self.running.take() {
            p.cancel();
        }
        // The viewport dropped the fragments with the old document; a shown preview rebuilds.
    }

    fn on_job(&mut self, result: AppResult<()>, out: &mut Vec<Action>) {
        let result = match result {
            Ok(()) => match self.inbox.take() {
                Some(Done::Lit(lit)) => return self.install_light(lit, out),
                other => Ok(other),
            },
            Err(crate::AppError::Engine(strata_engine::Error::Cancelled)) if self.abandoned > 0 => {
                self.abandoned -= 1;
                return;
            }
            Err(e) if self.lighting.is_some() && self.running.is_none() => {
                self.lighting = None;
                self.lit = false;
                if !matches!(e, crate::AppError::Engine(strata_engine::Error::Cancelled)) {
                    self.light_note = Some(format!("Fragment light failed: {e}"));
                }
                return;
            }
            Err(e) => Err(e),
        };
        self.running = None;
        match result {
            Ok(done) => {
                let Some(Done::Built(built)) = done else {
                    return;
                };
                if !self.preview {
                    return;
                }
                let Built {
                    form,
                    store,
                    meshes,
                    took,
                } = built;
                let stats = store.stats();
                let quads: usize = meshes
                    .iter()
                    .filter_map(|(_, m)| m.as_ref().map(FragmentMesh::quad_count))
                    .sum();
                self.last = Some(format!(
                    "{f}×{f}×{f} fragments per voxel · {} voxels with detail · {} KiB · {quads} faces · {:.2} s",
                    stats.blocks,
                    stats.memory_bytes / 1024,
                    took.as_secs_f32(),
                    f = stats.factor,
                ));
                self.built_for = Some(form);
                self.error = None;
                out.push(Action::FragmentPreview(FragmentPreview::Meshes {
                    reset: true,
                    chunks: meshes,
                    light: None,
                }));
                self.light = None;
                self.light_for = None;
                // Edits made while the worker ran are not in its snapshot: `tick` follows them.
                self.catch_up = std::mem::take(&mut self.edits_since);
                self.store = Some(store);
                self.dirty.clear();
            }
            Err(crate::AppError::Engine(strata_engine::Error::Cancelled)) => {
                self.requested = None;
            }
            Err(e) => {
                self.error = Some(format!("Enhancement failed: {e}"));
                self.preview = false;
                out.push(Action::FragmentPreview(FragmentPreview::Off));
            }
        }
    }
}

impl EnhancePanel {
    /// A fragment bake arrived: show it (unless the fragments were rebuilt since).
    fn install_light(&mut self, lit: Lit, out: &mut Vec<Action>) {
        self.lighting = None;
        if !self.preview || !self.lit || self.built_for.as_ref() != Some(&lit.form) {
            return;
        }
        let light = FragmentLight {
            map: Arc::new(lit.light),
            factor: lit.form.method().factor() as usize,
        };
        self.light_note = Some(format!(
            "{} lit fragments · {:.2} s",
            light.map.len(),
            lit.took.as_secs_f32()
        ));
        self.light = Some(light.clone());
        self.light_for = Some((lit.form, lit.revision));
        // Edits since the job's snapshot are re-meshed by `tick` (their light is marked by Re-light).
        out.push(Action::FragmentPreview(FragmentPreview::Meshes {
            reset: true,
            chunks: lit.meshes,
            light: Some(light),
        }));
    }
}
