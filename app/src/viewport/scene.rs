//! The three-d side of the viewport: GPU meshes of the terrain's mesh nodes, lights, the ground grid, the axes
//! gizmo and the brush cursor. It lives on the GL thread and is touched only inside egui's paint
//! callback, where eframe's glow context is current; the UI thread hands it work through [`Pending`].
//!
//! ```text
//!   UI thread                              paint callback (same thread, GL current)
//!   ChunkUpload ─┐                         Scene::apply(pending)  upload / drop node meshes
//!   drops       ─┤                                                 and take the visible set
//!   visible     ─┼─> Arc<Mutex<Pending>> ─>Scene::render(params)  shadow map if the ground changed,
//!   reset       ─┘                                                 clear, ground, water, the rest
//! ```
//!
//! The terrain is drawn with [`TerrainMaterial`] (procedural material detail, sun with a shadow
//! map, sky ambient, haze; water by depth), front to back so the depth test spares the detail
//! shader; grid, overlays, the Enhance preview and the cursor keep three-d's stock materials. The
//! sun's shadow map covers the whole world and is re-rendered from the visible ground meshes when
//! they change, at most every [`SHADOW_INTERVAL`]. The scene holds more meshes than it draws (the
//! coarse fallbacks of a refining view); only the visible set is drawn, plus, for [`super::fade::FADE`] after a
//! change of level, the nodes it replaced: the two cross-fade (see [`super::fade`]), drawn with
//! the fade variant of the terrain material.

use std::rc::Rc;

use rustc_hash::{FxHashMap, FxHashSet};
use three_d::{
    degrees, vec3, AmbientLight, Axes, Blend, Camera, ClearState, ColorMaterial, Context,
    CpuMaterial, CpuMesh, Cull, DirectionalLight, Geometry, Gm, Indices, InnerSpace, Mat4, Mesh,
    Object, PhysicalMaterial, Positions, RenderTarget, ScissorBox, Srgba, Vec3, Viewport,
};

use strata_engine::mesh::NodeKey;
use strata_engine::voxel::{ChunkPos, MaterialTable, VoxelBox};

use super::albedo_maps::{self, AlbedoLayers};
use super::camera::EditorCamera;
use super::chunks::MeshUpdate;
use super::fade::{FadeState, Fades};
use super::fragments::FragmentUpload;
use super::grid_material::{self, GridMaterial};
use super::overlay::{box_edges, GhostMesh, Overlay, SolidKind};
use super::skirt_scale::skirt_scales;
use super::sun_look::{SunLook, FILL_DIRECTION, FILL_INTENSITY};
use super::terrain_material::{albedo_texture, pattern_texture, Sky, Surface, TerrainMaterial};
use super::terrain_mesh::{TerrainMesh, VertexLight};
use super::upload::ChunkUpload;

/// Side of the sun's shadow map, texels.
pub const SHADOW_MAP_SIZE: u32 = 2048;
/// Shortest time between two shadow map renders while ground meshes keep changing.
pub const SHADOW_INTERVAL: std::time::Duration = std::time::Duration::from_millis(700);

/// Work queued by the UI thread for the next paint.
#[derive(Default)]
pub struct Pending {
    /// Drop every chunk mesh first (a new document).
    pub reset: bool,
    /// The material table whose looks the terrain shows (a new document, a changed table).
    pub materials: Option<MaterialTable>,
    /// The textures, tints and glows of that table.
    pub albedo: Option<AlbedoLayers>,
    /// New or replaced node meshes.
    pub uploads: Vec<ChunkUpload>,
    /// Node meshes to free.
    pub drops: Vec<NodeKey>,
    /// The nodes to draw, when the set changed.
    pub visible: Option<Vec<NodeKey>>,
    /// The ground grid to draw under this world.
    pub ground: Option<VoxelBox>,
    /// Drop every fragment mesh first (preview off, rebuilt, or a new document).
    pub fragments_reset: bool,
    /// New or replaced fragment meshes (the Enhance preview).
    pub fragment_uploads: Vec<FragmentUpload>,
}

impl Pending {
    /// Queue what a mesh update asks, after what is queued already: a later upload replaces an
    /// earlier one and cancels a queued drop of its node, a drop cancels a queued upload.
    pub fn take(&mut self, update: MeshUpdate) {
        for up in update.uploads {
            self.drops.retain(|k| *k != up.key);
            self.uploads.retain(|u| u.key != up.key);
            self.uploads.push(up);
        }
        for key in update.drops {
            self.uploads.retain(|u| u.key != key);
            self.drops.push(key);
        }
        if update.visible.is_some() {
            self.visible = update.visible;
        }
    }
}

