//! Strata voxels to godot_voxel channels and back.
//!
//! Export writes two channels at their default 16-bit depths and leaves the other six at godot_voxel's
//! defaults:
//!
//! ```text
//!   TYPE = material id                       (Air = 0)
//!   SDF  = 127 − occupancy  for matter       (full 255 → −128, half 127 → 0, 0 → +127)
//!        = +128             for Air
//! ```
//!
//! In occupancy units `u = 256·f` (`f` = Strata's occupancy fraction, `(o + 1) / 256`, 0 for Air) the
//! SDF is `128 − u`: an affine function of occupancy that is 0 exactly at `f = 0.5` and negative
//! inside. godot_voxel's Transvoxel mesher puts a vertex on a cell edge where the linear interpolation
//! of the two corner SDF values is 0, at `t = s0 / (s0 − s1)`; with `s = 128 − 256·f` that is
//! `t = (0.5 − f0) / (f1 − f0)`, the point where Strata's linearly interpolated occupancy crosses 0.5.
//! The two surfaces therefore coincide, and the gradient (normals) points the same way. One raw step
//! is godot's 16-bit quantum (500 / 32767 ≈ 0.0153 voxel), so the field is a distance scaled by
//! about 3.9 and saturated at ±1.95 voxels, and every occupancy byte keeps its own raw value: the
//! round trip is exact.
//!
//! Import reads any depth and applies the same map in reverse, so godot-made terrain (a true distance
//! field) keeps its surface where it was. The rules for foreign blocks are in [`ImportRules`].

use super::block::BlockData;
use super::channel::{Channel, ChannelData, Depth, CHANNEL_SDF, CHANNEL_TYPE};
use crate::storage::Grid;
use crate::voxel::{MaterialTable, Voxel, VoxelBox, AIR};
use crate::{Error, Result};

/// Raw 16-bit SDF steps per voxel of godot distance: `32767 / 500`.
const RAW16_PER_VOXEL: f64 = 32767.0 / 500.0;
/// The largest block (in voxels) that is converted to or from Strata voxels in one piece.
pub const MAX_BLOCK_VOXELS: usize = 1 << 26;

/// The 16-bit SDF value Strata writes for `v`.
#[inline]
pub fn sdf_raw16(v: Voxel) -> i16 {
    if v.is_air() {
        128
    } else {
        127 - i16::from(v.occupancy)
    }
}

/// How a block becomes Strata voxels.
///
/// - **Occupancy** comes from SDF: `u = 128 − s`, with `s` the distance in raw 16-bit steps (8-bit,
///   32-bit and 64-bit values are converted with godot_voxel's scales first; positive values round to
///   at least one step so the inside/outside sign never flips). `u ≤ 0` is Air, `u ≥ 256` is full.
/// - **Blocky blocks**: when the SDF channel is uniform at godot_voxel's default (never written), the
///   block is TYPE-only: TYPE ≠ 0 is a full voxel, TYPE 0 is Air.
/// - **Material** is the TYPE value when it is a material id of the table (1 to `material_count − 1`);
///   TYPE 0 under matter (SDF-only terrain) and unknown ids become `fallback_material`.
/// - COLOR, INDICES, WEIGHTS, DATA5..7 and metadata are not read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImportRules {
    /// Material for matter whose TYPE is 0 or not a known material id.
    pub fallback_material: u8,
    /// Number of materials in the table; TYPE values at or above it are unknown.
    pub material_count: u8,
}

impl ImportRules {
    /// Rules for `table`: fallback to "Ground" if present, else to the first non-Air material.
    pub fn for_table(table: &MaterialTable) -> Self {
        let count = table.len().min(64) as u8;
        let fallback = table
            .id_of("Ground")
            .unwrap_or(if count > 1 { 1 } else { AIR });
        Self {
            fallback_material: fallback,
            material_count: count,
        }
    }
}

impl Default for ImportRules {
    fn default() -> Self {
        Self::for_table(&MaterialTable::builtin())
    }
}

/// Counts from converting blocks to Strata voxels.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ImportReport {
    /// Voxels converted.
    pub voxels: u64,
    /// Non-Air voxels that took the fallback material (TYPE 0 or unknown).
    pub fallback_voxels: u64,
}

impl ImportReport {
    /// Add another report's counts.
    pub fn add(&mut self, other: &ImportReport) {
        self.voxels += other.voxels;
        self.fallback_voxels += other.fallback_voxels;
    }
}

