//! A heightmap for game engines' terrain systems: the top surface's heights resampled to any size and
//! quantized to 16 bits over the box's Y range, as samples or as little-endian `.r16` bytes.
//!
//! ```text
//!   sample = round((H − y_min) / (y_max − y_min) · 65535)      H: the column's surface height
//!
//!   pixel (i, j) of a W × D map  ──>  column u = (i + ½) · width / W − ½   (clamped to the columns),
//!                                     v = (j + ½) · depth / D − ½,   bilinear between the 4 around
//! ```
//!
//! Pixel centres map onto column centres, as the heightmap import maps columns onto samples, so a map
//! exported at the world's size reads each column exactly and one imported at any size comes back at
//! its own. Row 0 is the lowest Z, column 0 the lowest X (the import's orientation).

use super::top_surface::TopSurface;
use crate::progress::Progress;
use crate::{Error, Result};

/// Largest side of an exported map in pixels: 8193, above Unity's 4097 and Unreal's 8129.
pub const MAX_MAP_SIDE: u32 = 8193;

/// Rows of output pixels computed between two cancellation checks.
const ROWS_PER_CHECK: usize = 64;

/// Check a requested map size.
///
/// # Errors
/// [`Error::Invalid`] for a side of 0 or over [`MAX_MAP_SIDE`].
pub fn check_map_size(size: [u32; 2]) -> Result<()> {
    for (axis, v) in [("width", size[0]), ("height", size[1])] {
        if v == 0 || v > MAX_MAP_SIDE {
            return Err(Error::Invalid(format!(
                "heightmap {axis} {v}: it must be 1 to {MAX_MAP_SIDE} pixels"
            )));
        }
    }
    Ok(())
}

/// Where pixel `i` of `pixels` falls among `columns` columns: the lower column and the weight of the
/// next one (pixel centres on column centres, clamped at the edges).
#[inline]
pub(crate) fn source_of(i: usize, pixels: usize, columns: usize) -> (usize, usize, f32) {
    let u =
        ((i as f64 + 0.5) * columns as f64 / pixels as f64 - 0.5).clamp(0.0, (columns - 1) as f64);
    let u0 = u.floor() as usize;
    let u1 = (u0 + 1).min(columns - 1);
    (u0, u1, (u - u0 as f64) as f32)
}

/// The surface heights (world Y) resampled bilinearly to `size` pixels, rows by Z. `progress`
/// advances by one per output row.
///
/// # Errors
/// [`Error::Invalid`] for a bad size; [`Error::Cancelled`].
pub fn resample_heights(
    surface: &TopSurface,
    size: [u32; 2],
    progress: &Progress,
) -> Result<Vec<f32>> {
    check_map_size(size)?;
    let (w, d) = (size[0] as usize, size[1] as usize);
    let xs: Vec<(usize, usize, f32)> = (0..w).map(|i| source_of(i, w, surface.width)).collect();
    let mut out = Vec::with_capacity(w * d);
    let h = &surface.heights;
    let cols = surface.width;
    for j in 0..d {
        if j % ROWS_PER_CHECK == 0 {
            progress.check()?;
        }
        let (v0, v1, tv) = source_of(j, d, surface.depth);
        let (r0, r1) = (
            &h[v0 * cols..(v0 + 1) * cols],
            &h[v1 * cols..(v1 + 1) * cols],
        );
        out.extend(xs.iter().map(|&(u0, u1, tu)| {
            let top = r0[u0] + (r0[u1] - r0[u0]) * tu;
            let bottom = r1[u0] + (r1[u1] - r1[u0]) * tu;
            top + (bottom - top) * tv
        }));
        progress.advance(1);
    }
    Ok(out)
}

/// Heights (world Y) as 16-bit samples: `y_min` is 0, `y_max` 65535, rounded to nearest and clamped.
///
/// # Panics
/// If `y_max <= y_min` (the caller's box is never flat).
pub fn quantize_heights(heights: &[f32], y_min: i32, y_max: i32) -> Vec<u16> {
    assert!(y_max > y_min, "an empty Y range");
    let scale = 65535.0 / f64::from(y_max - y_min);
    heights
        .iter()
        .map(|&h| {
            ((f64::from(h) - f64::from(y_min)) * scale)
                .round()
                .clamp(0.0, 65535.0) as u16
        })
        .collect()
}

/// The world height a 16-bit sample stands for (the inverse of [`quantize_heights`]).
pub fn sample_height(sample: u16, y_min: i32, y_max: i32) -> f64 {
    f64::from(y_min) + f64::from(sample) * f64::from(y_max - y_min) / 65535.0
}

/// The samples as a `.r16` file: 2 bytes per sample, little-endian, rows in order, no header.
pub fn r16_bytes(samples: &[u16]) -> Vec<u8> {
    samples.iter().flat_map(|s| s.to_le_bytes()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn surface(width: usize, depth: usize, heights: Vec<f32>) -> TopSurface {
        let materials = vec![1; heights.len()];
        TopSurface::for_tests(width, depth, 64, heights, materials)
    }

    #[test]
    fn same_size_reads_each_column_and_quantizes_the_range_ends() {
        let heights: Vec<f32> = (0..12).map(|i| i as f32 * 5.25).collect();
        let s = surface(4, 3, heights.clone());
        let out = resample_heights(&s, [4, 3], &Progress::new()).expect("resample");
        assert_eq!(out, heights);
        assert_eq!(
            quantize_heights(&[0.0, 64.0, 32.0, -3.0, 99.0], 0, 64),
            [0, 65535, 32768, 0, 65535]
        );
        assert!((sample_height(32768, 0, 64) - 32.0).abs() < 0.001);
        assert_eq!(r16_bytes(&[0x1234, 0xffee]), [0x34, 0x12, 0xee, 0xff]);
    }

    #[test]
    fn resampling_interpolates_between_column_centres() {
        let s = surface(2, 1, vec![10.0, 20.0]);
        let out = resample_heights(&s, [4, 1], &Progress::new()).expect("resample");
        // Pixel centres at columns -0.25, 0.25, 0.75, 1.25: clamped at the ends.
        assert_eq!(out, [10.0, 12.5, 17.5, 20.0]);
        assert!(check_map_size([0, 5]).is_err());
        assert!(check_map_size([MAX_MAP_SIDE + 1, 5]).is_err());
        let p = Progress::new();
        p.cancel();
        assert!(matches!(
            resample_heights(&s, [4, 1], &p),
            Err(Error::Cancelled)
        ));
    }
}
