//! Integer coordinates: voxel positions, chunk positions and half-open voxel boxes.
//!
//! Chunks are 32³. A voxel's chunk is its position shifted right by 5 (arithmetic, so negative
//! coordinates land in negative chunks), and its local coordinate is the low 5 bits.

use serde::{Deserialize, Serialize};

/// log2 of the chunk edge length.
pub const CHUNK_BITS: u32 = 5;
/// Chunk edge length in voxels.
pub const CHUNK_SIZE: usize = 1 << CHUNK_BITS;

/// The world's coordinate range: every voxel coordinate `v` on every axis lies in
/// `-COORD_LIMIT <= v < COORD_LIMIT` (±2³⁰ = ±1 073 741 824), so chunk coordinates lie in
/// `-2²⁵ <= c < 2²⁵` and box corners (half-open) in `-COORD_LIMIT..=COORD_LIMIT`.
///
/// Rationale: half of `i32`. Everything that adds a border, a box size or a mesh skirt to a coordinate
/// then stays far from `i32` overflow, and extents fit an `i32` difference. Files, command-line
/// positions, pastes and the generator are all checked against this one constant.
pub const COORD_LIMIT: i32 = 1 << 30;
/// The chunk-coordinate form of [`COORD_LIMIT`]: chunk coordinates lie in `-CHUNK_LIMIT..CHUNK_LIMIT`.
pub const CHUNK_LIMIT: i32 = COORD_LIMIT >> CHUNK_BITS;

/// The six face neighbours of a voxel (or chunk) as offsets: +X, −X, +Y, −Y, +Z, −Z. The light bake's
/// open-face bits and its walk directions follow this order.
pub const FACE_OFFSETS: [[i32; 3]; 6] = [
    [1, 0, 0],
    [-1, 0, 0],
    [0, 1, 0],
    [0, -1, 0],
    [0, 0, 1],
    [0, 0, -1],
];

/// A voxel position in world space.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
pub struct VoxelPos {
    /// X (east).
    pub x: i32,
    /// Y (up).
    pub y: i32,
    /// Z (south).
    pub z: i32,
}

impl VoxelPos {
    /// A position from its coordinates.
    pub const fn new(x: i32, y: i32, z: i32) -> Self {
        Self { x, y, z }
    }

    /// The chunk holding this voxel.
    pub const fn chunk(self) -> ChunkPos {
        ChunkPos {
            x: self.x >> CHUNK_BITS,
            y: self.y >> CHUNK_BITS,
            z: self.z >> CHUNK_BITS,
        }
    }

    /// Coordinates inside the chunk, each in `0..32`.
    pub const fn local(self) -> [usize; 3] {
        let m = (CHUNK_SIZE - 1) as i32;
        [
            (self.x & m) as usize,
            (self.y & m) as usize,
            (self.z & m) as usize,
        ]
    }

    /// As an array `[x, y, z]`.
    pub const fn to_array(self) -> [i32; 3] {
        [self.x, self.y, self.z]
    }

    /// True when every coordinate lies in the world's range (see [`COORD_LIMIT`]).
    pub fn in_range(self) -> bool {
        self.to_array()
            .iter()
            .all(|&c| (-COORD_LIMIT..COORD_LIMIT).contains(&c))
    }
}

impl From<[i32; 3]> for VoxelPos {
    fn from([x, y, z]: [i32; 3]) -> Self {
        Self { x, y, z }
    }
}

/// A chunk position (voxel position divided by 32, rounding toward negative infinity).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
pub struct ChunkPos {
    /// X in chunks.
    pub x: i32,
    /// Y in chunks.
    pub y: i32,
    /// Z in chunks.
    pub z: i32,
}

impl ChunkPos {
    /// A chunk position from its coordinates.
    pub const fn new(x: i32, y: i32, z: i32) -> Self {
        Self { x, y, z }
    }

    /// True when every coordinate lies in `-CHUNK_LIMIT..CHUNK_LIMIT`, i.e. all the chunk's voxels lie
    /// in the world's range (see [`COORD_LIMIT`]).
    pub fn in_range(self) -> bool {
        [self.x, self.y, self.z]
            .iter()
            .all(|&c| (-CHUNK_LIMIT..CHUNK_LIMIT).contains(&c))
    }

    /// The chunk's lowest voxel.
    pub const fn min_voxel(self) -> VoxelPos {
        VoxelPos {
            x: self.x << CHUNK_BITS,
            y: self.y << CHUNK_BITS,
            z: self.z << CHUNK_BITS,
        }
    }

