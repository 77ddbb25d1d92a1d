//! The terrain's three-d material: procedural material detail (the table's look column), sun with
//! shadow map, fill light, sky/ground hemisphere ambient and distance haze, and the water variant
//! (depth-tinted, shoreline, sky reflection). The shaders sit in `shaders/` beside this file.
//!
//! One material serves every chunk: the looks of all 64 material ids are one uniform array and the
//! patterns one texture array ([`super::pattern_maps`], computed at start-up). The project's own
//! textures are a second array ([`super::albedo_maps`]), tiled triplanar over the materials that
//! carry one, with per id tints (colour, layer) and glows (emission) as uniform arrays.

use std::sync::Arc;

use three_d::{
    lights_shader_source, Blend, ColorMapping, Context, CpuTexture, Cull, EffectMaterialId,
    Interpolation, Light, Material, MaterialType, Mipmap, Program, RenderStates, Texture2DArray,
    TextureData, ToneMapping, Vec3, Vec4, Viewer, Wrapping, WriteMask,
};

use super::albedo_maps::AlbedoLayers;
use super::exposure::Exposure;
use super::pattern_maps;

use strata_engine::voxel::{MaterialTable, MATERIAL_COUNT};

/// Sky color behind the terrain (sRGB, as stored in the framebuffer).
pub const CLEAR_COLOR: [f32; 3] = [0.53, 0.63, 0.74];

/// Which surface a [`TerrainMaterial`] shades.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Surface {
    /// Opaque ground.
    Ground,
    /// Translucent water.
    Water,
}

/// Lighting settings shared by ground and water.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sky {
    /// Ambient light from above (linear RGB).
    pub ambient_sky: [f32; 3],
    /// Ambient light from below (linear RGB).
    pub ambient_ground: [f32; 3],
    /// What water reflects at grazing angles (linear RGB).
    pub reflection: [f32; 3],
    /// The colour distance fades toward (sRGB, as the framebuffer stores it).
    pub haze: [f32; 3],
    /// Haze per voxel of distance (the fade is capped at 35 %).
    pub haze_density: f32,
}

impl Default for Sky {
    fn default() -> Self {
        Self {
            ambient_sky: [0.30, 0.36, 0.46],
            ambient_ground: [0.13, 0.12, 0.10],
            reflection: [0.45, 0.58, 0.75],
            haze: CLEAR_COLOR,
            haze_density: 0.0006,
        }
    }
}

/// The terrain material (see the module docs).
#[derive(Clone)]
pub struct TerrainMaterial {
    surface: Surface,
    looks: Vec<Vec4>,
    maps: Arc<Texture2DArray>,
    /// Per id: linear colour and albedo layer (-1: none).
    tints: Vec<Vec4>,
    /// Per id: emitted light, linear RGB.
    glows: Vec<Vec3>,
    albedo: Arc<Texture2DArray>,
    /// Light with the sun and sky (false: the vertex colours, i.e. the baked light, as they are).
    pub realtime: bool,
    /// Ambient, reflection and haze.
    pub sky: Sky,
    /// Exposure and tone curve from linear light to the screen.
    pub exposure: Exposure,
    /// The cross-fade variant: discards the pixels the mesh's fade state hides (see
    /// [`super::fade`]); a separate program, so meshes that are not fading keep early depth tests.
    fade: bool,
    /// Ground on the fast path (Preferences ▸ Viewport quality): one pattern lookup, one shadow
    /// tap and diffuse light only; a separate program. Water is drawn the same either way.
    pub fast: bool,
}

/// First id of the terrain materials in three-d's public range.
const TERRAIN_MATERIAL_ID: u16 = 0x0520;

impl TerrainMaterial {
    /// The material for `surface` with the looks of `table`, sampling `maps` (see
    /// [`pattern_texture`]).
    pub fn new(
        surface: Surface,
        table: &MaterialTable,
        maps: Arc<Texture2DArray>,
        albedo: Arc<Texture2DArray>,
    ) -> Self {
        Self {
            surface,
            looks: looks(table),
            maps,
            tints: vec![Vec4::new(0.5, 0.5, 0.5, -1.0); MATERIAL_COUNT],
            glows: vec![Vec3::new(0.0, 0.0, 0.0); MATERIAL_COUNT],
            albedo,
            realtime: true,
            sky: Sky::default(),
            exposure: Exposure::default(),
            fade: false,
            fast: false,
        }
    }

    /// The same material for meshes in a cross-fade.
    pub fn fading(&self) -> Self {
        Self {
            fade: true,
            ..self.clone()
        }
    }

    /// Take the looks of `table` (a new document, or a changed table).
    pub fn set_table(&mut self, table: &MaterialTable) {
        self.looks = looks(table);
    }

