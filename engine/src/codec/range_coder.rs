//! An adaptive binary range coder: each yes/no decision is coded against the probability held by its
//! context ([`Bit`]), which then moves towards what was seen. Version 2 project files code chunks with
//! it (`docs/formats/strata.md`, "Chunk records, version 2").
//!
//! The arithmetic is the LZMA range coder's with 16-bit probabilities:
//!
//! ```text
//!   state: low (33 bits, encoder), code (32 bits, decoder), range (32 bits, starts 0xFFFF_FFFF)
//!   bound = (range >> 16) · p0           p0 = the context's probability of a 0, in 1..=65535
//!   bit 0: range = bound                 bit 1: low += bound (code −= bound), range −= bound
//!   while range < 2^24: range <<= 8, shift one byte out (encoder) / in (decoder)
//! ```
//!
//! The encoder carries into bytes already written through the usual cache byte and count of pending
//! 0xFF bytes; its first byte is always 0 and it ends by shifting out five more bytes, so a stream of
//! `n` renormalisations is exactly `n + 5` bytes and the decoder, which reads five bytes to start,
//! ends on the stream's last byte. A decoder that needs a byte past the end reads 0 and reports the
//! stream as cut short when it finishes, so hostile input never panics nor loops.
//!
//! Adaptation: a context counts the decisions it has seen (`n`, saturating at 255) and moves by
//! `1 / 2^shift` of the distance to the outcome, `shift = min(7, 1 + ⌊log2(n + 1)⌋)`: fast while it
//! knows little (a chunk starts every context afresh), then steady.
//!
//! Rationale: a chunk's voxels are mostly predictable (the same material as the column beside, an
//! occupancy one off a linear guess), so most decisions cost a few thousandths of a bit, which a
//! byte-oriented coder such as LZ4 cannot approach.

use crate::{Error, Result};

const PROB_BITS: u32 = 16;
const PROB_ONE: u32 = 1 << PROB_BITS;
const TOP: u32 = 1 << 24;
const MAX_SHIFT: u32 = 7;

/// The adaptation shift for each count of decisions seen: `min(7, 1 + ⌊log2(n + 1)⌋)`, looked up
/// rather than computed on every decision.
const SHIFT: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut n = 0;
    while n < 256 {
        let s = 1 + (n as u32 + 1).ilog2();
        t[n] = if s < MAX_SHIFT {
            s as u8
        } else {
            MAX_SHIFT as u8
        };
        n += 1;
    }
    t
};

/// One adaptive context: the probability of a 0 and how many decisions it has seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bit {
    p0: u16,
    seen: u8,
}

impl Default for Bit {
    fn default() -> Self {
        Self::new()
    }
}

impl Bit {
    /// A context that knows nothing: even odds.
    pub const fn new() -> Self {
        Self {
            p0: (PROB_ONE / 2) as u16,
            seen: 0,
        }
    }

    #[inline(always)]
    fn update(&mut self, bit: bool) {
        let shift = u32::from(SHIFT[usize::from(self.seen)]);
        let p = u32::from(self.p0);
        let p = if bit {
            p - (p >> shift)
        } else {
            p + ((PROB_ONE - p) >> shift)
        };
        // p stays in 1..=65535: from 65535 a 0 adds (1 >> shift) = 0, from 1 a 1 takes (1 >> shift) = 0.
        self.p0 = p as u16;
        self.seen = self.seen.saturating_add(1);
    }
}

/// Encodes decisions into a byte vector.
#[derive(Debug)]
pub struct RangeEncoder<'a> {
    low: u64,
    range: u32,
    cache: u8,
    pending: u64,
    out: &'a mut Vec<u8>,
}

impl<'a> RangeEncoder<'a> {
    /// An encoder appending to `out`.
    pub fn new(out: &'a mut Vec<u8>) -> Self {
        Self {
            low: 0,
            range: u32::MAX,
            cache: 0,
            pending: 1,
            out,
        }
    }

    /// Code `bit` in context `ctx`, then adapt the context.
    #[inline(always)]
    pub fn encode(&mut self, ctx: &mut Bit, bit: bool) {
        let bound = (self.range >> PROB_BITS) * u32::from(ctx.p0);
        if bit {
            self.low += u64::from(bound);
            self.range -= bound;
        } else {
            self.range = bound;
        }
        ctx.update(bit);
        while self.range < TOP {
            self.range <<= 8;
            self.shift_low();
        }
    }