/// The brush cursor to draw this frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CursorDraw {
    /// Shape to draw.
    pub shape: CursorShape,
    /// Centre, world voxels.
    pub center: [f32; 3],
    /// Radius, voxels.
    pub radius: f32,
    /// sRGBA color.
    pub color: [u8; 4],
}

/// Brush cursor shapes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CursorShape {
    /// A ball.
    Sphere,
    /// An axis-aligned cube.
    Cube,
    /// An upright cylinder.
    Cylinder,
}

/// Everything one frame needs besides the meshes.
#[derive(Debug, Clone, PartialEq)]
pub struct FrameParams {
    /// The camera.
    pub camera: EditorCamera,
    /// Brush cursor, when the pointer is over terrain.
    pub cursor: Option<CursorDraw>,
    /// Largest world dimension (for the far plane).
    pub extent: f32,
    /// Centre of the world's bounds.
    pub center: [f32; 3],
    /// Draw the ground grid and axes.
    pub show_grid: bool,
    /// Previews, selections and bodies drawn over the terrain.
    pub overlays: Vec<Overlay>,
    /// Shade with the sun and fill lights; when false the vertex colours (baked light) are shown
    /// as they are, under a flat white ambient.
    pub realtime_light: bool,
    /// Exposure and tone curve of the terrain's light.
    pub exposure: super::exposure::Exposure,
    /// Draw the enhanced fragments instead of the smooth terrain (water stays).
    pub show_fragments: bool,
    /// The real-time sun: direction, colour and strength of the bake it previews.
    pub sun: SunLook,
    /// The colour behind everything (sRGB, 0 to 1): [`CLEAR_COLOR`](super::terrain_material::CLEAR_COLOR), the sky, unless a test asks
    /// for one no terrain can have.
    pub background: [f32; 3],
    /// Draw the ground on the fast path (see [`TerrainMaterial::fast`]).
    pub fast: bool,
}

struct ChunkGpu {
    solid: Option<TerrainMesh>,
    water: Option<TerrainMesh>,
}

/// A node's meshes, shared between the node table and the fading-out nodes (which may already be
/// dropped from the table).
type SharedGpu = Rc<ChunkGpu>;

/// GPU resources of the viewport.
pub struct Scene {
    context: Context,
    chunks: FxHashMap<NodeKey, SharedGpu>,
    visible: FxHashSet<NodeKey>,
    /// Nodes that left the visible set and fade out.
    leaving: FxHashMap<NodeKey, SharedGpu>,
    fades: Fades,
    /// Skirt scales of the drawn nodes whose flaps are drawn deeper (see [`skirt_scales`]).
    skirt_scales: FxHashMap<NodeKey, f32>,
    fragments: FxHashMap<ChunkPos, Gm<Mesh, PhysicalMaterial>>,
    ground: Option<Gm<Mesh, GridMaterial>>,
    axes: Axes,
    cursors: [Gm<Mesh, ColorMaterial>; 3],
    sun: DirectionalLight,
    /// The look `sun` and the materials' ambient were last set to.
    sun_look: Option<SunLook>,
    fill: DirectionalLight,
    ambient: AmbientLight,
    flat: AmbientLight,
    ground_material: TerrainMaterial,
    water_material: TerrainMaterial,
    ground_fading: TerrainMaterial,
    water_fading: TerrainMaterial,
    /// Ground meshes changed since the shadow map was rendered.
    shadow_stale: bool,
    shadow_rendered: Option<std::time::Instant>,
    /// The sun has a shadow map (the fast path's vertex shader reads it).
    sun_shadowed: bool,
    triangles: usize,
    /// GPU copies of the ghost meshes of the last frame, keyed by their `Arc`.
    ghosts: Vec<(std::sync::Arc<GhostMesh>, Gm<Mesh, PhysicalMaterial>)>,
}

