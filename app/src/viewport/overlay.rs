//! Things panels and tools draw over the terrain: preview planes (Sea Level, Plane Lock), boxes
//! (region selections), lines (contact normals), solid shapes (test bodies) and ghost meshes (the
//! region paste preview). Plain data built on the UI thread each frame; the scene turns it into a few
//! small meshes while painting. A ghost mesh is shared through an `Arc`, so the scene uploads it once
//! and afterwards only moves it.

use std::sync::Arc;

/// Shapes a body overlay can have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SolidKind {
    /// Unit sphere scaled by `half_extents` (x used as the radius).
    Sphere,
    /// Box with these half extents.
    Box,
    /// Capsule along the local Y axis: radius `half_extents.x`, half height of the cylinder part
    /// `half_extents.y`.
    Capsule,
}

/// A triangle mesh drawn translucent over the terrain (the paste ghost), in its own coordinates.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GhostMesh {
    /// Vertex positions.
    pub positions: Vec<[f32; 3]>,
    /// Vertex normals (one per position).
    pub normals: Vec<[f32; 3]>,
    /// Triangles, three indices each.
    pub indices: Vec<u32>,
}

impl GhostMesh {
    /// Triangles in the mesh.
    pub fn triangle_count(&self) -> usize {
        self.indices.len() / 3
    }
}

/// One overlay item. Colours are sRGBA.
#[derive(Debug, Clone, PartialEq)]
pub enum Overlay {
    /// A translucent square of side `2 × half_size` centred on `center`, facing `normal`.
    Plane {
        /// Centre, world voxels.
        center: [f32; 3],
        /// Normal (any length).
        normal: [f32; 3],
        /// Half the side, voxels.
        half_size: f32,
        /// Colour.
        color: [u8; 4],
    },
    /// A translucent horizontal rectangle at height `y` over `[x0, z0]..[x1, z1]` (a water level).
    Level {
        /// Low X and Z corner.
        min: [f32; 2],
        /// High X and Z corner.
        max: [f32; 2],
        /// Height, voxels.
        y: f32,
        /// Colour.
        color: [u8; 4],
    },
    /// The edges of an axis-aligned box.
    WireBox {
        /// Low corner.
        min: [f32; 3],
        /// High corner.
        max: [f32; 3],
        /// Colour.
        color: [u8; 4],
    },
    /// Line segments, pairs of points.
    Lines {
        /// Start and end of each segment, flattened.
        points: Vec<[f32; 3]>,
        /// Colour.
        color: [u8; 4],
    },
    /// A solid shape at `center` rotated by the unit quaternion `rotation` (x, y, z, w).
    Solid {
        /// Which shape.
        kind: SolidKind,
        /// Centre, world voxels.
        center: [f32; 3],
        /// Orientation.
        rotation: [f32; 4],
        /// Half extents (see [`SolidKind`]).
        half_extents: [f32; 3],
        /// Colour.
        color: [u8; 4],
    },
    /// A ghost mesh translated by `offset` (the scene keeps its GPU copy while the `Arc` is the
    /// same).
    Ghost {
        /// The mesh.
        mesh: Arc<GhostMesh>,
        /// Added to every position, world voxels.
        offset: [f32; 3],
        /// Colour.
        color: [u8; 4],
    },
}

/// The twelve edges of the box `min..max` as point pairs.
pub fn box_edges(min: [f32; 3], max: [f32; 3]) -> Vec<[f32; 3]> {
    let corner = |i: usize| {
        [
            if i & 1 == 0 { min[0] } else { max[0] },
            if i & 2 == 0 { min[1] } else { max[1] },
            if i & 4 == 0 { min[2] } else { max[2] },
        ]
    };
    let mut points = Vec::with_capacity(24);
    for i in 0..8usize {
        for axis in [1usize, 2, 4] {
            if i & axis == 0 {
                points.push(corner(i));
                points.push(corner(i | axis));
            }
        }
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_box_has_twelve_axis_aligned_edges() {
        let pts = box_edges([0.0, 1.0, 2.0], [3.0, 5.0, 9.0]);
        assert_eq!(pts.len(), 24);
        for pair in pts.chunks(2) {
            let differing = (0..3).filter(|&k| pair[0][k] != pair[1][k]).count();
            assert_eq!(differing, 1, "{pair:?}");
        }
    }
}