    /// The chunk's voxels as a box.
    pub const fn voxel_box(self) -> VoxelBox {
        let min = self.min_voxel();
        let s = CHUNK_SIZE as i32;
        VoxelBox {
            min,
            max: VoxelPos::new(min.x + s, min.y + s, min.z + s),
        }
    }
}

/// A half-open box of voxels: `min` inclusive, `max` exclusive on every axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct VoxelBox {
    /// Lowest voxel inside the box.
    pub min: VoxelPos,
    /// One past the highest voxel on each axis.
    pub max: VoxelPos,
}

impl VoxelBox {
    /// A box from corners (`max` exclusive).
    pub const fn new(min: VoxelPos, max: VoxelPos) -> Self {
        Self { min, max }
    }

    /// A box from its minimum corner and size.
    pub const fn from_min_size(min: VoxelPos, size: [u32; 3]) -> Self {
        Self {
            min,
            max: VoxelPos::new(
                min.x.saturating_add(size[0] as i32),
                min.y.saturating_add(size[1] as i32),
                min.z.saturating_add(size[2] as i32),
            ),
        }
    }

    /// Edge lengths; 0 on an axis where `max <= min`.
    pub fn size(&self) -> [usize; 3] {
        let d = |a: i32, b: i32| (i64::from(b) - i64::from(a)).max(0) as usize;
        [
            d(self.min.x, self.max.x),
            d(self.min.y, self.max.y),
            d(self.min.z, self.max.z),
        ]
    }

    /// Number of voxels inside (saturating).
    pub fn volume(&self) -> usize {
        let [x, y, z] = self.size();
        x.saturating_mul(y).saturating_mul(z)
    }

    /// True when both corners lie in `-COORD_LIMIT..=COORD_LIMIT` on every axis, so every voxel of the box
    /// lies in the world's range (see [`COORD_LIMIT`]).
    pub fn in_range(&self) -> bool {
        self.min
            .to_array()
            .iter()
            .chain(self.max.to_array().iter())
            .all(|&c| (-COORD_LIMIT..=COORD_LIMIT).contains(&c))
    }

    /// `Ok` when the box lies in the world's range ([`VoxelBox::in_range`]); otherwise an
    /// [`crate::Error::Invalid`] that names `what` and the range.
    ///
    /// # Errors
    /// As above.
    pub fn check_range(&self, what: &str) -> crate::Result<()> {
        if self.in_range() {
            Ok(())
        } else {
            Err(crate::Error::Invalid(format!(
                "{what} {}..{} lies outside the world's coordinate range: every coordinate must be {} to {} \
                 (box corners up to {})",
                fmt_pos(self.min),
                fmt_pos(self.max),
                -COORD_LIMIT,
                COORD_LIMIT - 1,
                COORD_LIMIT
            )))
        }
    }

    /// True when the box holds no voxel.
    pub fn is_empty(&self) -> bool {
        self.volume() == 0
    }

    /// The overlap of two boxes (possibly empty).
    pub fn intersect(&self, other: &VoxelBox) -> VoxelBox {
        VoxelBox {
            min: VoxelPos::new(
                self.min.x.max(other.min.x),
                self.min.y.max(other.min.y),
                self.min.z.max(other.min.z),
            ),
            max: VoxelPos::new(
                self.max.x.min(other.max.x),
                self.max.y.min(other.max.y),
                self.max.z.min(other.max.z),
            ),
        }
    }

    /// The smallest box holding both (an empty box is ignored).
    pub fn union(&self, other: &VoxelBox) -> VoxelBox {
        if self.is_empty() {
            return *other;
        }
        if other.is_empty() {
            return *self;
        }
        VoxelBox {
            min: VoxelPos::new(
                self.min.x.min(other.min.x),
                self.min.y.min(other.min.y),
                self.min.z.min(other.min.z),
            ),
            max: VoxelPos::new(
                self.max.x.max(other.max.x),
                self.max.y.max(other.max.y),
                self.max.z.max(other.max.z),
            ),
        }
    }

    /// The box grown by `r` voxels on every side (shrunk for negative `r`), saturating at the
    /// coordinate type's limits.
    pub fn grown(&self, r: i32) -> VoxelBox {
        VoxelBox {
            min: VoxelPos::new(
                self.min.x.saturating_sub(r),
                self.min.y.saturating_sub(r),
                self.min.z.saturating_sub(r),
            ),
            max: VoxelPos::new(
                self.max.x.saturating_add(r),
                self.max.y.saturating_add(r),
                self.max.z.saturating_add(r),
            ),
        }
    }

