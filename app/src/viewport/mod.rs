//! The 3D viewport panel: camera input, brush picking, chunk meshes and the three-d paint callback.
//!
//! - [`camera`]: orbit / pan / zoom / fly math and picking rays (no GL).
//! - [`chunks`]: the octree of mesh nodes: which to (re)mesh at which level of detail, which to draw.
//! - [`fade`]: cross-fades between levels of detail as the view refines or coarsens.
//! - [`upload`]: mesher output to three-d CPU meshes.
//! - [`fragments`]: the Enhance preview's fragment face meshes, drawn instead of the terrain.
//! - [`grid_material`]: the ground grid, drawn per pixel so it stays clean at any distance.
//! - [`scene`]: GPU resources and drawing (three-d); [`skirt_scale`]: how long each drawn node's
//!   skirt flaps are drawn, from the levels drawn around it.
//! - [`terrain_mesh`], [`terrain_material`]: the terrain's vertex format and geometry, and its
//!   shading (material looks, sun shadows, sky ambient, water depth); [`pattern_maps`]: the
//!   material patterns as tileable images computed at start-up; [`albedo_maps`]: the project's
//!   material textures and emission as the shader reads them.
//! - [`sun_look`]: the real-time sun set up to preview the bake (direction, colour, shadow strength).
//! - [`paint`]: the egui paint callback that runs the scene on eframe's glow context;
//!   [`gl_info`]: the renderer's name.
//! - [`pointer_samples`]: the frame's primary-button events in order (press, path, release), so
//!   input survives slow frames.
//!
//! Controls (see `docs/user-guide.md`): right drag orbits around the point under the cursor, middle
//! drag pans, the wheel zooms toward the cursor, right button + W A S D (Q / E down / up, Shift
//! faster) flies, F focuses the hovered point, Alt+1 / Alt+3 / Alt+7 give front / right / top views.

pub mod albedo_maps;
pub mod camera;
pub mod chunks;
pub mod exposure;
pub mod fade;
pub mod fragments;
pub mod gl_info;
pub mod grid_material;
pub mod overlay;
pub mod paint;
pub mod pattern_maps;
pub mod pointer_samples;
pub mod scene;
pub mod skirt_scale;
pub mod sun_look;
pub mod terrain_material;
pub mod terrain_mesh;
pub mod upload;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use eframe::egui::{self, Key, PointerButton, Sense};
use three_d::{InnerSpace, Vec3};

use strata_engine::format::project::Camera as SavedCamera;
use strata_engine::light::LightMap;
use strata_engine::physics::WorldHit;
use strata_engine::storage::Grid;
use strata_engine::voxel::{ChunkPos, VoxelBox, VoxelPos};

use crate::document::Document;
use camera::EditorCamera;
use chunks::ChunkMeshes;
use fragments::{FragmentPreview, FragmentUpload};
use overlay::Overlay;
use paint::PaintStats;
use pointer_samples::{PointerKind, PointerSample, PointerTrack};
use scene::{CursorDraw, FrameParams, Pending};
use strata_engine::enhance::FaceLight;

/// Time per frame spent meshing chunks that are not urgent.
pub const MESH_BUDGET: Duration = Duration::from_millis(12);
/// How far zooming out may take the camera from the point under the pointer, in world extents.
const MAX_ZOOM_OUT: f32 = 4.0;

/// What the viewport reports to the tools each frame.
#[derive(Debug, Clone, Default)]
pub struct ViewportInput {
    /// Terrain under the pointer.
    pub hover: Option<WorldHit>,
    /// Primary button went down over the viewport this frame (see [`ViewportInput::press`]).
    pub primary_pressed: bool,
    /// Primary button is held after going down over the viewport (at the end of the frame).
    pub primary_down: bool,
    /// Primary button, pressed over the viewport, came up this frame.
    pub primary_released: bool,
    /// Every press, move while held and release of the frame, in order (see [`pointer_samples`]).
    pub samples: Vec<PointerSample>,
    /// Seconds since the previous frame.
    pub dt: f32,
    /// The ray under the pointer (also while a drag leaves the terrain), for tools that pick
    /// their own handles.
    pub ray: Option<camera::PickRay>,
}