    /// Take the tints and glows of `layers`, whose images `albedo` holds (see [`albedo_texture`]).
    pub fn set_albedo(&mut self, layers: &AlbedoLayers, albedo: Arc<Texture2DArray>) {
        self.tints = layers
            .tints
            .iter()
            .map(|t| Vec4::new(t[0], t[1], t[2], t[3]))
            .collect();
        self.glows = layers.glows.iter().map(|g| v3(*g)).collect();
        self.albedo = albedo;
    }
}

/// The project's textures as a mipmapped, repeating texture array on the GPU.
pub fn albedo_texture(context: &Context, layers: &AlbedoLayers) -> Texture2DArray {
    let side = layers.side();
    let cpu: Vec<CpuTexture> = layers
        .layers
        .iter()
        .map(|texels| CpuTexture {
            name: "albedo".to_owned(),
            data: TextureData::RgbaU8(texels.clone()),
            width: side,
            height: side,
            min_filter: Interpolation::Linear,
            mag_filter: Interpolation::Linear,
            mipmap: Some(Mipmap {
                filter: Interpolation::Nearest,
                max_levels: 16,
                max_ratio: 1,
            }),
            wrap_s: Wrapping::Repeat,
            wrap_t: Wrapping::Repeat,
        })
        .collect();
    let refs: Vec<&CpuTexture> = cpu.iter().collect();
    Texture2DArray::new(context, &refs)
}

/// The pattern maps as a mipmapped, repeating texture array on the GPU.
pub fn pattern_texture(context: &Context) -> Texture2DArray {
    let size = pattern_maps::SIZE as u32;
    let layers: Vec<CpuTexture> = pattern_maps::generate()
        .into_iter()
        .map(|texels| CpuTexture {
            name: "pattern".to_owned(),
            data: TextureData::RgbaU8(texels),
            width: size,
            height: size,
            min_filter: Interpolation::Linear,
            mag_filter: Interpolation::Linear,
            // Bilinear within the nearest mip level: trilinear doubles the lookups' cost on
            // software GL for a difference hard to see in a pattern.
            mipmap: Some(Mipmap {
                filter: Interpolation::Nearest,
                max_levels: 16,
                max_ratio: 1,
            }),
            wrap_s: Wrapping::Repeat,
            wrap_t: Wrapping::Repeat,
        })
        .collect();
    let refs: Vec<&CpuTexture> = layers.iter().collect();
    Texture2DArray::new(context, &refs)
}

/// Every material id's look as (pattern index, scale, contrast, roughness); ids the table lacks get
/// the plain look.
pub fn looks(table: &MaterialTable) -> Vec<Vec4> {
    (0..MATERIAL_COUNT)
        .map(|id| {
            let l = table.look(u8::try_from(id).unwrap_or(0));
            Vec4::new(l.pattern.index() as f32, l.scale, l.contrast, l.roughness)
        })
        .collect()
}

impl TerrainMaterial {
    /// True when this material draws ground on the fast path.
    fn fast_ground(&self) -> bool {
        self.fast && self.surface == Surface::Ground
    }
}

/// The defines of the fast ground shader for the light functions `lights_source` declares
/// (`light_count` lights): `FAST`, plus `FAST_LIGHTS` when the lights are the sun and the fill
/// (directional lights 0 and 1). With other lights (none, when the baked light shows alone) the
/// fast shader keeps three-d's lighting. The sun's shadow comes from the vertex shader (see
/// `terrain_mesh::VertexLight`), which every mesh drawn with the fast material must use.
pub fn fast_defines(lights_source: &str, light_count: usize) -> String {
    let mut s = String::from("\n#define FAST\n");
    let directional = |i: usize| lights_source.contains(&format!("uniform vec3 direction{i};"));
    if light_count == 2 && directional(0) && directional(1) {
        s.push_str("#define FAST_LIGHTS\n");
    }
    s
}

fn v3(c: [f32; 3]) -> Vec3 {
    Vec3::new(c[0], c[1], c[2])
}

impl Material for TerrainMaterial {
    fn fragment_shader_source(&self, lights: &[&dyn Light]) -> String {
        let mut s = lights_shader_source(lights);
        if self.surface == Surface::Water {
            s.push_str("#define WATER\n");
        }
        if self.fade {
            s.push_str("#define FADE\n");
        }
        if self.fast_ground() {
            s.push_str(&fast_defines(&s, lights.len()));
        }
        s.push_str(ToneMapping::fragment_shader_source());
        s.push_str(ColorMapping::fragment_shader_source());
        s.push_str(include_str!("shaders/terrain.frag"));
        s
    }

