//! Where the broadphase keeps its cells: 4³-cell *blocks* (32³ voxels) in a hash map, each block a
//! run of 64 slot words, so a query probes the hash once per block rather than once per cell.
//!
//! ```text
//!   blocks: FxHashMap<block pos, block number>      block pos = cell pos >> 2
//!   slots:  [u32; 64] per block, index (z & 3) * 16 + (y & 3) * 4 + (x & 3)
//!           0 = nothing stored, 1 = all solid, 2 = all water, else masks[(n & INDEX) - 3], with
//!           HAS_SOLID / HAS_WATER set when that mask has any bit (so a dry cell's query never
//!           loads its water mask's cache line)
//!   masks:  CellMasks side by side (no box, no tag: a slot word leads straight to its two cache
//!           lines); freed ones are zeroed and sit on `free`
//!   dense:  block number + 1 (0 = none) for every block position in the blocks' bounding box, so a
//!           query finds a block with one array read; left empty when that box would be far larger
//!           than the blocks themselves (an outlier edit far away), and then the map answers
//! ```
//!
//! # Rationale
//! A query for a 4³–16³ box covers 1–64 cells but almost always only 1–8 blocks, and the slots of a
//! block sit on four cache lines: fewer hash probes and fewer cache misses than one map entry per
//! cell. A slot is four bytes, so a block costs 256 bytes, less than the 33 bytes per cell of a hash
//! slot once a block holds eight cells (surface blocks hold far more).

use rustc_hash::FxHashMap;

use super::{CellBits, CellEntry, CellMasks};

/// log2 of the block edge in physics cells.
pub(super) const BLOCK_BITS: u32 = 2;
/// Cell slots per block.
const BLOCK_SLOTS: usize = 1 << (3 * BLOCK_BITS);
/// Slot word: nothing stored.
pub(super) const EMPTY: u32 = 0;
/// Slot word: the cell is tagged all solid.
pub(super) const SOLID: u32 = 1;
/// Slot word: the cell is tagged all water.
pub(super) const WATER: u32 = 2;
/// Slot words from here on index `masks` (minus this).
pub(super) const FIRST_MASK: u32 = 3;
/// Slot word flag: the solid mask has a set bit.
pub(super) const HAS_SOLID: u32 = 1 << 30;
/// Slot word flag: the water mask has a set bit.
pub(super) const HAS_WATER: u32 = 1 << 31;
/// Slot word bits holding the mask index (plus `FIRST_MASK`).
const INDEX: u32 = HAS_SOLID - 1;

/// The `masks` index of a mask slot word.
#[inline]
fn mask_index(slot: u32) -> usize {
    ((slot & INDEX) - FIRST_MASK) as usize
}

/// A block position as a hash-map key: hashed as one word (`[i32; 3]` would feed the hasher a
/// length and twelve bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Key([i32; 3]);

impl std::hash::Hash for Key {
    #[inline]
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let [x, y, z] = self.0.map(|c| u64::from(c as u32));
        state.write_u64(x ^ (y << 21) ^ (z << 42) ^ (z >> 22));
    }
}

/// The block holding a cell, per axis.
#[inline]
pub(super) fn block_of(cell: i32) -> i32 {
    cell >> BLOCK_BITS
}

/// The slot of a cell inside its block.
#[inline]
pub(super) fn slot_in_block(cell_pos: [i32; 3]) -> usize {
    let m = (1 << BLOCK_BITS) - 1;
    let [x, y, z] = cell_pos.map(|c| (c & m) as usize);
    (((z << BLOCK_BITS) | y) << BLOCK_BITS) | x
}

/// The cell entries of a broadphase (see the module docs).
#[derive(Debug, Clone, Default)]
pub(super) struct CellStore {
    blocks: FxHashMap<Key, u32>,
    slots: Vec<u32>,
    masks: Vec<CellMasks>,
    free: Vec<u32>,
    len: usize,
    dense: Vec<u32>,
    dense_min: [i32; 3],
    dense_size: [u32; 3],
    bulk: bool,
}

/// The dense block index may hold this many entries per stored block (plus a fixed allowance).
const DENSE_PER_BLOCK: u64 = 16;
/// Dense block index entries always allowed.
const DENSE_ALLOWANCE: u64 = 1 << 14;

/// The slot flags of a mask.
fn mask_flags(m: &CellMasks) -> u32 {
    let any = |k: &[u64; 8]| k.iter().any(|&w| w != 0);
    (if any(&m.solid) { HAS_SOLID } else { 0 }) | (if any(&m.water) { HAS_WATER } else { 0 })
}

impl CellStore {
    /// Drop every entry (keeps the allocations).
    pub(super) fn clear(&mut self) {
        self.blocks.clear();
        self.slots.clear();
        self.masks.clear();
        self.free.clear();
        self.len = 0;
        self.dense.clear();
        self.dense_size = [0; 3];
    }

