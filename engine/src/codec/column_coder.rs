//! The column coding of one 32³ chunk (version 2 project files): the chunk's structure as runs along
//! each vertical column, told as "the same materials as the column beside, with the boundaries moved
//! by so much", and each partial voxel's occupancy as its difference from a guess made from the
//! voxels already coded, all through the adaptive [`range_coder`](super::range_coder).
//!
//! ```text
//!   columns in order z = 0..32 (outer), x = 0..32; inside a column y = 0..32 (bottom up)
//!
//!        z ▲   N = (x, z−1): decoded         a column's key per voxel: material and whether the
//!          │   W = (x−1, z): decoded         occupancy is the material's default (Air 0, else 255)
//!          │ ┌───┬───┐
//!          │ │ W │ C │  C: structure first   runs of equal keys, bottom up; boundaries = the y
//!          │ ├───┼───┤     (against W or N),  where a run starts (the first run starts at 0)
//!          │ │NW │ N │     then occupancies
//!          └─┴───┴───┴──▶ x
//! ```
//!
//! The byte-level spec, which an independent decoder can follow, is in `docs/formats/strata.md`
//! ("Chunk records, version 2"); this file and the spec change together.
//!
//! Rationale: generated and sculpted terrain is a height field with layers, so a column usually has
//! the same runs as its neighbour with the surface a voxel or two higher or lower, and the partial
//! voxels follow a signed-distance ramp that a linear guess along the column or across the plane
//! predicts to within a unit or two. Today's RLE+LZ4 records pay bytes for both.

use super::column_predictor::Planes;
use super::range_coder::{Bit, RangeDecoder, RangeEncoder};
use crate::voxel::{Voxel, CHUNK_SIZE};
use crate::{Error, Result};

const N: usize = CHUNK_SIZE;
/// Voxels of a chunk.
pub const VOLUME: usize = N * N * N;
/// Key bit: the voxel's occupancy is not its material's default.
const PARTIAL: u8 = 0x40;
/// Unary prefixes longer than this are refused (no value the encoder writes needs more).
const MAX_PREFIX: usize = 8;

/// Either side of the coder: encoding takes the decision given and returns it, decoding ignores
/// it and returns the decision read. The model below is written once for both.
trait Coder {
    fn bit(&mut self, ctx: &mut Bit, bit: bool) -> bool;
}

impl Coder for RangeEncoder<'_> {
    #[inline(always)]
    fn bit(&mut self, ctx: &mut Bit, bit: bool) -> bool {
        self.encode(ctx, bit);
        bit
    }
}

impl Coder for RangeDecoder<'_> {
    #[inline(always)]
    fn bit(&mut self, ctx: &mut Bit, _bit: bool) -> bool {
        self.decode(ctx)
    }
}

/// `count` bits of `value`, most significant first, through a tree of `2^count` contexts.
#[inline(always)]
fn code_tree<C: Coder>(c: &mut C, tree: &mut [Bit], count: u32, value: u32) -> u32 {
    let mut node = 1usize;
    for i in (0..count).rev() {
        let bit = c.bit(&mut tree[node], (value >> i) & 1 == 1);
        node = node * 2 + usize::from(bit);
    }
    (node - (1 << count)) as u32
}

/// Contexts of an Exp-Golomb code: `v + 1 = 2^n + rest`, `n` in unary (ones closed by a zero, no
/// zero after [`MAX_PREFIX`] ones), then `rest` in `n` bits, most significant first.
#[derive(Debug, Clone, Copy, Default)]
struct Golomb {
    prefix: [Bit; MAX_PREFIX],
    suffix: [Bit; MAX_PREFIX],
}

