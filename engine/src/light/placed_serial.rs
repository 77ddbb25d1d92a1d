//! The byte form of the project's placed lights: the payload of the project file's `LAMP` section
//! (spec: `docs/formats/strata.md`), and of the undo history's light-list changes.
//!
//! ```text
//!   u8 version = 1 | u32 N | N records of 52 bytes:
//!   f32 x, y, z | f32 r, g, b | f32 intensity | f32 range | u8 kind (0 point, 1 spot) | 3 zero bytes
//!   | f32 dx, dy, dz | f32 angle (degrees)          (a point light's direction and angle are 0)
//! ```

use super::placed::{PlacedLight, Spot, MAX_LIGHTS};
use crate::codec::Reader;
use crate::voxel::VoxelBox;
use crate::{Error, Result};

/// Version byte of the placed-light payload.
pub const LAMP_VERSION: u8 = 1;
/// Bytes of one light record.
const RECORD_LEN: usize = 52;

/// Encode `lights` in order.
pub fn to_bytes(lights: &[PlacedLight]) -> Vec<u8> {
    let mut out = Vec::with_capacity(5 + lights.len() * RECORD_LEN);
    out.push(LAMP_VERSION);
    out.extend_from_slice(&(lights.len() as u32).to_le_bytes());
    let f32s = |out: &mut Vec<u8>, v: &[f32]| {
        for x in v {
            out.extend_from_slice(&x.to_le_bytes());
        }
    };
    for l in lights {
        f32s(&mut out, &l.position);
        f32s(&mut out, &l.color);
        f32s(&mut out, &[l.intensity, l.range]);
        let (kind, dir, angle) = match &l.spot {
            None => (0u8, [0.0; 3], 0.0),
            Some(s) => (1, s.direction, s.angle_degrees),
        };
        out.extend_from_slice(&[kind, 0, 0, 0]);
        f32s(&mut out, &dir);
        f32s(&mut out, &[angle]);
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

/// Decode a placed-light payload found at `base` in a file; every light must be valid inside
/// `world`. The count is checked against the payload's length before anything is allocated.
///
/// # Errors
/// [`Error::Corrupt`] at the offending byte, [`Error::UnsupportedVersion`] for another version.
pub fn from_bytes(bytes: &[u8], base: usize, world: &VoxelBox) -> Result<Vec<PlacedLight>> {
    let mut r = Reader::new(bytes, base);
    let version = r.u8("lights version")?;
    if version != LAMP_VERSION {
        return Err(Error::UnsupportedVersion {
            found: u32::from(version),
            supported: LAMP_VERSION.to_string(),
        });
    }
    let at = r.offset();
    let n = r.u32("light count")? as usize;
    if n > MAX_LIGHTS || n.checked_mul(RECORD_LEN) != Some(r.remaining()) {
        return Err(Error::corrupt(
            at,
            format!(
                "{n} lights do not match the {} bytes that follow (at most {MAX_LIGHTS} lights of \
                 {RECORD_LEN} bytes)",
                r.remaining()
            ),
        ));
    }
    let mut lights = Vec::with_capacity(n);
    for i in 0..n {
        let at = r.offset();
        let position = f32s::<3>(&mut r, "light position")?;
        let color = f32s::<3>(&mut r, "light colour")?;
        let [intensity, range] = f32s::<2>(&mut r, "light intensity")?;
        let kind = r.array::<4>("light kind")?;
        let direction = f32s::<3>(&mut r, "spot direction")?;
        let [angle_degrees] = f32s::<1>(&mut r, "spot angle")?;
        let spot = match kind {
            [0, 0, 0, 0] => None,
            [1, 0, 0, 0] => Some(Spot {
                direction,
                angle_degrees,
            }),
            _ => {
                return Err(Error::corrupt(
                    at + 32,
                    format!("light {i}: unknown kind {kind:?}"),
                ))
            }
        };
        let light = PlacedLight {
            position,
            color,
            intensity,
            range,
            spot,
        };
        light
            .validate(world)
            .map_err(|e| Error::corrupt(at, format!("light {i}: {e}")))?;
        lights.push(light);
    }
    Ok(lights)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::voxel::VoxelPos;

    fn world() -> VoxelBox {
        VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(32, 16, 32))
    }

    fn two() -> Vec<PlacedLight> {
        vec![
            PlacedLight {
                position: [1.0, 2.0, 0.5],
                color: [1.0, 0.5, 0.0],
                intensity: 2.0,
                range: 8.0,
                spot: None,
            },
            PlacedLight {
                position: [4.0, 8.0, 4.0],
                color: [0.0, 0.0, 1.0],
                intensity: 1.0,
                range: 16.0,
                spot: Some(Spot {
                    direction: [0.0, -1.0, 0.0],
                    angle_degrees: 90.0,
                }),
            },
        ]
    }

    #[test]
    fn golden_bytes() {
        let bytes = to_bytes(&two());
        #[rustfmt::skip]
        let expected: Vec<u8> = [
            vec![1u8, 2, 0, 0, 0],
            // point: 1, 2, 0.5 | 1, 0.5, 0 | intensity 2, range 8 | kind 0 | 0, 0, 0 | 0
            vec![0, 0, 0x80, 0x3f, 0, 0, 0, 0x40, 0, 0, 0, 0x3f],
            vec![0, 0, 0x80, 0x3f, 0, 0, 0, 0x3f, 0, 0, 0, 0],
            vec![0, 0, 0, 0x40, 0, 0, 0, 0x41, 0, 0, 0, 0],
            vec![0; 16],
            // spot: 4, 8, 4 | 0, 0, 1 | 1, 16 | kind 1 | 0, -1, 0 | 90
            vec![0, 0, 0x80, 0x40, 0, 0, 0, 0x41, 0, 0, 0x80, 0x40],
            vec![0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x3f],
            vec![0, 0, 0x80, 0x3f, 0, 0, 0x80, 0x41, 1, 0, 0, 0],
            vec![0, 0, 0, 0, 0, 0, 0x80, 0xbf, 0, 0, 0, 0, 0, 0, 0xb4, 0x42],
        ]
        .concat();
        assert_eq!(bytes, expected);
        assert_eq!(from_bytes(&bytes, 0, &world()).expect("decodes"), two());
        assert_eq!(to_bytes(&[]), vec![1, 0, 0, 0, 0]);
    }

    #[test]
    fn rejects_hostile_payloads() {
        let good = to_bytes(&two());
        let reject = |b: &[u8], word: &str| {
            let e = from_bytes(b, 10, &world()).expect_err(word).to_string();
            assert!(e.contains(word), "{e} should mention {word}");
        };
        for cut in 0..good.len() {
            assert!(from_bytes(&good[..cut], 0, &world()).is_err(), "cut {cut}");
        }
        let mut b = good.clone();
        b[0] = 9;
        reject(&b, "version");
        let mut b = good.clone();
        b[1..5].copy_from_slice(&u32::MAX.to_le_bytes());
        reject(&b, "do not match");
        let mut b = good.clone();
        b.push(0);
        reject(&b, "do not match");
        let mut b = good.clone();
        b[5..9].copy_from_slice(&f32::NAN.to_le_bytes());
        reject(&b, "finite");
        let mut b = good.clone();
        b[5..9].copy_from_slice(&1000f32.to_le_bytes());
        reject(&b, "outside the world");
        let mut b = good.clone();
        b[17..21].copy_from_slice(&(-1f32).to_le_bytes());
        reject(&b, "colour");
        let mut b = good.clone();
        b[33..37].copy_from_slice(&0f32.to_le_bytes());
        reject(&b, "range");
        let mut b = good.clone();
        b[37] = 7;
        reject(&b, "unknown kind");
        let mut b = good.clone();
        b[5 + 52 + 48..5 + 52 + 52].copy_from_slice(&180f32.to_le_bytes());
        reject(&b, "angle");
    }
}