    /// Number of stored cells.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Number of blocks.
    pub(super) fn block_count(&self) -> usize {
        self.blocks.len()
    }

    /// Whether the dense index answers [`Self::block_base`] (no hashing).
    #[inline]
    pub(super) fn is_dense(&self) -> bool {
        !self.dense.is_empty()
    }

    /// The first slot index of the block at `block_pos`, if it exists.
    #[inline]
    pub(super) fn block_base(&self, block_pos: [i32; 3]) -> Option<usize> {
        if self.dense.is_empty() {
            return self
                .blocks
                .get(&Key(block_pos))
                .map(|&b| b as usize * BLOCK_SLOTS);
        }
        let d: [u32; 3] =
            std::array::from_fn(|a| block_pos[a].wrapping_sub(self.dense_min[a]) as u32);
        let [sx, sy, sz] = self.dense_size;
        if d[0] >= sx || d[1] >= sy || d[2] >= sz {
            return None;
        }
        let n = self.dense
            [((d[2] as usize * sy as usize) + d[1] as usize) * sx as usize + d[0] as usize];
        n.checked_sub(1).map(|b| b as usize * BLOCK_SLOTS)
    }

    /// Start many insertions: the dense index is rebuilt once by [`Self::end_bulk`].
    pub(super) fn begin_bulk(&mut self) {
        self.bulk = true;
    }

    /// End [`Self::begin_bulk`]: index every block.
    pub(super) fn end_bulk(&mut self) {
        self.bulk = false;
        self.masks.shrink_to_fit();
        self.slots.shrink_to_fit();
        self.reindex();
    }

    /// Enter a new block in the dense index (rebuilding it when the block lies outside).
    fn index_new_block(&mut self, block_pos: [i32; 3], n: u32) {
        if self.bulk {
            return;
        }
        let d: [u32; 3] =
            std::array::from_fn(|a| block_pos[a].wrapping_sub(self.dense_min[a]) as u32);
        let [sx, sy, sz] = self.dense_size;
        if !self.dense.is_empty() && d[0] < sx && d[1] < sy && d[2] < sz {
            self.dense
                [((d[2] as usize * sy as usize) + d[1] as usize) * sx as usize + d[0] as usize] =
                n + 1;
        } else {
            self.reindex();
        }
    }

    /// Make `dense` index every block (or leave it empty when the bounding box is too big).
    fn reindex(&mut self) {
        self.dense.clear();
        self.dense_size = [0; 3];
        let mut lo = [i32::MAX; 3];
        let mut hi = [i32::MIN; 3];
        for Key(b) in self.blocks.keys() {
            for a in 0..3 {
                lo[a] = lo[a].min(b[a]);
                hi[a] = hi[a].max(b[a]);
            }
        }
        if self.blocks.is_empty() {
            return;
        }
        let size: [u64; 3] =
            std::array::from_fn(|a| (i64::from(hi[a]) - i64::from(lo[a]) + 1) as u64);
        let volume = size.iter().fold(1u64, |v, &s| v.saturating_mul(s));
        let limit = DENSE_ALLOWANCE + DENSE_PER_BLOCK * self.blocks.len() as u64;
        if volume > limit {
            return;
        }
        self.dense_min = lo;
        self.dense_size = size.map(|s| s as u32);
        self.dense.resize(volume as usize, 0);
        let [sx, sy, _] = size.map(|s| s as usize);
        for (Key(b), &n) in &self.blocks {
            let d: [usize; 3] = std::array::from_fn(|a| (b[a] - lo[a]) as usize);
            self.dense[(d[2] * sy + d[1]) * sx + d[0]] = n + 1;
        }
    }

    /// The slot word at `index` (a block base plus [`slot_in_block`]).
    #[inline]
    pub(super) fn slot(&self, index: usize) -> u32 {
        self.slots[index]
    }

    /// The masks a slot word `>= FIRST_MASK` points at.
    #[inline]
    pub(super) fn masks_of(&self, slot: u32) -> &CellMasks {
        &self.masks[mask_index(slot)]
    }