impl Scene {
    /// Resources on `context` (eframe's glow context wrapped by three-d).
    pub fn new(context: Context) -> Self {
        let cursor = |mesh: CpuMesh| {
            let mut material = ColorMaterial::new_transparent(
                &context,
                &CpuMaterial {
                    albedo: Srgba::new(255, 255, 255, 255),
                    ..Default::default()
                },
            );
            material.render_states.cull = Cull::None;
            material.render_states.blend = Blend::TRANSPARENCY;
            Gm::new(Mesh::new(&context, &mesh), material)
        };
        let cursors = [
            cursor(CpuMesh::sphere(24)),
            cursor(CpuMesh::cube()),
            cursor(CpuMesh::cylinder(32)),
        ];
        let maps = std::sync::Arc::new(pattern_texture(&context));
        let albedo = std::sync::Arc::new(albedo_texture(
            &context,
            &albedo_maps::build(
                &MaterialTable::builtin(),
                &strata_engine::voxel::Textures::default(),
                &mut albedo_maps::AlbedoCache::default(),
            ),
        ));
        let table = MaterialTable::builtin();
        let ground_material =
            TerrainMaterial::new(Surface::Ground, &table, maps.clone(), albedo.clone());
        let water_material = TerrainMaterial::new(Surface::Water, &table, maps, albedo);
        Self {
            axes: Axes::new(&context, 0.4, 24.0),
            sun: DirectionalLight::new(
                &context,
                SunLook::default().intensity,
                Srgba::WHITE,
                Vec3::from(SunLook::default().travel()),
            ),
            sun_look: None,
            fill: DirectionalLight::new(
                &context,
                FILL_INTENSITY,
                Srgba::WHITE,
                Vec3::from(FILL_DIRECTION),
            ),
            ambient: AmbientLight::new(&context, 0.35, Srgba::WHITE),
            flat: AmbientLight::new(&context, 1.0, Srgba::WHITE),
            ground_fading: ground_material.fading(),
            water_fading: water_material.fading(),
            ground_material,
            water_material,
            shadow_stale: false,
            shadow_rendered: None,
            sun_shadowed: false,
            chunks: FxHashMap::default(),
            visible: FxHashSet::default(),
            leaving: FxHashMap::default(),
            fades: Fades::default(),
            skirt_scales: FxHashMap::default(),
            fragments: FxHashMap::default(),
            ground: None,
            cursors,
            triangles: 0,
            ghosts: Vec::new(),
            context,
        }
    }

    /// The three-d context the scene draws with.
    pub fn context(&self) -> &Context {
        &self.context
    }

    /// True while the shadow map lags behind the ground meshes.
    pub fn shadow_pending(&self) -> bool {
        self.shadow_stale
    }

    /// True while levels of detail cross-fade.
    pub fn fading(&self) -> bool {
        self.fades.active()
    }

    /// Triangles currently on the GPU.
    pub fn triangles(&self) -> usize {
        self.triangles
    }

    /// Apply queued work.
    pub fn apply(&mut self, pending: Pending) {
        if pending.reset {
            self.chunks.clear();
            self.visible.clear();
            self.leaving.clear();
            self.fades.clear();
            self.skirt_scales.clear();
            self.triangles = 0;
            self.shadow_stale = true;
            self.sun.clear_shadow_map();
            self.sun_shadowed = false;
        }
        if let Some(table) = &pending.materials {
            for m in [
                &mut self.ground_material,
                &mut self.water_material,
                &mut self.ground_fading,
                &mut self.water_fading,
            ] {
                m.set_table(table);
            }
        }
        if let Some(layers) = &pending.albedo {
            let texture = std::sync::Arc::new(albedo_texture(&self.context, layers));
            for m in [
                &mut self.ground_material,
                &mut self.water_material,
                &mut self.ground_fading,
                &mut self.water_fading,
            ] {
                m.set_albedo(layers, texture.clone());
            }
        }
        if let Some(bounds) = pending.ground {
            self.ground = Some(self.ground_grid(bounds));
        }
        if pending.fragments_reset {
            self.fragments.clear();
        }
        for up in pending.fragment_uploads {
            match up.mesh {
                Some(m) => {
                    let gm = self.fragment_mesh(&m);
                    self.fragments.insert(up.pos, gm);
                }
                None => {
                    self.fragments.remove(&up.pos);
                }
            }
        }
        // The nodes a new visible set replaces start fading out before the drops free them.
        let visible: Option<FxHashSet<NodeKey>> = pending.visible.map(|v| v.into_iter().collect());
        if let Some(new) = &visible {
            let now = std::time::Instant::now();
            for key in self.fades.change(&self.visible, new, now) {
                if let Some(gpu) = self.chunks.get(&key) {
                    self.leaving.insert(key, gpu.clone());
                }
            }
            self.leaving.retain(|k, _| !new.contains(k));
        }
        for key in &pending.drops {
            self.chunks.remove(key);
        }
        for up in pending.uploads {
            // A visible mesh rebuilt (an edit) changes the shadows; new nodes only do once they
            // become visible.
            if self.visible.contains(&up.key) {
                self.shadow_stale = true;
            }
            let gpu = ChunkGpu {
                solid: up.solid.map(|m| TerrainMesh::new(&self.context, &m)),
                water: up.water.map(|m| TerrainMesh::new(&self.context, &m)),
            };
            if gpu.solid.is_none() && gpu.water.is_none() {
                self.chunks.remove(&up.key);
            } else {
                self.chunks.insert(up.key, Rc::new(gpu));
            }
        }
        if let Some(visible) = visible {
            self.visible = visible;
            self.shadow_stale = true;
            self.rescale_skirts();
        }
        self.triangles = 0;
    }

