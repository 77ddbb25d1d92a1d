//! Splat and weight maps: how much of each surface material covers each pixel of an exported
//! heightmap, for engines that paint terrain layers (Unity's RGBA alpha maps, Unreal's one 8-bit
//! weight map per target layer, Godot terrain plugins).
//!
//! ```text
//!   column materials (one per column)     pixel (i, j): the 4 columns around its centre, bilinear
//!     G G R R                             weights as for the heights (`heightmap::source_of`),
//!     G G R R   ──>  weight of m at the   summed per material, then scaled to 255 with the largest
//!     G S S R        pixel                remainders rounded up: every pixel's weights sum to 255
//! ```
//!
//! A splat map holds the four materials that are the surface of most columns (ties to the lower id),
//! in R, G, B, A order; a pixel covered by none of them (only other materials, or no surface at all)
//! gives its 255 to the first channel. Weight maps hold every surface material; a pixel with no surface
//! at all gives its 255 to the first (most used) one.

use super::heightmap::{check_map_size, source_of};
use super::top_surface::TopSurface;
use crate::progress::Progress;
use crate::voxel::MATERIAL_COUNT;
use crate::Result;

/// Rows of output pixels computed between two cancellation checks.
const ROWS_PER_CHECK: usize = 64;

/// Surface materials by how many columns they cover, most first (ties to the lower id), with their
/// column counts; materials covering no column are left out.
pub fn ranked_materials(surface: &TopSurface) -> Vec<(u8, u64)> {
    let counts = surface.material_columns();
    let mut ranked: Vec<(u8, u64)> = counts
        .iter()
        .enumerate()
        .filter(|(_, &n)| n > 0)
        .map(|(m, &n)| (m as u8, n))
        .collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    ranked
}

/// Weight maps of `materials` at `size`: one byte per pixel and material, pixel-major
/// (`[pixel × materials.len() + k]`), each pixel's bytes summing to 255 (see the module docs).
/// `progress` advances by one per output row.
///
/// # Errors
/// [`crate::Error::Invalid`] for a bad size; [`crate::Error::Cancelled`].
pub fn material_weights(
    surface: &TopSurface,
    size: [u32; 2],
    materials: &[u8],
    progress: &Progress,
) -> Result<Vec<u8>> {
    check_map_size(size)?;
    let (w, d) = (size[0] as usize, size[1] as usize);
    let k = materials.len();
    let mut slot = [usize::MAX; MATERIAL_COUNT];
    for (s, &m) in materials.iter().enumerate() {
        slot[usize::from(m) % MATERIAL_COUNT] = s;
    }
    let xs: Vec<(usize, usize, f32)> = (0..w).map(|i| source_of(i, w, surface.width)).collect();
    let mut out = vec![0u8; w * d * k];
    if k == 0 {
        return Ok(out);
    }
    let mut weights = vec![0.0f32; k];
    let cols = surface.width;
    let m = &surface.materials;
    for j in 0..d {
        if j % ROWS_PER_CHECK == 0 {
            progress.check()?;
        }
        let (v0, v1, tv) = source_of(j, d, surface.depth);
        for (i, &(u0, u1, tu)) in xs.iter().enumerate() {
            weights.fill(0.0);
            let corners = [
                (v0 * cols + u0, (1.0 - tu) * (1.0 - tv)),
                (v0 * cols + u1, tu * (1.0 - tv)),
                (v1 * cols + u0, (1.0 - tu) * tv),
                (v1 * cols + u1, tu * tv),
            ];
            for (at, wt) in corners {
                let s = slot[usize::from(m[at]) % MATERIAL_COUNT];
                if m[at] != 0 && s != usize::MAX {
                    weights[s] += wt;
                }
            }
            let px = (j * w + i) * k;
            split_255(&weights, &mut out[px..px + k]);
        }
        progress.advance(1);
    }
    Ok(out)
}

