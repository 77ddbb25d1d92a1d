//! The terrain's vertex format and its three-d geometry: what the terrain shaders need per vertex,
//! beyond what three-d's `Mesh` can carry.
//!
//! ```text
//!   vertex   position  normal  colour (linear RGB, A)   mats (3 ids)   corner
//!   ground   world     unit    material blend × baked    the triangle's  which of the three corners
//!                              light; A 1, or 2 on a    corner ids      this is (one-hot); on a
//!                              skirt bottom                             skirt bottom, the way up
//!                                                                       to its rim (voxels)
//!   water    world     unit    water colour; A = depth  water id × 3    (1, 0, 0)
//!                              to the ground / 32
//! ```
//!
//! A skirt (the flap hanging from a mesh node's rim to hide seams between levels, see the engine's
//! `mesh::skirt`) is shaded as the rim it hangs from: the vertex shader moves a skirt bottom's
//! shading position back up to its rim. A skirt seen through a crack between levels then looks like
//! the surface around it. A skirt is drawn only from the side its rim faces: the skirts of a thin
//! world's underside hang up through the ground at coarse levels and, seen from above, drew dark
//! lines along every node border; from behind the vertex shader collapses a skirt onto its rim. The
//! mesh's skirt scale (see [`TerrainMesh::set_skirt_scale`]) deepens its flaps where a neighbour
//! is more than one level coarser.
//!
//! Material ids must not be interpolated (halfway between Rock and Snow is not a material), so each
//! vertex carries the dominant material ids of all three corners of its triangle and a one-hot
//! corner weight: across the triangle the weights interpolate to barycentric coordinates and the
//! shader blends the three materials' patterns by them, smoothly and with exact ids. Triangles
//! whose three corners share one material (nearly all) keep sharing vertices; only triangles on a
//! material border get their own three.

use std::cell::Cell;

use three_d::{
    AxisAlignedBoundingBox, Context, Effect, ElementBuffer, Geometry, GeometryId, Light, Material,
    Program, RenderStates, Vec2, Vec3, Vec4, VertexBuffer, Viewer,
};

use super::fade::FadeState;

/// A terrain mesh on the CPU, built on the UI thread and uploaded in the paint callback.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TerrainVertices {
    /// World positions, voxels.
    pub positions: Vec<Vec3>,
    /// Unit normals.
    pub normals: Vec<Vec3>,
    /// Linear RGB colour and the alpha channel (water depth / 32 for water, 1 for ground, 2 for a
    /// skirt bottom).
    pub colors: Vec<Vec4>,
    /// The dominant material ids of the triangle's three corners (as floats: GLSL 3.0 has integer
    /// attributes, but three-d binds them only as float vectors portably).
    pub mats: Vec<Vec3>,
    /// Which corner of its triangle the vertex is: (1,0,0), (0,1,0) or (0,0,1); on a skirt bottom,
    /// the way up to its rim.
    pub corners: Vec<Vec3>,
    /// Triangle list.
    pub indices: Vec<u32>,
}

impl TerrainVertices {
    /// Number of triangles.
    pub fn triangle_count(&self) -> usize {
        self.indices.len() / 3
    }

    /// True when there is nothing to draw.
    pub fn is_empty(&self) -> bool {
        self.indices.is_empty()
    }

    /// Check that every array has one entry per vertex and every index names a vertex.
    pub fn is_consistent(&self) -> bool {
        let n = self.positions.len();
        self.normals.len() == n
            && self.colors.len() == n
            && self.mats.len() == n
            && self.corners.len() == n
            && self.indices.len().is_multiple_of(3)
            && self.indices.iter().all(|&i| (i as usize) < n)
    }

    fn aabb(&self) -> AxisAlignedBoundingBox {
        AxisAlignedBoundingBox::new_with_positions(&self.positions)
    }
}

