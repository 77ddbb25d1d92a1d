//! The byte form of baked light: the payload of the project file's `LITE` section (spec:
//! `docs/formats/strata.md`), and the repair that makes a loaded light fit the loaded voxels.
//!
//! ```text
//!   u8 version = 1 | settings (60 bytes) | u32 S | S stale boxes (6 × i32) | u32 C | C chunk records
//!   chunk record: i32 cx, cy, cz | u32 n | n × u16 local index (ascending) | n × u16 r, g, b
//! ```

use super::map::{voxel_at, ChunkLight, LightMap};
use super::settings::LightSettings;
use super::solid::SolidVolume;
use super::walk::WalkExtent;
use rustc_hash::FxHashMap;

use crate::codec::Reader;
use crate::storage::Grid;
use crate::voxel::{ChunkPos, MaterialTable, VoxelBox, VoxelPos, CHUNK_SIZE};
use crate::{Error, Result};

/// Version byte of the light payload.
pub const LIGHT_VERSION: u8 = 1;
/// Bytes of the settings block.
const SETTINGS_LEN: usize = 60;
const CHUNK_VOXELS: usize = CHUNK_SIZE * CHUNK_SIZE * CHUNK_SIZE;

fn put_f32s(out: &mut Vec<u8>, v: &[f32]) {
    for x in v {
        out.extend_from_slice(&x.to_le_bytes());
    }
}

