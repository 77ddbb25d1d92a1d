//! A least-recently-used cache of per-cell data under a byte budget.
//!
//! Narrowphase data (a cell's mesh and kD tree) is built lazily the first time a body or a ray needs
//! it, kept while it is used, and dropped when the budget is exceeded or the cell is edited:
//!
//! ```text
//!   get(pos)           hit: mark most recent        miss: caller builds, then insert(pos, value, bytes)
//!   insert             evict least recent entries until used + bytes <= budget
//!   invalidate_box     edit: drop every entry in a cell range
//! ```
//!
//! Recency is a counter stamped on each use; a `BTreeMap` from stamp to key finds the oldest entry in
//! logarithmic time.

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;

/// One cached value with its size and last-use stamp.
#[derive(Debug, Clone)]
struct Entry<V> {
    value: V,
    bytes: usize,
    stamp: u64,
}

/// An LRU cache keyed by cell position, generic over the value (see the module docs).
#[derive(Debug, Clone)]
pub struct CellCache<V> {
    budget_bytes: usize,
    used_bytes: usize,
    clock: u64,
    entries: FxHashMap<[i32; 3], Entry<V>>,
    by_age: BTreeMap<u64, [i32; 3]>,
}

impl<V> CellCache<V> {
    /// An empty cache holding at most `budget_bytes` (as reported to [`CellCache::insert`]).
    pub fn new(budget_bytes: usize) -> Self {
        Self {
            budget_bytes,
            used_bytes: 0,
            clock: 0,
            entries: FxHashMap::default(),
            by_age: BTreeMap::new(),
        }
    }

    /// The byte budget.
    pub fn budget_bytes(&self) -> usize {
        self.budget_bytes
    }

    /// Bytes of the cached values.
    pub fn used_bytes(&self) -> usize {
        self.used_bytes
    }

    /// Number of cached cells.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// True when `cell_pos` is cached (does not count as a use).
    pub fn contains(&self, cell_pos: [i32; 3]) -> bool {
        self.entries.contains_key(&cell_pos)
    }

    fn tick(&mut self) -> u64 {
        self.clock += 1;
        self.clock
    }

    /// The value for `cell_pos`, marking it most recently used.
    pub fn get(&mut self, cell_pos: [i32; 3]) -> Option<&V> {
        let stamp = self.tick();
        let e = self.entries.get_mut(&cell_pos)?;
        self.by_age.remove(&e.stamp);
        self.by_age.insert(stamp, cell_pos);
        e.stamp = stamp;
        Some(&e.value)
    }

    /// Cache `value` (of `bytes` bytes) for `cell_pos`, replacing any old value and evicting the least
    /// recently used entries until it fits. A value larger than the whole budget is not stored and is
    /// handed back.
    pub fn insert(&mut self, cell_pos: [i32; 3], value: V, bytes: usize) -> Option<V> {
        self.invalidate(cell_pos);
        if bytes > self.budget_bytes {
            return Some(value);
        }
        while self.used_bytes + bytes > self.budget_bytes {
            let Some((_, oldest)) = self.by_age.pop_first() else {
                break;
            };
            if let Some(e) = self.entries.remove(&oldest) {
                self.used_bytes -= e.bytes;
            }
        }
        let stamp = self.tick();
        self.by_age.insert(stamp, cell_pos);
        self.entries.insert(
            cell_pos,
            Entry {
                value,
                bytes,
                stamp,
            },
        );
        self.used_bytes += bytes;
        None
    }

    /// Drop the entry of `cell_pos` (after an edit); returns its value.
    pub fn invalidate(&mut self, cell_pos: [i32; 3]) -> Option<V> {
        let e = self.entries.remove(&cell_pos)?;
        self.by_age.remove(&e.stamp);
        self.used_bytes -= e.bytes;
        Some(e.value)
    }

    /// Drop every entry with `min[a] <= pos[a] <= max[a]` on all axes (after an edit of that region).
    pub fn invalidate_box(&mut self, min: [i32; 3], max: [i32; 3]) {
        let inside = |p: &[i32; 3]| (0..3).all(|a| p[a] >= min[a] && p[a] <= max[a]);
        let doomed: Vec<[i32; 3]> = self.entries.keys().filter(|p| inside(p)).copied().collect();
        for p in doomed {
            self.invalidate(p);
        }
    }

    /// Drop everything.
    pub fn clear(&mut self) {
        self.entries.clear();
        self.by_age.clear();
        self.used_bytes = 0;
    }

    /// Check the byte count, the budget and the age index.
    ///
    /// # Panics
    /// On any violated invariant.
    pub fn assert_valid(&self) {
        let sum: usize = self.entries.values().map(|e| e.bytes).sum();
        assert_eq!(sum, self.used_bytes, "used bytes");
        assert!(self.used_bytes <= self.budget_bytes, "over budget");
        assert_eq!(self.by_age.len(), self.entries.len(), "age index size");
        for (stamp, pos) in &self.by_age {
            let e = self.entries.get(pos).map(|e| e.stamp);
            assert_eq!(e, Some(*stamp), "age index entry {pos:?}");
            assert!(*stamp <= self.clock, "stamp from the future");
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    #[test]
    fn evicts_least_recently_used() {
        let mut c = CellCache::new(100);
        assert_eq!(c.insert([0, 0, 0], "a", 40), None);
        assert_eq!(c.insert([1, 0, 0], "b", 40), None);
        assert_eq!(c.get([0, 0, 0]), Some(&"a"));
        assert_eq!(c.insert([2, 0, 0], "c", 40), None);
        c.assert_valid();
        assert!(c.contains([0, 0, 0]) && c.contains([2, 0, 0]));
        assert!(!c.contains([1, 0, 0]), "b was the least recently used");
        assert_eq!(c.insert([3, 0, 0], "big", 101), Some("big"));
        assert_eq!(c.used_bytes(), 80);
        c.invalidate_box([-1, 0, 0], [0, 5, 5]);
        assert!(!c.contains([0, 0, 0]));
        assert_eq!(c.len(), 1);
        c.assert_valid();
    }

    #[test]
    fn random_operations_match_a_reference() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut c = CellCache::new(1000);
        // Reference: (pos, value, bytes, last use), in insertion order.
        let mut reference: Vec<([i32; 3], u32, usize, u64)> = Vec::new();
        let mut now = 0u64;
        for step in 0..4000u32 {
            now += 1;
            let pos = [rng.random_range(0..6), 0, rng.random_range(0..6)];
            match rng.random_range(0..4) {
                0 | 1 => {
                    let bytes = rng.random_range(1..300);
                    c.insert(pos, step, bytes);
                    reference.retain(|e| e.0 != pos);
                    while reference.iter().map(|e| e.2).sum::<usize>() + bytes > 1000 {
                        let oldest = (0..reference.len())
                            .min_by_key(|&i| reference[i].3)
                            .expect("non-empty while over budget");
                        reference.remove(oldest);
                    }
                    reference.push((pos, step, bytes, now));
                }
                2 => {
                    let want = reference.iter_mut().find(|e| e.0 == pos).map(|e| {
                        e.3 = now;
                        e.1
                    });
                    assert_eq!(c.get(pos).copied(), want);
                }
                _ => {
                    c.invalidate(pos);
                    reference.retain(|e| e.0 != pos);
                }
            }
            c.assert_valid();
            assert_eq!(c.len(), reference.len());
        }
    }
}
