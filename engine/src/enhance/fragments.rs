//! [`Enhanced`]: the sparse store of the fragments that differ from their voxels.
//!
//! ```text
//!   Enhanced ── FxHashMap<ChunkPos, FragmentChunk>       (only chunks with at least one stored block)
//!   FragmentChunk (one 32³ chunk)
//!     present: 32768 bits, one per voxel: "has a stored block"
//!     rank:    blocks before each 64-voxel word       -> block index = rank[w] + popcount(bits below)
//!     bits:    ⌈f³/64⌉ words per block, in voxel order (z, y, x)
//!     materials: one byte per block (the material, or MIXED -> mixed_keys / mixed bytes, f³ each)
//! ```
//!
//! A voxel without a block has `f³` fragments equal to its own class (empty, or solid with its
//! material), so reads need the grid too ([`super::FragmentVolume`]). Stored blocks are the voxels
//! near the surface whose fragments differ from that, which is why memory follows the surface area.
//!
//! **Rationale.** A bit per fragment is as small as a list of surface fragments up to `f = 16` (a
//! block's fragment surface is about `2·f²` fragments, a byte each) and reads in constant time; the
//! rank index answers "which block" in constant time for the lighting walk and the mesher, at 5 KiB
//! per chunk with surface. Updates rebuild a touched chunk's vectors (a few thousand blocks) rather
//! than keeping holes, so equal inputs give equal stores (tests compare incremental and full builds
//! with `==`).

use std::sync::Arc;

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

use super::block::{words_for, BlockView, MIXED};
use super::block_list::{local_key, BlockList};
use super::compute::{compute_box, parts_to_compute, ChunkScratch};
use super::enhancer::Enhancer;
use super::Method;
use crate::progress::Progress;
use crate::storage::Grid;
use crate::voxel::{ChunkPos, MaterialTable, VoxelBox, VoxelPos, CHUNK_SIZE};
use crate::Result;

const VOXELS: usize = CHUNK_SIZE * CHUNK_SIZE * CHUNK_SIZE;
const WORDS: usize = VOXELS / 64;

/// One chunk's stored blocks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FragmentChunk {
    present: Box<[u64; WORDS]>,
    rank: Box<[u16; WORDS]>,
    materials: Vec<u8>,
    bits: Vec<u64>,
    mixed_keys: Vec<u16>,
    mixed: Vec<u8>,
}

impl FragmentChunk {
    /// The chunk of `list`'s blocks (the first of equal keys wins); `None` when it has none.
    fn from_list(list: &BlockList) -> Option<Self> {
        if list.is_empty() {
            return None;
        }
        let mut order: Vec<usize> = (0..list.keys.len()).collect();
        order.sort_by_key(|&i| list.keys[i]);
        order.dedup_by_key(|i| list.keys[*i]);
        let w = list.words;
        let mut c = FragmentChunk {
            present: Box::new([0; WORDS]),
            rank: Box::new([0; WORDS]),
            materials: Vec::with_capacity(order.len()),
            bits: Vec::with_capacity(order.len() * w),
            mixed_keys: Vec::new(),
            mixed: Vec::new(),
        };
        for &i in &order {
            let key = list.keys[i];
            c.present[usize::from(key) / 64] |= 1 << (key % 64);
            c.materials.push(list.materials[i]);
            c.bits.extend_from_slice(&list.bits[i * w..(i + 1) * w]);
            if list.mixed_of[i] != u32::MAX {
                let at = list.mixed_of[i] as usize * list.f3;
                c.mixed_keys.push(key);
                c.mixed.extend_from_slice(&list.mixed[at..at + list.f3]);
            }
        }
        let mut before = 0u16;
        for (r, p) in c.rank.iter_mut().zip(c.present.iter()) {
            *r = before;
            before += p.count_ones() as u16;
        }
        Some(c)
    }

    /// Index of the block of voxel `key`, if stored.
    #[inline]
    fn index(&self, key: u16) -> Option<usize> {
        let (w, b) = (usize::from(key) / 64, key % 64);
        let word = self.present[w];
        if word >> b & 1 == 0 {
            return None;
        }
        Some(usize::from(self.rank[w]) + (word & ((1u64 << b) - 1)).count_ones() as usize)
    }