    /// The entry a slot word stands for.
    fn bits_of(&self, slot: u32) -> Option<CellBits<'_>> {
        match slot {
            EMPTY => None,
            SOLID => Some(CellBits::Solid),
            WATER => Some(CellBits::Water),
            n => self.masks.get(mask_index(n)).map(CellBits::Masks),
        }
    }

    /// The entry of one cell.
    pub(super) fn get(&self, cell_pos: [i32; 3]) -> Option<CellBits<'_>> {
        let base = self.block_base(cell_pos.map(block_of))?;
        self.bits_of(self.slots[base + slot_in_block(cell_pos)])
    }

    /// Store `bits` for a cell (`None` removes it).
    pub(super) fn set(&mut self, cell_pos: [i32; 3], bits: Option<CellEntry>) {
        let block_pos = cell_pos.map(block_of);
        let base = match (self.block_base(block_pos), &bits) {
            (Some(base), _) => base,
            (None, None) => return,
            (None, Some(_)) => {
                let n = (self.slots.len() / BLOCK_SLOTS) as u32;
                self.blocks.insert(Key(block_pos), n);
                self.slots.resize(self.slots.len() + BLOCK_SLOTS, EMPTY);
                self.index_new_block(block_pos, n);
                n as usize * BLOCK_SLOTS
            }
        };
        let index = base + slot_in_block(cell_pos);
        let old = self.slots[index];
        if old >= FIRST_MASK {
            let i = mask_index(old);
            self.masks[i] = CellMasks::default();
            self.free.push(i as u32);
        }
        self.len -= usize::from(old != EMPTY);
        self.len += usize::from(bits.is_some());
        self.slots[index] = match bits {
            None => EMPTY,
            Some(CellEntry::Solid) => SOLID,
            Some(CellEntry::Water) => WATER,
            Some(CellEntry::Masks(m)) => {
                let flags = mask_flags(&m);
                let i = match self.free.pop() {
                    Some(i) => {
                        self.masks[i as usize] = m;
                        i
                    }
                    None => {
                        // 2^30 masks would be 128 GiB: far past any world this runs on.
                        assert!(
                            self.masks.len() < (INDEX - FIRST_MASK) as usize,
                            "too many masks"
                        );
                        self.masks.push(m);
                        self.masks.len() as u32 - 1
                    }
                };
                (i + FIRST_MASK) | flags
            }
        };
    }

    /// Every stored cell with its entry, in no particular order.
    pub(super) fn iter(&self) -> impl Iterator<Item = ([i32; 3], CellBits<'_>)> + '_ {
        self.blocks.iter().flat_map(move |(&Key(b), &n)| {
            let base = n as usize * BLOCK_SLOTS;
            (0..BLOCK_SLOTS).filter_map(move |i| {
                let bits = self.bits_of(self.slots[base + i])?;
                let m = (1 << BLOCK_BITS) - 1;
                let local = [i & m, (i >> BLOCK_BITS) & m, i >> (2 * BLOCK_BITS)];
                let pos = std::array::from_fn(|a| (b[a] << BLOCK_BITS) | local[a] as i32);
                Some((pos, bits))
            })
        })
    }

    /// Stored cells whose slot word is a mask index.
    pub(super) fn masked_count(&self) -> usize {
        self.masks.len() - self.free.len()
    }

    /// Heap bytes of the map, slots, free list and dense index (the masks excluded).
    pub(super) fn table_bytes(&self) -> usize {
        self.blocks.capacity() * (size_of::<(Key, u32)>() + 1)
            + self.slots.capacity() * size_of::<u32>()
            + (self.masks.capacity() - self.masked_count()) * size_of::<CellMasks>()
            + self.free.capacity() * size_of::<u32>()
            + self.dense.capacity() * size_of::<u32>()
    }

    /// Check the bookkeeping: every mask entry referenced by exactly one slot or free, never both,
    /// freed entries zeroed, every block indexed, and the count matches.
    ///
    /// # Panics
    /// On any violated invariant.
    pub(super) fn assert_valid(&self) {
        assert_eq!(
            self.slots.len(),
            self.blocks.len() * BLOCK_SLOTS,
            "slot count"
        );
        let mut seen = vec![0u8; self.masks.len()];
        let mut stored = 0;
        for &s in &self.slots {
            stored += usize::from(s != EMPTY);
            if s >= FIRST_MASK {
                let i = mask_index(s);
                assert!(i < self.masks.len(), "slot {s} out of range");
                assert_eq!(s & !INDEX, mask_flags(&self.masks[i]), "slot {s} flags");
                seen[i] += 1;
            }
        }
        for &f in &self.free {
            seen[f as usize] += 1;
            assert_eq!(self.masks[f as usize], CellMasks::default(), "freed {f}");
        }
        assert!(seen.iter().all(|&n| n == 1), "mask entries leak or alias");
        assert_eq!(stored, self.len, "stored cell count");
        for (Key(b), &n) in &self.blocks {
            let base = n as usize * BLOCK_SLOTS;
            assert_eq!(self.block_base(*b), Some(base), "block {b:?} not indexed");
        }
        let indexed = self.dense.iter().filter(|&&n| n != 0).count();
        assert!(
            self.dense.is_empty() || indexed == self.blocks.len(),
            "stray dense entries"
        );
    }
}
