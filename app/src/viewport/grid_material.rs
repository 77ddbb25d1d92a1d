//! The ground grid's material: lines computed per pixel on one quad under the world (see
//! `shaders/grid.frag`), so they stay about a pixel and a half wide at any distance and fade out where
//! their cells become too small to read, instead of thin quads that break up into dots far away.

use three_d::{
    Blend, ColorMapping, Cull, EffectMaterialId, Light, Material, MaterialType, Program,
    RenderStates, Srgba, Viewer, WriteMask,
};

/// Grid line colour (sRGB).
pub const GRID_COLOR: Srgba = Srgba::new(60, 66, 74, 255);
/// Voxels between minor lines: the chunk borders.
pub const MINOR_STEP: f32 = 32.0;
/// Voxels between major lines, which stay visible farther away.
pub const MAJOR_STEP: f32 = 256.0;

/// See the module docs.
#[derive(Debug, Clone, Copy)]
pub struct GridMaterial;

/// Material id in three-d's public range (the terrain uses 0x0520..0x0524).
const GRID_MATERIAL_ID: u16 = 0x0530;

impl Material for GridMaterial {
    fn id(&self) -> EffectMaterialId {
        EffectMaterialId(GRID_MATERIAL_ID)
    }

    fn fragment_shader_source(&self, _lights: &[&dyn Light]) -> String {
        let mut s = String::from(ColorMapping::fragment_shader_source());
        s.push_str(include_str!("shaders/grid.frag"));
        s
    }

    fn use_uniforms(&self, program: &Program, viewer: &dyn Viewer, _lights: &[&dyn Light]) {
        viewer.color_mapping().use_uniforms(program);
        program.use_uniform("lineColor", GRID_COLOR.to_linear_srgb());
        program.use_uniform("minorStep", MINOR_STEP);
        program.use_uniform("majorStep", MAJOR_STEP);
    }

    fn render_states(&self) -> RenderStates {
        // Seen from above and below; blended over the sky, and no depth write, so the world's own
        // transparent surfaces are not hidden by the empty parts of the quad.
        RenderStates {
            cull: Cull::None,
            blend: Blend::TRANSPARENCY,
            write_mask: WriteMask::COLOR,
            ..Default::default()
        }
    }

    fn material_type(&self) -> MaterialType {
        MaterialType::Transparent
    }
}
