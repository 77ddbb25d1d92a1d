//! Density-fill kernels for a row of samples that holds air and at most one other material.
//!
//! The density fill turns each voxel into an inside bit and a density through the voxel's material
//! code (is it matter of the surface being meshed? is it liquid?): one table lookup per voxel, which
//! keeps the general loop scalar. Most rows that cross the surface hold only air and one material
//! (the layers of generated terrain run along X and Z, so an X row at one height meets one of them),
//! and for those the code is the same for every non-air voxel. These kernels look the code up once per
//! row and leave per voxel only byte compares, shifts and an int → float conversion, straight loops
//! the compiler turns into vector code:
//!
//! ```text
//!   row:      rock rock rock rock½ air air air …   materials {0, rock}: one code lookup
//!   inside:    1    1    1    1     0   0   0      (material ≠ air) ∧ member(rock) ∧ occupancy > 127
//!   density:  ½    ½    ½    occ    −½  −½  −½     (occupancy − 127) / 256 where matter, else −½
//! ```
//!
//! Each kernel has a scalar twin in `mesh_field` (the per-voxel lookup loop); the tests there check
//! that both give the same bits and the same float bits on seeded random rows. This file imports
//! nothing from the mesher, so `mesh_field` can build on it.

use crate::voxel::Voxel;

/// Material ids are the low six bits of the material byte (see `MaterialLut`).
const ID_MASK: u8 = 0x3f;

/// Each 16-bit lane's material id (voxels as lanes: material in the low byte, occupancy high).
const IDS: u64 = 0x003f_003f_003f_003f;
/// Each lane's whole material byte (id and flag bits).
const BYTES: u64 = 0x00ff_00ff_00ff_00ff;
/// Bit 6 of each lane.
const BIT6: u64 = 0x0040_0040_0040_0040;
/// Carries bit `6 + 16·j` (lane `j`'s flag) to bit `51 + j`; the other products land elsewhere and
/// never on the same bit, so nothing carries into bits 51..=54.
const GATHER4: u64 = (1 << 45) | (1 << 30) | (1 << 15) | 1;

/// Four voxels as one word of four 16-bit lanes (an OR of shifted bytes, which compiles to one load).
#[inline]
fn word(q: &[Voxel; 4]) -> u64 {
    let lane = |k: usize| (u64::from(q[k].material) | u64::from(q[k].occupancy) << 8) << (16 * k);
    lane(0) | lane(1) | lane(2) | lane(3)
}

/// What one pass over a row of at most 64 voxels finds: whether its non-air voxels share one
/// material byte, and which voxels are non-air and more than half full.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LoneRow {
    /// The material byte every non-air voxel has (0 when every voxel is air), or `None` when they
    /// differ (in id or in the flag bits above it).
    pub material: Option<u8>,
    /// Bit `x` set when voxel `x` is not air and its occupancy is above 127: the row's inside bits
    /// when `material` is matter of the surface being meshed.
    pub inside: u64,
}

/// Scan `row` (at most 64 voxels) four voxels at a time as 64-bit words (see [`LoneRow`]).
///
/// Per lane: the id is non-zero exactly when `id + 63` reaches bit 6 (ids are below 64, so no lane
/// carries into the next); the occupancy's top bit shifted down by 9 meets it there. The material
/// bytes of non-air lanes are ORed and ANDed (air lanes count as zero in the OR and all ones in the
/// AND): all non-air bytes are equal exactly when the two agree.
#[inline]
pub(crate) fn scan_lone(row: &[Voxel]) -> LoneRow {
    debug_assert!(row.len() <= 64);
    let (mut any, mut all) = (0u64, BYTES);
    let mut inside = 0u64;
    let mut step = |k: usize, w: u64| {
        let non_air = ((w & IDS) + IDS) & BIT6;
        let non_air_lanes = (non_air >> 6) * 0xff;
        any |= w & non_air_lanes;
        all &= (w & BYTES) | (non_air_lanes ^ BYTES);
        let flags = non_air & (w >> 9);
        inside |= ((flags.wrapping_mul(GATHER4) >> 51) & 0xf) << (4 * k);
    };
    let (quads, tail) = row.as_chunks::<4>();
    for (k, quad) in quads.iter().enumerate() {
        step(k, word(quad));
    }
    if !tail.is_empty() {
        // The tail padded with air, which is neither inside nor a material.
        let mut last = [Voxel::AIR; 4];
        last[..tail.len()].copy_from_slice(tail);
        step(quads.len(), word(&last));
    }
    let lanes = |x: u64, f: fn(u64, u64) -> u64| {
        let (a, b, c, d) = (x & 0xff, x >> 16 & 0xff, x >> 32 & 0xff, x >> 48 & 0xff);
        f(f(a, b), f(c, d)) as u8
    };
    let (any, all) = (lanes(any, |a, b| a | b), lanes(all, |a, b| a & b));
    let material = (any == 0 || any == all).then_some(any);
    LoneRow { material, inside }
}

