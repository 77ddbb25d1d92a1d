//! The paper's single table "of arbitrary detail": an approximation, offered only on request.
//!
//! The paper suggests mapping the 7-bit window of a voxel (itself and its six face neighbours) straight
//! to its whole block of fragments at any depth. One level depends only on those 7 bits, but from the
//! second level on, a voxel's fragments also depend on its 12 edge and 8 corner neighbours (see
//! `mod.rs`), which the 7 bits do not hold. This table guesses them: an edge neighbour is the majority
//! of the centre and the two face neighbours beside it, a corner neighbour the majority of the three
//! face neighbours beside it. Where the real neighbourhood agrees with the guess the result is exact;
//! elsewhere it differs. It is never the default.
//!
//! Each table is built by running the exact subdivision on the guessed 3×3×3 neighbourhood, once per
//! threshold pair in use (at most 16), and is `128 × ⌈f³/64⌉` words.

use super::block::words_for;
use super::rules::SubdivideRules;
use super::subdivide::{subdivide, Scratch};
use crate::voxel::EnhanceThreshold;

/// Fragment blocks of all 128 windows, for every threshold pair.
#[derive(Debug, Clone)]
pub(crate) struct ApproxTables {
    words: usize,
    /// `(thresholds, 128 blocks of words)`.
    tables: Vec<(EnhanceThreshold, Vec<u64>)>,
}

/// The guessed 3×3×3 neighbourhood of window `w` (bit 0 centre, 1..6 = −x, +x, −y, +y, −z, +z),
/// inside a 5³ box with a pad ring.
fn guessed_neighbourhood(w: u8) -> Vec<u8> {
    let bit = |b: u8| (w >> b) & 1;
    let face = |axis: usize, d: i32| -> u8 {
        match d {
            -1 => bit(1 + 2 * axis as u8),
            1 => bit(2 + 2 * axis as u8),
            _ => bit(0),
        }
    };
    let mut cells = vec![0u8; 125];
    for z in -1..=1i32 {
        for y in -1..=1i32 {
            for x in -1..=1i32 {
                let d = [x, y, z];
                let off: Vec<usize> = (0..3).filter(|&a| d[a] != 0).collect();
                let v = match off.len() {
                    0 => bit(0),
                    1 => face(off[0], d[off[0]]),
                    2 => majority(bit(0), face(off[0], d[off[0]]), face(off[1], d[off[1]])),
                    _ => majority(face(0, x), face(1, y), face(2, z)),
                };
                cells[((z + 2) * 25 + (y + 2) * 5 + x + 2) as usize] = v;
            }
        }
    }
    cells
}

fn majority(a: u8, b: u8, c: u8) -> u8 {
    u8::from(a + b + c >= 2)
}

impl ApproxTables {
    /// Tables for `levels` and each of `thresholds`.
    pub fn new(levels: u32, thresholds: &[EnhanceThreshold]) -> Self {
        let f = 1usize << levels;
        let words = words_for(f);
        let mut scratch = Scratch::default();
        let mut frags = Vec::new();
        let mut tables = Vec::new();
        for &t in thresholds {
            if tables.iter().any(|(k, _)| *k == t) {
                continue;
            }
            let rules = SubdivideRules::uniform(t);
            let mut blocks = vec![0u64; 128 * words];
            for w in 0..128u8 {
                let cells = guessed_neighbourhood(w);
                subdivide(&cells, [5; 3], 0, levels, &rules, &mut scratch, &mut frags);
                let block = &mut blocks[usize::from(w) * words..(usize::from(w) + 1) * words];
                for (at, &c) in frags.iter().enumerate() {
                    if c != 0 {
                        block[at / 64] |= 1 << (at % 64);
                    }
                }
            }
            tables.push((t, blocks));
        }
        Self { words, tables }
    }

    /// The block bits of window `w` under thresholds `t` (which must be one the tables were built
    /// for).
    ///
    /// # Panics
    /// If `t` is not among the tables' thresholds (a caller bug).
    pub fn block(&self, t: EnhanceThreshold, w: u8) -> &[u64] {
        let (_, blocks) = self
            .tables
            .iter()
            .find(|(k, _)| *k == t)
            .unwrap_or_else(|| panic!("no approximate table for {t:?}"));
        let w = usize::from(w & 0x7f);
        &blocks[w * self.words..(w + 1) * self.words]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::enhance::rules::plain_table;

    #[test]
    fn one_level_is_the_plain_table() {
        for t in 1..=4 {
            let table = ApproxTables::new(1, &[EnhanceThreshold::uniform(t)]);
            let plain = plain_table(t);
            for w in 0..128u8 {
                let b = table.block(EnhanceThreshold::uniform(t), w);
                assert_eq!(b[0], u64::from(plain[usize::from(w)]), "t {t} w {w:07b}");
            }
        }
    }

    #[test]
    fn uniform_windows_give_uniform_blocks() {
        let table = ApproxTables::new(3, &[EnhanceThreshold { even: 3, odd: 4 }]);
        let t = EnhanceThreshold { even: 3, odd: 4 };
        assert!(table.block(t, 127).iter().all(|&w| w == u64::MAX));
        assert!(table.block(t, 0).iter().all(|&w| w == 0));
    }
}
