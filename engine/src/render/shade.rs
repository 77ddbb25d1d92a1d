//! Colouring one pixel of the top-down map from the height field.
//!
//! ```text
//!          N (-Z)                 ground: material colour (linear light)
//!     light ↘                             × hillshade: 0.3 + 0.7 · (n · L) / L.y   (1 on flat ground)
//!   W (-X) ──┼── E (+X)                   × height tint: 0.85 … 1.15 from lowest to highest ground
//!            S (+Z)               water:  its material colour over the ground, more opaque when deep
//! ```
//!
//! With baked light, ground is its material colour × the baked light of the column's top surface voxel
//! (bilinear between the four nearest columns) instead of the hillshade and height tint; columns with
//! no lit voxel fall back to the hillshade. The light comes from the north-west, 45° up. Heights are sampled bilinearly, and the slope is a
//! central difference one pixel wide, so shading looks alike at every zoom. All mixing happens in
//! linear light; the result is converted to sRGB bytes once.

use super::height_field::{HeightField, NONE};
use crate::light::LightMap;
use crate::voxel::{linear_palette, linear_to_srgb, MaterialTable, MATERIAL_COUNT};

/// Direction towards the light: from the north-west (−X, −Z), 45° above the horizon.
const LIGHT: [f32; 3] = [-0.5, std::f32::consts::FRAC_1_SQRT_2, -0.5];
/// Share of light that reaches slopes facing away from the sun.
const AMBIENT: f32 = 0.3;
/// Brightness range of the height tint (lowest ground × (1 − T), highest × (1 + T)).
const HEIGHT_TINT: f32 = 0.15;
/// Opacity of the shallowest water; deeper water adds [`WATER_ALPHA_PER_VOXEL`] per voxel of depth.
const WATER_ALPHA: f32 = 0.5;
const WATER_ALPHA_PER_VOXEL: f32 = 0.04;
const WATER_ALPHA_MAX: f32 = 0.85;

/// Per-material colours and flags for shading.
pub(crate) struct Palette {
    /// Linear-light colour per material id (grey for ids past the table).
    pub linear: [[f32; 3]; MATERIAL_COUNT],
    /// True for liquids.
    pub liquid: [bool; MATERIAL_COUNT],
}

impl Palette {
    /// Colours and liquid flags of `table`.
    pub fn new(table: &MaterialTable) -> Self {
        let mut liquid = [false; MATERIAL_COUNT];
        for (flag, m) in liquid.iter_mut().zip(&table.materials) {
            *flag = m.liquid;
        }
        Self {
            linear: linear_palette(table),
            liquid,
        }
    }
}

/// Everything a pixel needs besides its position: the field, palette, ground height range and the
/// slope step (one pixel, in cells).
pub(crate) struct Shader<'a> {
    pub field: &'a HeightField,
    pub palette: &'a Palette,
    pub min_height: f32,
    pub max_height: f32,
    pub step_cells: f32,
    /// Baked light to shade with, if any.
    pub light: Option<&'a LightMap>,
}

