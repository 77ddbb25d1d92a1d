//! The run-length (RLE) voxel encoding of Roblox's format (disk format, undo history, `strata export --format rle`).
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

/// Read the record whose lead byte is at `start`: its voxel, its length and the offset after it.
/// Checks everything a record can get wrong on its own (cut short, Air with occupancy, the reserved
/// count byte); the caller checks it against the box.
#[inline(always)]
fn read_record(bytes: &[u8], start: usize) -> Result<(Voxel, usize, usize)> {
    let lead = bytes[start];
    let mut pos = start + 1;
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
    let voxel = Voxel {
        material,
        occupancy,
    };
    Ok((voxel, count, pos))
}

fn trailing(start: usize) -> Error {
    Error::corrupt(start, "data continues after the last voxel of the box")
}

fn overflow(start: usize, count: usize, total: u64) -> Error {
    Error::corrupt(
        start,
        format!("run of {count} voxels overflows the box of {total} voxels"),
    )
}

fn short(pos: usize, filled: u64, total: u64) -> Error {
    Error::corrupt(pos, format!("stream ends after {filled} of {total} voxels"))
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
            return Err(trailing(start));
        }
        let (voxel, count, next) = read_record(bytes, start)?;
        pos = next;
        let end = filled + count;
        if end > out.len() {
            return Err(overflow(start, count, out.len() as u64));
        }
        out[filled..end].fill(voxel);
        filled = end;
    }
    if filled != out.len() {
        return Err(short(pos, filled as u64, out.len() as u64));
    }
    Ok(())
}

/// One record of a stream: `count` copies of `voxel`, covering voxels `first..first + count` of the
/// box, with its lead byte at `offset`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Run {
    /// The voxel the run repeats.
    pub voxel: Voxel,
    /// Number of voxels, `1..=256`.
    pub count: usize,
    /// Index in the box (X fastest, then Y, then Z) of the run's first voxel.
    pub first: u64,
    /// Byte offset of the record's lead byte in the stream.
    pub offset: usize,
}

/// The runs of a stream that must describe exactly `voxels` voxels, one record at a time, so a box
/// too large for one buffer (a file import) can be decoded piece by piece. It applies the same checks
/// with the same messages and offsets as [`decode`]; after the first error it yields nothing more.
///
/// ```
/// use strata_engine::codec::rle::{encode, Runs};
/// use strata_engine::voxel::Voxel;
///
/// let mut bytes = Vec::new();
/// encode(&[Voxel::AIR, Voxel::AIR, Voxel::filled(3)], &mut bytes);
/// let runs: Vec<_> = Runs::new(&bytes, 3).map(|r| r.map(|r| (r.first, r.count))).collect::<Result<_, _>>().unwrap();
/// assert_eq!(runs, [(0, 2), (2, 1)]);
/// ```
#[derive(Debug, Clone)]
pub struct Runs<'a> {
    bytes: &'a [u8],
    pos: usize,
    filled: u64,
    total: u64,
    done: bool,
}

impl<'a> Runs<'a> {
    /// The runs of `bytes`, a stream for a box of `voxels` voxels.
    pub fn new(bytes: &'a [u8], voxels: u64) -> Self {
        Self {
            bytes,
            pos: 0,
            filled: 0,
            total: voxels,
            done: false,
        }
    }

    fn next_run(&mut self) -> Result<Option<Run>> {
        let start = self.pos;
        if start >= self.bytes.len() {
            if self.filled != self.total {
                return Err(short(start, self.filled, self.total));
            }
            return Ok(None);
        }
        if self.filled == self.total {
            return Err(trailing(start));
        }
        let (voxel, count, next) = read_record(self.bytes, start)?;
        if self.filled + count as u64 > self.total {
            return Err(overflow(start, count, self.total));
        }
        let run = Run {
            voxel,
            count,
            first: self.filled,
            offset: start,
        };
        self.pos = next;
        self.filled += count as u64;
        Ok(Some(run))
    }
}

impl Iterator for Runs<'_> {
    type Item = Result<Run>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let item = self.next_run().transpose();
        if !matches!(item, Some(Ok(_))) {
            self.done = true;
        }
        item
    }
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

    /// Decode through [`Runs`] into a box of `n`: the voxels, or the first error as text.
    fn decode_by_runs(bytes: &[u8], n: usize) -> Result<Vec<Voxel>, String> {
        let mut out = vec![Voxel::AIR; n];
        let mut next = 0u64;
        for run in Runs::new(bytes, n as u64) {
            let run = run.map_err(|e| e.to_string())?;
            assert_eq!(run.first, next, "runs are contiguous");
            assert!((1..=MAX_RUN).contains(&run.count));
            let first = run.first as usize;
            out[first..first + run.count].fill(run.voxel);
            next += run.count as u64;
        }
        Ok(out)
    }

    /// Decode into a box of `n`: the voxels, or the error as text.
    fn decode_whole(bytes: &[u8], n: usize) -> Result<Vec<Voxel>, String> {
        let mut out = vec![Voxel::AIR; n];
        decode(bytes, &mut out).map_err(|e| e.to_string())?;
        Ok(out)
    }

    #[test]
    fn runs_report_offsets_and_errors_like_decode() {
        let bytes = [0x80, 0xff, 0xc2, 0x7f, 0x01, 0x03];
        let runs: Vec<Run> = Runs::new(&bytes, 259)
            .collect::<Result<_>>()
            .expect("valid");
        assert_eq!(
            runs,
            [
                Run {
                    voxel: Voxel::AIR,
                    count: 256,
                    first: 0,
                    offset: 0
                },
                Run {
                    voxel: Voxel::new(2, 127),
                    count: 2,
                    first: 256,
                    offset: 2
                },
                Run {
                    voxel: Voxel::filled(3),
                    count: 1,
                    first: 258,
                    offset: 5
                },
            ]
        );
        // After an error the iterator stops.
        let mut it = Runs::new(&[0x82, 0x00, 0x01], 4);
        assert!(matches!(
            it.next(),
            Some(Err(Error::Corrupt { offset: 1, .. }))
        ));
        assert!(it.next().is_none());
        // A box larger than memory is fine: runs are only described, never stored.
        let mut huge = Runs::new(&[0x87, 0xff], 1 << 40);
        assert!(huge.next().is_some_and(|r| r.is_ok()));
        assert!(huge.next().is_some_and(|r| r.is_err()), "short stream");
    }

    proptest! {
        #[test]
        fn runs_agree_with_decode(bytes in proptest::collection::vec(any::<u8>(), 0..48), n in 0usize..200) {
            prop_assert_eq!(decode_by_runs(&bytes, n), decode_whole(&bytes, n));
        }

        #[test]
        fn runs_agree_with_decode_on_valid_streams(raw in proptest::collection::vec((0u8..4, prop_oneof![Just(255u8), any::<u8>()]), 0..1200)) {
            let v: Vec<Voxel> = raw.iter().map(|&(m, o)| Voxel::new(m, o)).collect();
            let mut bytes = Vec::new();
            encode(&v, &mut bytes);
            prop_assert_eq!(decode_by_runs(&bytes, v.len()), Ok(v.clone()));
            prop_assert_eq!(decode_by_runs(&bytes, v.len() + 1), decode_whole(&bytes, v.len() + 1));
        }

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
