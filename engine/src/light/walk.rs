//! Snowflake walks: particles released from a surface voxel's open faces wander in fixed steps until
//! they enter a solid voxel (lost) or finish their steps (they bring light).
//!
//! ```text
//!   one step:   i = 10 random bits                   a random draw (a u64 draw serves three steps)
//!               p += table[i]                        a position update (fixed point, 20 fraction bits)
//!               solid? bit (p >> 20) of the volume   one bit test (one brick word)
//! ```
//!
//! The bit test is skipped where it cannot fail: a brick's clearance (or the distance to the volume,
//! outside it) bounds how many steps the particle can take before it could reach a solid voxel, and
//! those steps are only drawn and added. A particle whose remaining steps all fit in that free space
//! survives without walking them. Neither shortcut changes any result.
//!
//! Directions come from two tables of 1024 steps, each already scaled by the step length: the sky
//! table holds a spherical Fibonacci set (uniform on the sphere to within its spacing of about 6°),
//! the sun table the same directions bent towards the sun, `normalize(u + bias · sun)`. One table is
//! 16 KiB, so it stays in L1.
//!
//! Walk extents: the positions a particle takes are folded into the voxel's [`WalkExtent`], a box
//! holding every voxel its walks tested or could have tested. A particle whose outcome is settled
//! early (it survives because its remaining steps fit in free space) still draws its remaining
//! steps, only to add them to the extent. The extent is what makes re-bakes small: an edit can change
//! a voxel's light only when it changes a voxel inside that voxel's extent, because until then the
//! walks draw the same positions and test the same bits. A minimum and maximum on every step would
//! cost a third of the walk, so every fourth position (and the last) is added and the box is widened
//! by two steps, which holds the positions in between.
//!
//! Random streams: each surface voxel has one stream per particle kind, seeded from the bake seed,
//! the voxel's position and the kind; each particle forks its own generator from that stream. A voxel's
//! light therefore depends only on the seed, its position and the voxels its walks can reach, never on
//! the thread, the batch or the order voxels are visited in, and a particle that stops early (lost)
//! does not shift the draws of the next one.

use fastrand::Rng;

use super::settings::LightSettings;
use super::solid::{SolidVolume, SurfaceVoxel, MAX_CLEAR};
use crate::voxel::{VoxelBox, VoxelPos, FACE_OFFSETS};

/// Fraction bits of walk positions.
const FRAC: u32 = 20;
const ONE: i64 = 1 << FRAC;
/// Directions per table (10 bits of a draw).
const DIRS: usize = 1024;
/// Where the direction indices of consecutive steps sit in one 64-bit draw: a draw serves three
/// steps (the random number generator alone cost a fifth of a step when every step drew).
const DRAW_SHIFTS: [u32; 3] = [54, 44, 34];
/// The walk adds every `TRACK_EVERY`-th position (a power of two) and the last one to the extent,
/// widened by `TRACK_EVERY / 2` steps: a per-step minimum and maximum cost about half a walk step.
const TRACK_EVERY: u32 = 4;
/// Fixed-point units of one light unit (1.0 = 4096) in stored light.
pub const LIGHT_ONE: f32 = 4096.0;

/// Kinds of particle, mixed into the stream seeds.
const SUN: u64 = 0x0053_756e;
const SKY: u64 = 0x0053_6b79;
/// [`Walker::light_voxel_with`]: walk the sun particles.
pub(crate) const WALK_SUN: u8 = 1;
/// [`Walker::light_voxel_with`]: walk the sky particles.
pub(crate) const WALK_SKY: u8 = 2;

/// One direction table: `DIRS` steps, fixed point, scaled by the step length (the fixed size lets
/// the index of a 10-bit draw go without a bounds check).
type Table = Box<[[i32; 4]; DIRS]>;

/// A box holding the voxels a surface voxel's walks visited, as offsets from the voxel (inclusive):
/// every release point and every position a particle took, up to its death or its last step.
///
/// Only the solidity inside this box decides the voxel's light, so an edit that changes nothing
/// inside it leaves the light (and the extent) as they were. [`WalkExtent::UNKNOWN`] stands for
/// light whose extent was not recorded (loaded from a file): then the whole reach counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct WalkExtent {
    /// Least offset on each axis.
    pub lo: [i16; 3],
    /// Greatest offset on each axis.
    pub hi: [i16; 3],
}

