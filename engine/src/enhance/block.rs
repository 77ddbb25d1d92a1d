//! One voxel's fragments (`f³`, `f` = the factor), packed: a bit per fragment plus its material.
//!
//! ```text
//!   fragment (i, j, k) of the block  ->  bit (k·f + j)·f + i  of the block's u64 words
//!   row (j, k) = f consecutive bits (at most 16), read with one or two word loads
//!   material: the one material of every solid fragment, or MIXED -> f³ material bytes kept apart
//! ```
//!
//! Nearly every stored block has one material (fragments carry their source voxel's material; only
//! an empty source between solid voxels of several materials mixes them), so a block costs
//! `⌈f³ / 64⌉` words and a byte.

use super::bytes::{nonzero_bits, one_value, word};

/// Marks a block whose solid fragments have more than one material.
pub(crate) const MIXED: u8 = 0xff;

/// u64 words per block of factor `f`.
pub(crate) const fn words_for(f: usize) -> usize {
    (f * f * f).div_ceil(64)
}

/// A read-only view of one voxel's fragments.
#[derive(Debug, Clone, Copy)]
pub(crate) enum BlockView<'a> {
    /// Every fragment is this class byte (0 empty, else the material): a voxel with no stored block.
    Uniform(u8),
    /// A stored block.
    Stored {
        /// `words_for(f)` words of fragment bits.
        bits: &'a [u64],
        /// The single material, or [`MIXED`].
        material: u8,
        /// Per-fragment materials when `material == MIXED`.
        mixed: &'a [u8],
    },
}

/// `n` bits (`n ≤ 32`) of `words` starting at bit `at`.
#[inline]
pub(crate) fn bits_at(words: &[u64], at: usize, n: usize) -> u32 {
    let (w, b) = (at / 64, at % 64);
    let mut v = words[w] >> b;
    if b + n > 64 {
        v |= words[w + 1] << (64 - b);
    }
    (v & ((1u64 << n) - 1)) as u32
}

impl BlockView<'_> {
    /// Row `(j, k)` as `f` bits (bit `i` = fragment `i` solid).
    #[inline]
    pub fn row(&self, f: usize, j: usize, k: usize) -> u32 {
        match *self {
            BlockView::Uniform(0) => 0,
            BlockView::Uniform(_) => ((1u64 << f) - 1) as u32,
            BlockView::Stored { bits, .. } => bits_at(bits, (k * f + j) * f, f),
        }
    }

    /// Material of fragment `(i, j, k)`, 0 when empty.
    #[inline]
    pub fn get(&self, f: usize, i: usize, j: usize, k: usize) -> u8 {
        match *self {
            BlockView::Uniform(c) => c,
            BlockView::Stored {
                bits,
                material,
                mixed,
            } => {
                let at = (k * f + j) * f + i;
                if bits[at / 64] >> (at % 64) & 1 == 0 {
                    0
                } else if material == MIXED {
                    mixed[at]
                } else {
                    material
                }
            }
        }
    }

    /// Material of the solid fragment `(i, j, k)` (its block's material when not mixed).
    #[inline]
    pub fn material_of_solid(&self, f: usize, i: usize, j: usize, k: usize) -> u8 {
        match *self {
            BlockView::Uniform(c) => c,
            BlockView::Stored {
                material, mixed, ..
            } => {
                if material == MIXED {
                    mixed[(k * f + j) * f + i]
                } else {
                    material
                }
            }
        }
    }
}

/// Packs fragment bytes into blocks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Encoded {
    /// Fragment bits.
    pub bits: Vec<u64>,
    /// Single material or [`MIXED`] (0 when no fragment is solid).
    pub material: u8,
}

