//! Terrace smoothing: removes the stair steps of a heightmap stored with few grey levels (8-bit, or
//! 8-bit data saved as 16-bit) without softening real cliffs.
//!
//! ```text
//!   8-bit ramp:   ▁▁▁▁▂▂▂▂▃▃▃▃      blur (3 box passes ≈ Gaussian) of radius R   ▁▁▂▂▂▃▃▃▄
//!   each sample keeps to within half a grey level of its stored value:  clamp(blur, s − q/2, s + q/2)
//! ```
//!
//! A step of one grey level is the rounding of a smooth surface, so the true height lies within half
//! a level of the stored one: the clamp keeps the blurred surface inside what the data allows, and a
//! cliff (many levels in one pixel) stays a cliff. The grey-level size `q` is found from the data:
//! 257 (one 8-bit level in 16-bit units) when every sample is a multiple of 257, else 1, so true
//! 16-bit maps change by at most half a 16-bit level.

use rayon::prelude::*;

/// Largest smoothing radius, in map samples.
pub const MAX_SMOOTHING_RADIUS: u32 = 64;

/// The grey-level step of `samples` in 16-bit units: 257 for 8-bit data, otherwise 1.
pub(super) fn level_step(samples: &[u16]) -> f32 {
    if samples.par_iter().all(|&s| s % 257 == 0) {
        257.0
    } else {
        1.0
    }
}

/// Smooth `samples` (`width × depth`, X fastest, 16-bit units) with radius `radius` samples and
/// return the result as floats in the same units.
pub(super) fn smooth_terraces(
    samples: &[u16],
    width: usize,
    depth: usize,
    radius: usize,
) -> Vec<f32> {
    let original: Vec<f32> = samples.par_iter().map(|&s| f32::from(s)).collect();
    if radius == 0 || width == 0 || depth == 0 {
        return original;
    }
    let half_step = level_step(samples) * 0.5;
    let mut blurred = original.clone();
    let mut scratch = vec![0.0f32; width * depth];
    for _ in 0..3 {
        box_rows(&blurred, &mut scratch, width, radius);
        transpose(&scratch, &mut blurred, width, depth);
        box_rows(&blurred, &mut scratch, depth, radius);
        transpose(&scratch, &mut blurred, depth, width);
    }
    blurred
        .par_iter_mut()
        .zip(original.par_iter())
        .for_each(|(b, &s)| *b = b.clamp(s - half_step, s + half_step));
    blurred
}

/// Box-blur every row of `src` (rows of `width`) into `dst`, edges clamped.
fn box_rows(src: &[f32], dst: &mut [f32], width: usize, radius: usize) {
    let r = radius.min(width.saturating_sub(1));
    let scale = 1.0 / (2 * r + 1) as f32;
    dst.par_chunks_mut(width)
        .zip(src.par_chunks(width))
        .for_each(|(out, row)| {
            let at = |i: isize| row[i.clamp(0, width as isize - 1) as usize];
            let mut sum: f32 = (-(r as isize)..=r as isize).map(at).sum();
            for (i, o) in out.iter_mut().enumerate() {
                *o = sum * scale;
                let i = i as isize;
                sum += at(i + r as isize + 1) - at(i - r as isize);
            }
        });
}

/// Transpose `src` (`height` rows of `width`) into `dst` (`width` rows of `height`).
fn transpose(src: &[f32], dst: &mut [f32], width: usize, height: usize) {
    dst.par_chunks_mut(height).enumerate().for_each(|(x, col)| {
        for (y, d) in col.iter_mut().enumerate() {
            *d = src[y * width + x];
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eight_bit_ramps_become_smooth_and_cliffs_stay() {
        // A gentle 8-bit ramp (one level per 6 samples) next to a cliff of 100 levels.
        let (w, d) = (120usize, 4usize);
        let level = |x: usize| if x < 90 { x / 6 } else { 115 + x / 6 };
        let samples: Vec<u16> = (0..w * d).map(|i| (level(i % w) * 257) as u16).collect();
        assert_eq!(level_step(&samples), 257.0);
        let out = smooth_terraces(&samples, w, d, 6);
        let row = &out[w..2 * w];
        // Inside the ramp, successive differences are nearly constant (no steps).
        let diffs: Vec<f32> = row[20..65].windows(2).map(|p| p[1] - p[0]).collect();
        let (lo, hi) = diffs
            .iter()
            .fold((f32::MAX, f32::MIN), |(l, h), &v| (l.min(v), h.max(v)));
        assert!(hi - lo < 257.0 / 6.0 * 0.8, "steps remain: {lo}..{hi}");
        assert!(lo > 0.0);
        // The cliff keeps its height within half a level on each side.
        assert!(row[91] - row[88] > 99.0 * 257.0);
        for (i, (&o, &s)) in out.iter().zip(&samples).enumerate() {
            assert!((o - f32::from(s)).abs() <= 128.5, "sample {i}");
        }
    }

    #[test]
    fn sixteen_bit_data_barely_moves_and_radius_zero_is_identity() {
        let samples: Vec<u16> = (0..64 * 64).map(|i| (i * 13 % 60_000) as u16).collect();
        assert_eq!(level_step(&samples), 1.0);
        let out = smooth_terraces(&samples, 64, 64, 5);
        assert!(out
            .iter()
            .zip(&samples)
            .all(|(&o, &s)| (o - f32::from(s)).abs() <= 0.5));
        let same = smooth_terraces(&samples, 64, 64, 0);
        assert!(same.iter().zip(&samples).all(|(&o, &s)| o == f32::from(s)));
        // Tiny maps and huge radii do not panic.
        assert_eq!(smooth_terraces(&[5140], 1, 1, 64), vec![5140.0]);
    }
}