/// True when the centre of voxel `p` lies within `reach` voxels of box `b` (Euclidean).
pub(crate) fn within_reach(p: VoxelPos, b: &VoxelBox, reach: f32) -> bool {
    let d = |c: i32, lo: i32, hi: i32| {
        let c = f64::from(c) + 0.5;
        (f64::from(lo) - c).max(c - f64::from(hi)).max(0.0)
    };
    let (dx, dy, dz) = (
        d(p.x, b.min.x, b.max.x),
        d(p.y, b.min.y, b.max.y),
        d(p.z, b.min.z, b.max.z),
    );
    dx * dx + dy * dy + dz * dz <= f64::from(reach) * f64::from(reach)
}

impl WalkExtent {
    /// No recorded extent.
    pub const UNKNOWN: Self = Self {
        lo: [i16::MIN; 3],
        hi: [i16::MAX; 3],
    };

    /// True when walks from `pos` with this extent may test a voxel of `b`. An unknown extent
    /// answers whether `b` lies within `reach` of `pos` (see [`LightSettings::reach`]).
    pub fn may_reach(&self, pos: VoxelPos, b: &VoxelBox, reach: f32) -> bool {
        if *self == Self::UNKNOWN {
            return within_reach(pos, b, reach);
        }
        let p = [pos.x, pos.y, pos.z].map(i64::from);
        let (bmin, bmax) = (
            [b.min.x, b.min.y, b.min.z].map(i64::from),
            [b.max.x, b.max.y, b.max.z].map(i64::from),
        );
        (0..3).all(|a| {
            p[a] + i64::from(self.lo[a]) < bmax[a] && p[a] + i64::from(self.hi[a]) >= bmin[a]
        })
    }
}

/// What one surface voxel's walks gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct VoxelWalks {
    /// Sun particles that survived.
    pub sun: u32,
    /// Sky particles that survived.
    pub sky: u32,
    /// Steps drawn by all its particles: each is a random draw, a position update and either a
    /// bit test or a skipped one (free space, or a particle already sure to survive).
    pub steps: u64,
    /// Steps that tested a bit.
    pub tested: u64,
    /// The box the walks visited.
    pub extent: WalkExtent,
}

/// Box of fixed-point positions (relative to the volume origin) some walks took.
#[derive(Debug, Clone, Copy)]
pub struct Bounds {
    lo: [i64; 3],
    hi: [i64; 3],
}

impl Bounds {
    #[inline]
    fn add(&mut self, p: [i64; 3]) {
        for ((lo, hi), v) in self.lo.iter_mut().zip(&mut self.hi).zip(p) {
            *lo = (*lo).min(v);
            *hi = (*hi).max(v);
        }
    }
}

/// The volume as a walk step reads it.
struct View<'v> {
    bricks: &'v [[u64; 8]],
    clear: &'v [u8],
    /// Volume size, fixed point.
    size: [u64; 3],
    nx: usize,
    nxy: usize,
}

/// A walk's state between steps.
struct Step {
    /// Position, fixed point, relative to the volume origin.
    p: [i64; 3],
    /// Steps left that need no bit test.
    free: u32,
    tested: u32,
    left: u32,
}

/// What one particle's walk gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Particle {
    /// It took all its steps without entering a solid voxel.
    pub survived: bool,
    /// Steps drawn (all of them unless it was lost).
    pub steps: u32,
    /// Steps that tested a bit.
    pub tested: u32,
    /// Where it stopped (fixed point, relative to the volume origin): inside the solid voxel it
    /// entered, when it was lost.
    pub end: [i64; 3],
}