    #[inline]
    fn view(&self, key: u16, words: usize, f3: usize) -> Option<BlockView<'_>> {
        let i = self.index(key)?;
        let material = self.materials[i];
        let mixed = if material == MIXED {
            let m = self.mixed_keys.binary_search(&key).ok()?;
            &self.mixed[m * f3..(m + 1) * f3]
        } else {
            &[]
        };
        Some(BlockView::Stored {
            bits: &self.bits[i * words..(i + 1) * words],
            material,
            mixed,
        })
    }

    /// Keys of the stored blocks, ascending.
    fn keys(&self) -> impl Iterator<Item = u16> + '_ {
        self.present.iter().enumerate().flat_map(|(w, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                if rest == 0 {
                    return None;
                }
                let b = rest.trailing_zeros();
                rest &= rest - 1;
                Some((w * 64) as u16 + b as u16)
            })
        })
    }

    fn len(&self) -> usize {
        self.materials.len()
    }

    fn heap_bytes(&self) -> usize {
        size_of::<[u64; WORDS]>()
            + size_of::<[u16; WORDS]>()
            + self.materials.capacity()
            + self.bits.capacity() * 8
            + self.mixed_keys.capacity() * 2
            + self.mixed.capacity()
    }
}

/// Counts over an [`Enhanced`] store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EnhanceStats {
    /// Fragments per voxel edge.
    pub factor: u32,
    /// Chunks holding stored blocks.
    pub chunks: usize,
    /// Voxels with a stored block (fragments that differ from their voxel).
    pub blocks: usize,
    /// Stored blocks with more than one material.
    pub mixed_blocks: usize,
    /// Bytes of memory the store uses (chunk structures, blocks and the hash table).
    pub memory_bytes: usize,
}

/// New contents for some chunks: computed from a grid without touching the store, applied at once
/// with [`Enhanced::apply`] (or dropped).
#[derive(Debug)]
pub struct EnhanceUpdate {
    chunks: Vec<(ChunkPos, Option<FragmentChunk>)>,
    affected: Vec<VoxelBox>,
    full: bool,
}

impl EnhanceUpdate {
    /// The voxels whose fragments were recomputed, as boxes (they may overlap). Empty for a full
    /// recomputation of a store without a region ([`EnhanceUpdate::is_full`]).
    pub fn affected(&self) -> &[VoxelBox] {
        &self.affected
    }

    /// True when the update replaces the whole store (every chunk's mesh is dirty).
    pub fn is_full(&self) -> bool {
        self.full
    }

    /// Chunks whose fragment faces ([`super::mesh_fragment_chunk`]) may have changed: those within one
    /// voxel of an affected voxel. Sorted Z, Y, X.
    pub fn dirty_mesh_chunks(&self) -> Vec<ChunkPos> {
        let mut set = FxHashSet::default();
        for b in &self.affected {
            let g = VoxelBox::new(
                VoxelPos::new(b.min.x - 1, b.min.y - 1, b.min.z - 1),
                VoxelPos::new(b.max.x + 1, b.max.y + 1, b.max.z + 1),
            );
            set.extend(g.chunks());
        }
        let mut v: Vec<ChunkPos> = set.into_iter().collect();
        v.sort_unstable_by_key(|p| (p.z, p.y, p.x));
        v
    }
}

/// The enhanced fragments of a grid (or of a region of it): the stored blocks and the enhancer that
/// made them.
#[derive(Debug, Clone)]
pub struct Enhanced {
    enhancer: Arc<Enhancer>,
    region: Option<VoxelBox>,
    chunks: FxHashMap<ChunkPos, FragmentChunk>,
}

impl PartialEq for Enhanced {
    fn eq(&self, other: &Self) -> bool {
        self.region == other.region
            && self.enhancer.method() == other.enhancer.method()
            && self.chunks == other.chunks
    }
}

impl Enhanced {
    /// An empty store for `method` over `region` (the whole grid when `None`).
    ///
    /// # Errors
    /// [`crate::Error::Invalid`] for a parameter out of range or an empty region.
    pub fn new(table: &MaterialTable, method: &Method, region: Option<VoxelBox>) -> Result<Self> {
        if region.is_some_and(|r| r.is_empty()) {
            return Err(crate::Error::Invalid("the enhancement box is empty".into()));
        }
        Ok(Self::with_enhancer(
            Arc::new(Enhancer::new(method, table)?),
            region,
        ))
    }

    /// An empty store sharing `enhancer`.
    pub fn with_enhancer(enhancer: Arc<Enhancer>, region: Option<VoxelBox>) -> Self {
        Self {
            enhancer,
            region,
            chunks: FxHashMap::default(),
        }
    }

    /// Enhance `grid` (or `region` of it): chunks in parallel, one progress unit per chunk.
    ///
    /// # Errors
    /// As [`Enhanced::new`], and [`crate::Error::Cancelled`].
    pub fn build(
        grid: &Grid,
        table: &MaterialTable,
        method: &Method,
        region: Option<VoxelBox>,
        progress: &Progress,
    ) -> Result<Self> {
        let mut e = Self::new(table, method, region)?;
        let update = e.compute_all(grid, progress)?;
        e.apply(update);
        Ok(e)
    }

