//! Byte lanes in 64-bit words: the word tricks the subdivision kernels and the block packing share
//! (eight class bytes at a time, portable, no SIMD).
//!
//! ```text
//!   bytes   b0 b1 … b7      ->  word  b7…b0 (little-endian)
//!   nonzero_bytes           ->  bit 7 of byte i set when bi ≠ 0
//!   nonzero_bits            ->  bit i set when bi ≠ 0
//!   double                  ->  b0 b0 b1 b1 … b7 b7 (16 bytes)
//! ```

/// The 8 bytes of `s` at `at` as a little-endian word.
///
/// # Panics
/// If fewer than 8 bytes follow `at`.
#[inline]
pub(crate) fn word(s: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&s[at..at + 8]);
    u64::from_le_bytes(b)
}

/// Bit 7 of each byte of the result is set when that byte of `v` is not zero (and no other bit).
#[inline]
pub(crate) fn nonzero_bytes(v: u64) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    (((v & LOW7) + LOW7) | v) & !LOW7
}

/// Bit `i` of the result is set when byte `i` of `v` is not zero.
#[inline]
pub(crate) fn nonzero_bits(v: u64) -> u64 {
    // Gather the eight high bits into the low byte with one multiply.
    (nonzero_bytes(v) >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// The value of every byte of `bytes`, when they are all equal (`None` when empty).
pub(crate) fn one_value(bytes: &[u8]) -> Option<u8> {
    let first = *bytes.first()?;
    let mut words = bytes.chunks_exact(8);
    let same =
        words.by_ref().all(|w| w == [first; 8]) && words.remainder().iter().all(|&c| c == first);
    same.then_some(first)
}

/// Byte `i` of `v` at bytes `2i` and `2i + 1`.
#[inline]
pub(crate) fn double(v: u64) -> u128 {
    let x = u128::from(v);
    let x = (x | (x << 32)) & 0x0000_0000_ffff_ffff_0000_0000_ffff_ffff;
    let x = (x | (x << 16)) & 0x0000_ffff_0000_ffff_0000_ffff_0000_ffff;
    let x = (x | (x << 8)) & 0x00ff_00ff_00ff_00ff_00ff_00ff_00ff_00ff;
    x | (x << 8)
}

/// Every byte of `src` twice into `dst`, a word at a time.
///
/// # Panics
/// If `dst` is not twice as long as `src`.
pub(crate) fn double_into(src: &[u8], dst: &mut [u8]) {
    assert_eq!(dst.len(), 2 * src.len(), "dst holds every byte twice");
    let mut groups = src.chunks_exact(8);
    let mut outs = dst.chunks_exact_mut(16);
    for (c, o) in (&mut groups).zip(&mut outs) {
        o.copy_from_slice(&double(word(c, 0)).to_le_bytes());
    }
    for (&c, o) in groups
        .remainder()
        .iter()
        .zip(outs.into_remainder().chunks_exact_mut(2))
    {
        o.fill(c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubling_spreads_bytes_in_order() {
        let d = double(0x0807_0605_0403_0201).to_le_bytes();
        assert_eq!(d, [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8]);
        let src: Vec<u8> = (1..=11).collect();
        let mut dst = vec![0; 22];
        double_into(&src, &mut dst);
        let want: Vec<u8> = src.iter().flat_map(|&c| [c, c]).collect();
        assert_eq!(dst, want);
    }

    #[test]
    fn lanes_report_their_non_zero_bytes() {
        for v in [
            0u64,
            1,
            0x80,
            0xff00_0000_0000_0001,
            0x0100_7f00_0080_0000,
            u64::MAX,
        ] {
            let bytes = v.to_le_bytes();
            let bits = (0..8).fold(0u64, |b, i| b | u64::from(bytes[i] != 0) << i);
            assert_eq!(nonzero_bits(v), bits, "{v:#x}");
            assert_eq!(
                nonzero_bytes(v),
                (0..8).fold(0, |b, i| b | (bits >> i & 1) << (8 * i + 7))
            );
        }
    }

    #[test]
    fn one_value_needs_every_byte_equal() {
        assert_eq!(one_value(&[]), None);
        assert_eq!(one_value(&[4; 19]), Some(4));
        let mut v = vec![4u8; 19];
        for i in [0, 7, 8, 18] {
            v[i] = 5;
            assert_eq!(one_value(&v), None, "byte {i}");
            v[i] = 4;
        }
    }
}
