//! FNV-1a 64 over values' little-endian bytes (floats by their bits).

use strata_engine::voxel::{ChunkPos, Voxel};

/// FNV-1a, 64 bits.
pub struct Digest(pub u64);

impl Digest {
    pub fn new() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }

    pub fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    pub fn u32(&mut self, v: u32) {
        self.bytes(&v.to_le_bytes());
    }

    pub fn i32(&mut self, v: i32) {
        self.bytes(&v.to_le_bytes());
    }

    pub fn u64(&mut self, v: u64) {
        self.bytes(&v.to_le_bytes());
    }

    pub fn f32(&mut self, v: f32) {
        self.u32(v.to_bits());
    }

    pub fn voxels(&mut self, voxels: &[Voxel]) {
        for v in voxels {
            self.bytes(&[v.material, v.occupancy]);
        }
    }

    pub fn pos(&mut self, p: ChunkPos) {
        self.i32(p.x);
        self.i32(p.y);
        self.i32(p.z);
    }

    pub fn text(&mut self, s: &str) {
        self.bytes(s.as_bytes());
    }
}