impl Golomb {
    /// Code `v` (encoding) or read one (decoding): `None` when a hostile stream's prefix is too long.
    #[inline(always)]
    fn code<C: Coder>(&mut self, c: &mut C, v: u32) -> Option<u32> {
        let n_enc = (v + 1).ilog2() as usize;
        let mut n = 0;
        while n < MAX_PREFIX && c.bit(&mut self.prefix[n], n < n_enc) {
            n += 1;
        }
        if n == MAX_PREFIX {
            return None;
        }
        let mut value = 1u32;
        for i in (0..n).rev() {
            let bit = c.bit(&mut self.suffix[i], ((v + 1) >> i) & 1 == 1);
            value = value * 2 + u32::from(bit);
        }
        Some(value - 1)
    }
}

/// A signed value: zero flag, sign, magnitude − 1 in Exp-Golomb.
#[derive(Debug, Clone, Copy, Default)]
struct Signed {
    zero: Bit,
    sign: Bit,
    magnitude: Golomb,
}

impl Signed {
    #[inline(always)]
    fn code<C: Coder>(&mut self, c: &mut C, v: i32) -> Option<i32> {
        if c.bit(&mut self.zero, v != 0) {
            let negative = c.bit(&mut self.sign, v < 0);
            let m = self.magnitude.code(c, v.unsigned_abs().saturating_sub(1))? as i32 + 1;
            Some(if negative { -m } else { m })
        } else {
            Some(0)
        }
    }
}

/// Predictor kinds, in the order they are tried (see [`predict`]).
const KINDS: usize = 7;
/// Buckets of the neighbours' residual magnitudes.
const ACTIVITY: usize = 4;

/// Every context of the model; a chunk starts with all of them fresh.
struct Model {
    uniform: Bit,
    uniform_material: [Bit; 64],
    uniform_partial: Bit,
    uniform_occupancy: [Bit; 256],
    same_as_w: [Bit; 8],
    same_as_n: [Bit; 8],
    boundary: [Signed; 8],
    run_count: [Bit; 32],
    run_material: [Bit; 64],
    run_partial: [Bit; 2],
    run_length: [Bit; 32],
    occupancy: [[Signed; ACTIVITY]; KINDS],
}

impl Model {
    fn new() -> Box<Self> {
        Box::new(Self {
            uniform: Bit::new(),
            uniform_material: [Bit::new(); 64],
            uniform_partial: Bit::new(),
            uniform_occupancy: [Bit::new(); 256],
            same_as_w: [Bit::new(); 8],
            same_as_n: [Bit::new(); 8],
            boundary: [Signed::default(); 8],
            run_count: [Bit::new(); 32],
            run_material: [Bit::new(); 64],
            run_partial: [Bit::new(); 2],
            run_length: [Bit::new(); 32],
            occupancy: [[Signed::default(); ACTIVITY]; KINDS],
        })
    }
}

/// The runs of one column: keys bottom up and where each starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Runs {
    count: usize,
    key: [u8; N],
    start: [u8; N],
}

impl Runs {
    const EMPTY: Runs = Runs {
        count: 0,
        key: [0; N],
        start: [0; N],
    };

    /// The runs of a column of normalized voxels, bottom up.
    fn of(column: &[Voxel; N]) -> Self {
        let mut r = Self::EMPTY;
        let mut last = 0xff;
        let mut previous = None;
        for (y, &v) in column.iter().enumerate() {
            // Equal voxels have equal keys: most of a column repeats the voxel below.
            if previous == Some(v) {
                continue;
            }
            previous = Some(v);
            let k = key_of(v);
            if k != last {
                r.key[r.count] = k;
                r.start[r.count] = y as u8;
                r.count += 1;
                last = k;
            }
        }
        r
    }

    /// Same run count and keys. Keys past the count are always 0 (runs start [`Runs::EMPTY`] and
    /// only keys below the count are written), so whole arrays compare without a length.
    #[inline]
    fn same_keys(&self, other: &Runs) -> bool {
        self.count == other.count && self.key == other.key
    }

    fn end(&self, i: usize) -> usize {
        if i + 1 < self.count {
            usize::from(self.start[i + 1])
        } else {
            N
        }
    }
}

