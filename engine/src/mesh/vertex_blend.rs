//! The material blend of a surface vertex: which materials its cell's corners hold, and in what
//! proportion, as the four material slots and 8-bit weights a vertex carries.
//!
//! At full resolution each matter corner weighs its occupancy; on the mips, partly full corners
//! decide alone when there are any (see [`SHALLOW_FLOOR`]). Most cells hold one material, which a
//! branch-free check finds before any weighing.

use super::input::MeshInput;
use super::mesh_field::{EMPTY, FULL};
use crate::voxel::Voxel;

/// At LOD > 0, a partly full corner's weight in the vertex material is `SHALLOW_FLOOR + ½ − |density|`
/// (half-full ones count most), and full corners do not count when a partly full one is there (see
/// `blend`).
const SHALLOW_FLOOR: f32 = 1.0 / 16.0;

/// The materials of the matter at the corners of the cell at box index `i` (`off`: its corners'
/// index offsets, `d`: their densities, `mask`: its inside corners), weighted by occupancy at full
/// resolution and by closeness to half full on the mips (see [`SHALLOW_FLOOR`]).
pub(crate) fn blend(
    input: &MeshInput,
    off: &[usize; 8],
    i: usize,
    d: &[f32; 8],
    mask: u8,
) -> ([u8; 4], [u8; 4]) {
    let material = corner_materials(input.voxels, i, off);
    // Fast path: one material among the matter corners (most cells). Branch-free: compared with
    // an inside corner (inside implies matter), which is never outside a surface cell's mask.
    let first = material[mask.trailing_zeros() as usize & 7];
    let mut mixed = false;
    for k in 0..8 {
        // Samples that are not matter of this surface hold exactly EMPTY; matter is above it.
        mixed |= (d[k] > EMPTY) & (material[k] != first);
    }
    if !mixed {
        return ([first, 0, 0, 0], [255, 0, 0, 0]);
    }
    let mut ids = [0u8; 8];
    let mut w = [0.0f32; 8];
    let mut n = 0;
    // On the mips, a full sample may hold what lies under the surface (a 4³ mip sample spans 8
    // voxels, a grass layer one or two): when the surface runs through partly full samples,
    // they alone decide the colour. Otherwise a seam of subsoil colour follows every height
    // where the surface nears a sample's top, a contour line.
    let partial = |x: f32| x > EMPTY && x < FULL;
    let coarse_partial = input.lod > 0 && d.iter().any(|&x| partial(x));
    for k in 0..8 {
        if d[k] <= EMPTY || (coarse_partial && !partial(d[k])) {
            continue;
        }
        let weight = if coarse_partial {
            // Nearest half full counts most; the floor keeps a nearly empty sample's say.
            SHALLOW_FLOOR + 0.5 - d[k].abs()
        } else {
            d[k] + 0.5
        };
        match ids[..n].iter().position(|&m| m == material[k]) {
            Some(j) => w[j] += weight,
            None => {
                ids[n] = material[k];
                w[n] = weight;
                n += 1;
            }
        }
    }
    if n <= 1 {
        return ([ids[0], 0, 0, 0], [255, 0, 0, 0]);
    }
    // Heaviest first; ties go to the lower id so the result does not depend on corner order.
    // Ids are distinct, so this is a strict total order and any sort gives the same result; an
    // insertion sort of at most eight entries beats the library sort's setup. Every weight is a
    // sum of positive terms (a matter corner's density is above EMPTY), so its sign bit is clear
    // and `total_cmp` orders it as its bits do; compared as bits, each weight is read by itself
    // (read in pairs, the load waits for the two separate stores that wrote them).
    let heavier = |a: usize, b: usize| {
        let (wa, wb) = (w[a].to_bits(), w[b].to_bits());
        wa > wb || (wa == wb && ids[a] < ids[b])
    };
    let mut order: [usize; 8] = [0, 1, 2, 3, 4, 5, 6, 7];
    for k in 1..n {
        let mut j = k;
        while j > 0 && heavier(order[j], order[j - 1]) {
            order.swap(j, j - 1);
            j -= 1;
        }
    }
    let kept = n.min(4);
    let total: f32 = order[..kept].iter().map(|&j| w[j]).sum();
    // The slots gathered in two words, byte `s` = slot `s`: written byte by byte to memory, the
    // four bytes are read back as one word, which waits for the stores to retire.
    let mut materials = 0u32;
    let mut weights = 0u32;
    let mut given = 0u32;
    for s in 0..kept {
        let q = if s + 1 == kept {
            255 - given
        } else {
            round_weight(w[order[s]] / total * 255.0).min(255 - given)
        };
        materials |= u32::from(ids[order[s]]) << (8 * s);
        weights |= q << (8 * s);
        given += q;
    }
    (materials.to_le_bytes(), weights.to_le_bytes())
}

/// The material bytes of the cell's eight corners (`off`: their index offsets from `i`, corner 2 one
/// row up and corner 4 one slab up), read as four pairs along x: one bounds check per sample row.
#[inline]
fn corner_materials(voxels: &[Voxel], i: usize, off: &[usize; 8]) -> [u8; 8] {
    let pair = |row: usize| {
        let w = &voxels[i + row..i + row + 2];
        [w[0].material, w[1].material]
    };
    let (sy, sz) = (off[2], off[4]);
    let ([m0, m1], [m2, m3], [m4, m5], [m6, m7]) = (pair(0), pair(sy), pair(sz), pair(sz + sy));
    [m0, m1, m2, m3, m4, m5, m6, m7]
}