    /// Forget the cross-fades that ended by `now`.
    fn expire_fades(&mut self, now: std::time::Instant) {
        let ended = self.fades.expire(now);
        for key in &ended {
            self.leaving.remove(key);
        }
        if !ended.is_empty() {
            self.rescale_skirts();
        }
    }

    /// Size the skirt flaps for the nodes drawn now: the visible ones and those fading out.
    fn rescale_skirts(&mut self) {
        let mut drawn = self.visible.clone();
        drawn.extend(self.leaving.keys().copied());
        self.skirt_scales = skirt_scales(&drawn);
    }

    /// Every mesh to draw at `now` with its cross-fade state and skirt scale: the visible nodes
    /// and the nodes fading out.
    fn drawn_meshes(&self, now: std::time::Instant) -> Vec<(&ChunkGpu, FadeState, f32)> {
        let fades = &self.fades;
        let scale = |k: &NodeKey| self.skirt_scales.get(k).copied().unwrap_or(1.0);
        let mut out: Vec<(&ChunkGpu, FadeState, f32)> = self
            .visible
            .iter()
            .filter_map(|k| {
                let gpu = &**self.chunks.get(k)?;
                Some((gpu, fades.visible_state(*k, now), scale(k)))
            })
            .collect();
        out.extend(
            self.leaving
                .iter()
                .filter_map(|(k, g)| Some((&**g, fades.leaving_state(*k, now)?, scale(k)))),
        );
        out
    }

    /// An Enhance preview mesh (vertex colours, three-d's physical material).
    fn fragment_mesh(&self, mesh: &CpuMesh) -> Gm<Mesh, PhysicalMaterial> {
        let cpu = CpuMaterial {
            albedo: Srgba::WHITE,
            roughness: 0.95,
            metallic: 0.0,
            ..Default::default()
        };
        let mut material = PhysicalMaterial::new_opaque(&self.context, &cpu);
        material.render_states.cull = Cull::Back;
        Gm::new(Mesh::new(&self.context, mesh), material)
    }

    /// Point the sun and scale the ambient as `look` says; a new direction re-renders the shadows.
    fn set_sun(&mut self, look: SunLook) {
        if self.sun_look == Some(look) {
            return;
        }
        let [r, g, b] = look.color;
        self.sun.color = Srgba::new(r, g, b, 255);
        self.sun.intensity = look.intensity;
        let travel = Vec3::from(look.travel());
        if self.sun.direction != travel {
            self.sun.direction = travel;
            self.shadow_stale = true;
            self.shadow_rendered = None;
        }
        let base = Sky::default();
        for m in [
            &mut self.ground_material,
            &mut self.water_material,
            &mut self.ground_fading,
            &mut self.water_fading,
        ] {
            m.sky.ambient_sky = base.ambient_sky.map(|c| c * look.ambient);
            m.sky.ambient_ground = base.ambient_ground.map(|c| c * look.ambient);
        }
        self.sun_look = Some(look);
    }

    /// Re-render the sun's shadow map from the ground meshes when they changed (at most every
    /// [`SHADOW_INTERVAL`]).
    fn refresh_shadow(&mut self) {
        if !self.shadow_stale
            || self
                .shadow_rendered
                .is_some_and(|t| t.elapsed() < SHADOW_INTERVAL)
        {
            return;
        }
        self.shadow_stale = false;
        self.shadow_rendered = Some(std::time::Instant::now());
        let (chunks, visible) = (&self.chunks, &self.visible);
        let solids = visible
            .iter()
            .filter_map(|k| chunks.get(k))
            .filter_map(|c| c.solid.as_ref());
        // The shadow pass draws the geometry alone, without the fast path's per-vertex light.
        for s in solids.clone() {
            s.set_vertex_light(VertexLight::None);
        }
        // No ground, or a failed render: no shadows rather than stale ones.
        self.sun_shadowed = solids.clone().next().is_some()
            && self
                .sun
                .generate_shadow_map(SHADOW_MAP_SIZE, solids)
                .is_ok();
        if !self.sun_shadowed {
            self.sun.clear_shadow_map();
        }
    }