/// A block of `size` holding `voxels` (X fastest, then Y, then Z): TYPE and SDF dense 16-bit (written
/// UNIFORM when single-valued), every other channel at its default.
///
/// # Panics
/// If `voxels.len()` is not the volume of `size` (a caller bug).
pub fn block_from_voxels(size: [u16; 3], voxels: &[Voxel]) -> BlockData {
    let mut block = BlockData::new(size);
    let volume = block.volume();
    assert_eq!(voxels.len(), volume, "voxel buffer does not match the size");
    let [sx, sy, sz] = size.map(usize::from);
    let mut types = vec![0u8; volume * 2];
    let mut sdf = vec![0u8; volume * 2];
    for z in 0..sz {
        for y in 0..sy {
            let row = &voxels[(z * sy + y) * sx..][..sx];
            for (x, v) in row.iter().enumerate() {
                let i = 2 * (y + sy * (x + sx * z));
                types[i..i + 2].copy_from_slice(&u16::from(v.material).to_le_bytes());
                sdf[i..i + 2].copy_from_slice(&sdf_raw16(*v).to_le_bytes());
            }
        }
    }
    block.channels[CHANNEL_TYPE].data = ChannelData::Dense(types);
    block.channels[CHANNEL_SDF].data = ChannelData::Dense(sdf);
    block
}

/// Occupancy units (0 = Air .. 256 = full) of SDF raw value `raw` at `depth`.
#[inline]
fn units_from_sdf(raw: u64, depth: Depth) -> u32 {
    let steps = match depth {
        Depth::Bit16 => {
            let s = i32::from((raw as u16 as i16).max(-32767));
            return (128 - s).clamp(0, 256) as u32;
        }
        Depth::Bit8 => f64::from((raw as u8 as i8).max(-127)) / 127.0 * 10.0 * RAW16_PER_VOXEL,
        Depth::Bit32 => f64::from(f32::from_bits(raw as u32)) * RAW16_PER_VOXEL,
        Depth::Bit64 => f64::from_bits(raw) * RAW16_PER_VOXEL,
    };
    if steps.is_nan() {
        return 0;
    }
    let s = if steps > 0.0 {
        steps.round().max(1.0)
    } else {
        steps.round()
    };
    (128.0 - s).clamp(0.0, 256.0) as u32
}

/// Convert `block` to Strata voxels in `out` (X fastest, then Y, then Z), following `rules`.
///
/// # Panics
/// If `out.len()` is not the block's volume (a caller bug).
pub fn voxels_from_block(
    block: &BlockData,
    rules: &ImportRules,
    out: &mut [Voxel],
) -> ImportReport {
    assert_eq!(out.len(), block.volume(), "output does not match the block");
    let [sx, sy, sz] = block.size.map(usize::from);
    let types: &Channel = &block.channels[CHANNEL_TYPE];
    let sdf: &Channel = &block.channels[CHANNEL_SDF];
    let blocky = sdf.is_unused(CHANNEL_SDF);
    let mut report = ImportReport {
        voxels: out.len() as u64,
        fallback_voxels: 0,
    };
    for z in 0..sz {
        for x in 0..sx {
            for y in 0..sy {
                let i = y + sy * (x + sx * z);
                let t = types.raw(i);
                let units = if blocky {
                    if t == 0 {
                        0
                    } else {
                        256
                    }
                } else {
                    units_from_sdf(sdf.raw(i), sdf.depth)
                };
                out[(z * sy + y) * sx + x] = if units == 0 {
                    Voxel::AIR
                } else {
                    let material = if t >= 1 && t < u64::from(rules.material_count) {
                        t as u8
                    } else {
                        report.fallback_voxels += 1;
                        rules.fallback_material
                    };
                    Voxel::new(material, (units - 1) as u8)
                };
            }
        }
    }
    report
}

/// Convert a whole block to Strata voxels, refusing blocks over [`MAX_BLOCK_VOXELS`].
///
/// # Errors
/// [`Error::Invalid`] for a block too large to convert.
pub fn block_to_voxel_vec(
    block: &BlockData,
    rules: &ImportRules,
) -> Result<(Vec<Voxel>, ImportReport)> {
    if block.volume() > MAX_BLOCK_VOXELS {
        return Err(Error::Invalid(format!(
            "block of {:?} voxels is over the import limit of {MAX_BLOCK_VOXELS} voxels",
            block.size
        )));
    }
    let mut out = vec![Voxel::AIR; block.volume()];
    let report = voxels_from_block(block, rules, &mut out);
    Ok((out, report))
}