    fn id(&self) -> EffectMaterialId {
        let surface = match self.surface {
            Surface::Ground => 0,
            Surface::Water => 1,
        };
        EffectMaterialId(
            TERRAIN_MATERIAL_ID
                + surface
                + 2 * u16::from(self.fade)
                + 4 * u16::from(self.fast_ground()),
        )
    }

    fn use_uniforms(&self, program: &Program, viewer: &dyn Viewer, lights: &[&dyn Light]) {
        // Blinn specular (three-d's lighting model 2).
        program.use_uniform_if_required("lightingModel", 2u32);
        // The tone curve is the viewport's own (see `super::exposure`), not the camera's.
        program.use_uniform_if_required("toneMappingType", self.exposure.curve.shader_index());
        program.use_uniform_if_required("exposureScale", self.exposure.scale());
        viewer.color_mapping().use_uniforms(program);
        for (i, light) in lights.iter().enumerate() {
            light.use_uniforms(program, i as u32);
        }
        program.use_uniform_if_required("cameraPosition", viewer.position());
        program.use_uniform_if_required("realtimeLight", f32::from(u8::from(self.realtime)));
        program.use_uniform_if_required("skyAmbient", v3(self.sky.ambient_sky));
        program.use_uniform_if_required("groundAmbient", v3(self.sky.ambient_ground));
        program.use_uniform_if_required("skyReflection", v3(self.sky.reflection));
        program.use_uniform_if_required("hazeColor", v3(self.sky.haze));
        program.use_uniform_if_required("hazeDensity", self.sky.haze_density);
        if program.requires_uniform("looks") {
            program.use_uniform_array("looks", &self.looks);
        }
        if program.requires_uniform("patternMaps") {
            program.use_texture_array("patternMaps", &self.maps);
            program.use_uniform_if_required("patternRepeat", pattern_maps::REPEAT);
            program.use_uniform_if_required("cracksLayer", pattern_maps::CRACKS_LAYER as f32);
        }
        if program.requires_uniform("tints") {
            program.use_uniform_array("tints", &self.tints);
        }
        if program.requires_uniform("glows") {
            program.use_uniform_array("glows", &self.glows);
        }
        if program.requires_uniform("albedoMaps") {
            program.use_texture_array("albedoMaps", &self.albedo);
        }
    }

    fn render_states(&self) -> RenderStates {
        match self.surface {
            Surface::Ground => RenderStates {
                cull: Cull::Back,
                ..Default::default()
            },
            // Water is seen from both sides, blended over the ground, and does not hide what is
            // behind it from later transparent draws.
            Surface::Water => RenderStates {
                cull: Cull::None,
                blend: Blend::TRANSPARENCY,
                write_mask: WriteMask::COLOR,
                ..Default::default()
            },
        }
    }

    fn material_type(&self) -> MaterialType {
        match self.surface {
            Surface::Ground => MaterialType::Opaque,
            Surface::Water => MaterialType::Transparent,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fast_shader_takes_over_the_sun_and_fill_only() {
        // The declarations three-d's DirectionalLight writes for lights 0 (shadowed) and 1.
        let sun_and_fill = "uniform sampler2D shadowMap0;\nuniform mat4 shadowMVP0;\n\
                            uniform vec3 color0;\nuniform vec3 direction0;\n\
                            uniform vec3 color1;\nuniform vec3 direction1;\n";
        let d = fast_defines(sun_and_fill, 2);
        assert!(d.starts_with('\n'), "starts on its own line");
        assert!(d.contains("#define FAST\n") && d.contains("#define FAST_LIGHTS\n"));
        for (source, count) in [("", 0), (sun_and_fill, 1), ("uniform vec3 color0;\n", 2)] {
            let d = fast_defines(source, count);
            assert!(
                d.contains("#define FAST\n") && !d.contains("FAST_LIGHTS"),
                "{count}"
            );
        }
    }

    #[test]
    fn every_id_has_a_look_in_range_and_the_six_differ() {
        let table = MaterialTable::builtin();
        let l = looks(&table);
        assert_eq!(l.len(), MATERIAL_COUNT);
        for v in &l {
            assert!(v.x >= 0.0 && v.x < 7.0 && v.y >= 0.25 && v.z >= 0.0 && v.w <= 1.0);
        }
        let six = [
            "Rock",
            "Cobblestone",
            "Concrete",
            "Pavement",
            "Sand",
            "Snow",
        ]
        .map(|n| l[usize::from(table.require(n).expect("built-in"))]);
        for (i, a) in six.iter().enumerate() {
            for b in &six[i + 1..] {
                assert_ne!(a, b, "two of the six share a look");
            }
        }
    }
}
