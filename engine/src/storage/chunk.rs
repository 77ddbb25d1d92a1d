//! A 32³ chunk: full-resolution voxels plus its 16³, 8³ and 4³ mip levels, all row-packed.
//!
//! The mips are refreshed for exactly the region a write touches, so they are always consistent with
//! level 0 ([`Chunk::assert_valid`] recomputes them to check). Consumers: the mesher's LOD (coarse
//! levels for distant chunks) and empty-chunk skipping (an Air 4³ level means an Air chunk).

use super::mip::{downsample_dense, downsample_voxels, refresh};
use super::packed::PackedBox;
use super::stored_row::RowBuf;
use crate::voxel::{Voxel, AIR, CHUNK_SIZE, MATERIAL_COUNT};

/// The mip of a stack of uniform layers: each pair of layers becomes one.
fn halve(layers: &[Voxel]) -> Vec<Voxel> {
    layers
        .chunks_exact(2)
        .map(|p| downsample_voxels(&[p[0], p[0], p[1], p[1], p[0], p[0], p[1], p[1]]))
        .collect()
}

/// Number of mip levels below full resolution.
pub const MIP_LEVELS: usize = 3;

/// One chunk of the grid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    level0: PackedBox<32>,
    mip16: PackedBox<16>,
    mip8: PackedBox<8>,
    mip4: PackedBox<4>,
}

impl Chunk {
    /// Voxels in a chunk.
    pub const VOLUME: usize = CHUNK_SIZE * CHUNK_SIZE * CHUNK_SIZE;

    /// A chunk of one material at default occupancy.
    pub fn uniform(material: u8) -> Self {
        Self {
            level0: PackedBox::uniform(material),
            mip16: PackedBox::uniform(material),
            mip8: PackedBox::uniform(material),
            mip4: PackedBox::uniform(material),
        }
    }

    /// An empty chunk.
    pub fn air() -> Self {
        Self::uniform(AIR)
    }

    /// Build a chunk (and its mips) from 32³ dense voxels, X fastest, then Y, then Z.
    ///
    /// # Panics
    /// If `voxels.len() != 32768`.
    pub fn from_dense(voxels: &[Voxel]) -> Self {
        let level0 = PackedBox::from_dense(voxels);
        if let Some(m) = level0.uniform_material() {
            return Self::uniform(m);
        }
        let mut m16 = Vec::new();
        downsample_dense(voxels, 32, &mut m16);
        let mut m8 = Vec::new();
        downsample_dense(&m16, 16, &mut m8);
        let mut m4 = Vec::new();
        downsample_dense(&m8, 8, &mut m4);
        Self {
            level0,
            mip16: PackedBox::from_dense(&m16),
            mip8: PackedBox::from_dense(&m8),
            mip4: PackedBox::from_dense(&m4),
        }
    }

    /// A chunk whose voxels at local height `y` are all `layers[y]`: horizontal rock strata, water,
    /// flat ground. Builds the rows and the mips layer by layer, without a dense pass; equal to
    /// [`Chunk::from_dense`] of the same voxels.
    pub fn from_layers(layers: &[Voxel; CHUNK_SIZE]) -> Self {
        let level0 = PackedBox::from_layers(layers);
        if let Some(m) = level0.uniform_material() {
            return Self::uniform(m);
        }
        let m16 = halve(layers);
        let m8 = halve(&m16);
        let m4 = halve(&m8);
        Self {
            level0,
            mip16: PackedBox::from_layers(&m16),
            mip8: PackedBox::from_layers(&m8),
            mip4: PackedBox::from_layers(&m4),
        }
    }

    /// Full-resolution voxels.
    pub fn level0(&self) -> &PackedBox<32> {
        &self.level0
    }

    /// The 16³ mip.
    pub fn mip16(&self) -> &PackedBox<16> {
        &self.mip16
    }

    /// The 8³ mip.
    pub fn mip8(&self) -> &PackedBox<8> {
        &self.mip8
    }

    /// The 4³ mip.
    pub fn mip4(&self) -> &PackedBox<4> {
        &self.mip4
    }

    /// A voxel of mip `level` (0 = full resolution, 3 = 4³) at level-local coordinates.
    ///
    /// # Panics
    /// If `level > 3` or a coordinate is outside that level.
    pub fn mip_voxel(&self, level: usize, x: usize, y: usize, z: usize) -> Voxel {
        match level {
            0 => self.level0.get(x, y, z),
            1 => self.mip16.get(x, y, z),
            2 => self.mip8.get(x, y, z),
            3 => self.mip4.get(x, y, z),
            _ => panic!("mip level {level} does not exist"),
        }
    }