impl ViewportInput {
    /// The frame's first press over the viewport, where it happened.
    pub fn press(&self) -> Option<&PointerSample> {
        self.samples.iter().find(|s| s.kind == PointerKind::Press)
    }
}

/// Which light shades the terrain: the baked light (vertex colours), the real-time sun of the scene,
/// or both. Without a bake, the baked light counts as white.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LightView {
    /// Only the baked light.
    Baked,
    /// Only the real-time sun and sky.
    Realtime,
    /// The baked light under the real-time sun.
    #[default]
    Both,
}

/// This frame's viewport area and input, between [`Viewport::begin`] and [`Viewport::end`].
#[derive(Debug, Clone)]
pub struct ViewportFrame {
    /// What the tools get.
    pub input: ViewportInput,
    rect: egui::Rect,
}

impl ViewportFrame {
    /// The viewport's rectangle in the window.
    pub fn rect(&self) -> egui::Rect {
        self.rect
    }
}

/// The viewport's state.
pub struct Viewport {
    /// The camera.
    pub camera: EditorCamera,
    /// Chunk mesh bookkeeping.
    pub meshes: ChunkMeshes,
    /// Draw the ground grid and axes.
    pub show_grid: bool,
    /// Fly speed, voxels per second.
    pub fly_speed: f32,
    /// How far a right-drag turns the camera, degrees per pixel.
    pub orbit_degrees_per_px: f32,
    /// Which light the terrain is shaded with.
    pub light_view: LightView,
    /// Exposure and tone curve of the terrain's light.
    pub exposure: exposure::Exposure,
    /// The colour behind the terrain (sRGB, 0 to 1; the sky unless a test asks otherwise).
    pub background: [f32; 3],
    /// The real-time sun, previewing the bake settings last given to [`Viewport::follow_bake`].
    sun: sun_look::SunLook,
    sun_settings: Option<strata_engine::light::LightSettings>,
    /// Time per frame spent meshing nodes that are not urgent ([`MESH_BUDGET`]).
    pub mesh_budget: Duration,
    pending: Arc<Mutex<Pending>>,
    stats: Arc<Mutex<PaintStats>>,
    gl: bool,
    pivot: Option<Vec3>,
    /// The camera and pointer where the current right-drag started: the drag turns the camera by
    /// how far the pointer is from there, so the turn is the same however the pointer's path was
    /// split into frames (or a frame laid out twice).
    orbit_from: Option<(EditorCamera, egui::Pos2)>,
    /// The document's bounds, and whether the next frame frames them whole (the first view of a
    /// world, Reset Camera): the fit needs the view's shape, known only when it is laid out.
    bounds: VoxelBox,
    frame_world: bool,
    /// The view's rectangle in the window in the last frame.
    rect: egui::Rect,
    /// Width over height of the view in the last frame.
    aspect: f32,
    extent: f32,
    /// Centre of the document's bounds.
    center: [f32; 3],
    /// Last hovered hit (kept for focus and the status bar).
    pub hover: Option<WorldHit>,
    /// Fragment quads per chunk of the Enhance preview (empty: the smooth terrain shows).
    fragment_quads: rustc_hash::FxHashMap<ChunkPos, usize>,
    show_fragments: bool,
    pointer: PointerTrack,
    /// The document's material-table revision the meshes and shader show.
    materials_revision: Option<u64>,
    albedo_cache: albedo_maps::AlbedoCache,
    /// Drawing on the fast path (Preferences ▸ Viewport quality).
    fast: bool,
}