/// Scale `weights` to bytes summing to exactly 255: floors first, then one more to the largest
/// remainders (ties to the earlier slot). All-zero weights give 255 to slot 0.
pub(crate) fn split_255(weights: &[f32], out: &mut [u8]) {
    let total: f32 = weights.iter().sum();
    if total <= 0.0 {
        out.fill(0);
        if let Some(first) = out.first_mut() {
            *first = 255;
        }
        return;
    }
    let mut given = 0u32;
    let mut rest = [(0.0f32, 0usize); MATERIAL_COUNT];
    for (s, (&wt, o)) in weights.iter().zip(out.iter_mut()).enumerate() {
        let exact = wt / total * 255.0;
        let floor = exact.floor().min(255.0);
        *o = floor as u8;
        given += floor as u32;
        rest[s] = (exact - floor, s);
    }
    let rest = &mut rest[..weights.len().min(MATERIAL_COUNT)];
    rest.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    for &(_, s) in rest.iter().take(255u32.saturating_sub(given) as usize) {
        out[s] += 1;
    }
}

/// Split pixel-major weights (`k` per pixel) into `k` planes of one byte per pixel.
pub fn weight_planes(weights: &[u8], k: usize) -> Vec<Vec<u8>> {
    if k == 0 {
        return Vec::new();
    }
    (0..k)
        .map(|s| weights.iter().skip(s).step_by(k).copied().collect())
        .collect()
}

/// Pixel-major weights of up to four materials as RGBA bytes (missing channels 0).
pub fn rgba_of(weights: &[u8], k: usize) -> Vec<u8> {
    assert!(k <= 4, "a splat map holds at most four materials");
    if k == 0 {
        return Vec::new();
    }
    weights
        .chunks_exact(k)
        .flat_map(|px| std::array::from_fn::<u8, 4, _>(|c| px.get(c).copied().unwrap_or(0)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn surface(width: usize, depth: usize, materials: Vec<u8>) -> TopSurface {
        let heights = vec![1.0; materials.len()];
        TopSurface::for_tests(width, depth, 8, heights, materials)
    }

    #[test]
    fn weights_sum_to_255_on_every_pixel() {
        let mut rng = 7u32;
        let materials: Vec<u8> = (0..37 * 23)
            .map(|_| {
                rng = rng.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                (rng >> 28) as u8 % 7
            })
            .collect();
        let s = surface(37, 23, materials);
        let ranked = ranked_materials(&s);
        assert!(ranked.windows(2).all(|p| p[0].1 >= p[1].1));
        let ids: Vec<u8> = ranked.iter().map(|r| r.0).collect();
        for size in [[37, 23], [50, 11], [8, 8]] {
            let all = material_weights(&s, size, &ids, &Progress::new()).expect("weights");
            for px in all.chunks_exact(ids.len()) {
                assert_eq!(px.iter().map(|&b| u32::from(b)).sum::<u32>(), 255);
            }
            let four = material_weights(&s, size, &ids[..4], &Progress::new()).expect("weights");
            let rgba = rgba_of(&four, 4);
            for px in rgba.chunks_exact(4) {
                assert_eq!(px.iter().map(|&b| u32::from(b)).sum::<u32>(), 255);
            }
        }
    }

    #[test]
    fn one_material_per_column_reads_back_at_the_same_size() {
        let s = surface(3, 1, vec![2, 5, 0]);
        let ids = [2, 5];
        let w = material_weights(&s, [3, 1], &ids, &Progress::new()).expect("weights");
        // The empty column gives its weight to the first material.
        assert_eq!(w, [255, 0, 0, 255, 255, 0]);
        assert_eq!(weight_planes(&w, 2), [vec![255, 0, 255], vec![0, 255, 0]]);
        let mut out = [0u8; 3];
        split_255(&[1.0, 1.0, 1.0], &mut out);
        assert_eq!(out, [85, 85, 85]);
        split_255(&[1.0, 1.0], &mut out[..2]);
        assert_eq!(out[..2], [128, 127]);
    }
}
