//! Flatten's column: what lies above the plane inside the brush's footprint, however tall.
//!
//! A sphere (or cube) dab only reaches its own radius above the plane, so flattening a hill taller
//! than the brush cut a shelf into its side and left the top hanging over it as a mushroom cap.
//! Flatten therefore cuts everything above its plane inside the column the brush sweeps along the
//! plane's normal, up to the top of the world's content; below the plane it fills within the brush
//! shape as before.
//!
//! ```text
//!            ▲ normal               column: radial distance from the axis, any height
//!       ┊    ┊    ┊
//!    ▓▓▓┊▓▓▓▓┊▓▓▓▓┊▓▓        above the plane: cut, weighted by the column's coverage
//!   ▓▓▓▓┊▓▓▓▓┊▓▓▓▓┊▓▓▓
//!  ═════╪════●════╪═════ plane (through the dab centre, or the fixed plane)
//!  ▓▓▓▓▓(  brush  )▓▓▓▓      below: the brush shape's own falloff (fill only)
//! ```
//!
//! The cut is weighted by the column's coverage (1 inside, a one-voxel ramp across its wall), not
//! by the brush's wide falloff: everything above the plane inside the column goes within a few
//! dabs, and the soft partial matter a falloff leaves around tall hills does not linger. The radial
//! distance follows the shape's cross-section: a disc for the sphere and the cylinder, a square for
//! the cube.

use super::brush::{BrushShape, Footprint, Plane};
use crate::storage::Grid;
use crate::vec3::{dot, sub};
use crate::voxel::{VoxelBox, VoxelPos, CHUNK_SIZE};

/// Longest column (voxels) a dab reaches along the plane's normal.
pub const MAX_COLUMN: f32 = 1024.0;

/// The column of one Flatten dab (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Column {
    axis: [f32; 3],
    normal: [f32; 3],
    radius: f32,
    square: bool,
    length: f32,
}

impl Column {
    /// The column of the dab `fp` over `plane` in `grid`: from the plane up along its normal to the
    /// last chunk holding anything.
    pub fn new(fp: &Footprint, plane: &Plane, grid: &Grid) -> Self {
        let plane = Plane::new(plane.point, plane.normal);
        let axis = plane.project(fp.center);
        let n = plane.normal;
        let (bottom, top) = content_heights(grid);
        let reach = if n[1] > 0.05 {
            (top - axis[1]) / n[1]
        } else if n[1] < -0.05 {
            (bottom - axis[1]) / n[1]
        } else {
            fp.radius
        };
        let length = if reach.is_finite() {
            reach.clamp(fp.radius, MAX_COLUMN)
        } else {
            fp.radius
        };
        Self {
            axis,
            normal: n,
            radius: fp.radius,
            square: fp.shape == BrushShape::Cube,
            length,
        }
    }

    /// How much of the column holds a voxel centre, as a weight: 1 within `radius − ½` of the
    /// axis, 0 beyond `radius + ½`, a one-voxel ramp between (the brush's coverage ramp, so the
    /// column's wall lands exactly on its radius).
    #[inline]
    pub fn coverage(&self, centre: [f32; 3]) -> f32 {
        let d = sub(centre, self.axis);
        let h = dot(d, self.normal);
        if h > self.length + 1.0 {
            return 0.0;
        }
        let r = [
            d[0] - h * self.normal[0],
            d[1] - h * self.normal[1],
            d[2] - h * self.normal[2],
        ];
        let radial = if self.square {
            r[0].abs().max(r[1].abs()).max(r[2].abs())
        } else {
            dot(r, r).sqrt()
        };
        (0.5 + self.radius - radial).clamp(0.0, 1.0)
    }