/// Pack `frags` (`f³` class bytes, X fastest) into `out`; returns false (and leaves `out` unusable)
/// when the block equals the uniform block of `implicit`, which need not be stored.
pub(crate) fn encode(frags: &[u8], implicit: u8, out: &mut Encoded) -> bool {
    if frags.is_empty() || one_value(frags) == Some(implicit) {
        return false;
    }
    out.bits.clear();
    out.bits.extend(frags.chunks(64).map(|chunk| {
        let mut bits = 0u64;
        let mut groups = chunk.chunks_exact(8);
        for (k, g) in (&mut groups).enumerate() {
            bits |= nonzero_bits(word(g, 0)) << (8 * k);
        }
        let done = chunk.len() - groups.remainder().len();
        for (b, &c) in groups.remainder().iter().enumerate() {
            bits |= u64::from(c != 0) << (done + b);
        }
        bits
    }));
    // One material when every non-zero byte equals the first non-zero one.
    let first = frags.iter().copied().find(|&c| c != 0).unwrap_or(0);
    let f_word = u64::from_le_bytes([first; 8]);
    let mut groups = frags.chunks_exact(8);
    let single = groups
        .by_ref()
        .all(|g| nonzero_bits(word(g, 0)) & nonzero_bits(word(g, 0) ^ f_word) == 0)
        && groups.remainder().iter().all(|&c| c == 0 || c == first);
    out.material = if single { first } else { MIXED };
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// `encode` written byte by byte, as it first was.
    fn encode_reference(frags: &[u8], implicit: u8, out: &mut Encoded) -> bool {
        if frags.iter().all(|&c| c == implicit) {
            return false;
        }
        out.bits.clear();
        out.bits.extend(frags.chunks(64).map(|chunk| {
            chunk
                .iter()
                .enumerate()
                .fold(0u64, |w, (b, &c)| w | (u64::from(c != 0) << b))
        }));
        let first = frags.iter().copied().find(|&c| c != 0).unwrap_or(0);
        out.material = if frags.iter().any(|&c| c != 0 && c != first) {
            MIXED
        } else {
            first
        };
        true
    }

    #[test]
    fn word_encoding_equals_the_byte_by_byte_reference() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let (mut a, mut b) = (Encoded::default(), Encoded::default());
        for f in 1..=16usize {
            for case in 0..40 {
                let palette = [0u8, 3, 3 + (case % 3) as u8, 63];
                let base = palette[case % 4];
                let frags: Vec<u8> = (0..f * f * f)
                    .map(|_| {
                        if rng.random_range(0..8) < case % 9 {
                            palette[rng.random_range(0..4)]
                        } else {
                            base
                        }
                    })
                    .collect();
                for implicit in [0, base, 3] {
                    let want = encode_reference(&frags, implicit, &mut a);
                    assert_eq!(encode(&frags, implicit, &mut b), want, "f {f} case {case}");
                    if want {
                        assert_eq!(a, b, "f {f} case {case} implicit {implicit}");
                    }
                }
            }
        }
    }

    #[test]
    fn rows_and_fragments_read_back_for_every_factor() {
        for f in 1..=16usize {
            let n = f * f * f;
            let frags: Vec<u8> = (0..n)
                .map(|i| if (i * 7 + i / 5) % 3 == 0 { 4 } else { 0 })
                .collect();
            let mut e = Encoded::default();
            let stored = encode(&frags, 4, &mut e);
            assert_eq!(stored, frags.iter().any(|&c| c != 4));
            assert!(
                encode(&frags, 0xfe, &mut e),
                "differs from a class it cannot hold"
            );
            assert_eq!(e.bits.len(), words_for(f));
            let view = BlockView::Stored {
                bits: &e.bits,
                material: e.material,
                mixed: &[],
            };
            for k in 0..f {
                for j in 0..f {
                    let row = view.row(f, j, k);
                    for i in 0..f {
                        let c = frags[(k * f + j) * f + i];
                        assert_eq!(view.get(f, i, j, k), c);
                        assert_eq!(row >> i & 1 == 1, c != 0);
                    }
                }
            }
        }
    }

    #[test]
    fn mixed_blocks_are_flagged_and_uniform_ones_skipped() {
        let mut e = Encoded::default();
        assert!(encode(&[1, 0, 2, 0, 0, 0, 0, 0], 0, &mut e));
        assert_eq!(e.material, MIXED);
        assert!(!encode(&[3; 8], 3, &mut e));
        assert!(!encode(&[0; 8], 0, &mut e));
        assert!(encode(&[0; 8], 3, &mut e), "an eroded voxel is stored");
        assert_eq!(e.material, 0);
    }
}