    /// The X row at local (`y`, `z`): a static row when packed, else decoded into `buf`.
    #[inline]
    pub fn read_row<'a>(&'a self, y: usize, z: usize, buf: &'a mut RowBuf) -> &'a [Voxel] {
        self.level0.read_row(y, z, buf)
    }

    /// One voxel at local coordinates.
    #[inline]
    pub fn get(&self, x: usize, y: usize, z: usize) -> Voxel {
        self.level0.get(x, y, z)
    }

    /// True when every voxel is Air, known from the 4³ mip alone.
    #[inline]
    pub fn is_air(&self) -> bool {
        self.mip4.uniform_material() == Some(AIR)
    }

    /// The material when the whole chunk is one material at default occupancy.
    pub fn uniform_material(&self) -> Option<u8> {
        self.level0.uniform_material()
    }

    /// Rewrite the rows of local sub-box `lo..hi` through `edit` (see [`PackedBox::write_with`]),
    /// then refresh the mips over that region.
    pub fn write_with(
        &mut self,
        lo: [usize; 3],
        hi: [usize; 3],
        edit: impl FnMut(usize, usize, &mut [Voxel]),
    ) {
        if (0..3).any(|a| lo[a] >= hi[a]) {
            return;
        }
        self.level0.write_with(lo, hi, edit);
        if let Some(m) = self.level0.uniform_material() {
            *self = Self::uniform(m);
            return;
        }
        let (lo, hi) = refresh(&self.level0, &mut self.mip16, lo, hi);
        let (lo, hi) = refresh(&self.mip16, &mut self.mip8, lo, hi);
        refresh(&self.mip8, &mut self.mip4, lo, hi);
    }

    /// Heap bytes of all levels.
    pub fn heap_bytes(&self) -> usize {
        self.level0.heap_bytes()
            + self.mip16.heap_bytes()
            + self.mip8.heap_bytes()
            + self.mip4.heap_bytes()
    }

    /// Add per-material voxel counts of level 0 to `counts`.
    pub fn count_materials(&self, counts: &mut [u64; MATERIAL_COUNT]) {
        self.level0.count_materials(counts);
    }

    /// Check every level's format and that the mips equal a fresh downsample of level 0.
    ///
    /// # Panics
    /// On any violated invariant.
    pub fn assert_valid(&self) {
        self.level0.assert_valid();
        self.mip16.assert_valid();
        self.mip8.assert_valid();
        self.mip4.assert_valid();
        let mut dense = vec![Voxel::AIR; Self::VOLUME];
        self.level0.to_dense(&mut dense);
        let fresh = Self::from_dense(&dense);
        assert!(fresh.mip16 == self.mip16, "16³ mip is stale");
        assert!(fresh.mip8 == self.mip8, "8³ mip is stale");
        assert!(fresh.mip4 == self.mip4, "4³ mip is stale");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mips_follow_writes() {
        let mut c = Chunk::air();
        c.write_with([3, 4, 5], [9, 6, 20], |_, _, row| {
            row[3..9].fill(Voxel::new(7, 200))
        });
        c.assert_valid();
        assert!(!c.is_air());
        assert_eq!(c.mip_voxel(3, 0, 0, 1).material, 7);
        c.write_with([0, 0, 0], [32, 32, 32], |_, _, row| row.fill(Voxel::AIR));
        c.assert_valid();
        assert!(c.is_air());
        assert_eq!(c.heap_bytes(), 0);
    }

    #[test]
    fn layers_equal_the_dense_build() {
        let f = Voxel::filled;
        let cases: [[Voxel; CHUNK_SIZE]; 6] = [
            [f(9); CHUNK_SIZE],
            [Voxel::AIR; CHUNK_SIZE],
            std::array::from_fn(|y| f([7, 8, 9][y / 11])),
            std::array::from_fn(|y| if y < 20 { f(3) } else { Voxel::AIR }),
            std::array::from_fn(|y| f((y % 5 + 1) as u8)),
            // Flat ground with a partial top voxel, and an unnormalized Air voxel.
            std::array::from_fn(|y| match y {
                0..=14 => f(4),
                15 => Voxel::new(2, 77),
                16 => Voxel {
                    material: 0,
                    occupancy: 9,
                },
                _ => Voxel::AIR,
            }),
        ];
        for layers in cases {
            let mut dense = vec![Voxel::AIR; Chunk::VOLUME];
            for (r, row) in dense.chunks_exact_mut(CHUNK_SIZE).enumerate() {
                row.fill(layers[r % CHUNK_SIZE]);
            }
            let c = Chunk::from_layers(&layers);
            c.assert_valid();
            assert!(c == Chunk::from_dense(&dense), "{layers:?}");
        }
    }
}
