//! The mip pyramid's downsample rule: 2×2×2 voxels become one.
//!
//! Occupancy is the average of the eight children (Air counts as 0), so a half-filled block gives a
//! half-filled mip voxel and the surface stays near where it was.
//!
//! Whether the block is ground or liquid follows what lies on top: the class of the heaviest
//! material among the children seen from above (in each column, the upper child unless it is Air),
//! so water a voxel or two deep stays water at every level instead of vanishing into the ground
//! under it. In a liquid block a ground child under a water child counts as full, since the water
//! rests on it, and the block is at least just over half full, so its water surface is not lost
//! against the ground under it (the mesher's water field counts ground as empty).
//!
//! The material is the one a viewer sees from outside, not the one most of the block is made of: a
//! 4³ mip voxel spans 8 voxels a side, so a one- or two-voxel grass layer over soil would otherwise
//! show as soil, and as soil only at the heights where the surface sits in a block's upper half
//! (brown contour lines across a green hill). The candidates are, in order, the partly full
//! children (the surface runs through them), the matter children of the block's upper layer (ground
//! is seen from above; a block whose surface lies on its top face has no partial child), and all
//! matter children; among the first non-empty set, the material holding the most matter wins, ties
//! to the lower id. A mip voxel is Air only when all eight
//! children are Air: any matter rounds up to the smallest non-zero occupancy. Applied level by level,
//! this gives the guarantee Roblox's storage article describes: an Air voxel anywhere in the pyramid means every voxel it covers
//! at full resolution is Air, so an all-Air 4³ level proves the whole chunk empty.

use super::packed::PackedBox;
use super::stored_row::RowBuf;
use std::sync::OnceLock;

use crate::voxel::{MaterialTable, Voxel};

/// Occupancy units of a voxel: `occupancy + 1` for matter (1..=256), 0 for Air.
#[inline]
fn units(v: Voxel) -> u32 {
    if v.is_air() {
        0
    } else {
        u32::from(v.occupancy) + 1
    }
}

/// Combine eight children into their mip voxel. Child `k` sits at `(k & 1, k >> 1 & 1, k >> 2)`
/// (X fastest, then Y, then Z).
pub fn downsample_voxels(children: &[Voxel; 8]) -> Voxel {
    let first = children[0];
    if children.iter().all(|&c| c == first) {
        return first;
    }
    let total: u32 = children.iter().map(|c| units(*c)).sum();
    if total == 0 {
        return Voxel::AIR;
    }
    // The class (ground or liquid) decides the block's shape for the mesher; the view rule below
    // only picks among materials of that class. It is the class of the matter seen from above: the
    // heaviest material among each column's top child (the upper one unless it is Air), so a pond
    // shallower than the block stays water instead of turning into its bed.
    let liquids = builtin_liquids();
    let liquid = |c: Voxel| liquids >> (c.material & 63) & 1 == 1;
    let tops = [0usize, 1, 4, 5].into_iter().fold(0u8, |m, k| {
        if !children[k | 2].is_air() {
            m | 1 << (k | 2)
        } else if !children[k].is_air() {
            m | 1 << k
        } else {
            m
        }
    });
    let class = liquid(heaviest(children, tops));
    let set = |f: &dyn Fn(usize, Voxel) -> bool| {
        (0..8).fold(0u8, |m, k| {
            let c = children[k];
            m | u8::from(!c.is_air() && liquid(c) == class && f(k, c)) << k
        })
    };
    let partial = set(&|_, c| c.occupancy < u8::MAX);
    // Children 2, 3, 6 and 7 have y = 1 (see the child order of `refresh`).
    let upper = set(&|k, _| k & 2 != 0);
    let candidates = [partial, upper, set(&|_, _| true)]
        .into_iter()
        .find(|&m| m != 0)
        .unwrap_or(u8::MAX);
    // In a liquid block, ground under water counts as full: the water rests on it, so a column is
    // as full as its water surface is high. A liquid block is at least just over half full: the
    // block under it is usually ground, empty to the water field, so a thinner one would leave no
    // water surface at this level (a pond shallower than half a block would vanish); the surface
    // then sits at most half a block too high.
    let total = if class {
        let wet = |c: Voxel| !c.is_air() && liquid(c);
        let columns: u32 = (0..8)
            .map(|k| {
                let c = children[k];
                let under_water = k & 2 == 0 && wet(children[k | 2]);
                if under_water && !c.is_air() && !liquid(c) {
                    256
                } else {
                    units(c)
                }
            })
            .sum();
        columns.max(8 * LIQUID_FLOOR)
    } else {
        total
    };
    let average = ((total + 4) / 8).max(1);
    Voxel::new(heaviest(children, candidates).material, (average - 1) as u8)
}