/// The coding state besides the stream: the runs of the current and the previous row of columns
/// (`x + 32·(z mod 2)`), the predictor's planes, and, when encoding, the normalized voxels of the
/// current row of columns (`slab[x][y]`, so a column is contiguous). Decoding writes the chunk's
/// array directly: a slab and a transpose per row measured no faster there.
struct State {
    runs: [Runs; 2 * N],
    planes: Planes,
    slab: [[Voxel; N]; N],
}

impl State {
    fn new() -> Box<Self> {
        Box::new(Self {
            runs: [Runs::EMPTY; 2 * N],
            planes: Planes::new(),
            slab: [[Voxel::AIR; N]; N],
        })
    }
}

/// A voxel's key: its material, and [`PARTIAL`] when its occupancy is not the material's default.
#[inline]
fn key_of(v: Voxel) -> u8 {
    if v.occupancy == Voxel::default_occupancy(v.material) {
        v.material
    } else {
        v.material | PARTIAL
    }
}

/// Dense index step of one layer (Z).
const NZ: usize = N * N;

fn corrupt(reason: impl Into<String>) -> Error {
    Error::corrupt(0, reason)
}

/// Code (or read) the structure of column (`x`, `z`); returns how it was coded (0: as W, 1: as N,
/// 2: runs). `cur` holds the encoder's runs of the column (anything when decoding).
fn code_structure<C: Coder>(
    c: &mut C,
    m: &mut Model,
    st: &mut State,
    mut cur: Runs,
    x: usize,
    z: usize,
    prev_mode: usize,
) -> Result<usize> {
    let row = (z % 2) * N;
    let w = (x > 0).then(|| &st.runs[row + x - 1]);
    let n = (z > 0).then(|| &st.runs[(N - row) + x]);
    let wn_same = matches!((w, n), (Some(a), Some(b)) if a.same_keys(b));
    let ctx = prev_mode * 2 + usize::from(wn_same);
    let mut reference = None;
    if let Some(w) = w {
        if c.bit(&mut m.same_as_w[ctx], cur.same_keys(w)) {
            reference = Some((0, w));
        }
    }
    if reference.is_none() {
        if let Some(n) = n {
            if !wn_same && c.bit(&mut m.same_as_n[ctx], cur.same_keys(n)) {
                reference = Some((1, n));
            }
        }
    }
    let mode = if let Some((mode, r)) = reference {
        cur.count = r.count;
        cur.key = r.key;
        cur.start[0] = 0;
        let mut previous_delta = 0i32;
        for i in 1..r.count {
            let delta = i32::from(cur.start[i]) - i32::from(r.start[i]);
            let ctx = (i - 1).min(3) * 2 + usize::from(previous_delta != 0);
            let residual = m.boundary[ctx]
                .code(c, delta - previous_delta)
                .ok_or_else(|| corrupt("boundary code too long"))?;
            previous_delta += residual;
            let start = i32::from(r.start[i]) + previous_delta;
            if start <= i32::from(cur.start[i - 1]) || start >= N as i32 {
                return Err(corrupt(format!(
                    "column ({x}, {z}): run {i} starts at {start}, out of order"
                )));
            }
            cur.start[i] = start as u8;
        }
        mode
    } else {
        code_runs(c, m, &mut cur, x, z)?;
        2
    };
    if let Some(i) = (0..cur.count).find(|&i| cur.key[i] == PARTIAL) {
        return Err(corrupt(format!(
            "column ({x}, {z}): run {i} is Air with occupancy"
        )));
    }
    st.runs[row + x] = cur;
    Ok(mode)
}

