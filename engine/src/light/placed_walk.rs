//! Walks toward placed lights: from a surface voxel, particles leave through the open face that best
//! faces a light within its range and walk straight to a random point of the light (a cube one voxel
//! across, which softens shadow edges); those that arrive without entering a solid voxel bring back
//! its light.
//!
//! ```text
//!        ✦ ← target = light + jitter        one step per voxel of the segment:
//!       ·                                    p_i = release + (target − release) · i / n
//!      ·  ▓ an occluder stops the walk       solid(p_i)? lost : next
//!     ·
//!   ░ release = centre of the open neighbour (best facing face)
//!   ▓▓▓ surface voxel
//! ```
//!
//! Each voxel's stream for light `i` is seeded from the bake seed, its position and `i`, so the
//! result does not depend on threads or order. The walks' box is added to the voxel's walk extent.

use fastrand::Rng;

use super::placed::PlacedLight;
use super::solid::{SolidVolume, SurfaceVoxel};
use super::walk::stream_seed;
use crate::voxel::{VoxelPos, FACE_OFFSETS};

/// Kind of stream, mixed with the light's index into the seed.
const LAMP: u64 = 0x4c61_6d70;
/// Half the edge of the cube a walk aims at around the light, in voxels.
const JITTER: f64 = 0.5;

/// What the walks toward one light gave one voxel.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct LampWalks {
    /// Linear RGB light received.
    pub rgb: [f64; 3],
    /// Steps walked.
    pub steps: u64,
    /// Least and greatest voxel offsets the walks visited (relative to the voxel).
    pub lo: [i64; 3],
    /// See `lo`.
    pub hi: [i64; 3],
}

/// The light `light` (index `index` in the project's list) gives surface voxel `sv` through
/// `walks` walks; `None` when it gives none (out of range, behind the surface, outside a spot's
/// cone).
pub(crate) fn light_from(
    vol: &SolidVolume,
    seed: u64,
    sv: SurfaceVoxel,
    index: u32,
    light: &PlacedLight,
    walks: u32,
) -> Option<LampWalks> {
    let pos = [sv.pos.x, sv.pos.y, sv.pos.z].map(f64::from);
    let centre = pos.map(|c| c + 0.5);
    let lp = light.position.map(f64::from);
    let to = [0, 1, 2].map(|a| lp[a] - centre[a]);
    let d = (to[0] * to[0] + to[1] * to[1] + to[2] * to[2]).sqrt();
    if d >= f64::from(light.range) {
        return None;
    }
    let dir = if d > 1e-9 {
        to.map(|c| c / d)
    } else {
        [0.0, 1.0, 0.0]
    };
    let (face, facing) = (0..6)
        .filter(|f| sv.open >> f & 1 != 0)
        .map(|f| {
            let n = FACE_OFFSETS[f].map(f64::from);
            (f, n[0] * dir[0] + n[1] * dir[1] + n[2] * dir[2])
        })
        .fold(
            (usize::MAX, 0.0),
            |best, c| if c.1 > best.1 { c } else { best },
        );
    if face == usize::MAX {
        return None;
    }
    let facing = if d < 1.0 { 1.0 } else { facing };
    let strength = light.falloff(d, dir.map(|c| -c)) * facing;
    if strength <= 0.0 {
        return None;
    }
    let n = FACE_OFFSETS[face].map(f64::from);
    let release = [0, 1, 2].map(|a| centre[a] + n[a]);
    let mut rng = Rng::with_seed(stream_seed(seed, sv.pos, LAMP ^ (u64::from(index) << 32)));
    let mut out = LampWalks {
        lo: [0, 1, 2].map(|a| release[a].floor() as i64 - pos[a] as i64),
        ..LampWalks::default()
    };
    out.hi = out.lo;
    let mut seen = 0u32;
    for _ in 0..walks {
        let target = lp.map(|c| c + (rng.f64() * 2.0 - 1.0) * JITTER);
        let seg = [0, 1, 2].map(|a| target[a] - release[a]);
        let len = (seg[0] * seg[0] + seg[1] * seg[1] + seg[2] * seg[2]).sqrt();
        let steps = len.ceil().max(1.0) as u32;
        let mut blocked = false;
        for i in 1..steps {
            let t = f64::from(i) / f64::from(steps);
            let p = [0, 1, 2].map(|a| (release[a] + seg[a] * t).floor() as i32);
            out.steps += 1;
            if vol.is_solid(VoxelPos::new(p[0], p[1], p[2])) {
                blocked = true;
                break;
            }
        }
        for a in 0..3 {
            let o = target[a].floor() as i64 - pos[a] as i64;
            out.lo[a] = out.lo[a].min(o);
            out.hi[a] = out.hi[a].max(o);
        }
        seen += u32::from(!blocked);
    }
    let k = strength * f64::from(seen) / f64::from(walks.max(1));
    out.rgb = light.color.map(|c| f64::from(c) * k);
    Some(out)
}