/// The block holding box `b` of `grid` (voxels outside every chunk are Air).
///
/// # Errors
/// [`Error::Invalid`] when an edge is over 65535 voxels or the box over [`MAX_BLOCK_VOXELS`].
pub fn block_of_box(grid: &Grid, b: VoxelBox) -> Result<BlockData> {
    let [sx, sy, sz] = b.size();
    let fits = |s: usize| (1..=usize::from(u16::MAX)).contains(&s);
    if !(fits(sx) && fits(sy) && fits(sz)) || b.volume() > MAX_BLOCK_VOXELS {
        return Err(Error::Invalid(format!(
            "a v4 block holds 1 to 65535 voxels per axis and at most {MAX_BLOCK_VOXELS} in all; \
             the box is {sx}×{sy}×{sz}"
        )));
    }
    let voxels = grid.read_box_vec(b);
    Ok(block_from_voxels(
        [sx as u16, sy as u16, sz as u16],
        &voxels,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::godot::channel::DEFAULT_DEPTHS;

    fn every_voxel() -> Vec<Voxel> {
        let mut v = vec![Voxel::AIR];
        for m in 1..24u8 {
            for o in 0..=255u8 {
                v.push(Voxel::new(m, o));
            }
        }
        v.resize(16 * 16 * 23, Voxel::AIR);
        v
    }

    #[test]
    fn every_voxel_round_trips_bit_exact() {
        let voxels = every_voxel();
        let block = block_from_voxels([16, 16, 23], &voxels);
        let bytes = block.to_bytes().expect("encodes");
        let back = BlockData::decode(&bytes).expect("decodes");
        let (out, report) = block_to_voxel_vec(&back, &ImportRules::default()).expect("converts");
        assert_eq!(out, voxels);
        assert_eq!(report.fallback_voxels, 0);
    }

    #[test]
    fn sdf_is_zero_at_half_occupancy_and_negative_inside() {
        assert_eq!(sdf_raw16(Voxel::new(3, 127)), 0);
        assert_eq!(Voxel::new(3, 127).occupancy_f32(), 0.5);
        assert_eq!(sdf_raw16(Voxel::new(3, 255)), -128);
        assert_eq!(sdf_raw16(Voxel::new(3, 0)), 127);
        assert_eq!(sdf_raw16(Voxel::AIR), 128);
        // Monotonic: more occupancy, smaller distance.
        let mut last = sdf_raw16(Voxel::AIR);
        for o in 0..=255u8 {
            let s = sdf_raw16(Voxel::new(1, o));
            assert!(s < last);
            last = s;
        }
    }

    fn sdf_block(depth: Depth, raw: &[u64]) -> BlockData {
        let mut depths = DEFAULT_DEPTHS;
        depths[CHANNEL_SDF] = depth;
        let mut b = BlockData::with_depths([1, raw.len() as u16, 1], depths);
        let mut bytes = Vec::new();
        for r in raw {
            bytes.extend_from_slice(&r.to_le_bytes()[..depth.bytes()]);
        }
        b.channels[CHANNEL_SDF].data = ChannelData::Dense(bytes);
        b
    }

    #[test]
    fn foreign_sdf_only_blocks_import_with_the_fallback_material() {
        // 8-bit godot SDF: -127 = -10 voxels (deep inside), 0 = surface, 1 = +0.079 voxel, 127 = air.
        let b = sdf_block(Depth::Bit8, &[0x81, 0, 1, 0x7f]);
        let (v, report) = block_to_voxel_vec(&b, &ImportRules::default()).expect("converts");
        assert_eq!(v[0], Voxel::new(3, 255));
        assert_eq!(v[1], Voxel::new(3, 127));
        assert_eq!(v[2].occupancy, 127 - 5, "0.079 voxel outside: 5 raw steps");
        assert!(v[2].occupancy_f32() < 0.5);
        assert_eq!(v[3], Voxel::AIR);
        assert_eq!(report.fallback_voxels, 3);
        // 32-bit floats in voxels; a tiny positive distance stays outside.
        let f = |d: f32| u64::from(d.to_bits());
        let b = sdf_block(Depth::Bit32, &[f(-0.5), f(1e-6), f(3.0), f(f32::NAN)]);
        let (v, _) = block_to_voxel_vec(&b, &ImportRules::default()).expect("converts");
        assert_eq!(v[0].occupancy, 127 + 33);
        assert!(v[1].occupancy_f32() < 0.5 && !v[1].is_air());
        assert_eq!(v[2], Voxel::AIR);
        assert_eq!(v[3], Voxel::AIR);
    }

    #[test]
    fn blocky_blocks_use_type_and_unknown_ids_fall_back() {
        let mut b = BlockData::new([1, 3, 1]);
        b.channels[CHANNEL_TYPE].data = ChannelData::Dense(vec![0, 0, 7, 0, 200, 0]);
        let rules = ImportRules::default();
        let (v, report) = block_to_voxel_vec(&b, &rules).expect("converts");
        assert_eq!(
            v,
            vec![
                Voxel::AIR,
                Voxel::filled(7),
                Voxel::filled(rules.fallback_material)
            ]
        );
        assert_eq!(report.fallback_voxels, 1);
        let (v, _) = block_to_voxel_vec(&BlockData::new([2, 2, 2]), &rules).expect("converts");
        assert!(v.iter().all(|x| x.is_air()), "an all-default block is Air");
    }
}