    /// One quad at the floor of `bounds`, reaching a margin beyond it so the grid shows around the
    /// world; the lines are drawn per pixel by [`GridMaterial`].
    fn ground_grid(&self, bounds: VoxelBox) -> Gm<Mesh, GridMaterial> {
        let extent = bounds.size()[0].max(bounds.size()[2]) as f32;
        let step = grid_material::MINOR_STEP;
        let margin = (extent / 16.0).max(2.0 * step);
        let snap_down = |v: f32| ((v - margin) / step).floor() * step;
        let snap_up = |v: f32| ((v + margin) / step).ceil() * step;
        let (x0, x1) = (snap_down(bounds.min.x as f32), snap_up(bounds.max.x as f32));
        let (z0, z1) = (snap_down(bounds.min.z as f32), snap_up(bounds.max.z as f32));
        // Just under the floor, so the world's underside does not fight it for depth.
        let y = bounds.min.y as f32 - 0.05;
        let (a, b, c, d) = (
            vec3(x0, y, z0),
            vec3(x1, y, z0),
            vec3(x1, y, z1),
            vec3(x0, y, z1),
        );
        let mesh = CpuMesh {
            positions: Positions::F32(vec![a, b, c, a, c, d]),
            indices: Indices::None,
            ..Default::default()
        };
        Gm::new(Mesh::new(&self.context, &mesh), GridMaterial)
    }

    /// Draw a frame into `target` within `scissor`, the view occupying `viewport` (pixels, origin
    /// bottom-left).
    pub fn render(
        &mut self,
        target: &RenderTarget,
        scissor: ScissorBox,
        viewport: Viewport,
        params: &FrameParams,
    ) {
        let cam = &params.camera;
        let (near, far) = cam.clip_range(Vec3::from(params.center), params.extent);
        let camera = Camera::new_perspective(
            viewport,
            cam.position,
            cam.position + cam.forward(),
            Vec3::unit_y(),
            degrees(cam.fov_y.to_degrees()),
            near,
            far,
        );
        if let Some(c) = params.cursor {
            let gm = &mut self.cursors[cursor_index(c.shape)];
            gm.material.color = Srgba::new(c.color[0], c.color[1], c.color[2], c.color[3]);
            gm.set_transformation(cursor_transform(c));
        }
        self.sync_ghosts(&params.overlays);
        self.set_sun(params.sun);
        self.refresh_shadow();
        for m in [
            &mut self.ground_material,
            &mut self.water_material,
            &mut self.ground_fading,
            &mut self.water_fading,
        ] {
            m.realtime = params.realtime_light;
            m.exposure = params.exposure;
            m.fast = params.fast;
        }
        let now = std::time::Instant::now();
        self.expire_fades(now);
        let drawn = self.drawn_meshes(now);
        // The fast ground material reads the haze and the sun's shadow from the vertex shader.
        let vertex_light = if params.fast {
            VertexLight::Fast {
                sun_shadow: self.sun_shadowed && params.realtime_light,
            }
        } else {
            VertexLight::None
        };
        let mut objects: Vec<&dyn Object> = Vec::with_capacity(self.fragments.len() + 8);
        let mut triangles = 0;
        // Ground front to back (nearest chunk first), so hidden fragments skip the detail shader;
        // meshes in a cross-fade apart, with the fade material.
        let mut solids: Vec<(f32, &TerrainMesh)> = Vec::new();
        let mut fading_solids: Vec<&TerrainMesh> = Vec::new();
        let (mut waters, mut fading_waters): (Vec<&TerrainMesh>, Vec<&TerrainMesh>) =
            (vec![], vec![]);
        if params.show_fragments {
            for gm in self.fragments.values() {
                objects.push(gm);
                triangles += gm.geometry.vertex_count() as usize / 2;
            }
        }
        for (gpu, state, skirt_scale) in &drawn {
            let full = *state == FadeState::Full;
            if let Some(w) = &gpu.water {
                w.set_fade(*state);
                if full {
                    waters.push(w)
                } else {
                    fading_waters.push(w)
                }
            }
            let Some(s) = gpu.solid.as_ref().filter(|_| !params.show_fragments) else {
                continue;
            };
            s.set_fade(*state);
            s.set_skirt_scale(*skirt_scale);
            s.set_vertex_light(vertex_light);
            triangles += s.triangle_count();
            if full {
                let d = (s.aabb().center() - cam.position).magnitude2();
                solids.push((d, s));
            } else {
                fading_solids.push(s);
            }
        }
        solids.sort_by(|a, b| a.0.total_cmp(&b.0));
        if params.show_grid {
            if let Some(g) = &self.ground {
                objects.push(g);
            }
            objects.extend(self.axes.into_iter().map(|o| o as &dyn Object));
        }
        if let Some(c) = params.cursor {
            objects.push(&self.cursors[cursor_index(c.shape)]);
        }
        let overlays = self.overlay_meshes(&params.overlays, cam.position);
        objects.extend(overlays.iter().map(|o| o as &dyn Object));
        objects.extend(self.ghosts.iter().map(|(_, g)| g as &dyn Object));
        let [r, g, b] = params.background;
        let terrain_lights = [&self.sun as &dyn three_d::Light, &self.fill];
        let terrain_lights: &[&dyn three_d::Light] = if params.realtime_light {
            &terrain_lights
        } else {
            &[]
        };
        target
            .clear_partially(scissor, ClearState::color_and_depth(r, g, b, 1.0, 1.0))
            .render_partially_with_material(
                scissor,
                &self.ground_material,
                &camera,
                solids.iter().map(|(_, m)| *m),
                terrain_lights,
            )
            .render_partially_with_material(
                scissor,
                &self.ground_fading,
                &camera,
                fading_solids,
                terrain_lights,
            )
            .render_partially_with_material(
                scissor,
                &self.water_material,
                &camera,
                waters,
                terrain_lights,
            )
            .render_partially_with_material(
                scissor,
                &self.water_fading,
                &camera,
                fading_waters,
                terrain_lights,
            )
            .render_partially(
                scissor,
                &camera,
                objects,
                &if params.realtime_light {
                    vec![&self.ambient as &dyn three_d::Light, &self.sun, &self.fill]
                } else {
                    vec![&self.flat as &dyn three_d::Light]
                },
            );
        self.triangles = triangles;
    }
}