/// A terrain mesh on the GPU.
pub struct TerrainMesh {
    context: Context,
    positions: VertexBuffer<Vec3>,
    normals: VertexBuffer<Vec3>,
    colors: VertexBuffer<Vec4>,
    mats: VertexBuffer<Vec3>,
    corners: VertexBuffer<Vec3>,
    indices: ElementBuffer<u32>,
    aabb: AxisAlignedBoundingBox,
    triangles: usize,
    /// The cross-fade state's shader uniform for the next draw (see [`super::fade`]).
    fade: Cell<[f32; 2]>,
    /// How many times as deep as meshed the skirt flaps are drawn next (0: collapsed).
    skirt_scale: Cell<f32>,
    /// The vertex shader's share of the shading for the next draw.
    vertex_light: Cell<VertexLight>,
}

/// What the vertex shader computes for the fragment shader besides the geometry.
///
/// On the fast path (the ground's fast material, see `terrain_material.rs`) the sun's shadow-map
/// visibility and the haze are computed per vertex and interpolated: a software renderer then
/// reads the shadow map once per vertex instead of once per pixel. The shadow's edge is as sharp
/// as the mesh is fine (a voxel up close).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum VertexLight {
    /// Nothing: the fragment shader does it all (the full path, water, the shadow map pass).
    #[default]
    None,
    /// The haze, and the sun's visibility when `sun_shadow` (the sun has a shadow map, bound as
    /// three-d binds light 0's).
    Fast {
        /// Read the sun's shadow map.
        sun_shadow: bool,
    },
}

impl VertexLight {
    /// The vertex shader's defines for this variant and its offset from the terrain geometry id
    /// (three-d keeps one program per geometry id, material id and lights).
    fn variant(self) -> (&'static str, u16) {
        match self {
            Self::None => ("", 0),
            Self::Fast { sun_shadow: false } => ("#define FAST\n", 1),
            Self::Fast { sun_shadow: true } => ("#define FAST\n#define SUN_SHADOW\n", 2),
        }
    }
}

/// The geometry id of terrain meshes (in three-d's public range, below 0x8000); the fast vertex
/// shader variants take the next two.
const TERRAIN_GEOMETRY_ID: u16 = 0x0510;

impl TerrainMesh {
    /// Upload `cpu` (GL context current).
    pub fn new(context: &Context, cpu: &TerrainVertices) -> Self {
        Self {
            context: context.clone(),
            positions: VertexBuffer::new_with_data(context, &cpu.positions),
            normals: VertexBuffer::new_with_data(context, &cpu.normals),
            colors: VertexBuffer::new_with_data(context, &cpu.colors),
            mats: VertexBuffer::new_with_data(context, &cpu.mats),
            corners: VertexBuffer::new_with_data(context, &cpu.corners),
            indices: ElementBuffer::new_with_data(context, &cpu.indices),
            aabb: cpu.aabb(),
            triangles: cpu.triangle_count(),
            fade: Cell::new([0.0; 2]),
            skirt_scale: Cell::new(1.0),
            vertex_light: Cell::new(VertexLight::None),
        }
    }

    /// Draw with this cross-fade state from now on.
    pub fn set_fade(&self, state: FadeState) {
        self.fade.set(state.uniform());
    }

    /// Draw the skirt flaps reaching `scale` times as deep as meshed from now on (1: as meshed).
    pub fn set_skirt_scale(&self, scale: f32) {
        self.skirt_scale.set(scale);
    }

    /// Compute `light` in the vertex shader from the next draw on.
    pub fn set_vertex_light(&self, light: VertexLight) {
        self.vertex_light.set(light);
    }

    /// Triangles in the mesh.
    pub fn triangle_count(&self) -> usize {
        self.triangles
    }
}

