//! Where the surface crosses a cell edge, and which way it faces, when occupancy saturates.
//!
//! Occupancy is the amount of matter around a sample, so along any line through the surface it is a
//! *clamped ramp*: 1 deep inside, 0 outside, and in between it falls by `g` per sample, where `g` is
//! how steeply the surface cuts that line (1 across a horizontal ground along Y, the slope of the
//! ground along X). Interpolating linearly between two samples is exact only where neither end is
//! clamped. At a full sample beside a partial one, or a partial one beside empty space, the straight
//! line between them has the wrong slope, and the crossing it gives wobbles with where the surface
//! sits between the samples:
//!
//! ```text
//!  occupancy                       true ramp: crossing at s         the linear guess
//!   1 ─●━━━━━━━┓                   ●━━━━━━━┓                        ●━━━━━━━┓
//!      a       ┃      (1 − t)      a        ╲                        a  ╲
//!  ½ ──────────┃───────────        ──────────╳──── s = 1 + d_b/g    ─────╲──── t = d_a/(d_a−d_b)
//!              ┗━━━━●━━            b unclamped at d_b ●              b   ●
//!   0                b
//! ```
//!
//! The rule here uses the unclamped end only: its density (`occupancy − ½`) is its signed distance to
//! the surface in units of `1/g` samples, so the crossing lies `|d|/g` samples from it. The cell's
//! per-axis `g` comes from steps whose both ends are unclamped (they measure it exactly): the cell's
//! own edges, else the same lines one sample further out. An axis without any such step takes
//! `g = 1`, the ramp of a surface square to that axis, which is what heightmaps and generated
//! terrain store across their surface (`clamp(h − y)` along Y).
//!
//! Without this, the surface of gently sloping ground rises in steps of `1/8` to `1/4` sample per
//! sample, and its normals tilt back and forth twice as much: at full resolution a faint ripple, on
//! the 4³ mip (a sample spans 8 voxels) terraces and contour lines. With it, a planar clamped ramp is
//! reconstructed exactly along every edge whose slope is known, so a mip level's surface lands where
//! the full-resolution one is.
//!
//! Everything reads only the cell's eight densities, so a cell shared by two chunks is computed
//! identically by both and seams stay bit-exact.

use super::cube::EDGES;
use super::mesh_field::EMPTY;

/// Density of a full sample (occupancy byte 255).
const FULL: f32 = 0.5;

/// True when a density is saturated: a full sample, or a sample outside the surface's matter.
#[inline]
fn clamped(d: f32) -> bool {
    !(EMPTY < d && d < FULL)
}

/// What a cell's densities say about the ramp through it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Ramp {
    /// Density change per sample along each axis (`g ≥ 0`).
    pub slope: [f32; 3],
    /// Estimated density gradient (grows inward), for normals.
    pub gradient: [f32; 3],
}

/// The ramp through a cell with corner densities `d` (corner numbering of `cube`). `beyond(k, axis)`
/// is the density one sample past corner `k` along `axis`, away from the cell; it is read only for
/// axes on which no cell edge has both ends unclamped, to look for such a step on the same lines one
/// sample further out (a gentle slope's ramp spans several samples, so one is almost always there).
pub(crate) fn cell_ramp(d: &[f32; 8], beyond: impl Fn(usize, usize) -> f32) -> Ramp {
    let mut slope = [1.0f32; 3];
    let mut gradient = [0.0f32; 3];
    for axis in 0..3 {
        let edges = || EDGES.iter().filter(move |e| e.2 == axis);
        let mut exact = Mean::default();
        let mut any = 0.0f32;
        for &(a, b, _) in edges() {
            any += d[b] - d[a];
            exact.add(d[a], d[b]);
        }
        if exact.n == 0 && any != 0.0 {
            for &(a, b, _) in edges() {
                exact.add(beyond(a, axis), d[a]);
                exact.add(d[b], beyond(b, axis));
            }
        }
        if exact.n > 0 {
            let g = exact.sum / exact.n as f32;
            slope[axis] = g.abs();
            gradient[axis] = g;
        } else if any != 0.0 {
            gradient[axis] = any.signum();
        }
    }
    Ramp { slope, gradient }
}

/// The mean of the steps between unclamped neighbours.
#[derive(Default)]
struct Mean {
    sum: f32,
    n: u32,
}

impl Mean {
    /// Count the step from `lo` to `hi` (one sample apart) when neither end is clamped.
    #[inline]
    fn add(&mut self, lo: f32, hi: f32) {
        if !clamped(lo) && !clamped(hi) {
            self.sum += hi - lo;
            self.n += 1;
        }
    }
}