impl Scene {
    /// Small meshes for this frame's overlays (rebuilt each frame: there are only a few).
    fn overlay_meshes(&self, overlays: &[Overlay], eye: Vec3) -> Vec<Gm<Mesh, ColorMaterial>> {
        let mut out = Vec::new();
        let mut batch = SolidBatch::default();
        for o in overlays {
            match o {
                Overlay::Plane {
                    center,
                    normal,
                    half_size,
                    color,
                } => {
                    let n = Vec3::from(*normal);
                    if n.magnitude2() < 1e-12 {
                        continue;
                    }
                    let n = n.normalize();
                    let helper = if n.y.abs() < 0.9 {
                        Vec3::unit_y()
                    } else {
                        Vec3::unit_x()
                    };
                    let u = n.cross(helper).normalize() * *half_size;
                    let v = n.cross(u);
                    let c = Vec3::from(*center);
                    let quad = vec![
                        c - u - v,
                        c + u - v,
                        c + u + v,
                        c - u - v,
                        c + u + v,
                        c - u + v,
                    ];
                    out.push(self.flat(quad, *color));
                }
                Overlay::Level { min, max, y, color } => {
                    let p = |x: f32, z: f32| vec3(x, *y, z);
                    let (a, b) = (p(min[0], min[1]), p(max[0], min[1]));
                    let (c, d) = (p(max[0], max[1]), p(min[0], max[1]));
                    out.push(self.flat(vec![a, b, c, a, c, d], *color));
                }
                Overlay::WireBox { min, max, color } => {
                    out.push(self.lines(&box_edges(*min, *max), *color, eye));
                }
                Overlay::Lines { points, color } => out.push(self.lines(points, *color, eye)),
                Overlay::Solid {
                    kind,
                    center,
                    rotation,
                    half_extents,
                    color,
                } if color[3] == 255 => {
                    batch.push(*kind, *center, *rotation, *half_extents, *color);
                }
                Overlay::Solid {
                    kind,
                    center,
                    rotation,
                    half_extents,
                    color,
                } => out.push(self.solid(*kind, *center, *rotation, *half_extents, *color)),
                Overlay::Ghost { .. } => {}
            }
        }
        if let Some(mesh) = batch.finish() {
            out.push(Gm::new(
                Mesh::new(&self.context, &mesh),
                self.material([255; 4]),
            ));
        }
        out
    }

    /// Keep a GPU copy of each ghost mesh of this frame (uploading only new ones) and move it to its
    /// offset; copies no overlay names any more are dropped.
    fn sync_ghosts(&mut self, overlays: &[Overlay]) {
        let mut kept = Vec::new();
        for o in overlays {
            let Overlay::Ghost {
                mesh,
                offset,
                color,
            } = o
            else {
                continue;
            };
            let at = self
                .ghosts
                .iter()
                .position(|(m, _)| std::sync::Arc::ptr_eq(m, mesh));
            let mut gm = match at {
                Some(i) => self.ghosts.swap_remove(i).1,
                None => self.ghost(mesh),
            };
            gm.material.albedo = Srgba::new(color[0], color[1], color[2], color[3]);
            gm.set_transformation(Mat4::from_translation(Vec3::from(*offset)));
            kept.push((mesh.clone(), gm));
        }
        self.ghosts = kept;
    }

