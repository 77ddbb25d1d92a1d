//! The set bits of a word, lowest first: how the mesher walks its row and edge bit sets (the rows
//! of a Z with a surface cell, the rows whose edges can cross, the crossing edges of a row).

/// The indices of the set bits of `mask`, from the lowest up.
#[inline(always)]
pub(crate) fn set_bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            i
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_bits_lists_every_set_bit_in_order() {
        for mask in [
            0u64,
            1,
            0b1011_0000,
            1 << 63,
            u64::MAX,
            0x8000_0000_0000_0001,
        ] {
            let want: Vec<usize> = (0..64).filter(|&i| mask >> i & 1 == 1).collect();
            assert_eq!(set_bits(mask).collect::<Vec<_>>(), want, "{mask:#x}");
        }
    }
}
