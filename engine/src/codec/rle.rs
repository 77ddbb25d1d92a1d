//! The seed's run-length voxel encoding (disk format, undo history, `strata export --format rle`).
//!
//! Voxels are visited X fastest, then Y, then Z. Each run of identical voxels is:
//!
//! ```text
//!   lead byte: bits 0..6 material | bit 6: occupancy byte follows | bit 7: count byte follows
//!   [occupancy]  only when it differs from the material's default (0 for Air, 255 otherwise)
//!   [count - 1]  only when the run is longer than one voxel; runs are split at 256
//! ```
//!
//! A solid or empty region costs two bytes per 256 voxels; an arbitrary voxel at most three bytes.
//! Decoding never writes past the caller's box and rejects Air with occupancy, overruns, short
//! streams and trailing bytes, reporting the byte offset.
//!
//! A count byte of 0 would mean a run of one, which never needs a count byte: the storage design
//! keeps that value free for a future extension of the record format. The encoder never writes it
//! and the decoder rejects it ([`RESERVED_COUNT`]), so streams written today stay unambiguous when
//! the extension arrives.

use crate::voxel::Voxel;
use crate::{Error, Result};

const HAS_OCCUPANCY: u8 = 0x40;
const HAS_COUNT: u8 = 0x80;
const MATERIAL_BITS: u8 = 0x3f;
/// Longest run one record can carry.
pub const MAX_RUN: usize = 256;
/// The count byte value reserved for a future extension of the record format (it would otherwise
/// mean a run of one voxel, which is written without a count byte).
pub const RESERVED_COUNT: u8 = 0;

/// The largest RLE stream `voxels` voxels can encode to (three bytes per voxel in the worst case is
/// impossible: a count byte only follows runs of two or more, so the bound is two bytes per voxel).
pub const fn max_encoded_len(voxels: usize) -> usize {
    voxels.saturating_mul(2)
}

#[inline]
fn emit(v: Voxel, count: usize, out: &mut Vec<u8>) {
    debug_assert!((1..=MAX_RUN).contains(&count));
    let mut lead = v.material & MATERIAL_BITS;
    let occ = v.occupancy != Voxel::default_occupancy(v.material);
    if occ {
        lead |= HAS_OCCUPANCY;
    }
    if count > 1 {
        lead |= HAS_COUNT;
    }
    out.push(lead);
    if occ {
        out.push(v.occupancy);
    }
    if count > 1 {
        // count ≥ 2, so the byte is never RESERVED_COUNT.
        out.push((count - 1) as u8);
    }
}

/// Streaming encoder: feed voxels in order with [`RleEncoder::push`], then [`RleEncoder::finish`].
/// Runs continue across calls, so a box can be encoded slab by slab with the same bytes as at once.
#[derive(Debug, Default, Clone)]
pub struct RleEncoder {
    run: Option<(Voxel, usize)>,
}

impl RleEncoder {
    /// A fresh encoder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Encode `voxels` (normalized first), appending completed runs to `out`.
    pub fn push(&mut self, voxels: &[Voxel], out: &mut Vec<u8>) {
        let mut i = 0;
        while i < voxels.len() {
            let v = Voxel::new(voxels[i].material, voxels[i].occupancy);
            let (cur, mut count) = match self.run {
                Some((cur, count)) if cur == v && count < MAX_RUN => (cur, count),
                Some((cur, count)) => {
                    emit(cur, count, out);
                    (v, 0)
                }
                None => (v, 0),
            };
            // Extend over the following equal voxels in one go.
            let limit = (MAX_RUN - count).min(voxels.len() - i);
            let same = voxels[i..i + limit]
                .iter()
                .take_while(|w| Voxel::new(w.material, w.occupancy) == cur)
                .count()
                .max(1);
            count += same;
            i += same;
            self.run = Some((cur, count));
        }
    }

    /// Flush the last run.
    pub fn finish(&mut self, out: &mut Vec<u8>) {
        if let Some((v, count)) = self.run.take() {
            emit(v, count, out);
        }
    }
}