    fn ghost(&self, mesh: &GhostMesh) -> Gm<Mesh, PhysicalMaterial> {
        let cpu = CpuMesh {
            positions: Positions::F32(mesh.positions.iter().map(|p| Vec3::from(*p)).collect()),
            normals: Some(mesh.normals.iter().map(|n| Vec3::from(*n)).collect()),
            indices: Indices::U32(mesh.indices.clone()),
            ..Default::default()
        };
        let material = CpuMaterial {
            albedo: Srgba::new(120, 200, 255, 120),
            roughness: 0.9,
            metallic: 0.0,
            ..Default::default()
        };
        let mut material = PhysicalMaterial::new_transparent(&self.context, &material);
        material.render_states.cull = Cull::None;
        Gm::new(Mesh::new(&self.context, &cpu), material)
    }

    fn material(&self, color: [u8; 4]) -> ColorMaterial {
        let albedo = Srgba::new(color[0], color[1], color[2], color[3]);
        let cpu = CpuMaterial {
            albedo,
            ..Default::default()
        };
        let mut material = if color[3] == 255 {
            ColorMaterial::new_opaque(&self.context, &cpu)
        } else {
            ColorMaterial::new_transparent(&self.context, &cpu)
        };
        material.render_states.cull = Cull::None;
        if color[3] < 255 {
            material.render_states.blend = Blend::TRANSPARENCY;
        }
        material
    }

    fn flat(&self, positions: Vec<Vec3>, color: [u8; 4]) -> Gm<Mesh, ColorMaterial> {
        let mesh = CpuMesh {
            positions: Positions::F32(positions),
            indices: Indices::None,
            ..Default::default()
        };
        Gm::new(Mesh::new(&self.context, &mesh), self.material(color))
    }

    /// Segments as thin camera-facing strips, a little wider further away so they stay visible.
    fn lines(&self, points: &[[f32; 3]], color: [u8; 4], eye: Vec3) -> Gm<Mesh, ColorMaterial> {
        let mut positions = Vec::with_capacity(points.len() * 3);
        for pair in points.chunks_exact(2) {
            let (a, b) = (Vec3::from(pair[0]), Vec3::from(pair[1]));
            let mid = (a + b) * 0.5;
            let along = b - a;
            let side = along.cross(mid - eye);
            if side.magnitude2() < 1e-12 {
                continue;
            }
            let width = ((mid - eye).magnitude() * 0.0015).max(0.04);
            let s = side.normalize() * width;
            positions.extend_from_slice(&[a - s, b - s, b + s, a - s, b + s, a + s]);
        }
        self.flat(positions, color)
    }

    fn solid(
        &self,
        kind: SolidKind,
        center: [f32; 3],
        rotation: [f32; 4],
        half: [f32; 3],
        color: [u8; 4],
    ) -> Gm<Mesh, ColorMaterial> {
        let mut mesh = match kind {
            SolidKind::Sphere => CpuMesh::sphere(16),
            SolidKind::Box => CpuMesh::cube(),
            SolidKind::Capsule => capsule_mesh(half[0], half[1]),
        };
        let scale = match kind {
            SolidKind::Sphere => Mat4::from_scale(half[0]),
            SolidKind::Box => Mat4::from_nonuniform_scale(half[0], half[1], half[2]),
            SolidKind::Capsule => Mat4::from_scale(1.0),
        };
        let [x, y, z, w] = rotation;
        let q = three_d::Quat::new(w, x, y, z);
        let transform = Mat4::from_translation(Vec3::from(center)) * Mat4::from(q) * scale;
        if mesh.transform(transform).is_err() {
            mesh = CpuMesh::cube();
        }
        mesh.compute_normals();
        Gm::new(Mesh::new(&self.context, &mesh), self.material(color))
    }
}

/// Direction the batched solids are shaded from (towards the light).
const SOLID_LIGHT: [f32; 3] = [0.36, 0.88, 0.31];

/// Every opaque solid of a frame in one mesh with vertex colours: one upload and one draw call
/// however many bodies there are (a mesh per body cost an upload each, every frame). Unit shapes are
/// built once per frame and placed on the CPU; each vertex is shaded by a fixed light so the unlit
/// material still shows the shapes' form.
#[derive(Default)]
struct SolidBatch {
    templates: Option<[UnitMesh; 2]>,
    positions: Vec<Vec3>,
    colors: Vec<Srgba>,
    indices: Vec<u32>,
}