impl Shader<'_> {
    /// The lowest and highest ground of `field` (0, 0 when there is none).
    pub fn height_range(field: &HeightField) -> (f32, f32) {
        let (lo, hi) = field
            .ground
            .iter()
            .filter(|&&h| h > NONE)
            .fold((f32::MAX, f32::MIN), |(lo, hi), &h| (lo.min(h), hi.max(h)));
        if lo > hi {
            (0.0, 0.0)
        } else {
            (lo, hi)
        }
    }

    /// The RGBA of the point at cell coordinates (`fx`, `fz`) (cell `i` spans `i..i + 1`); transparent
    /// where nothing is there.
    pub fn pixel(&self, fx: f32, fz: f32) -> [u8; 4] {
        let f = self.field;
        let (ix, iz) = (fx.floor() as i64, fz.floor() as i64);
        if ix < 0 || iz < 0 || ix >= f.width as i64 || iz >= f.depth as i64 {
            return [0; 4];
        }
        let i = iz as usize * f.width + ix as usize;
        let (ground, water) = (f.ground[i], f.water[i]);
        let mut rgb = if ground > NONE {
            self.ground_color(fx, fz, ground, f.ground_material[i])
        } else if water > NONE {
            self.palette.linear[usize::from(f.water_material[i])]
        } else {
            return [0; 4];
        };
        if water > NONE && ground > NONE {
            let depth = water - ground;
            let alpha = (WATER_ALPHA + depth * WATER_ALPHA_PER_VOXEL).min(WATER_ALPHA_MAX);
            let w = self.palette.linear[usize::from(f.water_material[i])];
            for (c, w) in rgb.iter_mut().zip(w) {
                *c += (w - *c) * alpha;
            }
        }
        [
            linear_to_srgb(rgb[0]),
            linear_to_srgb(rgb[1]),
            linear_to_srgb(rgb[2]),
            255,
        ]
    }

    fn ground_color(&self, fx: f32, fz: f32, fallback: f32, material: u8) -> [f32; 3] {
        let s = self.step_cells;
        let cell = self.field.cell_size;
        let h = |x: f32, z: f32| self.height_at(x, z, fallback);
        if let Some(l) = self
            .light
            .and_then(|light| self.baked(light, fx, fz, h(fx, fz)))
        {
            let base = self.palette.linear[usize::from(material)];
            return [base[0] * l[0], base[1] * l[1], base[2] * l[2]];
        }
        let dx = (h(fx + s, fz) - h(fx - s, fz)) / (2.0 * s * cell);
        let dz = (h(fx, fz + s) - h(fx, fz - s)) / (2.0 * s * cell);
        let inv = 1.0 / (dx * dx + 1.0 + dz * dz).sqrt();
        let n_dot_l = (-dx * LIGHT[0] + LIGHT[1] - dz * LIGHT[2]) * inv;
        let shade = AMBIENT + (1.0 - AMBIENT) * n_dot_l.max(0.0) / LIGHT[1];
        let range = self.max_height - self.min_height;
        let t = if range > 0.0 {
            (h(fx, fz) - self.min_height) / range * 2.0 - 1.0
        } else {
            0.0
        };
        let light = shade * (1.0 + HEIGHT_TINT * t);
        self.palette.linear[usize::from(material)].map(|c| c * light)
    }

    /// Baked light at cell coordinates (`fx`, `fz`) on ground of height `height`: the top lit voxels
    /// of the four nearest voxel columns, blended bilinearly.
    fn baked(&self, light: &LightMap, fx: f32, fz: f32, height: f32) -> Option<[f32; 3]> {
        let f = self.field;
        let cell = f.cell_voxels() as f32;
        let wx = f.origin_x as f32 + fx * cell - 0.5;
        let wz = f.origin_z as f32 + fz * cell - 0.5;
        let (x0, z0) = (wx.floor(), wz.floor());
        let (tx, tz) = (wx - x0, wz - z0);
        let depth = 3 + 2 * cell as i32;
        let mut acc = [0f32; 3];
        let mut total = 0f32;
        for (dx, dz, w) in [
            (0, 0, (1.0 - tx) * (1.0 - tz)),
            (1, 0, tx * (1.0 - tz)),
            (0, 1, (1.0 - tx) * tz),
            (1, 1, tx * tz),
        ] {
            let top = height.floor() as i32 + cell as i32;
            if let Some(l) = light.column_top(x0 as i32 + dx, z0 as i32 + dz, top, depth) {
                for a in 0..3 {
                    acc[a] += l[a] * w;
                }
                total += w;
            }
        }
        (total > 1e-4).then(|| acc.map(|c| c / total))
    }

    /// Bilinear ground height at cell coordinates; taps without ground read as `fallback`.
    fn height_at(&self, fx: f32, fz: f32, fallback: f32) -> f32 {
        let f = self.field;
        let (x, z) = (fx - 0.5, fz - 0.5);
        let (x0, z0) = (x.floor(), z.floor());
        let (tx, tz) = (x - x0, z - z0);
        let tap = |cx: f32, cz: f32| {
            let cx = (cx as i64).clamp(0, f.width as i64 - 1) as usize;
            let cz = (cz as i64).clamp(0, f.depth as i64 - 1) as usize;
            let v = f.ground[cz * f.width + cx];
            if v > NONE {
                v
            } else {
                fallback
            }
        };
        let top = tap(x0, z0) + (tap(x0 + 1.0, z0) - tap(x0, z0)) * tx;
        let bottom = tap(x0, z0 + 1.0) + (tap(x0 + 1.0, z0 + 1.0) - tap(x0, z0 + 1.0)) * tx;
        top + (bottom - top) * tz
    }
}