/// Everything a walk needs, built once per bake.
pub struct Walker<'a> {
    vol: &'a SolidVolume,
    sun: Table,
    sky: Table,
    steps: u32,
    particles: u32,
    seed: u64,
    /// Volume size, fixed point.
    size: [u64; 3],
    /// Steps a particle in a brick of clearance `c` can take without reaching a solid voxel (256
    /// entries so that any clearance byte indexes it without a bounds check).
    free_steps: [u32; 256],
    /// The longest table step, fixed point (for the distance test outside the volume).
    max_step: i64,
}

/// A spherical Fibonacci set of `n` unit vectors.
fn fibonacci(n: usize) -> Vec<[f64; 3]> {
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    (0..n)
        .map(|i| {
            let y = 1.0 - (2 * i + 1) as f64 / n as f64;
            let r = (1.0 - y * y).max(0.0).sqrt();
            let phi = golden * i as f64;
            [r * phi.cos(), y, r * phi.sin()]
        })
        .collect()
}

fn table(steps: impl Iterator<Item = [i32; 4]>) -> Table {
    let mut t = Box::new([[0i32; 4]; DIRS]);
    for (slot, d) in t.iter_mut().zip(steps) {
        *slot = d;
    }
    t
}

fn to_fixed(v: [f64; 3], len: f64) -> [i32; 4] {
    let f = |c: f64| (c * len * ONE as f64).round() as i32;
    [f(v[0]), f(v[1]), f(v[2]), 0]
}

impl<'a> Walker<'a> {
    /// Tables and limits for `settings` (which must be valid) over `vol`.
    pub fn new(vol: &'a SolidVolume, settings: &LightSettings) -> Self {
        let len = f64::from(settings.step_length);
        let sun_dir = settings.sun_unit().map(f64::from);
        let bias = f64::from(settings.sun_bias);
        let dirs = fibonacci(DIRS);
        let sky = table(dirs.iter().map(|&u| to_fixed(u, len)));
        let sun = table(dirs.iter().map(|u| {
            let v = [0, 1, 2].map(|a| u[a] + bias * sun_dir[a]);
            let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
            let v = if n < 1e-9 { sun_dir } else { v.map(|c| c / n) };
            to_fixed(v, len)
        }));
        let max_step = sun
            .iter()
            .chain(sky.iter())
            .map(|d| {
                let s: f64 = d[..3].iter().map(|&c| f64::from(c) * f64::from(c)).sum();
                s.sqrt().ceil() as i64 + 1
            })
            .max()
            .unwrap_or(ONE);
        let mut free_steps = [0u32; 256];
        for (c, e) in free_steps
            .iter_mut()
            .enumerate()
            .take(MAX_CLEAR as usize + 1)
            .skip(2)
        {
            // At least (c - 1) · 8 voxels to any solid voxel; r steps move less than that when
            // r · max_step < (c - 1) · 8.
            let room = (c as i64 - 1) * 8 * ONE;
            *e = ((room - 1) / max_step).min(i64::from(u32::MAX)) as u32;
        }
        Self {
            vol,
            sun,
            sky,
            steps: settings.steps,
            particles: settings.particles,
            seed: settings.seed,
            size: vol.cells.map(|c| (u64::from(c) * 8) << FRAC),
            free_steps,
            max_step,
        }
    }

    /// Walk every particle of surface voxel `sv`.
    pub fn light_voxel(&self, sv: SurfaceVoxel) -> VoxelWalks {
        self.light_voxel_with(sv, WALK_SUN | WALK_SKY, |_, _, _| {})
    }