/// `x.round() as u32` for `x` in `0..2²³`, without the library call (the baseline x86-64 target has
/// no rounding instruction): the fraction `x − trunc(x)` is exact there, and rounding half away from
/// zero adds one when it is at least a half.
#[inline]
fn round_weight(x: f32) -> u32 {
    let whole = x as u32;
    whole + u32::from(x - whole as f32 >= 0.5)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::test_rng::XorShift;
    use crate::voxel::VoxelPos;

    /// The blend as it was before its slots were gathered in words and its weights compared as
    /// bits: the twin `blend` must equal bit for bit.
    fn blend_before(
        input: &MeshInput,
        off: &[usize; 8],
        i: usize,
        d: &[f32; 8],
        mask: u8,
    ) -> ([u8; 4], [u8; 4]) {
        let material = corner_materials(input.voxels, i, off);
        // Fast path: one material among the matter corners (most cells). Branch-free: compared with
        // an inside corner (inside implies matter), which is never outside a surface cell's mask.
        let first = material[mask.trailing_zeros() as usize & 7];
        let mut mixed = false;
        for k in 0..8 {
            // Samples that are not matter of this surface hold exactly EMPTY; matter is above it.
            mixed |= (d[k] > EMPTY) & (material[k] != first);
        }
        if !mixed {
            return ([first, 0, 0, 0], [255, 0, 0, 0]);
        }
        let mut ids = [0u8; 8];
        let mut w = [0.0f32; 8];
        let mut n = 0;
        // On the mips, a full sample may hold what lies under the surface (a 4³ mip sample spans 8
        // voxels, a grass layer one or two): when the surface runs through partly full samples,
        // they alone decide the colour. Otherwise a seam of subsoil colour follows every height
        // where the surface nears a sample's top, a contour line.
        let partial = |x: f32| x > EMPTY && x < FULL;
        let coarse_partial = input.lod > 0 && d.iter().any(|&x| partial(x));
        for k in 0..8 {
            if d[k] <= EMPTY || (coarse_partial && !partial(d[k])) {
                continue;
            }
            let weight = if coarse_partial {
                // Nearest half full counts most; the floor keeps a nearly empty sample's say.
                SHALLOW_FLOOR + 0.5 - d[k].abs()
            } else {
                d[k] + 0.5
            };
            match ids[..n].iter().position(|&m| m == material[k]) {
                Some(j) => w[j] += weight,
                None => {
                    ids[n] = material[k];
                    w[n] = weight;
                    n += 1;
                }
            }
        }
        if n <= 1 {
            return ([ids[0], 0, 0, 0], [255, 0, 0, 0]);
        }
        // Heaviest first; ties go to the lower id so the result does not depend on corner order.
        // Ids are distinct, so this is a strict total order and any sort gives the same result; an
        // insertion sort of at most eight entries beats the library sort's setup.
        let heavier = |a: usize, b: usize| w[a].total_cmp(&w[b]).then(ids[b].cmp(&ids[a])).is_gt();
        let mut order: [usize; 8] = [0, 1, 2, 3, 4, 5, 6, 7];
        for k in 1..n {
            let mut j = k;
            while j > 0 && heavier(order[j], order[j - 1]) {
                order.swap(j, j - 1);
                j -= 1;
            }
        }
        let kept = n.min(4);
        let total: f32 = order[..kept].iter().map(|&j| w[j]).sum();
        let mut materials = [0u8; 4];
        let mut weights = [0u8; 4];
        let mut given = 0u32;
        for s in 0..kept {
            materials[s] = ids[order[s]];
            let q = if s + 1 == kept {
                255 - given
            } else {
                round_weight(w[order[s]] / total * 255.0).min(255 - given)
            };
            weights[s] = q as u8;
            given += q;
        }
        (materials, weights)
    }

    #[test]
    fn blend_equals_the_blend_before_bit_for_bit() {
        let mut rng = XorShift(0x6a09_e667_f3bc_c908u64);
        let mut next = || rng.next_u64();
        // Corner `k` of the cell at index 0 of a 5³ box.
        let off = [0, 1, 5, 6, 25, 26, 30, 31];
        let mut voxels = vec![Voxel::AIR; 125];
        let (mut mixed, mut several) = (0, 0);
        for round in 0..200_000 {
            // Few materials and few density levels, so ties of weight and of id are common.
            let (kinds, levels) = (1 + next() % 6, 2 + next() % 15);
            let mut d = [EMPTY; 8];
            for k in 0..8 {
                let v = &mut voxels[off[k]];
                v.material = (next() % kinds) as u8 + 1;
                if next() % 4 != 0 {
                    d[k] = EMPTY + (1 + next() % levels) as f32 / levels as f32;
                }
            }
            let mask = (0..8).fold(0u8, |m, k| m | u8::from(d[k] > 0.0) << k);
            let lod = (round % 4) as u32;
            let input = MeshInput::with_lod(&voxels, [5, 5, 5], VoxelPos::new(0, 0, 0), lod);
            let got = blend(&input, &off, 0, &d, mask);
            assert_eq!(
                got,
                blend_before(&input, &off, 0, &d, mask),
                "{d:?} {mask:#b} lod {lod}"
            );
            mixed += usize::from(got.1[1] != 0);
            several += usize::from(got.1[2] != 0);
        }
        // The general path ran, with three or more slots too.
        assert!(mixed > 50_000 && several > 10_000, "{mixed} {several}");
    }

    #[test]
    fn weight_rounding_equals_the_library_round() {
        // Every float from 0 to 300 at a step of 1/4096 (halves included), and the neighbours of
        // each half.
        for k in 0..300 * 4096 {
            let x = k as f32 / 4096.0;
            for y in [x, x.next_up(), x.next_down().max(0.0)] {
                assert_eq!(round_weight(y), y.round() as u32, "{y}");
            }
        }
    }
}
