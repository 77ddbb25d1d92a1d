//! Baked light on fragment faces: each face's colour times the light sampled half a cell outside it,
//! from the voxel light (a `.strata` bake) or from a bake over the fragments themselves
//! ([`super::bake_fragments`]). The editor preview and the mesh exports both colour faces here.

use super::face_mesh::FragmentMesh;
use crate::light::LightMap;

/// Which light colours fragment faces.
#[derive(Debug, Clone, Copy, Default)]
pub enum FaceLight<'a> {
    /// Material colours only.
    #[default]
    None,
    /// The voxel light, keyed by voxel position.
    Voxels(&'a LightMap),
    /// Light baked over the fragments, keyed by fragment position.
    Fragments(&'a LightMap),
}

impl FaceLight<'_> {
    /// `none`, `voxels` or `fragments`.
    pub fn name(&self) -> &'static str {
        match self {
            FaceLight::None => "none",
            FaceLight::Voxels(_) => "voxels",
            FaceLight::Fragments(_) => "fragments",
        }
    }

    /// The light on a face whose centre is `center` (voxel units) facing `normal`, at `factor`
    /// fragments per voxel; white where no lit cell is near.
    pub fn at(&self, center: [f32; 3], normal: [f32; 3], factor: usize) -> [f32; 3] {
        let sampled = match self {
            FaceLight::None => None,
            FaceLight::Voxels(map) => map.sample([0, 1, 2].map(|k| center[k] + 0.5 * normal[k])),
            FaceLight::Fragments(map) => {
                let f = factor as f32;
                map.sample([0, 1, 2].map(|k| center[k] * f + 0.5 * normal[k]))
            }
        };
        sampled.unwrap_or([1.0; 3])
    }
}

/// Multiply the linear colours of `mesh` (four vertices per face) by `light`.
pub fn light_faces(mesh: &mut FragmentMesh, light: FaceLight<'_>, factor: usize) {
    if matches!(light, FaceLight::None) {
        return;
    }
    for (q, quad) in mesh.positions.chunks(4).enumerate() {
        let mut center = [0.0f32; 3];
        for p in quad {
            for k in 0..3 {
                center[k] += p[k] / quad.len() as f32;
            }
        }
        let rgb = light.at(center, mesh.normals[4 * q], factor);
        for c in &mut mesh.colors[4 * q..4 * q + quad.len()] {
            for k in 0..3 {
                c[k] = (c[k] * rgb[k]).min(1.0);
            }
        }
    }
}