    /// Walk the particles of surface voxel `sv` of the kinds in `kinds` ([`WALK_SUN`],
    /// [`WALK_SKY`]), calling `lost(kind, steps taken, voxel entered)` for each particle lost.
    #[inline]
    pub(crate) fn light_voxel_with(
        &self,
        sv: SurfaceVoxel,
        kinds: u8,
        mut lost: impl FnMut(u8, u32, VoxelPos),
    ) -> VoxelWalks {
        let mut faces = [0usize; 6];
        let mut k = 0;
        for (f, slot) in (0..6)
            .filter(|f| sv.open >> f & 1 != 0)
            .zip(faces.iter_mut())
        {
            *slot = f;
            k += 1;
        }
        let mut out = VoxelWalks::default();
        if k == 0 {
            return out;
        }
        let o = self.vol.origin;
        let voxel = [sv.pos.x, sv.pos.y, sv.pos.z];
        let centre: [i64; 3] =
            [0, 1, 2].map(|a| (i64::from(voxel[a]) - i64::from(o[a])) * ONE + ONE / 2);
        let mut bounds = Bounds {
            lo: centre,
            hi: centre,
        };
        for (kind, bit, table) in [(SUN, WALK_SUN, &self.sun), (SKY, WALK_SKY, &self.sky)] {
            if kinds & bit == 0 {
                continue;
            }
            let mut stream = Rng::with_seed(stream_seed(self.seed, sv.pos, kind));
            let mut hits = 0u32;
            let mut face = 0;
            for _ in 0..self.particles {
                let f = FACE_OFFSETS[faces[face]];
                face = if face + 1 == k { 0 } else { face + 1 };
                let start = [0, 1, 2].map(|a| centre[a] + i64::from(f[a]) * ONE);
                let mut rng = stream.fork();
                let w = self.walk(table, start, &mut rng, &mut bounds);
                hits += u32::from(w.survived);
                if !w.survived {
                    let v = w.end.map(|c| (c >> FRAC) as i32);
                    lost(
                        bit,
                        w.steps,
                        VoxelPos::new(v[0] + o[0], v[1] + o[1], v[2] + o[2]),
                    );
                }
                out.steps += u64::from(w.steps);
                out.tested += u64::from(w.tested);
            }
            if kind == SUN {
                out.sun = hits;
            } else {
                out.sky = hits;
            }
        }
        // Every position lies within `TRACK_EVERY / 2` steps of a tracked one: widen by that much.
        let margin = i64::from(TRACK_EVERY / 2) * self.max_step;
        let offset = |v: i64, a: usize| {
            let voxel_rel = v >> FRAC;
            let d = voxel_rel + i64::from(o[a]) - i64::from(voxel[a]);
            d.clamp(i64::from(i16::MIN) + 1, i64::from(i16::MAX) - 1) as i16
        };
        out.extent = WalkExtent {
            lo: [0, 1, 2].map(|a| offset(bounds.lo[a] - margin, a)),
            hi: [0, 1, 2].map(|a| offset(bounds.hi[a] + margin, a)),
        };
        out
    }

