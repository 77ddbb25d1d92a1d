//! Quarter turns and mirrors of a [`Region`].
//!
//! A quarter turn about an axis is the right-handed +90° rotation about it, on voxel indices
//! relative to the region's minimum corner (size `(sx, sy, sz)` before the turn):
//!
//! ```text
//!   about Y:  (x, y, z) -> (z, y, sx − 1 − x)     size -> (sz, sy, sx)   counterclockwise from above
//!   about X:  (x, y, z) -> (x, sz − 1 − z, y)     size -> (sx, sz, sy)
//!   about Z:  (x, y, z) -> (sy − 1 − y, x, z)     size -> (sy, sx, sz)
//!
//!   seen from above (+Y toward you, so +Z points down the page):
//!
//!     +----> X                 +----> X
//!     |  a b     about Y       |  b d       a quarter turn about Y is counterclockwise
//!     |  c d     ──────>       |  a c       on the page
//!     v Z                      v Z
//! ```
//!
//! Two turns are the mirrors of the two other axes; three turns are one turn and those mirrors. A
//! mirror on an axis maps `i -> size − 1 − i` on it. Mirrors and turns about X only reorder or
//! reverse rows; turns about Y and Z move voxels between rows and go through [`TILE`] columns at a
//! time, so they never hold more than `TILE` voxels per row of the region in dense form.

use super::builder::RowsBuilder;
use super::rows::Region;
use super::run::Run;
use crate::voxel::Voxel;

/// An axis of the grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Axis {
    /// East.
    X,
    /// Up.
    Y,
    /// South.
    Z,
}

impl Axis {
    /// All three, in order.
    pub const ALL: [Axis; 3] = [Axis::X, Axis::Y, Axis::Z];

    /// The two other axes.
    pub fn others(self) -> (Axis, Axis) {
        match self {
            Axis::X => (Axis::Y, Axis::Z),
            Axis::Y => (Axis::X, Axis::Z),
            Axis::Z => (Axis::X, Axis::Y),
        }
    }

    /// The axis named `x`, `y` or `z` (either case).
    pub fn from_name(name: &str) -> Option<Self> {
        match name.trim().to_ascii_lowercase().as_str() {
            "x" => Some(Axis::X),
            "y" => Some(Axis::Y),
            "z" => Some(Axis::Z),
            _ => None,
        }
    }

    /// 0, 1 or 2.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// Columns moved together by the turns about Y and Z.
const TILE: usize = 64;

impl Region {
    /// The region turned `quarter_turns` times by +90° about `axis` (see the module docs).
    pub fn rotated(&self, axis: Axis, quarter_turns: u32) -> Region {
        let (a, b) = axis.others();
        match quarter_turns % 4 {
            0 => self.clone(),
            1 => self.quarter_turn(axis),
            2 => self.mirrored(a).mirrored(b),
            _ => self.quarter_turn(axis).mirrored(a).mirrored(b),
        }
    }

    /// The region flipped on `axis`: index `i` on that axis goes to `size − 1 − i`.
    pub fn mirrored(&self, axis: Axis) -> Region {
        let [sx, sy, sz] = self.size().map(|s| s as usize);
        let rows = sy * sz;
        let mut row_start = Vec::with_capacity(rows + 1);
        let all = self.run_rows();
        let mut runs: Vec<Run> = Vec::with_capacity(all.run_count());
        for z in 0..sz {
            for y in 0..sy {
                row_start.push(runs.len() as u32);
                let src = match axis {
                    Axis::X => {
                        let old = all.row(z * sy + y);
                        for (i, run) in old.iter().enumerate().rev() {
                            let start = if i == 0 { 0 } else { old[i - 1].end };
                            runs.push(Run {
                                voxel: run.voxel,
                                end: (sx - usize::from(start)) as u16,
                            });
                        }
                        continue;
                    }
                    Axis::Y => all.row(z * sy + sy - 1 - y),
                    Axis::Z => all.row((sz - 1 - z) * sy + y),
                };
                runs.extend_from_slice(src);
            }
        }
        row_start.push(runs.len() as u32);
        Region::from_parts(self.size(), row_start, runs)
    }

    /// One +90° turn about `axis`.
    fn quarter_turn(&self, axis: Axis) -> Region {
        match axis {
            Axis::X => self.quarter_x(),
            Axis::Y => self.quarter_y(),
            Axis::Z => self.quarter_z(),
        }
    }

    /// New row (y', z') is old row (y = z', z = sz − 1 − y').
    fn quarter_x(&self) -> Region {
        let [sx, sy, sz] = self.size();
        let (sy, sz) = (sy as usize, sz as usize);
        let mut row_start = Vec::with_capacity(sy * sz + 1);
        let all = self.run_rows();
        let mut runs: Vec<Run> = Vec::with_capacity(all.run_count());
        for z_new in 0..sy {
            for y_new in 0..sz {
                row_start.push(runs.len() as u32);
                runs.extend_from_slice(all.row((sz - 1 - y_new) * sy + z_new));
            }
        }
        row_start.push(runs.len() as u32);
        Region::from_parts([sx, sz as u32, sy as u32], row_start, runs)
    }

    /// New voxel (x', y, z') is old (sx − 1 − z', y, x'): new row (y, z') is old column x = sx − 1 − z'
    /// across every z.
    fn quarter_y(&self) -> Region {
        let [sx, sy, sz] = self.size().map(|s| s as usize);
        let size = [sz as u32, sy as u32, sx as u32];
        let mut builder = RowsBuilder::new(size);
        let mut tile = vec![Voxel::AIR; sz * TILE];
        let mut row = vec![Voxel::AIR; sz];
        for y in 0..sy {
            for xa in (0..sx).step_by(TILE) {
                let w = TILE.min(sx - xa);
                for z in 0..sz {
                    self.read_row(y, z, xa, &mut tile[z * w..z * w + w]);
                }
                for dx in 0..w {
                    let z_new = sx - 1 - (xa + dx);
                    for (x_new, v) in row.iter_mut().enumerate() {
                        *v = tile[x_new * w + dx];
                    }
                    builder.start_row(z_new * sy + y);
                    builder.push_voxels(&row);
                    builder.end_row();
                }
            }
        }
        builder.finish()
    }

    /// New voxel (x', y', z) is old (y', sy − 1 − x', z): new row (y', z) is old column x = y' across
    /// every y, reversed.
    fn quarter_z(&self) -> Region {
        let [sx, sy, sz] = self.size().map(|s| s as usize);
        let size = [sy as u32, sx as u32, sz as u32];
        let mut builder = RowsBuilder::new(size);
        let mut tile = vec![Voxel::AIR; sy * TILE];
        let mut row = vec![Voxel::AIR; sy];
        for z in 0..sz {
            for xa in (0..sx).step_by(TILE) {
                let w = TILE.min(sx - xa);
                for y in 0..sy {
                    self.read_row(y, z, xa, &mut tile[y * w..y * w + w]);
                }
                for dx in 0..w {
                    let y_new = xa + dx;
                    for (x_new, v) in row.iter_mut().enumerate() {
                        *v = tile[(sy - 1 - x_new) * w + dx];
                    }
                    builder.start_row(z * sx + y_new);
                    builder.push_voxels(&row);
                    builder.end_row();
                }
            }
        }
        builder.finish()
    }
}