/// Code (or read) a column's runs one by one: count − 1, then per run its material, its partial
/// flag and (but for the last) its length − 1.
fn code_runs<C: Coder>(c: &mut C, m: &mut Model, cur: &mut Runs, x: usize, z: usize) -> Result<()> {
    let count = code_tree(c, &mut m.run_count, 5, (cur.count as u32).wrapping_sub(1)) as usize + 1;
    let mut start = 0usize;
    for i in 0..count {
        let key = cur.key[i];
        let material = code_tree(c, &mut m.run_material, 6, u32::from(key & 0x3f)) as u8;
        let partial = c.bit(
            &mut m.run_partial[usize::from(material == 0)],
            key & PARTIAL != 0,
        );
        let length = (cur.end(i) as u32).wrapping_sub(start as u32 + 1);
        cur.key[i] = material | if partial { PARTIAL } else { 0 };
        cur.start[i] = start as u8;
        if i + 1 < count {
            start += code_tree(c, &mut m.run_length, 5, length) as usize + 1;
            if start >= N {
                return Err(corrupt(format!(
                    "column ({x}, {z}): runs longer than the column"
                )));
            }
        }
    }
    cur.count = count;
    Ok(())
}

/// Write a column's runs into `voxels` at `column`: full and empty voxels whole, partial ones' material with
/// occupancy 0 (their occupancy comes next).
fn fill_column(voxels: &mut [Voxel], runs: &Runs, column: Column) {
    for r in 0..runs.count {
        let key = runs.key[r];
        let v = if key & PARTIAL == 0 {
            Voxel::filled(key)
        } else {
            Voxel::new(key & 0x3f, 0)
        };
        for y in usize::from(runs.start[r])..runs.end(r) {
            voxels[column.base + y * column.stride] = v;
        }
    }
}

/// Where a column's voxels sit: voxel `y` at `base + y · stride`.
#[derive(Clone, Copy)]
struct Column {
    base: usize,
    stride: usize,
}

/// Code (or read) the occupancies of column (`x`, `z`)'s partial voxels, bottom up, in `voxels`
/// at `column` (read when encoding, written when decoding).
#[allow(clippy::too_many_arguments)]
fn code_occupancy<C: Coder>(
    c: &mut C,
    m: &mut Model,
    runs: &Runs,
    planes: &mut Planes,
    voxels: &mut [Voxel],
    column: Column,
    x: usize,
    z: usize,
) -> Result<()> {
    planes.start_column(x, z);
    for r in 0..runs.count {
        if runs.key[r] & PARTIAL == 0 {
            continue;
        }
        for y in usize::from(runs.start[r])..runs.end(r) {
            let (kind, guess) = planes.predict(x, y, z);
            let act = planes.activity(x, y, z);
            let residual = m.occupancy[kind][act]
                .code(
                    c,
                    i32::from(voxels[column.base + y * column.stride].occupancy) - guess,
                )
                .ok_or_else(|| corrupt("occupancy code too long"))?;
            let value = guess + residual;
            if !(0..=254).contains(&value) {
                return Err(corrupt(format!(
                    "voxel ({x}, {y}, {z}): occupancy {value} out of range"
                )));
            }
            voxels[column.base + y * column.stride].occupancy = value as u8;
            planes.set(x, y, z, value as u8, residual);
        }
    }
    Ok(())
}

/// Encode every column of `voxels`, a row of columns (one z) at a time through the slab.
fn encode_columns(e: &mut RangeEncoder<'_>, m: &mut Model, voxels: &[Voxel]) {
    let mut st = State::new();
    for z in 0..N {
        for (y, row) in voxels[z * NZ..(z + 1) * NZ].chunks_exact(N).enumerate() {
            for (x, v) in row.iter().enumerate() {
                st.slab[x][y] = Voxel::new(v.material, v.occupancy);
            }
        }
        let mut prev_mode = 3;
        for x in 0..N {
            let cur = Runs::of(&st.slab[x]);
            // The encoder's own stream is always well formed.
            prev_mode = code_structure(e, m, &mut st, cur, x, z, prev_mode).unwrap_or(2);
            let column = Column {
                base: x * N,
                stride: 1,
            };
            let State { runs, planes, slab } = &mut *st;
            let runs = &runs[(z % 2) * N + x];
            let _ = code_occupancy(e, m, runs, planes, slab.as_flattened_mut(), column, x, z);
        }
    }
}

