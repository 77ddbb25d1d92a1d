//! What the floating-terrain search reports: a piece's summary (size and bounds) and runs of voxels
//! along X, the name of the deletion's undo step.

use crate::voxel::{VoxelBox, VoxelPos};

/// The name of the undo step `delete_pieces` records.
pub const DELETE_STEP_NAME: &str = "Delete floating terrain";

/// A run of voxels along +X.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct VoxelRun {
    /// The first voxel.
    pub start: VoxelPos,
    /// Number of voxels (1..=32).
    pub len: u32,
}

impl VoxelRun {
    /// The run as a half-open box one voxel thick in Y and Z.
    pub fn voxel_box(&self) -> VoxelBox {
        VoxelBox::from_min_size(self.start, [self.len, 1, 1])
    }
}

/// One floating piece: its size and where it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FloatingPiece {
    /// Number of voxels.
    pub voxels: u64,
    /// Lowest corner voxel (inclusive).
    pub min: VoxelPos,
    /// Highest corner voxel (inclusive).
    pub max: VoxelPos,
}

impl FloatingPiece {
    /// The half-open box that holds the piece.
    pub fn bounds(&self) -> VoxelBox {
        VoxelBox::new(
            self.min,
            VoxelPos::new(self.max.x + 1, self.max.y + 1, self.max.z + 1),
        )
    }
}