    /// True when `p` lies inside.
    pub fn contains(&self, p: VoxelPos) -> bool {
        p.x >= self.min.x
            && p.y >= self.min.y
            && p.z >= self.min.z
            && p.x < self.max.x
            && p.y < self.max.y
            && p.z < self.max.z
    }

    /// Every chunk the box touches, in Z, Y, X order (X fastest).
    pub fn chunks(&self) -> impl Iterator<Item = ChunkPos> + use<> {
        let (lo, hi) = if self.is_empty() {
            (ChunkPos::new(0, 0, 0), ChunkPos::new(-1, -1, -1))
        } else {
            let last = VoxelPos::new(self.max.x - 1, self.max.y - 1, self.max.z - 1);
            (self.min.chunk(), last.chunk())
        };
        (lo.z..=hi.z).flat_map(move |z| {
            (lo.y..=hi.y).flat_map(move |y| (lo.x..=hi.x).map(move |x| ChunkPos::new(x, y, z)))
        })
    }

    /// Linear index of `p` inside the box, X fastest, then Y, then Z. `p` must be inside.
    pub fn index_of(&self, p: VoxelPos) -> usize {
        let [sx, sy, _] = self.size();
        let dx = (p.x - self.min.x) as usize;
        let dy = (p.y - self.min.y) as usize;
        let dz = (p.z - self.min.z) as usize;
        (dz * sy + dy) * sx + dx
    }
}

fn fmt_pos(p: VoxelPos) -> String {
    format!("{},{},{}", p.x, p.y, p.z)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinate_range_is_one_constant() {
        assert!(VoxelPos::new(-COORD_LIMIT, 0, COORD_LIMIT - 1).in_range());
        assert!(!VoxelPos::new(COORD_LIMIT, 0, 0).in_range());
        assert!(!VoxelPos::new(0, i32::MIN, 0).in_range());
        assert!(ChunkPos::new(-CHUNK_LIMIT, 0, CHUNK_LIMIT - 1).in_range());
        assert!(!ChunkPos::new(CHUNK_LIMIT, 0, 0).in_range());
        assert!(!ChunkPos::new(0, 0, i32::MAX >> 5).in_range());
        // The last chunk in range ends exactly at the limit.
        assert_eq!(
            ChunkPos::new(CHUNK_LIMIT - 1, 0, 0).voxel_box().max.x,
            COORD_LIMIT
        );
        let edge = VoxelBox::new(
            VoxelPos::new(-COORD_LIMIT, 0, 0),
            VoxelPos::new(COORD_LIMIT, 1, 1),
        );
        assert!(edge.check_range("--box").is_ok());
        let past = VoxelBox::new(VoxelPos::new(0, i32::MIN, 0), VoxelPos::new(1, 1, 1));
        let msg = past.check_range("--box").expect_err("outside").to_string();
        assert!(msg.contains("-1073741824 to 1073741823"), "{msg}");
    }

    #[test]
    fn negative_coordinates_map_to_negative_chunks() {
        let p = VoxelPos::new(-1, -32, -33);
        assert_eq!(p.chunk(), ChunkPos::new(-1, -1, -2));
        assert_eq!(p.local(), [31, 0, 31]);
        assert_eq!(
            ChunkPos::new(-1, 0, 2).min_voxel(),
            VoxelPos::new(-32, 0, 64)
        );
    }

    #[test]
    fn box_chunks_cover_exactly() {
        let b = VoxelBox::new(VoxelPos::new(-1, 0, 31), VoxelPos::new(33, 1, 32));
        let chunks: Vec<_> = b.chunks().collect();
        assert_eq!(
            chunks,
            vec![
                ChunkPos::new(-1, 0, 0),
                ChunkPos::new(0, 0, 0),
                ChunkPos::new(1, 0, 0)
            ]
        );
        assert_eq!(VoxelBox::default().chunks().count(), 0);
    }

    #[test]
    fn index_is_x_fastest() {
        let b = VoxelBox::new(VoxelPos::new(-2, -2, -2), VoxelPos::new(2, 2, 2));
        assert_eq!(b.index_of(VoxelPos::new(-1, -2, -2)), 1);
        assert_eq!(b.index_of(VoxelPos::new(-2, -1, -2)), 4);
        assert_eq!(b.index_of(VoxelPos::new(-2, -2, -1)), 16);
    }
}
