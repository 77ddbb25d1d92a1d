//! The mip pyramid's downsample rule: 2×2×2 voxels become one.
//!
//! Occupancy is the average of the eight children (Air counts as 0), so a half-filled block gives a
//! half-filled mip voxel and the surface stays near where it was. The material is the one holding the
//! most matter among the children (ties go to the lower id). A mip voxel is Air only when all eight
//! children are Air: any matter rounds up to the smallest non-zero occupancy. Applied level by level,
//! this gives the seed's guarantee: an Air voxel anywhere in the pyramid means every voxel it covers
//! at full resolution is Air, so an all-Air 4³ level proves the whole chunk empty.

use super::packed::PackedBox;
use crate::voxel::Voxel;

/// Occupancy units of a voxel: `occupancy + 1` for matter (1..=256), 0 for Air.
#[inline]
fn units(v: Voxel) -> u32 {
    if v.is_air() {
        0
    } else {
        u32::from(v.occupancy) + 1
    }
}

/// Combine eight children (any order) into their mip voxel.
pub fn downsample_voxels(children: &[Voxel; 8]) -> Voxel {
    let first = children[0];
    if children.iter().all(|&c| c == first) {
        return first;
    }
    let mut total = 0u32;
    let mut best = (0u32, 0u8);
    for (i, c) in children.iter().enumerate() {
        let u = units(*c);
        total += u;
        if u == 0 || children[..i].iter().any(|d| d.material == c.material) {
            continue;
        }
        let sum: u32 = children[i..]
            .iter()
            .filter(|d| d.material == c.material)
            .map(|d| units(*d))
            .sum();
        if sum > best.0 || (sum == best.0 && c.material < best.1) {
            best = (sum, c.material);
        }
    }
    if total == 0 {
        return Voxel::AIR;
    }
    let average = ((total + 4) / 8).max(1);
    Voxel::new(best.1, (average - 1) as u8)
}

/// Recompute the part of `dst` (edge `D = S / 2`) covering the sub-box `lo..hi` of `src`.
/// Returns the touched sub-box of `dst`, ready to cascade to the next level.
pub(crate) fn refresh<const S: usize, const D: usize>(
    src: &PackedBox<S>,
    dst: &mut PackedBox<D>,
    lo: [usize; 3],
    hi: [usize; 3],
) -> ([usize; 3], [usize; 3]) {
    debug_assert_eq!(S, D * 2);
    let dlo = lo.map(|v| v / 2);
    let dhi = hi.map(|v| v.div_ceil(2));
    dst.write_with(dlo, dhi, |y, z, row| {
        let rows = [
            src.read_row(2 * y, 2 * z),
            src.read_row(2 * y + 1, 2 * z),
            src.read_row(2 * y, 2 * z + 1),
            src.read_row(2 * y + 1, 2 * z + 1),
        ];
        for (x, out) in row.iter_mut().enumerate().take(dhi[0]).skip(dlo[0]) {
            let (a, b) = (2 * x, 2 * x + 1);
            let children = [
                rows[0][a], rows[0][b], rows[1][a], rows[1][b], rows[2][a], rows[2][b], rows[3][a],
                rows[3][b],
            ];
            *out = downsample_voxels(&children);
        }
    });
    (dlo, dhi)
}

/// Downsample a whole dense box of edge `s` into a dense box of edge `s / 2`.
pub(crate) fn downsample_dense(src: &[Voxel], s: usize, dst: &mut Vec<Voxel>) {
    let d = s / 2;
    dst.clear();
    dst.reserve(d * d * d);
    let at = |x: usize, y: usize, z: usize| src[(z * s + y) * s + x];
    for z in 0..d {
        for y in 0..d {
            for x in 0..d {
                let (x2, y2, z2) = (2 * x, 2 * y, 2 * z);
                let children = [
                    at(x2, y2, z2),
                    at(x2 + 1, y2, z2),
                    at(x2, y2 + 1, z2),
                    at(x2 + 1, y2 + 1, z2),
                    at(x2, y2, z2 + 1),
                    at(x2 + 1, y2, z2 + 1),
                    at(x2, y2 + 1, z2 + 1),
                    at(x2 + 1, y2 + 1, z2 + 1),
                ];
                dst.push(downsample_voxels(&children));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn air_only_from_all_air() {
        let mut c = [Voxel::AIR; 8];
        assert_eq!(downsample_voxels(&c), Voxel::AIR);
        c[5] = Voxel::new(4, 0);
        let v = downsample_voxels(&c);
        assert_eq!(v.material, 4);
        assert_eq!(v.occupancy, 0);
    }

    #[test]
    fn average_and_majority() {
        let mut c = [Voxel::filled(2); 8];
        c[..4].fill(Voxel::AIR);
        assert_eq!(downsample_voxels(&c), Voxel::new(2, 127));
        c[..4].fill(Voxel::filled(3));
        c[4] = Voxel::filled(9);
        // 3 has 4 children, 2 has 3, 9 has 1: 3 wins, full occupancy.
        assert_eq!(downsample_voxels(&c), Voxel::filled(3));
        // Tie: lower id wins.
        let t = [
            Voxel::filled(6),
            Voxel::filled(6),
            Voxel::filled(6),
            Voxel::filled(6),
            Voxel::filled(5),
            Voxel::filled(5),
            Voxel::filled(5),
            Voxel::filled(5),
        ];
        assert_eq!(downsample_voxels(&t).material, 5);
    }
}