/// Encode `map` (chunks sorted Z, Y, X; equal maps give equal bytes).
pub fn to_bytes(map: &LightMap) -> Vec<u8> {
    let s = map.settings();
    let mut out = vec![LIGHT_VERSION];
    put_f32s(&mut out, &s.sun_dir);
    put_f32s(&mut out, &s.sun_color);
    put_f32s(&mut out, &s.sky_color);
    out.extend_from_slice(&s.particles.to_le_bytes());
    out.extend_from_slice(&s.steps.to_le_bytes());
    put_f32s(&mut out, &[s.step_length, s.sun_bias]);
    out.extend_from_slice(&s.seed.to_le_bytes());
    let stale: Vec<VoxelBox> = map.stale_boxes().collect();
    out.extend_from_slice(&(stale.len() as u32).to_le_bytes());
    for b in stale {
        for v in [b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z] {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
    let chunks = map.sorted_chunks();
    out.extend_from_slice(&(chunks.len() as u32).to_le_bytes());
    for c in chunks {
        let l = &map.chunks[&c];
        for v in [c.x, c.y, c.z] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&(l.index.len() as u32).to_le_bytes());
        for i in &l.index {
            out.extend_from_slice(&i.to_le_bytes());
        }
        for rgb in &l.rgb {
            for v in rgb {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
    }
    out
}

fn f32s<const N: usize>(r: &mut Reader, what: &str) -> Result<[f32; N]> {
    let mut v = [0f32; N];
    for x in &mut v {
        *x = f32::from_bits(r.u32(what)?);
    }
    Ok(v)
}

fn read_settings(r: &mut Reader) -> Result<LightSettings> {
    let at = r.offset();
    if r.remaining() < SETTINGS_LEN {
        return Err(r.error(format!(
            "truncated: light settings need {SETTINGS_LEN} bytes, {} left",
            r.remaining()
        )));
    }
    let sun_dir = f32s::<3>(r, "sun direction")?;
    let sun_color = f32s::<3>(r, "sun colour")?;
    let sky_color = f32s::<3>(r, "sky colour")?;
    let particles = r.u32("particles")?;
    let steps = r.u32("steps")?;
    let [step_length, sun_bias] = f32s::<2>(r, "step length")?;
    let seed = r.u64("seed")?;
    let s = LightSettings {
        sun_dir,
        sun_color,
        sky_color,
        particles,
        steps,
        step_length,
        sun_bias,
        seed,
        // What the `LOPT` section adds; light without one was baked before these existed.
        emission: false,
        bounce: 0,
        denoise: false,
    };
    s.validate()
        .map_err(|e| Error::corrupt(at, format!("light settings: {e}")))?;
    Ok(s)
}

/// Decode a light payload found at `base` in a file. Checks sizes before allocating: stale boxes and
/// chunk records must fit in what remains, chunks must be sorted without repeats, each chunk holds 1
/// to 32 768 voxels with strictly ascending indices, and nothing may follow the last record.
///
/// # Errors
/// [`Error::Corrupt`] at the offending byte, [`Error::UnsupportedVersion`] for another version.
pub fn from_bytes(bytes: &[u8], base: usize) -> Result<LightMap> {
    let mut r = Reader::new(bytes, base);
    let version = r.u8("light version")?;
    if version != LIGHT_VERSION {
        return Err(Error::UnsupportedVersion {
            found: u32::from(version),
            supported: LIGHT_VERSION.to_string(),
        });
    }
    let settings = read_settings(&mut r)?;
    let at = r.offset();
    let stale_count = r.u32("stale box count")? as usize;
    if stale_count > r.remaining() / 24 {
        return Err(Error::corrupt(
            at,
            format!("{stale_count} stale boxes do not fit in the section"),
        ));
    }
    let mut stale = Vec::with_capacity(stale_count);
    for _ in 0..stale_count {
        let at = r.offset();
        let mut v = [0i32; 6];
        for x in &mut v {
            *x = r.i32("stale box")?;
        }
        let b = VoxelBox::new(
            VoxelPos::new(v[0], v[1], v[2]),
            VoxelPos::new(v[3], v[4], v[5]),
        );
        if b.is_empty() {
            return Err(Error::corrupt(at, "empty stale box"));
        }
        if !b.in_range() {
            return Err(Error::corrupt(
                at,
                "stale box lies outside the world's coordinate range",
            ));
        }
        stale.push(b);
    }
    let mut map = LightMap::new(settings);
    map.set_stale(stale);
    let at = r.offset();
    let chunk_count = r.u32("light chunk count")? as usize;
    if chunk_count > r.remaining() / 24 {
        return Err(Error::corrupt(
            at,
            format!("{chunk_count} light chunks do not fit in the section"),
        ));
    }
    let mut previous: Option<ChunkPos> = None;
    for _ in 0..chunk_count {
        let at = r.offset();
        let c = ChunkPos::new(r.i32("chunk x")?, r.i32("chunk y")?, r.i32("chunk z")?);
        let key = |p: ChunkPos| (p.z, p.y, p.x);
        if previous.is_some_and(|p| key(p) >= key(c)) {
            return Err(Error::corrupt(
                at,
                format!("light chunk {c:?} is out of order or repeated"),
            ));
        }
        if !c.in_range() {
            return Err(Error::corrupt(
                at,
                format!("light chunk {c:?} lies outside the world's coordinate range"),
            ));
        }
        previous = Some(c);
        let n_at = r.offset();
        let n = r.u32("light voxel count")? as usize;
        if n == 0 || n > CHUNK_VOXELS || n * 8 > r.remaining() {
            return Err(Error::corrupt(
                n_at,
                format!("light chunk {c:?}: {n} voxels is impossible here"),
            ));
        }
        let mut l = ChunkLight {
            index: Vec::with_capacity(n),
            rgb: Vec::with_capacity(n),
            extent: vec![WalkExtent::UNKNOWN; n],
        };
        for k in 0..n {
            let i_at = r.offset();
            let i = r.u16("light voxel index")?;
            if usize::from(i) >= CHUNK_VOXELS || (k > 0 && l.index[k - 1] >= i) {
                return Err(Error::corrupt(
                    i_at,
                    format!("light chunk {c:?}: voxel index {i} is out of range or order"),
                ));
            }
            l.index.push(i);
        }
        for _ in 0..n {
            l.rgb
                .push([r.u16("light")?, r.u16("light")?, r.u16("light")?]);
        }
        map.chunks.insert(c, l);
    }
    if r.remaining() > 0 {
        return Err(r.error(format!(
            "{} bytes follow the last light chunk",
            r.remaining()
        )));
    }
    Ok(map)
}

/// Make `map` fit `grid`: outside stale regions, light is stored for exactly the surface voxels.
/// Where it is not (the voxels were changed by a program that did not mark the light stale), the
/// tight box of the misfits in each chunk is marked stale, so the voxels load, the viewport shows
/// that light as stale and a re-bake refreshes it. Returns a warning naming the first misfit and
/// how much was marked, or `None` when everything fits.
///
/// # Errors
/// When the surface cannot be computed at all (the world is too large for the solidity volume); the
/// caller then drops the light.
pub fn fit_to_voxels(
    map: &mut LightMap,
    grid: &Grid,
    table: &MaterialTable,
) -> Result<Option<String>> {
    let vol = SolidVolume::from_grid(grid, table)?;
    let mut misfits: FxHashMap<ChunkPos, VoxelBox> = FxHashMap::default();
    let mut first: Option<String> = None;
    let mut count = 0usize;
    let mut note = |p: VoxelPos, why: &str| {
        count += 1;
        if first.is_none() {
            first = Some(format!("voxel ({}, {}, {}) {why}", p.x, p.y, p.z));
        }
        let b = misfits.entry(p.chunk()).or_default();
        *b = b.union(&VoxelBox::from_min_size(p, [1, 1, 1]));
    };
    for c in map.sorted_chunks() {
        for &i in &map.chunks[&c].index {
            let p = voxel_at(c, i);
            if vol.surface_at(p).is_none() && !map.is_stale(p) {
                note(p, "has light but is not a surface voxel");
            }
        }
    }
    for s in vol.surface_in(vol.bounds()) {
        if map.rgb16(s.pos).is_none() && !map.is_stale(s.pos) {
            note(s.pos, "is a surface voxel without light");
        }
    }
    let Some(first) = first else {
        return Ok(None);
    };
    let mut boxes: Vec<(ChunkPos, VoxelBox)> = misfits.into_iter().collect();
    boxes.sort_unstable_by_key(|(c, _)| (c.z, c.y, c.x));
    let chunks = boxes.len();
    for (_, b) in boxes {
        map.mark_stale(b);
    }
    Ok(Some(format!(
        "the baked light does not fit the voxels ({first}; {count} voxels in {chunks} chunks, \
         edited without marking the light stale); that light is now marked stale: re-bake to \
         refresh it"
    )))
}

/// Version byte of the bake-options payload (`LOPT`).
pub const OPTIONS_VERSION: u8 = 1;

/// Encode what `map` holds beyond the `LITE` payload: the bake options of its settings, its reach
/// and the boxes placed-light changes made stale.
///
/// ```text
///   u8 version = 1 | u8 emission (0/1) | u8 bounce | u8 denoise (0/1) | u8 0 | f32 reach
///   | u32 R | R boxes (6 × i32)
/// ```
pub fn options_to_bytes(map: &LightMap) -> Vec<u8> {
    let s = map.settings();
    let mut out = vec![
        OPTIONS_VERSION,
        u8::from(s.emission),
        s.bounce,
        u8::from(s.denoise),
        0,
    ];
    out.extend_from_slice(&map.reach().to_le_bytes());
    let relit: Vec<VoxelBox> = map.relit_boxes().collect();
    out.extend_from_slice(&(relit.len() as u32).to_le_bytes());
    for b in relit {
        for v in [b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z] {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
    out
}

/// Read a bake-options payload found at `base` into `map` (decoded from the same file's `LITE`).
///
/// # Errors
/// [`Error::Corrupt`] at the offending byte, [`Error::UnsupportedVersion`] for another version;
/// `map` is unchanged then.
pub fn options_from_bytes(bytes: &[u8], base: usize, map: &mut LightMap) -> Result<()> {
    let mut r = Reader::new(bytes, base);
    let version = r.u8("light options version")?;
    if version != OPTIONS_VERSION {
        return Err(Error::UnsupportedVersion {
            found: u32::from(version),
            supported: OPTIONS_VERSION.to_string(),
        });
    }
    let at = r.offset();
    let flags = r.array::<4>("light options")?;
    let flag = |v: u8, what: &str| match v {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(Error::corrupt(
            at,
            format!("{what} flag {v} must be 0 or 1"),
        )),
    };
    let settings = LightSettings {
        emission: flag(flags[0], "emission")?,
        bounce: flags[1],
        denoise: flag(flags[2], "denoise")?,
        ..*map.settings()
    };
    if flags[3] != 0 {
        return Err(Error::corrupt(
            at + 3,
            "reserved light option byte is not 0",
        ));
    }
    settings
        .validate()
        .map_err(|e| Error::corrupt(at, format!("light options: {e}")))?;
    let reach_at = r.offset();
    let reach = f32::from_bits(r.u32("light reach")?);
    if !reach.is_finite() || !(0.0..=4.0 * super::settings::MAX_REACH).contains(&reach) {
        return Err(Error::corrupt(
            reach_at,
            format!("light reach {reach} is impossible"),
        ));
    }
    let at = r.offset();
    let count = r.u32("light box count")? as usize;
    if count.checked_mul(24) != Some(r.remaining()) {
        return Err(Error::corrupt(
            at,
            format!(
                "{count} light boxes do not match the {} bytes that follow",
                r.remaining()
            ),
        ));
    }
    let mut relit = Vec::with_capacity(count);
    for _ in 0..count {
        let at = r.offset();
        let mut v = [0i32; 6];
        for x in &mut v {
            *x = r.i32("light box")?;
        }
        let b = VoxelBox::new(
            VoxelPos::new(v[0], v[1], v[2]),
            VoxelPos::new(v[3], v[4], v[5]),
        );
        if b.is_empty() || !b.in_range() {
            return Err(Error::corrupt(at, "light box is empty or out of range"));
        }
        relit.push(b);
    }
    map.set_settings(settings);
    map.set_reach(reach);
    map.set_relit(relit);
    Ok(())
}
