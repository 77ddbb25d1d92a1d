//! Blocks gathered in any order while a chunk's fragments are computed, before
//! [`super::fragments`] packs them into a chunk's store; and the chunk-local voxel index both use.

use super::block::{words_for, BlockView, Encoded, MIXED};
use crate::voxel::{VoxelPos, CHUNK_SIZE};

/// A chunk-local voxel index: `(z·32 + y)·32 + x`.
pub(crate) fn local_key(p: VoxelPos) -> u16 {
    let [x, y, z] = p.local();
    ((z * CHUNK_SIZE + y) * CHUNK_SIZE + x) as u16
}

/// Blocks gathered in any order, before they become a [`FragmentChunk`].
#[derive(Debug, Default)]
pub(crate) struct BlockList {
    pub(super) keys: Vec<u16>,
    pub(super) materials: Vec<u8>,
    pub(super) bits: Vec<u64>,
    pub(super) mixed_of: Vec<u32>,
    pub(super) mixed: Vec<u8>,
    pub(super) words: usize,
    pub(super) f3: usize,
}

impl BlockList {
    pub fn new(factor: usize) -> Self {
        Self {
            words: words_for(factor),
            f3: factor * factor * factor,
            ..Self::default()
        }
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Add a block; `frags` are its fragment bytes (read only when it is mixed).
    pub fn push(&mut self, key: u16, e: &Encoded, frags: &[u8]) {
        self.keys.push(key);
        self.materials.push(e.material);
        self.bits.extend_from_slice(&e.bits);
        if e.material == MIXED {
            self.mixed_of.push((self.mixed.len() / self.f3) as u32);
            self.mixed.extend_from_slice(frags);
        } else {
            self.mixed_of.push(u32::MAX);
        }
    }

    pub(super) fn push_view(&mut self, key: u16, view: BlockView<'_>) {
        if let BlockView::Stored {
            bits,
            material,
            mixed,
        } = view
        {
            self.keys.push(key);
            self.materials.push(material);
            self.bits.extend_from_slice(bits);
            if material == MIXED {
                self.mixed_of.push((self.mixed.len() / self.f3) as u32);
                self.mixed.extend_from_slice(mixed);
            } else {
                self.mixed_of.push(u32::MAX);
            }
        }
    }
}
