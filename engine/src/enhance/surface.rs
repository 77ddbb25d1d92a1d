//! Dependency windows, and which voxels have fragments that can differ from their own state.
//!
//! ```text
//!   Faces (one level, approximate table)   Box (two or more levels: lo = −1, hi = 1; resampling:
//!        ·  #  ·                                 the probes' reach)
//!        #  v  #                                 # # #
//!        ·  #  ·                                 # v #
//!                                                # # #
//! ```
//!
//! A voxel is skipped when every voxel of its window has the same key as it: the class byte where
//! materials can cross voxels (material borders, resampling), else the solidity alone. Its fragments
//! then all equal its own state. An edit of box `C` changes exactly the voxels whose window meets `C`
//! ([`Window::affected`]).

use crate::voxel::{VoxelBox, VoxelPos};

/// The voxels a voxel's fragments depend on, as offsets from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Window {
    /// The voxel and its six face neighbours.
    Faces,
    /// Every offset from `lo` to `hi` (inclusive) on each axis.
    Box {
        /// Lowest offset per axis.
        lo: [i32; 3],
        /// Highest offset per axis.
        hi: [i32; 3],
    },
}

impl Window {
    /// How far the window reaches on any axis, in voxels.
    pub fn reach(&self) -> usize {
        match self {
            Window::Faces => 1,
            Window::Box { lo, hi } => (0..3)
                .map(|a| (-lo[a]).max(hi[a]).max(0) as usize)
                .max()
                .unwrap_or(0),
        }
    }

    /// The boxes of voxels whose window meets `changed` (their union is exactly that set; the boxes may
    /// overlap).
    pub fn affected(&self, changed: VoxelBox) -> Vec<VoxelBox> {
        if changed.is_empty() {
            return Vec::new();
        }
        let grow = |lo: [i32; 3], hi: [i32; 3]| {
            VoxelBox::new(
                VoxelPos::new(
                    changed.min.x - hi[0],
                    changed.min.y - hi[1],
                    changed.min.z - hi[2],
                ),
                VoxelPos::new(
                    changed.max.x - lo[0],
                    changed.max.y - lo[1],
                    changed.max.z - lo[2],
                ),
            )
        };
        match *self {
            Window::Faces => (0..3)
                .map(|a| {
                    let mut lo = [0; 3];
                    let mut hi = [0; 3];
                    lo[a] = -1;
                    hi[a] = 1;
                    grow(lo, hi)
                })
                .collect(),
            Window::Box { lo, hi } => vec![grow(lo, hi)],
        }
    }
}