impl Viewport {
    /// A viewport; `gl` says whether a glow context exists (false in UI tests: input and picking work,
    /// nothing is drawn).
    pub fn new(gl: bool) -> Self {
        Self {
            camera: EditorCamera::from_saved(&strata_engine::format::project::Camera {
                target: [0.0; 3],
                yaw_degrees: 45.0,
                pitch_degrees: 35.0,
                distance: 200.0,
            }),
            meshes: ChunkMeshes::new(true),
            show_grid: true,
            fly_speed: 40.0,
            orbit_degrees_per_px: crate::app::prefs::DEFAULT_ORBIT_DEGREES_PER_PX,
            light_view: LightView::Both,
            exposure: exposure::Exposure::default(),
            background: terrain_material::CLEAR_COLOR,
            sun: sun_look::SunLook::matching(&strata_engine::light::LightSettings::default()),
            sun_settings: None,
            mesh_budget: MESH_BUDGET,
            pending: Arc::default(),
            stats: Arc::default(),
            gl,
            pivot: None,
            orbit_from: None,
            bounds: VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(256, 96, 256)),
            frame_world: false,
            rect: egui::Rect::NOTHING,
            aspect: 1.0,
            extent: 256.0,
            center: [128.0, 48.0, 128.0],
            hover: None,
            fragment_quads: rustc_hash::FxHashMap::default(),
            show_fragments: false,
            pointer: PointerTrack::default(),
            materials_revision: None,
            albedo_cache: albedo_maps::AlbedoCache::default(),
            fast: false,
        }
    }

    /// Show `doc`'s material table from now on (colours of new meshes, looks, textures, glows),
    /// if it changed since the last call. The chunks showing a changed material are published by
    /// the document and remeshed as any edit.
    pub fn sync_materials(&mut self, doc: &Document) {
        if self.materials_revision == Some(doc.materials_revision()) {
            return;
        }
        self.materials_revision = Some(doc.materials_revision());
        let table = doc.materials();
        self.meshes.set_palette(table);
        let layers = self
            .gl
            .then(|| albedo_maps::build(table, &doc.project().textures, &mut self.albedo_cache));
        if let Ok(mut p) = self.pending.lock() {
            p.materials = Some(table.clone());
            p.albedo = layers;
        }
    }

    /// Start showing `doc`: camera from its header, every chunk stale.
    pub fn on_document(&mut self, doc: &Document) {
        let header = doc.header();
        self.camera = EditorCamera::from_saved(&header.camera);
        self.bounds = header.bounds;
        // A world still holding the overview camera it was created with (never saved from a moved
        // view) opens framed whole in the window.
        self.frame_world = header.camera == SavedCamera::overview(&header.bounds);
        self.extent = header.bounds.size().into_iter().max().unwrap_or(256) as f32;
        self.center = box_center(header.bounds);
        self.meshes.reset(doc.grid(), &header.materials);
        self.hover = None;
        if let Ok(mut p) = self.pending.lock() {
            *p = Pending {
                reset: true,
                materials: Some(header.materials.clone()),
                ground: Some(header.bounds),
                fragments_reset: true,
                ..Pending::default()
            };
        }
        self.fragment_quads.clear();
        self.show_fragments = false;
        self.albedo_cache = albedo_maps::AlbedoCache::default();
        self.materials_revision = None;
        self.sync_materials(doc);
    }

    /// Show or update the Enhance preview (`light`: the baked light to colour it with, if shown).
    pub fn fragment_preview(&mut self, preview: FragmentPreview, light: Option<&LightMap>) {
        let mut uploads = Vec::new();
        let reset = match preview {
            FragmentPreview::Off => {
                self.show_fragments = false;
                self.fragment_quads.clear();
                true
            }
            FragmentPreview::Meshes {
                reset,
                chunks,
                light: fragment_light,
            } => {
                let (lighting, factor) = match (&fragment_light, light) {
                    _ if self.light_view == LightView::Realtime => (FaceLight::None, 1),
                    (Some(fl), _) => (FaceLight::Fragments(&fl.map), fl.factor),
                    (None, Some(map)) => (FaceLight::Voxels(map), 1),
                    (None, None) => (FaceLight::None, 1),
                };
                self.show_fragments = true;
                if reset {
                    self.fragment_quads.clear();
                }
                for (pos, mesh) in chunks {
                    let quads = mesh.as_ref().map_or(0, |m| m.quad_count());
                    if quads == 0 {
                        self.fragment_quads.remove(&pos);
                    } else {
                        self.fragment_quads.insert(pos, quads);
                    }
                    if self.gl {
                        uploads.push(FragmentUpload {
                            pos,
                            mesh: mesh.and_then(|m| fragments::cpu_mesh(m, lighting, factor)),
                        });
                    }
                }
                reset
            }
        };
        if let Ok(mut p) = self.pending.lock() {
            if reset {
                p.fragments_reset = true;
                p.fragment_uploads.clear();
            }
            p.fragment_uploads.extend(uploads);
        }
    }

    /// True while the Enhance preview replaces the smooth terrain.
    pub fn shows_fragments(&self) -> bool {
        self.show_fragments
    }

    /// Fragment quads the preview holds (0 when it is off).
    pub fn fragment_quads(&self) -> usize {
        self.fragment_quads.values().sum()
    }

    /// The voxels in `changed` were modified: the chunks whose meshes read them are remeshed in
    /// the next [`Viewport::end`], whatever the budget.
    pub fn on_edit(&mut self, grid: &Grid, changed: VoxelBox) {
        self.meshes.edited(grid, changed);
    }

    /// The baked light changed within `region` (a bake or a re-bake): recolour those chunks within
    /// the frame budget.
    pub fn relight(&mut self, region: VoxelBox) {
        self.meshes.invalidate(region);
    }

    /// Light the real-time view like a bake with `settings` would (sun direction, colour and shadow
    /// strength); cheap when they did not change.
    pub fn follow_bake(&mut self, settings: &strata_engine::light::LightSettings) {
        if self.sun_settings.as_ref() != Some(settings) {
            self.sun = sun_look::SunLook::matching(settings);
            self.sun_settings = Some(*settings);
        }
    }

    /// The real-time sun the viewport draws with.
    pub fn sun(&self) -> sun_look::SunLook {
        self.sun
    }

    /// Show the terrain with `view`'s light (every chunk is recoloured).
    pub fn set_light_view(&mut self, view: LightView) {
        if self.light_view != view {
            self.light_view = view;
            self.meshes.invalidate(VoxelBox::new(
                strata_engine::voxel::VoxelPos::new(i32::MIN / 2, i32::MIN / 2, i32::MIN / 2),
                strata_engine::voxel::VoxelPos::new(i32::MAX / 2, i32::MAX / 2, i32::MAX / 2),
            ));
        }
    }

    /// Remesh what edits touched (all of it) and stale chunks (within the frame budget).
    fn refresh(&mut self, doc: &Document) {
        let light = match self.light_view {
            LightView::Realtime => None,
            LightView::Baked | LightView::Both => doc.project().light.as_ref(),
        };
        let update = self.meshes.update(
            doc.grid(),
            doc.materials(),
            self.camera.position,
            self.mesh_budget,
            light,
        );
        if let Ok(mut p) = self.pending.lock() {
            p.take(update);
        }
    }

    /// True while the last paint left the sun's shadow map behind the ground meshes (it catches up
    /// within a second; screenshots wait for it).
    pub fn shadow_pending(&self) -> bool {
        self.stats.lock().is_ok_and(|s| s.shadow_pending)
    }

    /// True while levels of detail cross-fade (the last paint drew a fade).
    pub fn fading(&self) -> bool {
        self.stats.lock().is_ok_and(|s| s.fading)
    }

    /// Draw on the fast path (cheaper ground shading, coarser distant meshes) or the full one.
    pub fn set_fast(&mut self, fast: bool) {
        self.fast = fast;
        self.meshes.coarse = fast;
    }

    /// True when the viewport draws on the fast path.
    pub fn fast(&self) -> bool {
        self.fast
    }

    /// Chunks still waiting for a mesh at their wanted level of detail.
    pub fn stale_chunks(&self) -> usize {
        self.meshes.stale_count(self.camera.position)
    }

    /// Triangles drawn by the last paint (0 without GL).
    pub fn drawn_triangles(&self) -> usize {
        self.stats.lock().map_or(0, |s| s.triangles)
    }

    /// Take the rest of `ui` for the view: camera input and picking. The tools then handle
    /// [`ViewportFrame::input`], and [`Viewport::end`] draws.
    pub fn begin(&mut self, ui: &mut egui::Ui, doc: &mut Document) -> ViewportFrame {
        let rect = ui.available_rect_before_wrap();
        self.frame_pending(rect);
        let response = ui.allocate_rect(rect, Sense::click_and_drag());
        let (w, h) = (rect.width(), rect.height());
        let pointer = response.hover_pos();
        self.hover = pointer.and_then(|p| {
            let ray = self
                .camera
                .pick_ray(p.x - rect.left(), p.y - rect.top(), w, h);
            doc.raycast(ray.origin, ray.dir, self.extent * 8.0)
        });
        let ray = ui.input(|i| i.pointer.latest_pos()).map(|p| {
            self.camera
                .pick_ray(p.x - rect.left(), p.y - rect.top(), w, h)
        });
        let camera = self.camera;
        let extent = self.extent;
        let ctx = ui.ctx().clone();
        let samples = self.pointer.read(
            &ctx,
            |p| pointer_samples::viewport_owns(&ctx, rect, p),
            |p| {
                let ray = camera.pick_ray(p.x - rect.left(), p.y - rect.top(), w, h);
                (ray, doc.raycast(ray.origin, ray.dir, extent * 8.0))
            },
        );
        self.camera_input(ui, &response, rect);
        let has = |kind| samples.iter().any(|s: &PointerSample| s.kind == kind);
        let input = ViewportInput {
            hover: self.hover,
            primary_pressed: has(PointerKind::Press),
            primary_down: self.pointer.held,
            primary_released: has(PointerKind::Release),
            dt: ui.input(|i| i.stable_dt.min(0.25)),
            ray,
            samples,
        };
        ViewportFrame { input, rect }
    }

    /// Remesh what changed and draw the scene with `cursor` as the brush cursor and `overlays`
    /// over the terrain.
    pub fn end(
        &mut self,
        ui: &mut egui::Ui,
        doc: &Document,
        frame: ViewportFrame,
        cursor: Option<CursorDraw>,
        overlays: Vec<Overlay>,
    ) {
        self.refresh(doc);
        let params = FrameParams {
            camera: self.camera,
            cursor,
            extent: self.extent,
            center: self.center,
            show_grid: self.show_grid,
            overlays,
            realtime_light: self.light_view != LightView::Baked,
            exposure: self.exposure,
            show_fragments: self.show_fragments,
            background: self.background,
            sun: self.sun,
            fast: self.fast,
        };
        if self.gl {
            ui.painter().add(paint::callback(
                frame.rect,
                params,
                self.pending.clone(),
                self.stats.clone(),
            ));
        } else {
            ui.painter()
                .rect_filled(frame.rect, 0.0, egui::Color32::from_rgb(135, 160, 190));
        }
        if self.stale_chunks() > 0
            || self.shadow_pending()
            || self.fading()
            || self.fly_keys_held(ui)
        {
            ui.ctx().request_repaint();
        }
    }

    /// Focus the camera on the hovered point, seeing `radius` voxels around it.
    pub fn focus_hovered(&mut self, radius: f32) {
        if let Some(hit) = self.hover {
            let r = Vec3::new(radius, radius, radius);
            let p = Vec3::from(hit.point);
            self.camera.frame_box(p - r, p + r, self.aspect);
        }
    }

    /// Look at `b` from the current direction, from just far enough to see all of it.
    pub fn frame_box(&mut self, b: VoxelBox) {
        let corner = |p: VoxelPos| Vec3::new(p.x as f32, p.y as f32, p.z as f32);
        self.camera
            .frame_box(corner(b.min), corner(b.max), self.aspect);
    }

    /// The three-quarter view of the whole world, framed in the view at the next frame (View ▸
    /// Reset Camera).
    pub fn reset_camera(&mut self) {
        self.camera = EditorCamera::from_saved(&SavedCamera::overview(&self.bounds));
        self.frame_world = true;
    }

    /// The view's rectangle in the window in the last frame (nothing before the first).
    pub fn rect(&self) -> egui::Rect {
        self.rect
    }

    /// Note the view's shape, and frame the world if asked to.
    fn frame_pending(&mut self, rect: egui::Rect) {
        self.rect = rect;
        if rect.height() > 0.0 {
            self.aspect = rect.width() / rect.height();
        }
        if std::mem::take(&mut self.frame_world) {
            self.frame_box(self.bounds);
        }
    }

    fn fly_keys_held(&self, ui: &egui::Ui) -> bool {
        ui.input(|i| {
            i.pointer.secondary_down()
                && [Key::W, Key::A, Key::S, Key::D, Key::Q, Key::E]
                    .iter()
                    .any(|k| i.key_down(*k))
        })
    }

    fn camera_input(&mut self, ui: &egui::Ui, response: &egui::Response, rect: egui::Rect) {
        let hover_point = self.hover.map(|h| Vec3::from(h.point));
        if response.drag_started_by(PointerButton::Secondary)
            || response.drag_started_by(PointerButton::Middle)
        {
            self.pivot = Some(hover_point.unwrap_or_else(|| self.camera.target()));
            let origin = ui.input(|i| i.pointer.press_origin());
            self.orbit_from = origin.map(|at| (self.camera, at));
        }
        let flying = self.fly_keys_held(ui);
        let (delta, dt, shift, scroll) = ui.input(|i| {
            (
                i.pointer.delta(),
                i.stable_dt.min(0.1),
                i.modifiers.shift,
                i.smooth_scroll_delta.y,
            )
        });
        let per_px = self.orbit_degrees_per_px.to_radians();
        if response.dragged_by(PointerButton::Secondary) {
            let pointer = ui.input(|i| i.pointer.latest_pos());
            match (flying, self.orbit_from, pointer) {
                (true, _, _) => {
                    // Fly mode turns in place as the pointer moves; WASD moves the camera meanwhile.
                    self.orbit_from = None;
                    self.camera.look(-delta.x * per_px, -delta.y * per_px);
                }
                (false, Some((start, from)), Some(at)) => {
                    let moved = at - from;
                    let pivot = self.pivot.unwrap_or_else(|| start.target());
                    self.camera = start;
                    self.camera
                        .orbit(pivot, -moved.x * per_px, -moved.y * per_px);
                }
                (false, _, _) => {
                    let pivot = self.pivot.unwrap_or_else(|| self.camera.target());
                    self.camera
                        .orbit(pivot, -delta.x * per_px, -delta.y * per_px);
                }
            }
        } else {
            self.orbit_from = None;
        }
        if response.dragged_by(PointerButton::Middle) {
            let depth = self.pivot.map_or(self.camera.focus_distance, |p| {
                (p - self.camera.position).magnitude()
            });
            self.camera.pan(delta.x, delta.y, depth, rect.height());
        }
        if flying {
            let axis = |pos: Key, neg: Key| {
                ui.input(|i| f32::from(i8::from(i.key_down(pos)) - i8::from(i.key_down(neg))))
            };
            let local = Vec3::new(
                axis(Key::D, Key::A),
                axis(Key::E, Key::Q),
                axis(Key::W, Key::S),
            );
            let speed = self.fly_speed * if shift { 4.0 } else { 1.0 };
            self.camera.fly(local, speed, dt);
        }
        if response.contains_pointer() && scroll != 0.0 {
            let point = hover_point.unwrap_or_else(|| {
                let p = response.hover_pos().unwrap_or(rect.center());
                let ray = self.camera.pick_ray(
                    p.x - rect.left(),
                    p.y - rect.top(),
                    rect.width(),
                    rect.height(),
                );
                Vec3::from(ray.origin) + Vec3::from(ray.dir) * self.camera.focus_distance
            });
            self.camera
                .zoom_toward(point, scroll / 50.0, self.extent * MAX_ZOOM_OUT);
        }
    }
}

/// The centre of `bounds`, world voxels.
pub fn box_center(bounds: VoxelBox) -> [f32; 3] {
    let mid = |lo: i32, hi: i32| (lo as f32 + hi as f32) * 0.5;
    [
        mid(bounds.min.x, bounds.max.x),
        mid(bounds.min.y, bounds.max.y),
        mid(bounds.min.z, bounds.max.z),
    ]
}
