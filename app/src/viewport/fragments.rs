//! Enhanced fragments in the viewport: the Enhance panel's per-chunk fragment face meshes made
//! GPU-ready (flat normals, each face coloured by its material times the baked light around it) and
//! drawn in place of the smooth terrain while the preview is on.
//!
//! ```text
//!   Enhance panel ──Action::FragmentPreview──> Viewport::fragment_preview ──> FragmentUpload
//!        (FragmentMesh per chunk, in voxel units)        (CpuMesh, sRGB)        ──> Scene (GPU)
//! ```

use std::sync::Arc;

use three_d::{CpuMesh, Indices, Positions, Srgba, Vec3};

use strata_engine::enhance::{light_faces, FaceLight, FragmentMesh};
use strata_engine::light::LightMap;
use strata_engine::voxel::{linear_to_srgb, ChunkPos};

/// What the Enhance panel asks the viewport to show.
#[derive(Debug, Clone)]
pub enum FragmentPreview {
    /// Show the smooth terrain again and drop every fragment mesh.
    Off,
    /// Show fragments: replace the meshes of these chunks (`None`: the chunk has no faces); with
    /// `reset`, drop every other fragment mesh first.
    Meshes {
        /// Drop the meshes of chunks not listed.
        reset: bool,
        /// New meshes per chunk.
        chunks: Vec<(ChunkPos, Option<FragmentMesh>)>,
        /// Light baked at fragment resolution; `None` colours with the voxel light, if any.
        light: Option<FragmentLight>,
    },
}

/// Light baked over the fragments (keyed by fragment position).
#[derive(Debug, Clone)]
pub struct FragmentLight {
    /// The light.
    pub map: Arc<LightMap>,
    /// Fragments per voxel edge.
    pub factor: usize,
}

/// One chunk's fragment faces, ready for the GPU.
pub struct FragmentUpload {
    /// Which chunk.
    pub pos: ChunkPos,
    /// The faces; `None` removes the chunk's mesh.
    pub mesh: Option<CpuMesh>,
}

/// `mesh` as a three-d mesh whose vertex colours are the faces' material colours times `light`
/// (see [`light_faces`]), at `factor` fragments per voxel. `None` for no faces.
pub fn cpu_mesh(mut mesh: FragmentMesh, light: FaceLight<'_>, factor: usize) -> Option<CpuMesh> {
    if mesh.indices.is_empty() {
        return None;
    }
    light_faces(&mut mesh, light, factor);
    let colors = mesh
        .colors
        .iter()
        .map(|c| {
            Srgba::new(
                linear_to_srgb(c[0]),
                linear_to_srgb(c[1]),
                linear_to_srgb(c[2]),
                255,
            )
        })
        .collect();
    Some(CpuMesh {
        positions: Positions::F32(mesh.positions.iter().map(|p| Vec3::from(*p)).collect()),
        normals: Some(mesh.normals.iter().map(|n| Vec3::from(*n)).collect()),
        colors: Some(colors),
        indices: Indices::U32(mesh.indices),
        ..Default::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one_quad() -> FragmentMesh {
        FragmentMesh {
            positions: vec![
                [0.0, 1.0, 0.0],
                [0.0, 1.0, 0.5],
                [0.5, 1.0, 0.5],
                [0.5, 1.0, 0.0],
            ],
            normals: vec![[0.0, 1.0, 0.0]; 4],
            materials: vec![3; 4],
            colors: vec![[0.5, 0.25, 1.0]; 4],
            indices: vec![0, 1, 2, 0, 2, 3],
        }
    }

    #[test]
    fn faces_keep_their_geometry_and_colour_without_light() {
        assert!(cpu_mesh(FragmentMesh::new(), FaceLight::None, 4).is_none());
        let m = cpu_mesh(one_quad(), FaceLight::None, 4).expect("a quad");
        assert_eq!(m.vertex_count(), 4);
        let colors = m.colors.expect("colours");
        assert_eq!(
            colors[0],
            Srgba::new(
                linear_to_srgb(0.5),
                linear_to_srgb(0.25),
                linear_to_srgb(1.0),
                255
            )
        );
        assert!(matches!(m.indices, Indices::U32(ref i) if i.len() == 6));
    }
}
