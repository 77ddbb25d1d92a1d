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
        Window::Box { lo, hi } => {
            // Separable "max − min over the window": a voxel is uniform when both agree.
            let [lo_buf, hi_buf] = scratch;
            lo_buf.clear();
            lo_buf.extend_from_slice(keys);
            hi_buf.clear();
            hi_buf.extend_from_slice(keys);
            let strides = [1, dims[0], dims[0] * dims[1]];
            let mut tmp_lo = Vec::new();
            let mut tmp_hi = Vec::new();
            for axis in 0..3 {
                tmp_lo.clone_from(lo_buf);
                tmp_hi.clone_from(hi_buf);
                let s = strides[axis] as isize;
                let (a, b) = (lo[axis] as isize, hi[axis] as isize);
                for z in 0..dims[2] {
                    for y in 0..dims[1] {
                        for x in 0..dims[0] {
                            let p = [x, y, z];
                            let at = p[axis] as isize;
                            if at + a < 0 || at + b >= dims[axis] as isize {
                                continue;
                            }
                            let i = idx(x, y, z) as isize;
                            let mut mn = u8::MAX;
                            let mut mx = 0u8;
                            for d in a..=b {
                                let j = (i + d * s) as usize;
                                mn = mn.min(tmp_lo[j]);
                                mx = mx.max(tmp_hi[j]);
                            }
                            lo_buf[i as usize] = mn;
                            hi_buf[i as usize] = mx;
                        }
                    }
                }
            }
            let mut o = 0;
            for z in 0..inner[2] {
                for y in 0..inner[1] {
                    for x in 0..inner[0] {
                        let i = idx(x + halo, y + halo, z + halo);
                        surface[o] = lo_buf[i] != hi_buf[i];
                        o += 1;
                    }
                }
            }
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
            vec![VoxelBox::new(VoxelPos::new(-1, -1, -1), VoxelPos::new(3, 4, 5))]
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
        assert!(!hit(VoxelPos::new(-1, -1, 0)), "an edge neighbour's window misses the box");
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
            mark_surface(&keys, dims, halo, window, &mut Default::default(), &mut surface);
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
                            Window::Faces => vec![
                                [-1, 0, 0],
                                [1, 0, 0],
                                [0, -1, 0],
                                [0, 1, 0],
                                [0, 0, -1],
                                [0, 0, 1],
                            ],
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