    /// Code the low `count` bits of `value`, most significant first, through a binary tree of
    /// contexts: `tree` needs `2^count` entries (entry 0 unused).
    pub fn encode_tree(&mut self, tree: &mut [Bit], count: u32, value: u32) {
        let mut node = 1usize;
        for i in (0..count).rev() {
            let bit = (value >> i) & 1 == 1;
            self.encode(&mut tree[node], bit);
            node = node * 2 + usize::from(bit);
        }
    }

    fn shift_low(&mut self) {
        if self.low < 0xFF00_0000 || self.low >= 1 << 32 {
            let carry = (self.low >> 32) as u8;
            let mut byte = self.cache;
            while self.pending > 0 {
                self.out.push(byte.wrapping_add(carry));
                byte = 0xFF;
                self.pending -= 1;
            }
            self.cache = (self.low >> 24) as u8;
        }
        self.pending += 1;
        self.low = (self.low & 0x00FF_FFFF) << 8;
    }

    /// Flush the state: the stream is complete after this.
    pub fn finish(mut self) {
        for _ in 0..5 {
            self.shift_low();
        }
    }
}

/// Decodes decisions from a byte slice.
#[derive(Debug)]
pub struct RangeDecoder<'a> {
    code: u32,
    range: u32,
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> RangeDecoder<'a> {
    /// A decoder over a whole stream.
    ///
    /// # Errors
    /// [`Error::Corrupt`] (offset 0) when the stream is shorter than five bytes or does not start
    /// with 0.
    pub fn new(bytes: &'a [u8]) -> Result<Self> {
        if bytes.len() < 5 || bytes[0] != 0 {
            return Err(Error::corrupt(
                0,
                "range-coded stream too short or bad first byte",
            ));
        }
        let code = u32::from_be_bytes([bytes[1], bytes[2], bytes[3], bytes[4]]);
        Ok(Self {
            code,
            range: u32::MAX,
            bytes,
            pos: 5,
        })
    }

    /// Decode one decision in context `ctx`, then adapt the context.
    #[inline(always)]
    pub fn decode(&mut self, ctx: &mut Bit) -> bool {
        let bound = (self.range >> PROB_BITS) * u32::from(ctx.p0);
        let bit = self.code >= bound;
        if bit {
            self.code -= bound;
            self.range -= bound;
        } else {
            self.range = bound;
        }
        ctx.update(bit);
        while self.range < TOP {
            self.range <<= 8;
            let byte = self.bytes.get(self.pos).copied().unwrap_or(0);
            self.pos += 1;
            self.code = (self.code << 8) | u32::from(byte);
        }
        bit
    }

    /// Decode `count` bits coded by [`RangeEncoder::encode_tree`].
    pub fn decode_tree(&mut self, tree: &mut [Bit], count: u32) -> u32 {
        let mut node = 1usize;
        for _ in 0..count {
            let bit = self.decode(&mut tree[node]);
            node = node * 2 + usize::from(bit);
        }
        (node - (1 << count)) as u32
    }

    /// Check that the stream ended exactly where the encoder finished it.
    ///
    /// # Errors
    /// [`Error::Corrupt`] (offset relative to the stream) when the decoder needed bytes past the end
    /// or left bytes unread.
    pub fn finish(&self) -> Result<()> {
        match self.pos.cmp(&self.bytes.len()) {
            std::cmp::Ordering::Equal => Ok(()),
            std::cmp::Ordering::Greater => Err(Error::corrupt(
                self.bytes.len(),
                "range-coded stream cut short",
            )),
            std::cmp::Ordering::Less => Err(Error::corrupt(
                self.pos,
                format!(
                    "{} bytes after the end of the range-coded stream",
                    self.bytes.len() - self.pos
                ),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn encode_all(bits: &[(usize, bool)], contexts: usize) -> Vec<u8> {
        let mut out = Vec::new();
        let mut ctx = vec![Bit::new(); contexts];
        let mut e = RangeEncoder::new(&mut out);
        for &(c, b) in bits {
            e.encode(&mut ctx[c], b);
        }
        e.finish();
        out
    }

    fn decode_all(bytes: &[u8], ctxs: &[usize], contexts: usize) -> Result<Vec<bool>> {
        let mut ctx = vec![Bit::new(); contexts];
        let mut d = RangeDecoder::new(bytes)?;
        let bits = ctxs.iter().map(|&c| d.decode(&mut ctx[c])).collect();
        d.finish()?;
        Ok(bits)
    }

    #[test]
    fn empty_stream_is_five_zero_bytes() {
        assert_eq!(encode_all(&[], 1), vec![0; 5]);
        assert_eq!(
            decode_all(&[0; 5], &[], 1).expect("decodes"),
            Vec::<bool>::new()
        );
    }

    #[test]
    fn predictable_decisions_cost_little() {
        // 100,000 zeros in one context: the context settles at shift 7, about 0.011 bits each.
        let bits = vec![(0, false); 100_000];
        let bytes = encode_all(&bits, 1);
        assert!(bytes.len() < 200, "{} bytes", bytes.len());
        let ctxs = vec![0; bits.len()];
        assert!(decode_all(&bytes, &ctxs, 1)
            .expect("decodes")
            .iter()
            .all(|b| !b));
    }

    #[test]
    fn probability_stays_inside_its_range() {
        let mut b = Bit::new();
        for _ in 0..1000 {
            b.update(false);
        }
        assert!(b.p0 > 65000);
        for _ in 0..1000 {
            b.update(true);
        }
        assert!(b.p0 >= 1 && b.p0 < 600, "{}", b.p0);
    }

    #[test]
    fn trees_round_trip_every_value() {
        let mut out = Vec::new();
        let mut tree = vec![Bit::new(); 64];
        let mut e = RangeEncoder::new(&mut out);
        for v in 0..64 {
            e.encode_tree(&mut tree, 6, v);
        }
        e.finish();
        let mut tree = vec![Bit::new(); 64];
        let mut d = RangeDecoder::new(&out).expect("starts");
        for v in 0..64 {
            assert_eq!(d.decode_tree(&mut tree, 6), v);
        }
        d.finish().expect("ends");
    }

    #[test]
    fn cut_or_padded_streams_are_refused() {
        let bits: Vec<(usize, bool)> = (0..5000).map(|i| (i % 3, i % 7 == 0)).collect();
        let ctxs: Vec<usize> = bits.iter().map(|b| b.0).collect();
        let bytes = encode_all(&bits, 3);
        assert!(decode_all(&bytes[..bytes.len() - 1], &ctxs, 3).is_err());
        let mut padded = bytes.clone();
        padded.push(0);
        assert!(decode_all(&padded, &ctxs, 3).is_err());
        assert!(decode_all(&bytes[..4], &ctxs, 3).is_err());
        let mut first = bytes;
        first[0] = 1;
        assert!(decode_all(&first, &ctxs, 3).is_err());
    }

    proptest! {
        #[test]
        fn decisions_round_trip(bits in proptest::collection::vec((0usize..4, any::<bool>()), 0..3000)) {
            let bytes = encode_all(&bits, 4);
            let ctxs: Vec<usize> = bits.iter().map(|b| b.0).collect();
            let back = decode_all(&bytes, &ctxs, 4).expect("decodes");
            prop_assert_eq!(back, bits.iter().map(|b| b.1).collect::<Vec<_>>());
        }

        #[test]
        fn skewed_decisions_round_trip(seed in any::<u64>(), skew in 1u64..1000) {
            // Long runs of one outcome drive the contexts to their extremes and the carry paths.
            let mut s = seed | 1;
            let bits: Vec<(usize, bool)> = (0..20_000)
                .map(|_| {
                    s ^= s << 13;
                    s ^= s >> 7;
                    s ^= s << 17;
                    ((s % 2) as usize, s % 1000 < skew)
                })
                .collect();
            let bytes = encode_all(&bits, 2);
            let ctxs: Vec<usize> = bits.iter().map(|b| b.0).collect();
            let back = decode_all(&bytes, &ctxs, 2).expect("decodes");
            prop_assert_eq!(back, bits.iter().map(|b| b.1).collect::<Vec<_>>());
        }
    }
}