    /// One particle from `start` (fixed point, relative to the volume origin); its release point,
    /// every `TRACK_EVERY`-th position and its last one are added to `bounds` (the caller widens the
    /// box by the steps in between).
    ///
    /// Where the particle is known to be far from every solid voxel (a brick of clearance `c`, or
    /// outside the volume), the steps that cannot reach one skip the bit test. Once its remaining
    /// steps all fit in that free space it is sure to survive, and the rest of its steps are only
    /// drawn and added to `bounds`.
    ///
    /// One 64-bit draw gives the directions of three steps (its top 30 bits, 10 a step).
    #[inline]
    pub fn walk(
        &self,
        table: &[[i32; 4]; DIRS],
        start: [i64; 3],
        rng: &mut Rng,
        bounds: &mut Bounds,
    ) -> Particle {
        let cells = self.vol.clear.len();
        let view = View {
            bricks: &self.vol.bricks[..cells],
            clear: &self.vol.clear[..cells],
            size: self.size,
            nx: self.vol.cells[0] as usize,
            nxy: self.vol.cells[0] as usize * self.vol.cells[1] as usize,
        };
        bounds.add(start);
        let mut s = Step {
            p: start,
            free: 0,
            tested: 0,
            left: self.steps,
        };
        let survived = 'walk: loop {
            let r = rng.u64(..);
            for shift in DRAW_SHIFTS {
                if s.left == 0 {
                    break 'walk true;
                }
                let d = &table[(r >> shift) as usize & (DIRS - 1)];
                if self.step(&view, d, &mut s, bounds) {
                    break 'walk false;
                }
            }
        };
        bounds.add(s.p);
        Particle {
            survived,
            steps: self.steps - s.left,
            tested: s.tested,
            end: s.p,
        }
    }

    /// One step of a walk by `d`: true when it entered a solid voxel.
    ///
    /// A tested step inside the volume loads one brick word, at an address computed from the
    /// position, and the brick's clearance beside it (the two loads do not wait on each other).
    #[inline(always)]
    fn step(&self, v: &View, d: &[i32; 4], s: &mut Step, bounds: &mut Bounds) -> bool {
        s.left -= 1;
        for (c, &v) in s.p.iter_mut().zip(d) {
            *c += i64::from(v);
        }
        if s.left & (TRACK_EVERY - 1) == 0 {
            bounds.add(s.p);
        }
        if s.free > 0 {
            s.free -= 1;
            return false;
        }
        s.tested += 1;
        let [px, py, pz] = s.p;
        // Negative positions wrap to large unsigned ones: one compare per axis.
        if (px as u64) < v.size[0] && (py as u64) < v.size[1] && (pz as u64) < v.size[2] {
            let (x, y, z) = (
                (px >> FRAC) as usize,
                (py >> FRAC) as usize,
                (pz >> FRAC) as usize,
            );
            let cell = (z >> 3) * v.nxy + (y >> 3) * v.nx + (x >> 3);
            let (Some(brick), Some(&c)) = (v.bricks.get(cell), v.clear.get(cell)) else {
                return false;
            };
            // The shift takes the bit index modulo 64: `y · 8 + x mod 8` needs no mask on y.
            if brick[z & 7] >> ((y * 8 + (x & 7)) & 63) & 1 != 0 {
                return true;
            }
            s.free = self.free_steps[usize::from(c)];
        } else {
            s.free = self.free_outside(px, py, pz);
        }
        if s.left <= s.free {
            s.free = u32::MAX;
        }
        false
    }

    /// Steps a particle at `p`, outside the volume, can take without reaching it. Out of line:
    /// particles rarely leave the padded volume, and the walk loop keeps its registers.
    #[cold]
    #[inline(never)]
    fn free_outside(&self, x: i64, y: i64, z: i64) -> u32 {
        let p = [x, y, z];
        let size = self.size.map(|s| s as i64);
        let out = (-p[0])
            .max(p[0] - size[0])
            .max(-p[1])
            .max(p[1] - size[1])
            .max(-p[2])
            .max(p[2] - size[2]);
        ((out - 1).max(0) / self.max_step).min(i64::from(u32::MAX)) as u32
    }
}

/// The seed of surface voxel `pos`'s stream of particle `kind`: the bake seed and the position mixed
/// through one wyrand draw per coordinate.
pub(crate) fn stream_seed(seed: u64, pos: VoxelPos, kind: u64) -> u64 {
    let mut h = seed;
    for v in [
        u64::from(pos.x as u32),
        u64::from(pos.y as u32),
        u64::from(pos.z as u32),
        kind,
    ] {
        h = Rng::with_seed(h ^ v).u64(..);
    }
    h
}

