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
//!   material patterns as tileable images computed at start-up.
//! - [`paint`]: the egui paint callback that runs the scene on eframe's glow context.
//!
//! Controls (see `docs/user-guide.md`): right drag orbits around the point under the cursor, middle
//! drag pans, the wheel zooms toward the cursor, right button + W A S D (Q / E down / up, Shift
//! faster) flies, F focuses the hovered point, Alt+1 / Alt+3 / Alt+7 give front / right / top views.

pub mod camera;
pub mod chunks;
pub mod fade;
pub mod fragments;
pub mod grid_material;
pub mod overlay;
pub mod paint;
pub mod pattern_maps;
pub mod scene;
pub mod skirt_scale;
pub mod terrain_material;
pub mod terrain_mesh;
pub mod upload;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use eframe::egui::{self, Key, PointerButton, Sense};
use three_d::{InnerSpace, Vec3};

use strata_engine::light::LightMap;
use strata_engine::physics::WorldHit;
use strata_engine::storage::Grid;
use strata_engine::voxel::{ChunkPos, VoxelBox};

use crate::document::Document;
use camera::EditorCamera;
use chunks::ChunkMeshes;
use fragments::{FragmentPreview, FragmentUpload};
use overlay::Overlay;
use paint::PaintStats;
use scene::{CursorDraw, FrameParams, Pending};
use strata_engine::enhance::FaceLight;

/// Time per frame spent meshing chunks that are not urgent.
pub const MESH_BUDGET: Duration = Duration::from_millis(12);
/// How far zooming out may take the camera from the point under the pointer, in world extents.
const MAX_ZOOM_OUT: f32 = 4.0;
/// Radians of orbit per dragged point.
const ORBIT_SPEED: f32 = 0.006;

/// What the viewport reports to the tools each frame.
#[derive(Debug, Clone, Copy, Default)]
pub struct ViewportInput {
    /// Terrain under the pointer.
    pub hover: Option<WorldHit>,
    /// Primary button went down over the viewport this frame.
    pub primary_pressed: bool,
    /// Primary button is held (stroke in progress) with the pointer in the viewport.
    pub primary_down: bool,
    /// Primary button released this frame.
    pub primary_released: bool,
    /// Seconds since the previous frame.
    pub dt: f32,
    /// The ray under the pointer (also while a drag leaves the terrain), for tools that pick
    /// their own handles.
    pub ray: Option<camera::PickRay>,
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
#[derive(Debug, Clone, Copy)]
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
    /// Which light the terrain is shaded with.
    pub light_view: LightView,
    /// The colour behind the terrain (sRGB, 0 to 1; the sky unless a test asks otherwise).
    pub background: [f32; 3],
    /// Time per frame spent meshing nodes that are not urgent ([`MESH_BUDGET`]).
    pub mesh_budget: Duration,
    pending: Arc<Mutex<Pending>>,
    stats: Arc<Mutex<PaintStats>>,
    gl: bool,
    pivot: Option<Vec3>,
    extent: f32,
    /// Centre of the document's bounds.
    center: [f32; 3],
    /// Last hovered hit (kept for focus and the status bar).
    pub hover: Option<WorldHit>,
    /// Fragment quads per chunk of the Enhance preview (empty: the smooth terrain shows).
    fragment_quads: rustc_hash::FxHashMap<ChunkPos, usize>,
    show_fragments: bool,
    /// The viewport's rectangle in the last frame, points.
    rect: egui::Rect,
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
            light_view: LightView::Both,
            background: terrain_material::CLEAR_COLOR,
            mesh_budget: MESH_BUDGET,
            pending: Arc::default(),
            stats: Arc::default(),
            gl,
            pivot: None,
            extent: 256.0,
            center: [128.0, 48.0, 128.0],
            hover: None,
            fragment_quads: rustc_hash::FxHashMap::default(),
            show_fragments: false,
            rect: egui::Rect::NOTHING,
        }
    }

    /// Start showing `doc`: camera from its header, every chunk stale.
    pub fn on_document(&mut self, doc: &Document) {
        let header = doc.header();
        self.camera = EditorCamera::from_saved(&header.camera);
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

    /// Chunks still waiting for a mesh at their wanted level of detail.
    pub fn stale_chunks(&self) -> usize {
        self.meshes.stale_count(self.camera.position)
    }

    /// The viewport's rectangle in the last frame, points.
    pub fn rect(&self) -> egui::Rect {
        self.rect
    }

    /// Triangles drawn by the last paint (0 without GL).
    pub fn drawn_triangles(&self) -> usize {
        self.stats.lock().map_or(0, |s| s.triangles)
    }

    /// Take the rest of `ui` for the view: camera input and picking. The tools then handle
    /// [`ViewportFrame::input`], and [`Viewport::end`] draws.
    pub fn begin(&mut self, ui: &mut egui::Ui, doc: &mut Document) -> ViewportFrame {
        let rect = ui.available_rect_before_wrap();
        self.rect = rect;
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
        self.camera_input(ui, &response, rect);
        let input = ui.input(|i| ViewportInput {
            hover: self.hover,
            primary_pressed: response.contains_pointer() && i.pointer.primary_pressed(),
            primary_down: i.pointer.primary_down() && response.is_pointer_button_down_on(),
            primary_released: i.pointer.primary_released(),
            dt: i.stable_dt.min(0.25),
            ray,
        });
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
            show_fragments: self.show_fragments,
            background: self.background,
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

    /// Focus the camera on the hovered point (F).
    pub fn focus_hovered(&mut self) {
        if let Some(hit) = self.hover {
            self.camera.focus(Vec3::from(hit.point), 16.0);
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
        if response.dragged_by(PointerButton::Secondary) {
            if flying {
                self.camera
                    .look(-delta.x * ORBIT_SPEED, -delta.y * ORBIT_SPEED);
            } else {
                let pivot = self.pivot.unwrap_or_else(|| self.camera.target());
                self.camera
                    .orbit(pivot, -delta.x * ORBIT_SPEED, -delta.y * ORBIT_SPEED);
            }
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