/// Encode `voxels` and append the stream to `out`.
pub fn encode(voxels: &[Voxel], out: &mut Vec<u8>) {
    let mut e = RleEncoder::new();
    e.push(voxels, out);
    e.finish(out);
}

/// Decode a stream that must describe exactly `out.len()` voxels.
///
/// # Errors
/// [`Error::Corrupt`] with the offset of the offending byte: a record cut short, Air with a non-zero
/// occupancy, the reserved count byte [`RESERVED_COUNT`], a run past the end of the box, fewer voxels
/// than the box holds, or bytes after it.
pub fn decode(bytes: &[u8], out: &mut [Voxel]) -> Result<()> {
    let mut pos = 0usize;
    let mut filled = 0usize;
    while pos < bytes.len() {
        let start = pos;
        if filled == out.len() {
            return Err(Error::corrupt(
                start,
                "data continues after the last voxel of the box",
            ));
        }
        let lead = bytes[pos];
        pos += 1;
        let material = lead & MATERIAL_BITS;
        let occupancy = if lead & HAS_OCCUPANCY != 0 {
            let b = *bytes
                .get(pos)
                .ok_or_else(|| Error::corrupt(pos, "stream ends inside a run (occupancy byte)"))?;
            pos += 1;
            b
        } else {
            Voxel::default_occupancy(material)
        };
        if material == 0 && occupancy != 0 {
            return Err(Error::corrupt(start, "Air with non-zero occupancy"));
        }
        let count = if lead & HAS_COUNT != 0 {
            let b = *bytes
                .get(pos)
                .ok_or_else(|| Error::corrupt(pos, "stream ends inside a run (count byte)"))?;
            if b == RESERVED_COUNT {
                return Err(Error::corrupt(
                    pos,
                    "count byte 0 is reserved for a future extension (a run of one has no count byte)",
                ));
            }
            pos += 1;
            usize::from(b) + 1
        } else {
            1
        };
        let end = filled + count;
        if end > out.len() {
            return Err(Error::corrupt(
                start,
                format!(
                    "run of {count} voxels overflows the box of {} voxels",
                    out.len()
                ),
            ));
        }
        out[filled..end].fill(Voxel {
            material,
            occupancy,
        });
        filled = end;
    }
    if filled != out.len() {
        return Err(Error::corrupt(
            pos,
            format!("stream ends after {filled} of {} voxels", out.len()),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn golden_bytes() {
        let mut v = vec![Voxel::AIR; 300];
        v.extend([Voxel::filled(2), Voxel::new(2, 127), Voxel::new(2, 127)]);
        v.push(Voxel::filled(63));
        let mut out = Vec::new();
        encode(&v, &mut out);
        assert_eq!(
            out,
            [
                0x80, 0xff, // 256 air
                0x80, 43,   // 44 air
                0x02, // one full grass
                0xc2, 127, 1,    // two half grass
                0x3f, // one full material 63
            ]
        );
        let mut back = vec![Voxel::AIR; v.len()];
        decode(&out, &mut back).expect("decodes");
        assert_eq!(back, v);
    }

    /// Run lengths around the record limits: a lone voxel has no count byte, so the count byte is
    /// never 0; runs past 256 split into 256 plus the rest.
    #[test]
    fn golden_run_lengths() {
        let rock = Voxel::filled(7);
        let cases: [(usize, &[u8]); 6] = [
            (1, &[0x07]),
            (2, &[0x87, 0x01]),
            (256, &[0x87, 0xff]),
            (257, &[0x87, 0xff, 0x07]),
            (258, &[0x87, 0xff, 0x87, 0x01]),
            (513, &[0x87, 0xff, 0x87, 0xff, 0x07]),
        ];
        for (n, want) in cases {
            let mut out = Vec::new();
            encode(&vec![rock; n], &mut out);
            assert_eq!(out, want, "{n} voxels");
            let mut back = vec![Voxel::AIR; n];
            decode(&out, &mut back).expect("decodes");
            assert!(back.iter().all(|&v| v == rock));
        }
    }

    #[test]
    fn streaming_matches_one_shot() {
        let v: Vec<Voxel> = (0..2000)
            .map(|i| Voxel::new((i / 300) as u8, 255))
            .collect();
        let mut a = Vec::new();
        encode(&v, &mut a);
        let mut b = Vec::new();
        let mut e = RleEncoder::new();
        for part in v.chunks(7) {
            e.push(part, &mut b);
        }
        e.finish(&mut b);
        assert_eq!(a, b);
    }

    #[test]
    fn hostile_streams_are_errors() {
        let mut out = [Voxel::AIR; 4];
        let cases: [(&[u8], u64); 9] = [
            (&[0x40, 5], 0),          // air with occupancy
            (&[0x82], 1),             // count byte missing
            (&[0x42], 1),             // occupancy byte missing
            (&[0x82, 0], 1),          // reserved count byte
            (&[0xc2, 127, 0], 2),     // reserved count byte after an occupancy byte
            (&[0x82, 1, 0x80, 0], 3), // reserved count byte in a later record
            (&[0x82, 9], 0),          // run of 10 into a box of 4
            (&[0x82, 1], 2),          // only 2 of 4 voxels
            (&[0x82, 3, 0x01], 2),    // trailing bytes
        ];
        for (bytes, offset) in cases {
            match decode(bytes, &mut out) {
                Err(Error::Corrupt { offset: o, .. }) => assert_eq!(o, offset, "{bytes:?}"),
                other => panic!("{bytes:?}: {other:?}"),
            }
        }
        assert!(decode(&[], &mut []).is_ok());
    }

    /// The reserved count byte is an error naming its offset, wherever the record sits; the same
    /// record with count byte 1 is a valid run of two.
    #[test]
    fn reserved_count_byte_is_rejected() {
        let mut out = [Voxel::AIR; 4];
        let e = decode(&[0x82, 0x01, 0xc3, 0x10, 0x00], &mut out).expect_err("reserved");
        let text = e.to_string();
        assert!(
            matches!(e, Error::Corrupt { offset: 4, .. }) && text.contains("reserved"),
            "{text}"
        );
        decode(&[0x82, 0x01, 0xc3, 0x10, 0x01], &mut out).expect("count byte 1 is a run of two");
        assert_eq!(
            out,
            [
                Voxel::filled(2),
                Voxel::filled(2),
                Voxel::new(3, 0x10),
                Voxel::new(3, 0x10)
            ]
        );
    }

    /// The count bytes of a canonical stream (walking its records).
    fn count_bytes(bytes: &[u8]) -> Vec<u8> {
        let (mut pos, mut counts) = (0, Vec::new());
        while pos < bytes.len() {
            let lead = bytes[pos];
            pos += 1 + usize::from(lead & HAS_OCCUPANCY != 0);
            if lead & HAS_COUNT != 0 {
                counts.push(bytes[pos]);
                pos += 1;
            }
        }
        counts
    }

    proptest! {
        #[test]
        fn round_trip(raw in proptest::collection::vec((0u8..6, prop_oneof![Just(255u8), any::<u8>()]), 0..3000)) {
            let v: Vec<Voxel> = raw.iter().map(|&(m, o)| Voxel::new(m, o)).collect();
            let mut bytes = Vec::new();
            encode(&v, &mut bytes);
            prop_assert!(bytes.len() <= max_encoded_len(v.len()));
            prop_assert!(!count_bytes(&bytes).contains(&RESERVED_COUNT));
            let mut back = vec![Voxel::AIR; v.len()];
            decode(&bytes, &mut back).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(back, v);
        }

        #[test]
        fn never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..64), n in 0usize..200) {
            let mut out = vec![Voxel::AIR; n];
            let _ = decode(&bytes, &mut out);
        }
    }
}
