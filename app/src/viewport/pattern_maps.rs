//! The material patterns as tileable images, computed once at start-up (no texture files ship).
//!
//! Evaluating noise and cell patterns per pixel in the shader was the costliest part of a frame on
//! software GL (which runs every branch of a shader for every pixel), so each pattern of
//! `voxel::Pattern` is drawn here into one layer of a texture array, [`SIZE`]² pixels covering
//! [`REPEAT`]² pattern units (stones, slabs, bands), seamless across its edges. The shader samples
//! the two strongest patterns of a fragment on the three axis planes (six lookups), and mipmaps
//! average the detail away with distance instead of letting it shimmer.
//!
//! Each texel holds: R = tint (128 = none, brighter above, darker below), G = joint (mortar, cracks,
//! seams: 255 = darkest), B = glint (sparkling grains), A = 255. Layer [`CRACKS_LAYER`] is the top
//! view of the strata pattern (bands only make sense on cliffs).

use strata_engine::voxel::Pattern;

/// Pixels per layer side.
pub const SIZE: usize = 256;
/// Pattern units per layer side.
pub const REPEAT: f32 = 4.0;
/// Layers: one per pattern, then the strata's top view.
pub const LAYERS: usize = Pattern::ALL.len() + 1;
/// The layer drawn on horizontal faces instead of the strata bands.
pub const CRACKS_LAYER: usize = Pattern::ALL.len();

/// A deterministic hash of integer lattice coordinates to 0..1.
fn hash(x: i32, y: i32, salt: u32) -> f32 {
    let mut h = (x as u32).wrapping_mul(0x8da6_b343)
        ^ (y as u32).wrapping_mul(0xd816_3841)
        ^ salt.wrapping_mul(0xcb1a_b31f);
    h ^= h >> 13;
    h = h.wrapping_mul(0x5bd1_e995);
    h ^= h >> 15;
    (h & 0x00ff_ffff) as f32 / 16_777_216.0
}

/// Value noise in −1..1 at (`x`, `y`) lattice units, periodic with `period` lattice cells.
fn noise(x: f32, y: f32, period: i32, salt: u32) -> f32 {
    let (ix, iy) = (x.floor(), y.floor());
    let (fx, fy) = (x - ix, y - iy);
    let (ux, uy) = (fx * fx * (3.0 - 2.0 * fx), fy * fy * (3.0 - 2.0 * fy));
    let at = |dx: i32, dy: i32| {
        hash(
            (ix as i32 + dx).rem_euclid(period),
            (iy as i32 + dy).rem_euclid(period),
            salt,
        )
    };
    let a = at(0, 0) + (at(1, 0) - at(0, 0)) * ux;
    let b = at(0, 1) + (at(1, 1) - at(0, 1)) * ux;
    (a + (b - a) * uy) * 2.0 - 1.0
}

/// Three octaves of [`noise`] at `u`, `v` in layer units (0..1 across the layer), `cells` lattice
/// cells across the layer at the first octave.
fn fbm(u: f32, v: f32, cells: i32, salt: u32) -> f32 {
    let mut sum = 0.0;
    for (k, weight) in [0.5f32, 0.3, 0.2].into_iter().enumerate() {
        let c = cells << k;
        sum += weight * noise(u * c as f32, v * c as f32, c, salt + k as u32);
    }
    sum
}

/// Tint, joint and glint of pattern layer `layer` at `u`, `v` in 0..1.
fn texel(layer: usize, u: f32, v: f32) -> (f32, f32, f32) {
    let units = REPEAT;
    let (x, y) = (u * units, v * units);
    let r = REPEAT as i32;
    match layer {
        // Noise: soft blotches about a unit across.
        0 => (fbm(u, v, r, 1), 0.0, 0.0),
        // Grain: half-unit grains of random brightness, a few glinting.
        1 => {
            let (gx, gy) = ((x * 2.0).floor() as i32, (y * 2.0).floor() as i32);
            let grain = hash(gx.rem_euclid(2 * r), gy.rem_euclid(2 * r), 2) * 2.0 - 1.0;
            let (sx, sy) = ((x * 6.0).floor() as i32, (y * 6.0).floor() as i32);
            let glint = f32::from(u8::from(
                hash(sx.rem_euclid(6 * r), sy.rem_euclid(6 * r), 3) > 0.985,
            ));
            (0.55 * grain + 0.45 * fbm(u, v, r, 4), 0.0, glint)
        }
        // Strata on cliffs: bands one unit apart, warped, with thin cracks.
        2 => {
            let warp = fbm(u, v, r / 2, 5);
            let bands = (std::f32::consts::TAU * (y + 0.4 * warp)).sin();
            (
                0.45 * bands + 0.55 * fbm(u, v, 2 * r, 6),
                cracks(u, v, 7),
                0.0,
            )
        }
        3 => cells(x, y, r),
        4 => units_pattern(x, y, r, 1.0, 0.0, 0.0),
        5 => units_pattern(x, y, r, 2.0, 0.5, 0.0),
        6 => units_pattern(x, y, r, 5.0, -1.0, 0.3),
        // Strata seen from above: cracks and mottling, no bands.
        _ => (0.7 * fbm(u, v, 2 * r, 8), cracks(u, v, 9), 0.0),
    }
}

/// Thin crack lines (ridges of noise) in 0..1.
fn cracks(u: f32, v: f32, salt: u32) -> f32 {
    let c = (REPEAT as i32) * 2;
    let n = noise(u * c as f32, v * c as f32, c, salt) * 0.7
        + noise(u * 2.0 * c as f32, v * 2.0 * c as f32, 2 * c, salt + 1) * 0.3;
    let ridge = 1.0 - n.abs();
    ((ridge - 0.9) / 0.08).clamp(0.0, 1.0)
}