/// A unit mesh's positions, normals and triangle indices.
type UnitMesh = (Vec<Vec3>, Vec<Vec3>, Vec<u32>);

/// `mesh` as a [`UnitMesh`] (normals computed when it has none).
fn template(mut mesh: CpuMesh) -> UnitMesh {
    if mesh.normals.is_none() {
        mesh.compute_normals();
    }
    let positions = mesh.positions.to_f32();
    let indices = mesh
        .indices
        .to_u32()
        .unwrap_or_else(|| (0..positions.len() as u32).collect());
    let normals = mesh.normals.unwrap_or_default();
    (positions, normals, indices)
}

impl SolidBatch {
    fn push(
        &mut self,
        kind: SolidKind,
        center: [f32; 3],
        rotation: [f32; 4],
        half: [f32; 3],
        color: [u8; 4],
    ) {
        let [sphere, cube] = self
            .templates
            .get_or_insert_with(|| [template(CpuMesh::sphere(12)), template(CpuMesh::cube())]);
        let (positions, normals, indices) = match kind {
            SolidKind::Box => &*cube,
            SolidKind::Sphere | SolidKind::Capsule => &*sphere,
        };
        let [x, y, z, w] = rotation;
        let q = three_d::Quat::new(w, x, y, z);
        let turn = three_d::Mat3::from(if q.magnitude2() > 1e-12 {
            q.normalize()
        } else {
            three_d::Quat::new(1.0, 0.0, 0.0, 0.0)
        });
        let c = Vec3::from(center);
        let light = Vec3::from(SOLID_LIGHT).normalize();
        let base = self.positions.len() as u32;
        for (i, p) in positions.iter().enumerate() {
            let local = match kind {
                SolidKind::Sphere => *p * half[0],
                SolidKind::Box => vec3(p.x * half[0], p.y * half[1], p.z * half[2]),
                SolidKind::Capsule => {
                    let shift = if p.y >= 0.0 { half[1] } else { -half[1] };
                    vec3(p.x * half[0], p.y * half[0] + shift, p.z * half[0])
                }
            };
            self.positions.push(c + turn * local);
            let n = normals.get(i).map_or(Vec3::unit_y(), |n| turn * *n);
            let shade = 0.55 + 0.45 * n.dot(light).max(0.0);
            let tint = |v: u8| (f32::from(v) * shade).round().clamp(0.0, 255.0) as u8;
            self.colors.push(Srgba::new(
                tint(color[0]),
                tint(color[1]),
                tint(color[2]),
                255,
            ));
        }
        self.indices.extend(indices.iter().map(|i| base + i));
    }

    fn finish(self) -> Option<CpuMesh> {
        if self.positions.is_empty() {
            return None;
        }
        Some(CpuMesh {
            positions: Positions::F32(self.positions),
            indices: Indices::U32(self.indices),
            colors: Some(self.colors),
            ..Default::default()
        })
    }
}

/// A capsule along Y: a cylinder of half height `half_height` with hemispheres of `radius`.
fn capsule_mesh(radius: f32, half_height: f32) -> CpuMesh {
    let mut sphere = CpuMesh::sphere(16);
    if let Positions::F32(p) = &mut sphere.positions {
        for v in p.iter_mut() {
            let shift = if v.y >= 0.0 {
                half_height
            } else {
                -half_height
            };
            *v = vec3(v.x * radius, v.y * radius + shift, v.z * radius);
        }
    }
    sphere
}

fn cursor_index(shape: CursorShape) -> usize {
    match shape {
        CursorShape::Sphere => 0,
        CursorShape::Cube => 1,
        CursorShape::Cylinder => 2,
    }
}

/// Unit sphere (radius 1), cube ([-1, 1]³) and cylinder (x in 0..1, radius 1) to the cursor's place.
fn cursor_transform(c: CursorDraw) -> Mat4 {
    let r = c.radius.max(0.25);
    let place = Mat4::from_translation(Vec3::from(c.center)) * Mat4::from_scale(r);
    match c.shape {
        CursorShape::Sphere | CursorShape::Cube => place,
        CursorShape::Cylinder => {
            place
                * Mat4::from_angle_z(degrees(90.0))
                * Mat4::from_nonuniform_scale(2.0, 1.0, 1.0)
                * Mat4::from_translation(vec3(-0.5, 0.0, 0.0))
        }
    }
}