/// The axis the surface faces most along: the gradient `g`'s largest component.
pub(crate) fn main_axis(g: [f32; 3]) -> usize {
    (0..3)
        .max_by(|&a, &b| g[a].abs().total_cmp(&g[b].abs()))
        .unwrap_or(1)
}

/// Where the surface crosses the edge from density `da` to density `db` (of opposite inside/outside
/// state), as a fraction of the edge from the `da` end, given the ramp's slope `g` along the edge.
#[inline]
pub(crate) fn crossing(da: f32, db: f32, g: f32) -> f32 {
    let (ca, cb) = (clamped(da), clamped(db));
    if ca == cb {
        // Both ends on the ramp (exact), or both saturated (the middle, as linear gives).
        return da / (da - db);
    }
    // Clamping only ever shortens a step, so the true slope is at least the step seen.
    let g = g.max((da - db).abs());
    let t = if cb { da.abs() / g } else { 1.0 - db.abs() / g };
    t.clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Densities of a clamped ramp `occupancy = clamp(0.5 + (s − x) · g)` sampled at x = 0 and 1.
    fn sampled(s: f32, g: f32) -> (f32, f32) {
        let at = |x: f32| ((0.5 + (s - x) * g).clamp(0.0, 1.0)) - 0.5;
        let (a, b) = (at(0.0), at(1.0));
        // A sample with no matter is EMPTY, exactly as the field stores it.
        let empty = |d: f32| if d <= -0.5 { EMPTY } else { d };
        (empty(a), empty(b))
    }

    #[test]
    fn clamped_ramps_are_crossed_where_the_surface_is() {
        for g in [0.3f32, 0.6, 1.0] {
            for k in 1..100 {
                let s = k as f32 / 100.0;
                let (da, db) = sampled(s, g);
                if (da > 0.0) == (db > 0.0) {
                    continue;
                }
                let t = crossing(da, db, g);
                assert!((t - s).abs() < 1e-5, "g {g} s {s}: t {t} ({da}, {db})");
            }
        }
    }

    #[test]
    fn linear_interpolation_wobbles_on_the_same_ramps() {
        // The old rule, for contrast: off by up to a tenth of a sample on a square-on ramp.
        let worst = (1..100)
            .map(|k| {
                let s = k as f32 / 100.0;
                let (da, db) = sampled(s, 1.0);
                (da / (da - db) - s).abs()
            })
            .fold(0.0f32, f32::max);
        assert!(worst > 0.07, "{worst}");
    }

    #[test]
    fn both_saturated_meets_in_the_middle_and_t_stays_on_the_edge() {
        assert_eq!(crossing(FULL, EMPTY, 1.0), 0.5);
        assert_eq!(crossing(EMPTY, FULL, 0.2), 0.5);
        for (da, db, g) in [(0.5, -0.1, 0.01), (0.3, EMPTY, 0.01), (-0.49, 0.5, 5.0)] {
            let t = crossing(da, db, g);
            assert!((0.0..=1.0).contains(&t), "{t}");
        }
    }

    #[test]
    fn sloped_ground_gives_a_steady_normal_and_slope() {
        // Ground h(x) = h0 + s·x stored as clamp(h − y) per voxel; the cell's gradient must not
        // depend on h0 (where the surface sits between samples).
        for s in [0.1f32, 0.25, 0.4] {
            let mut seen = 0;
            for k in 0..32 {
                let h0 = 0.6 + k as f32 / 32.0;
                let at = |x: i32, y: i32| {
                    let occ = (h0 + s * x as f32 - y as f32).clamp(0.0, 1.0);
                    if occ <= 0.0 {
                        EMPTY
                    } else {
                        occ - 0.5
                    }
                };
                let corner = |c: usize| [(c & 1) as i32, ((c >> 1) & 1) as i32];
                let d: [f32; 8] = std::array::from_fn(|c| at(corner(c)[0], corner(c)[1]));
                let beyond = |c: usize, axis: usize| {
                    let mut p = corner(c);
                    if axis < 2 {
                        p[axis] += if p[axis] == 1 { 1 } else { -1 };
                    }
                    at(p[0], p[1])
                };
                let r = cell_ramp(&d, beyond);
                if r.gradient[1] == 0.0 {
                    continue;
                }
                seen += 1;
                let g = r.gradient;
                assert!((g[0] - s).abs() < 1e-5, "s {s} h0 {h0}: {g:?}");
                assert!(g[1] == -1.0 && g[2] == 0.0, "s {s} h0 {h0}: {g:?}");
                assert!((r.slope[0] - s).abs() < 1e-5 && r.slope[1] == 1.0);
            }
            assert!(seen > 16, "{seen}");
        }
    }
}