/// Read every column straight into `voxels` (X fastest).
fn decode_columns(d: &mut RangeDecoder<'_>, m: &mut Model, voxels: &mut [Voxel]) -> Result<()> {
    let mut st = State::new();
    for z in 0..N {
        let mut prev_mode = 3;
        for x in 0..N {
            prev_mode = code_structure(d, m, &mut st, Runs::EMPTY, x, z, prev_mode)?;
            let column = Column {
                base: x + z * NZ,
                stride: N,
            };
            let runs = &st.runs[(z % 2) * N + x];
            fill_column(voxels, runs, column);
            code_occupancy(d, m, runs, &mut st.planes, voxels, column, x, z)?;
        }
    }
    Ok(())
}

/// Encode a chunk's `voxels` (32³, X fastest, then Y, then Z; normalized first) and append the
/// range-coded stream to `out`.
///
/// # Panics
/// If `voxels.len() != 32768`.
pub fn encode_chunk(voxels: &[Voxel], out: &mut Vec<u8>) {
    assert_eq!(voxels.len(), VOLUME, "a chunk is 32³ voxels");
    let mut m = Model::new();
    let mut e = RangeEncoder::new(out);
    let normal = |v: &Voxel| Voxel::new(v.material, v.occupancy);
    let first = normal(&voxels[0]);
    let uniform = voxels.iter().all(|v| normal(v) == first);
    e.encode(&mut m.uniform, uniform);
    if uniform {
        code_uniform(&mut e, &mut m, first);
    } else {
        encode_columns(&mut e, &mut m, voxels);
    }
    e.finish();
}

/// Encode a chunk whose 32³ voxels are all `v` and append the stream to `out`: the same bytes as
/// [`encode_chunk`] on such a chunk, without reading 32³ voxels (a stored chunk that knows it is
/// uniform skips its dense copy).
pub fn encode_uniform_chunk(v: Voxel, out: &mut Vec<u8>) {
    let mut m = Model::new();
    let mut e = RangeEncoder::new(out);
    e.encode(&mut m.uniform, true);
    code_uniform(&mut e, &mut m, Voxel::new(v.material, v.occupancy));
    e.finish();
}

fn code_uniform<C: Coder>(c: &mut C, m: &mut Model, v: Voxel) -> Voxel {
    let material = code_tree(c, &mut m.uniform_material, 6, u32::from(v.material)) as u8;
    if material == 0 {
        return Voxel::AIR;
    }
    if c.bit(&mut m.uniform_partial, !v.is_default()) {
        Voxel::new(
            material,
            code_tree(c, &mut m.uniform_occupancy, 8, u32::from(v.occupancy)) as u8,
        )
    } else {
        Voxel::filled(material)
    }
}

/// Decode a stream written by [`encode_chunk`] into `voxels` (32³, X fastest).
///
/// # Errors
/// [`Error::Corrupt`] (offsets relative to the stream) when the stream is cut short, too long, or
/// describes an impossible chunk (runs out of order or past the column, Air with occupancy, an
/// occupancy out of range). Material ids are not checked against any table.
///
/// # Panics
/// If `voxels.len() != 32768`.
pub fn decode_chunk(bytes: &[u8], voxels: &mut [Voxel]) -> Result<()> {
    assert_eq!(voxels.len(), VOLUME, "a chunk is 32³ voxels");
    let mut m = Model::new();
    let mut d = RangeDecoder::new(bytes)?;
    if d.decode(&mut m.uniform) {
        let v = code_uniform(&mut d, &mut m, Voxel::AIR);
        voxels.fill(v);
    } else {
        decode_columns(&mut d, &mut m, voxels)?;
    }
    d.finish()
}