    /// The enhancer (shareable with a worker thread).
    pub fn enhancer(&self) -> &Arc<Enhancer> {
        &self.enhancer
    }

    /// Fragments per voxel edge.
    pub fn factor(&self) -> usize {
        self.enhancer.factor()
    }

    /// The region enhanced (`None`: the whole grid).
    pub fn region(&self) -> Option<VoxelBox> {
        self.region
    }

    /// The chunks of the region that can hold surface voxels: stored chunks and their 26 neighbours
    /// (an empty chunk can grow fragments next to a solid one), less chunks whose whole neighbourhood
    /// is one class. Sorted Z, Y, X.
    pub fn chunks_to_compute(&self, grid: &Grid) -> Vec<ChunkPos> {
        let mut set: FxHashSet<ChunkPos> = FxHashSet::default();
        for (p, _) in grid.chunks() {
            for dz in -1..=1 {
                for dy in -1..=1 {
                    for dx in -1..=1 {
                        set.insert(ChunkPos::new(p.x + dx, p.y + dy, p.z + dz));
                    }
                }
            }
        }
        let mut v: Vec<ChunkPos> = set
            .into_iter()
            .filter(|p| {
                self.region
                    .is_none_or(|r| !r.intersect(&p.voxel_box()).is_empty())
            })
            .filter(|&p| !parts_to_compute(&self.enhancer, grid, p, p.voxel_box()).is_empty())
            .collect();
        v.sort_unstable_by_key(|p| (p.z, p.y, p.x));
        v
    }

    /// The voxels of chunk `pos` inside the region.
    pub fn part(&self, pos: ChunkPos) -> VoxelBox {
        match self.region {
            Some(r) => r.intersect(&pos.voxel_box()),
            None => pos.voxel_box(),
        }
    }

    /// The whole store recomputed from `grid`, as an update that replaces every chunk.
    ///
    /// # Errors
    /// [`crate::Error::Cancelled`].
    pub fn compute_all(&self, grid: &Grid, progress: &Progress) -> Result<EnhanceUpdate> {
        let todo = self.chunks_to_compute(grid);
        progress.start(todo.len() as u64);
        let f = self.factor();
        let computed: Vec<(ChunkPos, Option<FragmentChunk>)> = todo
            .par_iter()
            .map_init(ChunkScratch::default, |s, &pos| {
                progress.check()?;
                let mut list = BlockList::new(f);
                for part in parts_to_compute(&self.enhancer, grid, pos, self.part(pos)) {
                    compute_box(&self.enhancer, grid, part, s, &mut list);
                }
                progress.advance(1);
                Ok((pos, FragmentChunk::from_list(&list)))
            })
            .collect::<Result<_>>()?;
        let mut chunks: Vec<(ChunkPos, Option<FragmentChunk>)> =
            self.chunks.keys().map(|&p| (p, None)).collect();
        chunks.extend(computed);
        Ok(EnhanceUpdate {
            chunks,
            affected: self.region.map_or_else(Vec::new, |r| vec![r]),
            full: true,
        })
    }

    /// New contents for the chunks an edit of box `changed` touches: exactly the voxels whose
    /// dependency window meets `changed` (within the region) are recomputed. Reads `grid` after the
    /// edit; the store itself is not changed.
    pub fn compute(&self, grid: &Grid, changed: VoxelBox) -> EnhanceUpdate {
        let affected: Vec<VoxelBox> = self
            .enhancer
            .window()
            .affected(changed)
            .into_iter()
            .map(|b| self.region.map_or(b, |r| r.intersect(&b)))
            .filter(|b| !b.is_empty())
            .collect();
        let mut touched: Vec<ChunkPos> = affected.iter().flat_map(|b| b.chunks()).collect();
        touched.sort_unstable_by_key(|p| (p.z, p.y, p.x));
        touched.dedup();
        let f = self.factor();
        let one = |s: &mut ChunkScratch, pos: ChunkPos| {
            let parts: Vec<VoxelBox> = affected
                .iter()
                .map(|b| b.intersect(&pos.voxel_box()))
                .filter(|b| !b.is_empty())
                .collect();
            let mut list = BlockList::new(f);
            for part in &parts {
                compute_box(&self.enhancer, grid, *part, s, &mut list);
            }
            if let Some(old) = self.chunks.get(&pos) {
                let (words, f3) = (words_for(f), f * f * f);
                let origin = pos.min_voxel();
                for key in old.keys() {
                    let k = usize::from(key);
                    let p = VoxelPos::new(
                        origin.x + (k % CHUNK_SIZE) as i32,
                        origin.y + (k / CHUNK_SIZE % CHUNK_SIZE) as i32,
                        origin.z + (k / (CHUNK_SIZE * CHUNK_SIZE)) as i32,
                    );
                    if !parts.iter().any(|b| b.contains(p)) {
                        if let Some(view) = old.view(key, words, f3) {
                            list.push_view(key, view);
                        }
                    }
                }
            }
            (pos, FragmentChunk::from_list(&list))
        };
        let chunks = if touched.len() <= 8 {
            let mut s = ChunkScratch::default();
            touched.iter().map(|&p| one(&mut s, p)).collect()
        } else {
            touched
                .par_iter()
                .map_init(ChunkScratch::default, |s, &p| one(s, p))
                .collect()
        };
        EnhanceUpdate {
            chunks,
            affected,
            full: false,
        }
    }