/// The stored light of a voxel whose walks gave `w`: `(sun_color · sun + sky_color · sky) /
/// particles`, in units of 1/4096, rounded and clamped to `u16`.
pub fn rgb16(settings: &LightSettings, w: VoxelWalks) -> [u16; 3] {
    let n = settings.particles as f32;
    let (sun, sky) = (w.sun as f32 / n, w.sky as f32 / n);
    [0, 1, 2].map(|a| {
        let l = settings.sun_color[a] * sun + settings.sky_color[a] * sky;
        (l * LIGHT_ONE).round().clamp(0.0, f32::from(u16::MAX)) as u16
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::Grid;
    use crate::voxel::{MaterialTable, Voxel, VoxelBox};

    /// The plain walks of `sv`: the same draws, every step tests its voxel with
    /// [`SolidVolume::is_solid`], no free space, no early survival. Survivors per kind, steps
    /// drawn, and every voxel a particle stood on.
    fn plain_walks(w: &Walker, sv: SurfaceVoxel) -> ([u32; 2], u64, Vec<[i64; 3]>) {
        let faces: Vec<[i32; 3]> = (0..6)
            .filter(|f| sv.open >> f & 1 != 0)
            .map(|f| FACE_OFFSETS[f])
            .collect();
        let voxel = [sv.pos.x, sv.pos.y, sv.pos.z];
        let mut visited = Vec::new();
        let (mut hits, mut steps) = ([0u32; 2], 0u64);
        for (k, (kind, table)) in [(SUN, &w.sun), (SKY, &w.sky)].into_iter().enumerate() {
            let mut stream = Rng::with_seed(stream_seed(w.seed, sv.pos, kind));
            for i in 0..w.particles as usize {
                let f = faces[i % faces.len()];
                let mut rng = stream.fork();
                let mut p = [0, 1, 2].map(|a| i64::from(voxel[a] + f[a]) * ONE + ONE / 2);
                visited.push(p.map(|c| c >> FRAC));
                let (mut r, mut lost) = (0, false);
                for n in 0..w.steps as usize {
                    if n % DRAW_SHIFTS.len() == 0 {
                        r = rng.u64(..);
                    }
                    let d = table[(r >> DRAW_SHIFTS[n % DRAW_SHIFTS.len()]) as usize & (DIRS - 1)];
                    for (c, &v) in p.iter_mut().zip(&d) {
                        *c += i64::from(v);
                    }
                    steps += 1;
                    let v = p.map(|c| c >> FRAC);
                    visited.push(v);
                    let at = VoxelPos::new(v[0] as i32, v[1] as i32, v[2] as i32);
                    if w.vol.is_solid(at) {
                        lost = true;
                        break;
                    }
                }
                hits[k] += u32::from(!lost);
            }
        }
        (hits, steps, visited)
    }

    /// Towers, an overhang and a cave on a slab, small enough that particles leave the volume.
    fn towers() -> Grid {
        let mut grid = Grid::new();
        let b = |a: [i32; 3], c: [i32; 3]| VoxelBox::new(VoxelPos::from(a), VoxelPos::from(c));
        grid.fill_box(b([0, 0, 0], [40, 6, 40]), Voxel::filled(7));
        grid.fill_box(b([5, 6, 5], [9, 30, 9]), Voxel::filled(7));
        grid.fill_box(b([20, 6, 10], [24, 14, 14]), Voxel::filled(7));
        grid.fill_box(b([20, 14, 10], [34, 16, 24]), Voxel::filled(7));
        grid.fill_box(b([10, 1, 20], [30, 4, 30]), Voxel::AIR);
        grid
    }

    #[test]
    fn walks_equal_plain_walks_and_extents_hold_every_position() {
        let vol = SolidVolume::from_grid(&towers(), &MaterialTable::builtin()).expect("volume");
        let long = LightSettings {
            particles: 9,
            steps: 40,
            step_length: 2.5,
            sun_bias: 4.0,
            ..LightSettings::default()
        };
        for settings in [LightSettings::default(), long] {
            settings.validate().expect("valid");
            let walker = Walker::new(&vol, &settings);
            let surface = vol.surface_in(vol.bounds());
            assert!(surface.len() > 1000);
            let (mut tested, mut steps) = (0, 0);
            for &sv in surface.iter().step_by(7) {
                let got = walker.light_voxel(sv);
                let (hits, want_steps, visited) = plain_walks(&walker, sv);
                assert_eq!([got.sun, got.sky], hits, "survivors of {sv:?}");
                assert_eq!(got.steps, want_steps, "steps of {sv:?}");
                let p = [sv.pos.x, sv.pos.y, sv.pos.z].map(i64::from);
                for v in visited {
                    let inside = (0..3).all(|a| {
                        (i64::from(got.extent.lo[a])..=i64::from(got.extent.hi[a]))
                            .contains(&(v[a] - p[a]))
                    });
                    assert!(
                        inside,
                        "{v:?} outside the extent {:?} of {sv:?}",
                        got.extent
                    );
                }
                tested += got.tested;
                steps += got.steps;
            }
            // The shortcuts are taken (else this test would not compare them).
            assert!(tested < steps * 9 / 10, "{tested} of {steps} steps tested");
        }
    }
}