/// Mark in `surface` (one flag per voxel of the interior box, X fastest) the voxels whose window is not
/// uniform. `keys` covers the interior grown by `halo` on every side (`dims` per axis, X fastest);
/// `halo` must be at least the window's reach.
pub(crate) fn mark_surface(
    keys: &[u8],
    dims: [usize; 3],
    halo: usize,
    window: Window,
    binary: bool,
    scratch: &mut [Vec<u8>; 2],
    surface: &mut Vec<bool>,
) {
    let inner = dims.map(|d| d - 2 * halo);
    surface.clear();
    surface.resize(inner[0] * inner[1] * inner[2], false);
    let idx = |x: usize, y: usize, z: usize| (z * dims[1] + y) * dims[0] + x;
    match window {
        Window::Faces => {
            let (sx, sxy) = (dims[0], dims[0] * dims[1]);
            let mut o = 0;
            for z in 0..inner[2] {
                for y in 0..inner[1] {
                    for x in 0..inner[0] {
                        let i = idx(x + halo, y + halo, z + halo);
                        let k = keys[i];
                        surface[o] = keys[i - 1] != k
                            || keys[i + 1] != k
                            || keys[i - sx] != k
                            || keys[i + sx] != k
                            || keys[i - sxy] != k
                            || keys[i + sxy] != k;
                        o += 1;
                    }
                }
            }
        }
        Window::Box { lo, hi } if binary && dims[0] <= 64 => {
            mark_box_bits(keys, dims, halo, lo, hi, surface);
        }
        Window::Box { lo, hi } => {
            // Separable "max − min over the window": a voxel is uniform when both agree. Each pass
            // combines whole rows (or planes) element by element, which the compiler vectorizes.
            let [mn, mx] = scratch;
            window_pass_x(keys, dims, lo[0], hi[0], mn, mx);
            let plane = dims[0] * dims[1];
            let mut tmp = (Vec::new(), Vec::new());
            for (axis, stride, count) in [(1, dims[0], dims[1]), (2, plane, dims[2])] {
                let (a, b) = (lo[axis], hi[axis]);
                tmp.0.clone_from(mn);
                tmp.1.clone_from(mx);
                let block = if axis == 1 { plane } else { plane * dims[2] };
                for start in (0..keys.len()).step_by(block) {
                    for at in 0..count {
                        if (at as i32) + a < 0 || (at as i32) + b >= count as i32 {
                            continue;
                        }
                        let row = start + at * stride;
                        for d in a..=b {
                            let src = (row as isize + d as isize * stride as isize) as usize;
                            let (from_mn, from_mx) =
                                (&tmp.0[src..src + stride], &tmp.1[src..src + stride]);
                            let (to_mn, to_mx) =
                                (&mut mn[row..row + stride], &mut mx[row..row + stride]);
                            if d == a {
                                to_mn.copy_from_slice(from_mn);
                                to_mx.copy_from_slice(from_mx);
                            } else {
                                to_mn
                                    .iter_mut()
                                    .zip(from_mn)
                                    .for_each(|(t, &f)| *t = (*t).min(f));
                                to_mx
                                    .iter_mut()
                                    .zip(from_mx)
                                    .for_each(|(t, &f)| *t = (*t).max(f));
                            }
                        }
                    }
                }
            }
            let mut o = 0;
            for z in 0..inner[2] {
                for y in 0..inner[1] {
                    let i = idx(halo, y + halo, z + halo);
                    for (lo, hi) in mn[i..i + inner[0]].iter().zip(&mx[i..i + inner[0]]) {
                        surface[o] = lo != hi;
                        o += 1;
                    }
                }
            }
        }
    }
}

/// [`mark_surface`] for keys that are 0 or 1 and rows of at most 64: each X row becomes a bit mask,
/// and the window's AND (all solid) and OR (any solid) are taken with shifts, then across rows and
/// planes.
fn mark_box_bits(
    keys: &[u8],
    dims: [usize; 3],
    halo: usize,
    lo: [i32; 3],
    hi: [i32; 3],
    surface: &mut [bool],
) {
    let rows: Vec<u64> = keys
        .chunks_exact(dims[0])
        .map(|r| {
            r.iter()
                .enumerate()
                .fold(0u64, |m, (x, &k)| m | (u64::from(k & 1) << x))
        })
        .collect();
    let shift = |r: u64, d: i32| if d >= 0 { r >> d } else { r << -d };
    let mut all: Vec<u64> = rows
        .iter()
        .map(|&r| (lo[0]..=hi[0]).fold(u64::MAX, |a, d| a & shift(r, d)))
        .collect();
    let mut any: Vec<u64> = rows
        .iter()
        .map(|&r| (lo[0]..=hi[0]).fold(0, |a, d| a | shift(r, d)))
        .collect();
    for (axis, stride, count) in [(1, 1, dims[1]), (2, dims[1], dims[2])] {
        let (a0, b0) = (all.clone(), any.clone());
        for (r, (al, an)) in all.iter_mut().zip(any.iter_mut()).enumerate() {
            let at = if axis == 1 { r % dims[1] } else { r / dims[1] } as i32;
            if at + lo[axis] < 0 || at + hi[axis] >= count as i32 {
                continue;
            }
            for d in lo[axis]..=hi[axis] {
                let j = (r as isize + d as isize * stride as isize) as usize;
                *al &= a0[j];
                *an |= b0[j];
            }
        }
    }
    let inner = dims.map(|d| d - 2 * halo);
    let mut o = 0;
    for z in 0..inner[2] {
        for y in 0..inner[1] {
            let r = (z + halo) * dims[1] + y + halo;
            let mixed = !all[r] & any[r];
            for x in 0..inner[0] {
                surface[o] = (mixed >> (x + halo)) & 1 == 1;
                o += 1;
            }
        }
    }
}