/// Width of the blocks the kernels work on: fixed-size arrays the compiler keeps in vector registers.
const BLOCK: usize = 8;

/// A voxel as one 16-bit lane: material in the low byte, occupancy in the high byte.
#[inline]
fn lane(v: Voxel) -> u16 {
    u16::from_le_bytes([v.material, v.occupancy])
}

/// Density of a voxel of air (`empty`) or the row's one material, which is matter.
#[inline]
fn lone_density(key: u16, empty: f32) -> f32 {
    let matter = (f32::from((key >> 8) as u8) - 127.0) / 256.0;
    if key & u16::from(ID_MASK) != 0 {
        matter
    } else {
        empty
    }
}

/// Densities of a row of air and one material that is matter of the surface, into `dst` (the same
/// length): `(occupancy − 127) / 256` for non-air voxels (exactly `occupancy_f32 − 0.5`), `empty`
/// (the field's empty density) for air.
#[inline]
pub(crate) fn lone_densities(row: &[Voxel], dst: &mut [f32], empty: f32) {
    let (blocks, tail) = row.as_chunks::<BLOCK>();
    let (out_blocks, out_tail) = dst.as_chunks_mut::<BLOCK>();
    for (out, block) in out_blocks.iter_mut().zip(blocks) {
        let keys = block.map(lane);
        *out = keys.map(|k| lone_density(k, empty));
    }
    for (o, v) in out_tail.iter_mut().zip(tail) {
        *o = lone_density(lane(*v), empty);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::test_rng::XorShift;

    #[test]
    fn rows_of_two_materials_are_not_lone() {
        let lone = |row: &[Voxel]| scan_lone(row).material;
        let (rock, sand) = (Voxel::filled(3), Voxel::new(5, 100));
        assert_eq!(lone(&[Voxel::AIR, rock, rock]), Some(3));
        assert_eq!(lone(&[Voxel::AIR; 5]), Some(0));
        assert_eq!(lone(&[rock, Voxel::AIR, sand]), None);
        assert_eq!(lone(&[sand, rock]), None);
        // Ids whose bits nest (1 and 3) are still two materials, in any lane of any word.
        let (one, three) = (Voxel::filled(1), Voxel::filled(3));
        for gap in 0..12 {
            let mut row = vec![Voxel::AIR; 14];
            row[0] = three;
            row[1 + gap] = one;
            assert_eq!(lone(&row), None, "gap {gap}");
        }
        // Air with flag bits is still air; a flagged byte of the same id is another material byte.
        let raw = |material: u8| Voxel {
            material,
            occupancy: 200,
        };
        assert_eq!(lone(&[raw(0x40), rock]), Some(3));
        assert_eq!(lone(&[raw(0x43), rock]), None);
        assert_eq!(lone(&[raw(0x43), Voxel::AIR, raw(0x43)]), Some(0x43));
    }

    #[test]
    fn scanned_inside_bits_are_matter_above_half_on_any_row() {
        let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
        for len in 1..=64 {
            let row: Vec<Voxel> = (0..len)
                .map(|_| {
                    let state = rng.next_u64();
                    Voxel {
                        material: (state & 0xff) as u8,
                        occupancy: (state >> 8) as u8,
                    }
                })
                .collect();
            let want = row.iter().enumerate().fold(0u64, |bits, (x, v)| {
                bits | u64::from(v.material & ID_MASK != 0 && v.occupancy > 127) << x
            });
            let scan = scan_lone(&row);
            assert_eq!(scan.inside, want, "row of {len}");
            let bytes: std::collections::BTreeSet<u8> = row
                .iter()
                .filter(|v| v.material & ID_MASK != 0)
                .map(|v| v.material)
                .collect();
            assert_eq!(scan.material.is_some(), bytes.len() <= 1, "row of {len}");
        }
    }
}