/// Rounded stones: a jittered grid, one stone per unit, joints where two stones are equally near.
fn cells(x: f32, y: f32, period: i32) -> (f32, f32, f32) {
    let (ix, iy) = (x.floor() as i32, y.floor() as i32);
    let (mut f1, mut f2, mut id) = (f32::MAX, f32::MAX, (0, 0));
    for dy in -1..=1 {
        for dx in -1..=1 {
            let (cx, cy) = ((ix + dx).rem_euclid(period), (iy + dy).rem_euclid(period));
            let jx = (ix + dx) as f32 + 0.15 + 0.7 * hash(cx, cy, 10);
            let jy = (iy + dy) as f32 + 0.15 + 0.7 * hash(cx, cy, 11);
            let d = (jx - x).powi(2) + (jy - y).powi(2);
            if d < f1 {
                f2 = f1;
                f1 = d;
                id = (cx, cy);
            } else if d < f2 {
                f2 = d;
            }
        }
    }
    let edge = f2.sqrt() - f1.sqrt();
    let joint = 1.0 - ((edge - 0.04) / 0.12).clamp(0.0, 1.0);
    let stone = hash(id.0, id.1, 12) * 2.0 - 1.0;
    let u = x / (period as f32);
    let v = y / (period as f32);
    (
        0.6 * stone + 0.25 * fbm(u, v, 4 * period, 13) - 0.5 * f1.sqrt(),
        joint,
        0.0,
    )
}

/// Rectangular units `aspect` times as long as high, in courses shifted by `shift` of a unit (a
/// negative shift: a random shift per course), with wood grain of strength `grain`.
fn units_pattern(
    x: f32,
    y: f32,
    period: i32,
    aspect: f32,
    shift: f32,
    grain: f32,
) -> (f32, f32, f32) {
    let courses = (period as f32 * aspect).round() as i32;
    let row = (y * aspect).floor() as i32;
    let offset = if shift < 0.0 {
        hash(row.rem_euclid(courses), 0, 14) * period as f32
    } else {
        shift * row.rem_euclid(2) as f32
    };
    let sx = x + offset;
    let id = (
        (sx.floor() as i32).rem_euclid(period),
        row.rem_euclid(courses),
    );
    let (fx, fy) = (sx - sx.floor(), y * aspect - (y * aspect).floor());
    let edge = fx.min(1.0 - fx).min(fy.min(1.0 - fy) / aspect);
    let joint = 1.0 - ((edge - 0.012) / 0.025).clamp(0.0, 1.0);
    let tone = hash(id.0, id.1, 15) * 2.0 - 1.0;
    let (u, v) = (x / period as f32, y / period as f32);
    let lines =
        grain * ((y * aspect + 0.3 * fbm(u, v, period, 16)) * std::f32::consts::TAU * 6.0).sin();
    (
        0.5 * tone + 0.3 * fbm(u, v, 2 * period, 17) + lines,
        joint,
        0.0,
    )
}

/// Every layer, `LAYERS × SIZE²` RGBA texels, layer after layer, rows of X.
pub fn generate() -> Vec<Vec<[u8; 4]>> {
    (0..LAYERS)
        .map(|layer| {
            let mut out = Vec::with_capacity(SIZE * SIZE);
            for py in 0..SIZE {
                for px in 0..SIZE {
                    let (u, v) = (
                        (px as f32 + 0.5) / SIZE as f32,
                        (py as f32 + 0.5) / SIZE as f32,
                    );
                    let (tint, joint, glint) = texel(layer, u, v);
                    let byte = |f: f32| (f.clamp(0.0, 1.0) * 255.0).round() as u8;
                    out.push([byte(tint * 0.5 + 0.5), byte(joint), byte(glint), 255]);
                }
            }
            out
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layers_tile_seamlessly_and_use_their_range() {
        // A seamless layer repeats: texel(u, v) = texel(u + 1, v) = texel(u, v + 1).
        for layer in 0..LAYERS {
            let (mut mismatches, mut spread) = (0, (f32::MAX, f32::MIN));
            for k in 0..400 {
                let (u, v) = (hash(k, 1, 90), hash(k, 2, 91));
                let a = texel(layer, u, v);
                for b in [texel(layer, u + 1.0, v), texel(layer, u, v + 1.0)] {
                    let d = (a.0 - b.0)
                        .abs()
                        .max((a.1 - b.1).abs())
                        .max((a.2 - b.2).abs());
                    mismatches += usize::from(d > 1e-3);
                }
                spread = (spread.0.min(a.0), spread.1.max(a.0));
            }
            // Rounding can move a sample across a cell edge once in a while, no more.
            assert!(
                mismatches <= 4,
                "layer {layer}: {mismatches} of 800 samples differ"
            );
            assert!(
                spread.1 - spread.0 > 0.2,
                "layer {layer} is flat: {spread:?}"
            );
        }
    }

    #[test]
    fn every_pattern_has_a_layer_and_cells_have_joints() {
        let layers = generate();
        assert_eq!(layers.len(), LAYERS);
        assert!(layers.iter().all(|l| l.len() == SIZE * SIZE));
        let joints = |l: &[[u8; 4]]| l.iter().filter(|t| t[1] > 200).count();
        for p in [Pattern::Cells, Pattern::Slabs, Pattern::Bricks] {
            let n = joints(&layers[p.index()]);
            assert!(
                n > SIZE * 4 && n < SIZE * SIZE / 3,
                "{p:?}: {n} joint texels"
            );
        }
        assert_eq!(joints(&layers[Pattern::Noise.index()]), 0);
        assert!(layers[Pattern::Grain.index()].iter().any(|t| t[2] == 255));
    }
}
