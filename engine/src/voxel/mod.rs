//! Voxels, materials and coordinates.
//!
//! A voxel is a material id (6 bits; 0 is Air) and an occupancy byte. Occupancy decodes as
//! `(v + 1) / 256` for non-air materials and exactly 0 for Air, so every value is exact in an `f32`.
//! Air with a non-zero occupancy byte cannot be stored: [`Voxel::new`] normalizes without a branch.
//!
//! Matter made from a fraction (carving brushes, the generator, Sea Level, heightmaps) is never
//! thinner than [`MIN_MATTER_OCCUPANCY`]: [`Voxel::from_fraction`] turns anything thinner into Air.
//! Such matter shows no surface of its own (the surface sits where occupancy crosses ½) and barely
//! moves a neighbouring one, but it is not empty: Sea Level would not flood it and a fill of "only
//! Air" would skip it. So carving ends in Air.

mod coords;
mod emission;
mod look;
mod material;
mod srgb;
mod texture;

pub use coords::{
    ChunkPos, VoxelBox, VoxelPos, CHUNK_BITS, CHUNK_LIMIT, CHUNK_SIZE, COORD_LIMIT, FACE_OFFSETS,
};
pub use emission::{Emission, MAX_EMISSION_STRENGTH};
pub use look::{Look, Pattern};
pub use material::{
    linear_palette, EnhanceThreshold, Material, MaterialTable, Shaping, AIR, MATERIAL_COUNT,
    MAX_NAME_BYTES,
};
pub use srgb::{linear_to_srgb, srgb_to_linear};
pub use texture::{
    png_size, texture_hash, TextureRef, Textures, MAX_TEXTURES, MAX_TEXTURE_BYTES, MAX_TEXTURE_SIDE,
};

/// The thinnest matter a fraction makes: occupancy byte 15, a solid fraction of 16/256 = 1/16.
/// [`Voxel::from_fraction`] gives Air below it (fractions under 15.5/256 ≈ 0.061).
pub const MIN_MATTER_OCCUPANCY: u8 = 15;

/// One voxel: material id and quantized occupancy.
///
/// `#[repr(C)]` keeps it two bytes with material first, matching the raw export format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(C)]
pub struct Voxel {
    /// Material id in `0..64`; 0 is Air.
    pub material: u8,
    /// Quantized occupancy; 0 whenever `material` is Air.
    pub occupancy: u8,
}

impl Voxel {
    /// Empty space.
    pub const AIR: Voxel = Voxel {
        material: AIR,
        occupancy: 0,
    };

    /// A normalized voxel: material masked to 6 bits, occupancy forced to 0 for Air (branch-free).
    #[inline]
    pub const fn new(material: u8, occupancy: u8) -> Self {
        let material = material & 0x3f;
        // 0xff when material != 0, 0x00 for Air.
        let mask = ((material != 0) as u8).wrapping_neg();
        Self {
            material,
            occupancy: occupancy & mask,
        }
    }

    /// A voxel of `material` at its default occupancy (full for matter, 0 for Air).
    #[inline]
    pub const fn filled(material: u8) -> Self {
        Self::new(material, 0xff)
    }

    /// The default occupancy byte of a material: 0 for Air, 255 otherwise.
    #[inline]
    pub const fn default_occupancy(material: u8) -> u8 {
        (((material & 0x3f) != 0) as u8).wrapping_neg()
    }

    /// True when this voxel holds its material's default occupancy (so a row of it can stay packed).
    #[inline]
    pub const fn is_default(self) -> bool {
        self.occupancy == Self::default_occupancy(self.material)
    }

    /// True for Air.
    #[inline]
    pub const fn is_air(self) -> bool {
        self.material == AIR
    }

    /// True when this voxel obeys the storage invariants (6-bit material, Air has zero occupancy).
    #[inline]
    pub const fn is_normalized(self) -> bool {
        self.material < 64 && (self.material != AIR || self.occupancy == 0)
    }

    /// Occupancy as a fraction: `(v + 1) / 256` for matter, exactly 0 for Air.
    #[inline]
    pub fn occupancy_f32(self) -> f32 {
        if self.is_air() {
            0.0
        } else {
            (f32::from(self.occupancy) + 1.0) / 256.0
        }
    }

    /// The voxel of `material` whose decoded occupancy is closest to `fraction`, or Air when that
    /// is thinner than [`MIN_MATTER_OCCUPANCY`] (and for NaN).
    pub fn from_fraction(material: u8, fraction: f32) -> Self {
        Self::from_fraction_above(material, fraction, MIN_MATTER_OCCUPANCY)
    }

    /// [`Voxel::from_fraction`] with another floor: Air when the occupancy byte would be below
    /// `min_occupancy` (0 keeps every fraction that rounds to matter).
    pub(crate) fn from_fraction_above(material: u8, fraction: f32, min_occupancy: u8) -> Self {
        let f = if fraction.is_nan() { 0.0 } else { fraction };
        let steps = (f.clamp(0.0, 1.0) * 256.0).round() as u32;
        if steps == 0 || steps - 1 < u32::from(min_occupancy) {
            Self::AIR
        } else {
            Self::new(material, (steps - 1).min(255) as u8)
        }
    }

    /// True for matter thinner than [`MIN_MATTER_OCCUPANCY`] (left by older versions' carving, or
    /// written with an explicit occupancy): it shows no surface.
    #[inline]
    pub fn is_thin_matter(self) -> bool {
        !self.is_air() && self.occupancy < MIN_MATTER_OCCUPANCY
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn air_never_keeps_occupancy() {
        for occ in 0..=255u8 {
            assert_eq!(Voxel::new(0, occ), Voxel::AIR);
            assert_eq!(Voxel::new(64, occ), Voxel::AIR, "material wraps to 6 bits");
            assert_eq!(Voxel::new(3, occ).occupancy, occ);
        }
    }

    #[test]
    fn occupancy_decodes_exactly() {
        assert_eq!(Voxel::new(5, 255).occupancy_f32(), 1.0);
        assert_eq!(Voxel::new(5, 127).occupancy_f32(), 0.5);
        assert_eq!(Voxel::new(5, 0).occupancy_f32(), 1.0 / 256.0);
        assert_eq!(Voxel::AIR.occupancy_f32(), 0.0);
        for occ in 0..=255u8 {
            let v = Voxel::new(9, occ);
            assert_eq!(Voxel::from_fraction_above(9, v.occupancy_f32(), 0), v);
            let snapped = Voxel::from_fraction(9, v.occupancy_f32());
            if occ < MIN_MATTER_OCCUPANCY {
                assert_eq!(snapped, Voxel::AIR, "{occ}");
                assert!(v.is_thin_matter());
            } else {
                assert_eq!(snapped, v, "{occ}");
                assert!(!v.is_thin_matter());
            }
        }
        assert_eq!(Voxel::from_fraction(9, 0.001), Voxel::AIR);
        assert_eq!(Voxel::from_fraction(9, 15.4 / 256.0), Voxel::AIR);
        assert_eq!(Voxel::from_fraction(9, 15.6 / 256.0), Voxel::new(9, 15));
        assert_eq!(Voxel::from_fraction(9, f32::NAN), Voxel::AIR);
        assert!(!Voxel::AIR.is_thin_matter());
    }

    #[test]
    fn defaults() {
        assert!(Voxel::AIR.is_default());
        assert!(Voxel::filled(7).is_default());
        assert!(!Voxel::new(7, 10).is_default());
    }
}