    /// Every voxel the column can reach.
    pub fn bounds(&self) -> VoxelBox {
        let end = [
            self.axis[0] + self.normal[0] * self.length,
            self.axis[1] + self.normal[1] * self.length,
            self.axis[2] + self.normal[2] * self.length,
        ];
        let reach = self.radius + 1.0;
        let lo = |k: usize| (self.axis[k].min(end[k]) - reach).floor() as i32;
        let hi = |k: usize| (self.axis[k].max(end[k]) + reach).ceil() as i32;
        VoxelBox::new(
            VoxelPos::new(lo(0), lo(1), lo(2)),
            VoxelPos::new(hi(0), hi(1), hi(2)),
        )
    }
}

/// The lowest and highest Y any stored chunk spans (an empty grid gives `(0, 0)`).
fn content_heights(grid: &Grid) -> (f32, f32) {
    let size = CHUNK_SIZE as i64;
    let mut range: Option<(i64, i64)> = None;
    for (pos, _) in grid.chunks() {
        let (lo, hi) = (i64::from(pos.y) * size, (i64::from(pos.y) + 1) * size);
        range = Some(range.map_or((lo, hi), |(a, b)| (a.min(lo), b.max(hi))));
    }
    let (lo, hi) = range.unwrap_or((0, 0));
    (lo as f32, hi as f32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::Brush;
    use crate::voxel::Voxel;

    fn grid_up_to(y: i32) -> Grid {
        let mut g = Grid::new();
        g.fill_box(
            VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(4, y, 4)),
            Voxel::filled(1),
        );
        g
    }

    #[test]
    fn the_column_reaches_the_top_of_the_content_and_no_further_than_the_limit() {
        let fp = Footprint::new(&Brush::default(), [2.0, 10.0, 2.0]).expect("finite");
        let col = Column::new(&fp, &Plane::horizontal(10.0), &grid_up_to(100));
        let b = col.bounds();
        // Chunks are 32 high: content up to y = 100 lives in chunks up to y = 128.
        assert!(b.max.y >= 128 && b.max.y <= 132, "{b:?}");
        assert!(b.min.y <= 10 - 3);
        assert_eq!(col.coverage([2.0, 120.0, 2.0]), 1.0);
        assert_eq!(col.coverage([2.0 + 3.5, 50.0, 2.0]), 0.0);
        assert!((col.coverage([2.0 + 3.0, 50.0, 2.0]) - 0.5).abs() < 1e-6);
        // A plane above everything: the column is as tall as the brush.
        let col = Column::new(&fp, &Plane::horizontal(500.0), &grid_up_to(10));
        assert!((col.length - fp.radius).abs() < 1e-6);
        // A vertical plane: the column is as long as the brush radius.
        let wall = Plane::new([2.0, 10.0, 2.0], [1.0, 0.0, 0.0]);
        let col = Column::new(&fp, &wall, &grid_up_to(100));
        assert!(col.bounds().max.x <= 2 + 3 + 3 + 1, "{:?}", col.bounds());
        // A steep plane over a tall world: capped.
        let steep = Plane::new([0.0, -1.0e7, 0.0], [0.0, 1.0, 0.0]);
        let col = Column::new(&fp, &steep, &grid_up_to(100));
        assert!(col.length <= MAX_COLUMN);
    }

    #[test]
    fn the_cube_column_is_square() {
        let cube = Brush::new(BrushShape::Cube, 8.0, 1.0);
        let fp = Footprint::new(&cube, [0.0, 0.0, 0.0]).expect("finite");
        let col = Column::new(&fp, &Plane::horizontal(0.0), &grid_up_to(40));
        // Near a corner of the square (3.4 voxels out on both axes) is still inside.
        assert_eq!(col.coverage([3.4, 20.0, 3.4]), 1.0);
        let fp = Footprint::new(&Brush::new(BrushShape::Sphere, 8.0, 1.0), [0.0; 3]).expect("f");
        let col = Column::new(&fp, &Plane::horizontal(0.0), &grid_up_to(40));
        assert_eq!(col.coverage([3.4, 20.0, 3.4]), 0.0);
    }
}