    /// Replace the chunks `update` holds.
    pub fn apply(&mut self, update: EnhanceUpdate) {
        for (pos, chunk) in update.chunks {
            match chunk {
                Some(c) => {
                    self.chunks.insert(pos, c);
                }
                None => {
                    self.chunks.remove(&pos);
                }
            }
        }
    }

    /// Follow an edit of box `changed` in `grid` (already applied to the grid); returns the update's
    /// dirty fragment-mesh chunks.
    pub fn update(&mut self, grid: &Grid, changed: VoxelBox) -> Vec<ChunkPos> {
        let update = self.compute(grid, changed);
        let dirty = update.dirty_mesh_chunks();
        self.apply(update);
        dirty
    }

    /// The fragments of voxel `p`, whose own class is `implicit`.
    #[inline]
    pub(crate) fn block(&self, p: VoxelPos, implicit: u8) -> BlockView<'_> {
        let f = self.factor();
        self.chunks
            .get(&p.chunk())
            .and_then(|c| c.view(local_key(p), words_for(f), f * f * f))
            .unwrap_or(BlockView::Uniform(implicit))
    }

    /// True when chunk `pos` holds a stored block.
    pub fn has_blocks(&self, pos: ChunkPos) -> bool {
        self.chunks.contains_key(&pos)
    }

    /// Chunks holding stored blocks, sorted Z, Y, X.
    pub fn chunk_positions(&self) -> Vec<ChunkPos> {
        let mut v: Vec<ChunkPos> = self.chunks.keys().copied().collect();
        v.sort_unstable_by_key(|p| (p.z, p.y, p.x));
        v
    }

    /// Counts and memory.
    pub fn stats(&self) -> EnhanceStats {
        let slot = size_of::<(ChunkPos, FragmentChunk)>() + 1;
        EnhanceStats {
            factor: self.factor() as u32,
            chunks: self.chunks.len(),
            blocks: self.chunks.values().map(FragmentChunk::len).sum(),
            mixed_blocks: self.chunks.values().map(|c| c.mixed_keys.len()).sum(),
            memory_bytes: self.chunks.capacity() * slot
                + self
                    .chunks
                    .values()
                    .map(FragmentChunk::heap_bytes)
                    .sum::<usize>(),
        }
    }

    /// Check the store's invariants: ranks match the presence bits, sizes match, mixed blocks are
    /// exactly the blocks marked mixed, no chunk is empty.
    ///
    /// # Panics
    /// On any violated invariant.
    pub fn assert_valid(&self) {
        let f = self.factor();
        let (words, f3) = (words_for(f), f * f * f);
        for (pos, c) in &self.chunks {
            let n = c.len();
            assert!(n > 0, "chunk {pos:?} is stored empty");
            assert_eq!(c.bits.len(), n * words, "chunk {pos:?}: bit words");
            let mut before = 0usize;
            for w in 0..WORDS {
                assert_eq!(usize::from(c.rank[w]), before, "chunk {pos:?}: rank {w}");
                before += c.present[w].count_ones() as usize;
            }
            assert_eq!(before, n, "chunk {pos:?}: presence bits");
            let marked: Vec<u16> = c
                .keys()
                .filter(|&k| c.index(k).is_some_and(|i| c.materials[i] == MIXED))
                .collect();
            assert_eq!(marked, c.mixed_keys, "chunk {pos:?}: mixed blocks");
            assert_eq!(c.mixed.len(), c.mixed_keys.len() * f3);
            if let Some(r) = self.region {
                let origin = pos.min_voxel();
                for key in c.keys() {
                    let k = usize::from(key);
                    let p = VoxelPos::new(
                        origin.x + (k % CHUNK_SIZE) as i32,
                        origin.y + (k / CHUNK_SIZE % CHUNK_SIZE) as i32,
                        origin.z + (k / (CHUNK_SIZE * CHUNK_SIZE)) as i32,
                    );
                    assert!(
                        r.contains(p),
                        "chunk {pos:?}: block at {p:?} outside the region"
                    );
                }
            }
        }
    }
}