/// Fewest occupancy units of a liquid mip voxel: just over half full.
const LIQUID_FLOOR: u32 = 136;

/// Liquid material ids of the built-in table (bit `id`). Mips are shared by every project; a
/// custom table that makes other ids liquid only changes which material a mixed block shows.
fn builtin_liquids() -> u64 {
    static LIQUIDS: OnceLock<u64> = OnceLock::new();
    *LIQUIDS.get_or_init(|| {
        let table = MaterialTable::builtin();
        table
            .materials
            .iter()
            .enumerate()
            .take(64)
            .filter(|(_, m)| m.liquid)
            .fold(0, |mask, (id, _)| mask | 1 << id)
    })
}

/// The child whose material holds the most matter among the children in `candidates` (bit `k`
/// for child `k`), ties to the lower id; Air when no candidate holds matter.
fn heaviest(children: &[Voxel; 8], candidates: u8) -> Voxel {
    // Matter per distinct material, in order of first appearance (at most eight).
    let (mut materials, mut sums, mut n) = ([0u8; 8], [0u32; 8], 0);
    for (k, c) in children.iter().enumerate() {
        let u = units(*c);
        if u == 0 || candidates >> k & 1 == 0 {
            continue;
        }
        match materials[..n].iter().position(|&m| m == c.material) {
            Some(j) => sums[j] += u,
            None => {
                materials[n] = c.material;
                sums[n] = u;
                n += 1;
            }
        }
    }
    let mut best = (0u32, 0u8);
    for (&sum, &material) in sums[..n].iter().zip(&materials[..n]) {
        if sum > best.0 || (sum == best.0 && material < best.1) {
            best = (sum, material);
        }
    }
    if best.0 == 0 {
        return Voxel::AIR;
    }
    Voxel::new(best.1, 0)
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
    let mut bufs: [RowBuf; 4] = Default::default();
    dst.write_with(dlo, dhi, |y, z, row| {
        let [b0, b1, b2, b3] = &mut bufs;
        let rows = [
            src.read_row(2 * y, 2 * z, b0),
            src.read_row(2 * y + 1, 2 * z, b1),
            src.read_row(2 * y, 2 * z + 1, b2),
            src.read_row(2 * y + 1, 2 * z + 1, b3),
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
    let row = |y: usize, z: usize| &src[(z * s + y) * s..(z * s + y + 1) * s];
    for z in 0..d {
        for y in 0..d {
            // The four source rows of this output row, in the child order of `refresh`.
            let rows = [
                row(2 * y, 2 * z),
                row(2 * y + 1, 2 * z),
                row(2 * y, 2 * z + 1),
                row(2 * y + 1, 2 * z + 1),
            ];
            for x in 0..d {
                let (a, b) = (2 * x, 2 * x + 1);
                let children = [
                    rows[0][a], rows[0][b], rows[1][a], rows[1][b], rows[2][a], rows[2][b],
                    rows[3][a], rows[3][b],
                ];
                dst.push(downsample_voxels(&children));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The first version of [`heaviest`]: every child against every other.
    fn heaviest_reference(children: &[Voxel; 8], candidates: u8) -> Voxel {
        let mut best = (0u32, 0u8);
        for (i, c) in children.iter().enumerate() {
            let counted =
                |k: usize, d: &Voxel| candidates >> k & 1 == 1 && d.material == c.material;
            let u = units(*c);
            if u == 0
                || candidates >> i & 1 == 0
                || children[..i].iter().enumerate().any(|(k, d)| counted(k, d))
            {
                continue;
            }
            let sum: u32 = children
                .iter()
                .enumerate()
                .skip(i)
                .filter(|(k, d)| counted(*k, d))
                .map(|(_, d)| units(*d))
                .sum();
            if sum > best.0 || (sum == best.0 && c.material < best.1) {
                best = (sum, c.material);
            }
        }
        if best.0 == 0 {
            return Voxel::AIR;
        }
        Voxel::new(best.1, 0)
    }

    #[test]
    fn dense_downsampling_is_the_rule_at_every_voxel() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut next = move || rng.random::<u64>();
        for s in [4usize, 8, 16, 32] {
            for _ in 0..20 {
                // Layers: uniform Air or rock rows, mixed surface rows in between.
                let cut = (next() as usize) % s;
                let src: Vec<Voxel> = (0..s * s * s)
                    .map(|i| {
                        let y = i / s % s;
                        let r = next();
                        match y.cmp(&cut) {
                            std::cmp::Ordering::Less => Voxel::filled(3),
                            std::cmp::Ordering::Greater => Voxel::AIR,
                            std::cmp::Ordering::Equal if r & 1 == 0 => Voxel::AIR,
                            std::cmp::Ordering::Equal => {
                                Voxel::new((r >> 8) as u8 & 7, (r >> 16) as u8)
                            }
                        }
                    })
                    .collect();
                let mut dst = Vec::new();
                downsample_dense(&src, s, &mut dst);
                let d = s / 2;
                assert_eq!(dst.len(), d * d * d);
                let at = |x: usize, y: usize, z: usize| src[(z * s + y) * s + x];
                for z in 0..d {
                    for y in 0..d {
                        for x in 0..d {
                            let c: [Voxel; 8] = std::array::from_fn(|k| {
                                at(2 * x + (k & 1), 2 * y + (k >> 1 & 1), 2 * z + (k >> 2))
                            });
                            assert_eq!(dst[(z * d + y) * d + x], downsample_voxels(&c));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn heaviest_matches_the_pairwise_count() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let mut next = || rng.random::<u64>();
        for _ in 0..200_000 {
            let r = next();
            let children: [Voxel; 8] = std::array::from_fn(|k| {
                let b = (r >> (8 * k)) as u8;
                // Few materials and occupancies, so ties and repeats are common.
                let material = b & 3;
                let occupancy = [0u8, 1, 127, 255][usize::from(b >> 2 & 3)];
                if b >> 4 & 3 == 0 {
                    Voxel::AIR
                } else {
                    Voxel::new(material, occupancy)
                }
            });
            let candidates = next() as u8;
            assert_eq!(
                heaviest(&children, candidates),
                heaviest_reference(&children, candidates),
                "{children:?} {candidates:08b}"
            );
        }
    }

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
        // All full: the upper layer (children 2, 3, 6, 7) decides; 3 and 2 tie there, 2 wins.
        assert_eq!(downsample_voxels(&c), Voxel::filled(2));
        c[6] = Voxel::filled(3);
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

    #[test]
    fn the_surface_material_shows_over_what_lies_under_it() {
        let (grass, soil) = (2, 3);
        // A thin partial grass voxel on full soil: the surface runs through the grass.
        let mut c = [Voxel::filled(soil); 8];
        c[2] = Voxel::new(grass, 40);
        c[3] = Voxel::AIR;
        c[6] = Voxel::AIR;
        c[7] = Voxel::AIR;
        let v = downsample_voxels(&c);
        assert_eq!(v.material, grass);
        // Full grass over full soil, the surface on the block's top face: grass, seen from above.
        let mut c = [Voxel::filled(soil); 8];
        for k in [2, 3, 6, 7] {
            c[k] = Voxel::filled(grass);
        }
        assert_eq!(downsample_voxels(&c), Voxel::filled(grass));
        // Buried blocks keep the plain majority over all children.
        let mut c = [Voxel::filled(soil); 8];
        c[3] = Voxel::filled(grass);
        assert_eq!(downsample_voxels(&c), Voxel::filled(soil));
    }

    #[test]
    fn water_on_top_keeps_the_block_liquid() {
        let table = MaterialTable::builtin();
        let water = table.require("Water").expect("water");
        let sand = table.require("Sand").expect("sand");
        // A thin film of water (upper layer) over a half-full sand bed (lower layer): water, and
        // full enough for the mesher's water field to cross one half.
        let mut c = [Voxel::AIR; 8];
        for k in [0, 1, 4, 5] {
            c[k] = Voxel::new(sand, 127);
            c[k | 2] = Voxel::new(water, 50);
        }
        let v = downsample_voxels(&c);
        assert_eq!(v.material, water);
        assert!(u32::from(v.occupancy) + 1 >= LIQUID_FLOOR);
        // The water surface in the lower layer, Air above: still water.
        let mut c = [Voxel::AIR; 8];
        c[0] = Voxel::new(water, 140);
        c[1] = Voxel::new(water, 90);
        let v = downsample_voxels(&c);
        assert_eq!(v.material, water);
        assert!(u32::from(v.occupancy) + 1 >= LIQUID_FLOOR);
        // Dry ground beside the pond outweighs one wet column.
        let mut c = [Voxel::filled(sand); 8];
        c[2] = Voxel::new(water, 60);
        for k in [3, 6, 7] {
            c[k] = Voxel::new(sand, 200);
        }
        assert_eq!(downsample_voxels(&c).material, sand);
        // Ground over water (a flooded cave): ground.
        let mut c = [Voxel::filled(water); 8];
        for k in [2, 3, 6, 7] {
            c[k] = Voxel::filled(sand);
        }
        assert_eq!(downsample_voxels(&c), Voxel::filled(sand));
    }
}