/// Minimum and maximum of `keys` over offsets `a..=b` along X (valid where the window fits).
fn window_pass_x(
    keys: &[u8],
    dims: [usize; 3],
    a: i32,
    b: i32,
    mn: &mut Vec<u8>,
    mx: &mut Vec<u8>,
) {
    mn.clear();
    mn.extend_from_slice(keys);
    mx.clear();
    mx.extend_from_slice(keys);
    let w = (b - a + 1) as usize;
    if dims[0] < w {
        return;
    }
    for (r, row) in keys.chunks_exact(dims[0]).enumerate() {
        let first = (r * dims[0]) as isize - a as isize;
        for (k, win) in row.windows(w).enumerate() {
            let at = (first + k as isize) as usize;
            mn[at] = *win.iter().min().unwrap_or(&0);
            mx[at] = *win.iter().max().unwrap_or(&0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn affected_boxes_are_the_reversed_window() {
        let c = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(2, 3, 4));
        let cube = Window::Box {
            lo: [-1; 3],
            hi: [1; 3],
        };
        assert_eq!(
            cube.affected(c),
            vec![VoxelBox::new(
                VoxelPos::new(-1, -1, -1),
                VoxelPos::new(3, 4, 5)
            )]
        );
        let skew = Window::Box {
            lo: [0, -2, 0],
            hi: [1, 0, 0],
        };
        let b = skew.affected(c)[0];
        for x in -3..5 {
            for y in -3..7 {
                let p = VoxelPos::new(x, y, 0);
                let touches = (x..=x + 1).any(|wx| (0..2).contains(&wx))
                    && (y - 2..=y).any(|wy| (0..3).contains(&wy));
                assert_eq!(b.contains(p), touches, "{p:?}");
            }
        }
        let faces = Window::Faces.affected(c);
        assert_eq!(faces.len(), 3);
        let hit = |p: VoxelPos| faces.iter().any(|b| b.contains(p));
        assert!(hit(VoxelPos::new(-1, 0, 0)) && hit(VoxelPos::new(0, 3, 0)));
        assert!(
            !hit(VoxelPos::new(-1, -1, 0)),
            "an edge neighbour's window misses the box"
        );
        assert!(Window::Faces.affected(VoxelBox::default()).is_empty());
    }

    #[test]
    fn surface_marks_follow_a_brute_force_scan() {
        let halo = 2;
        let dims = [9, 8, 10];
        let keys: Vec<u8> = (0..dims[0] * dims[1] * dims[2])
            .map(|i| u8::from((i * 37 + i / 7) % 11 < 9))
            .collect();
        for window in [
            Window::Faces,
            Window::Box {
                lo: [-1; 3],
                hi: [1; 3],
            },
            Window::Box {
                lo: [-2, 0, -1],
                hi: [1, 2, 0],
            },
        ] {
            let mut surface = Vec::new();
            mark_surface(
                &keys,
                dims,
                halo,
                window,
                false,
                &mut Default::default(),
                &mut surface,
            );
            let mut bits = Vec::new();
            mark_surface(
                &keys,
                dims,
                halo,
                window,
                true,
                &mut Default::default(),
                &mut bits,
            );
            assert_eq!(bits, surface, "the bit path agrees");
            let inner = dims.map(|d| d - 2 * halo);
            let key = |x: i32, y: i32, z: i32| {
                keys[((z as usize) * dims[1] + y as usize) * dims[0] + x as usize]
            };
            let mut o = 0;
            for z in 0..inner[2] as i32 {
                for y in 0..inner[1] as i32 {
                    for x in 0..inner[0] as i32 {
                        let (cx, cy, cz) = (x + 2, y + 2, z + 2);
                        let k = key(cx, cy, cz);
                        let offsets: Vec<[i32; 3]> = match window {
                            Window::Faces => crate::voxel::FACE_OFFSETS.to_vec(),
                            Window::Box { lo, hi } => (lo[2]..=hi[2])
                                .flat_map(|dz| {
                                    (lo[1]..=hi[1]).flat_map(move |dy| {
                                        (lo[0]..=hi[0]).map(move |dx| [dx, dy, dz])
                                    })
                                })
                                .collect(),
                        };
                        let differs = offsets
                            .iter()
                            .any(|d| key(cx + d[0], cy + d[1], cz + d[2]) != k);
                        assert_eq!(surface[o], differs, "{window:?} at {x},{y},{z}");
                        o += 1;
                    }
                }
            }
        }
    }
}