impl Geometry for TerrainMesh {
    fn draw(&self, viewer: &dyn Viewer, program: &Program, render_states: RenderStates) {
        program.use_uniform("viewProjection", viewer.projection() * viewer.view());
        program.use_uniform_if_required("eyePosition", viewer.position());
        let [mode, progress] = self.fade.get();
        program.use_uniform_if_required("fade", Vec2::new(mode, progress));
        // The sun's shadow map (the only orthographic view) leaves the flaps out: a flap reaching
        // out over a finer neighbour's lower surface would cast a shadow on it that no view shows
        // the cause of.
        let orthographic = viewer.projection().w.w == 1.0;
        let skirt_scale = if orthographic {
            0.0
        } else {
            self.skirt_scale.get()
        };
        program.use_uniform_if_required("skirtScale", skirt_scale);
        program.use_uniform_if_required("depthRange", Vec2::new(viewer.z_near(), viewer.z_far()));
        program.use_vertex_attribute("position", &self.positions);
        for (name, buffer) in [
            ("normal", &self.normals),
            ("mats", &self.mats),
            ("corner", &self.corners),
        ] {
            if program.requires_attribute(name) {
                program.use_vertex_attribute(name, buffer);
            }
        }
        if program.requires_attribute("color") {
            program.use_vertex_attribute("color", &self.colors);
        }
        program.draw_elements(render_states, viewer.viewport(), &self.indices);
    }

    fn vertex_shader_source(&self) -> String {
        let (defines, _) = self.vertex_light.get().variant();
        format!("{defines}{}", include_str!("shaders/terrain.vert"))
    }

    fn id(&self) -> GeometryId {
        GeometryId(TERRAIN_GEOMETRY_ID + self.vertex_light.get().variant().1)
    }

    fn render_with_material(
        &self,
        material: &dyn Material,
        viewer: &dyn Viewer,
        lights: &[&dyn Light],
    ) {
        if let Err(e) = three_d::render_with_material(&self.context, viewer, self, material, lights)
        {
            log_once(&e.to_string());
        }
    }

    fn render_with_effect(
        &self,
        effect: &dyn Effect,
        viewer: &dyn Viewer,
        lights: &[&dyn Light],
        color_texture: Option<three_d::ColorTexture>,
        depth_texture: Option<three_d::DepthTexture>,
    ) {
        if let Err(e) = three_d::render_with_effect(
            &self.context,
            viewer,
            self,
            effect,
            lights,
            color_texture,
            depth_texture,
        ) {
            log_once(&e.to_string());
        }
    }

    fn aabb(&self) -> AxisAlignedBoundingBox {
        self.aabb
    }
}

/// A shader that fails to build is reported once on stderr (the terrain then stays undrawn rather
/// than taking the editor down).
fn log_once(message: &str) {
    static REPORTED: std::sync::Once = std::sync::Once::new();
    REPORTED.call_once(|| eprintln!("strata: terrain shader: {message}"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consistency_catches_short_arrays_and_bad_indices() {
        let mut v = TerrainVertices {
            positions: vec![Vec3::new(0.0, 0.0, 0.0); 3],
            normals: vec![Vec3::unit_y(); 3],
            colors: vec![Vec4::new(1.0, 1.0, 1.0, 1.0); 3],
            mats: vec![Vec3::new(2.0, 2.0, 2.0); 3],
            corners: vec![Vec3::unit_x(); 3],
            indices: vec![0, 1, 2],
        };
        assert!(v.is_consistent());
        assert_eq!(v.triangle_count(), 1);
        v.indices.push(3);
        assert!(!v.is_consistent());
        v.indices.truncate(3);
        v.colors.pop();
        assert!(!v.is_consistent());
    }

    #[test]
    fn each_vertex_light_has_its_own_program() {
        let all = [
            VertexLight::None,
            VertexLight::Fast { sun_shadow: false },
            VertexLight::Fast { sun_shadow: true },
        ];
        let ids: std::collections::HashSet<u16> = all.iter().map(|v| v.variant().1).collect();
        assert_eq!(ids.len(), all.len());
        assert_eq!(VertexLight::default().variant(), ("", 0));
        let (shadowed, _) = VertexLight::Fast { sun_shadow: true }.variant();
        assert!(shadowed.contains("FAST") && shadowed.contains("SUN_SHADOW"));
        let (plain, _) = VertexLight::Fast { sun_shadow: false }.variant();
        assert!(plain.contains("FAST") && !plain.contains("SUN_SHADOW"));
    }
}
