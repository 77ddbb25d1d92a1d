//! Mesher output to GPU-ready meshes: one [`ChunkUpload`] per chunk and level of detail, built on the
//! UI thread (in parallel with rayon) and handed to the scene, which uploads it inside the paint
//! callback where the GL context is current.
//!
//! ```text
//!   MeshBuffer (shared vertices, solid / water / skirt index lists)
//!     ├─ solid + skirt indices ─> compact vertices ─> CpuMesh (positions, normals, sRGB colors)
//!     └─ water indices        ─> compact vertices ─> CpuMesh (drawn translucent)
//! ```
//!
//! Vertex colors blend the vertex's up to four materials by weight in linear light, so material
//! borders fade over one cell like the exported meshes do. With baked light shown, each colour is
//! multiplied by the light sampled around the vertex (`LightMap::sample`), and vertices whose light
//! is stale (an edit since the bake reaches them) are drawn desaturated until the next bake.

use rustc_hash::FxHashMap;
use three_d::{CpuMesh, Indices, Positions, Srgba, Vec3};

use strata_engine::light::LightMap;
use strata_engine::mesh::{mesh_chunk, MeshBuffer};
use strata_engine::storage::Grid;
use strata_engine::voxel::{linear_palette, linear_to_srgb, ChunkPos, MaterialTable};

/// The meshes of one chunk at one level of detail; `None` parts have no triangles.
pub struct ChunkUpload {
    /// Which chunk.
    pub pos: ChunkPos,
    /// Level of detail the mesh was built at.
    pub lod: u32,
    /// Ground (and LOD skirts).
    pub solid: Option<CpuMesh>,
    /// Water surface.
    pub water: Option<CpuMesh>,
    /// Triangles in both parts.
    pub triangles: usize,
}

/// Linear-light colors of every material id.
#[derive(Debug, Clone)]
pub struct Palette {
    linear: Vec<[f32; 3]>,
}

impl Palette {
    /// The palette of `table`; unknown ids are mid grey.
    pub fn new(table: &MaterialTable) -> Self {
        Self {
            linear: linear_palette(table).to_vec(),
        }
    }

    fn blend(&self, ids: [u8; 4], weights: [u8; 4], light: Light) -> Srgba {
        let mut c = [0f32; 3];
        for (id, w) in ids.iter().zip(weights) {
            if w == 0 {
                continue;
            }
            let w = f32::from(w) / 255.0;
            let m = self.linear[usize::from(*id)];
            for k in 0..3 {
                c[k] += m[k] * w;
            }
        }
        if let Light::Baked { rgb, stale } = light {
            for k in 0..3 {
                c[k] = (c[k] * rgb[k]).min(1.0);
            }
            if stale {
                // Stale light: halfway to grey, so the designer sees where a re-bake is due.
                let grey = 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
                for v in &mut c {
                    *v = 0.5 * *v + 0.5 * grey;
                }
            }
        }
        Srgba::new(
            linear_to_srgb(c[0]),
            linear_to_srgb(c[1]),
            linear_to_srgb(c[2]),
            255,
        )
    }
}

/// The light a vertex colour is multiplied by.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Light {
    /// No baked light shown.
    None,
    /// Baked light (linear RGB) and whether it is stale.
    Baked { rgb: [f32; 3], stale: bool },
}

fn light_at(light: Option<&LightMap>, p: [f32; 3]) -> Light {
    let Some(map) = light else {
        return Light::None;
    };
    let cell = strata_engine::voxel::VoxelPos::new(
        p[0].floor() as i32,
        p[1].floor() as i32,
        p[2].floor() as i32,
    );
    let stale = map.is_stale(cell);
    // Surface points no lit voxel reaches are dark (deep cracks), unless the surface is new since
    // the bake: then it shows unlit (and grey, as stale) until the next bake.
    let fallback = if stale { [1.0; 3] } else { [0.0; 3] };
    Light::Baked {
        rgb: map.sample(p).unwrap_or(fallback),
        stale,
    }
}

/// Mesh `pos` at `lod` into `buf` and convert it. Errors (a LOD out of range) give an empty upload,
/// which removes the chunk's old mesh.
pub fn build(
    grid: &Grid,
    table: &MaterialTable,
    palette: &Palette,
    pos: ChunkPos,
    lod: u32,
    buf: &mut MeshBuffer,
    light: Option<&LightMap>,
) -> ChunkUpload {
    if mesh_chunk(grid, pos, lod, table, buf).is_err() {
        buf.clear();
    }
    let solid_idx: Vec<u32> = buf
        .solid_indices
        .iter()
        .chain(&buf.skirt_indices)
        .copied()
        .collect();
    let solid = compact(buf, &solid_idx, palette, light);
    let water = compact(buf, &buf.water_indices, palette, None);
    ChunkUpload {
        pos,
        lod,
        triangles: (solid_idx.len() + buf.water_indices.len()) / 3,
        solid,
        water,
    }
}

/// A mesh of only the vertices `indices` uses.
fn compact(
    buf: &MeshBuffer,
    indices: &[u32],
    palette: &Palette,
    light: Option<&LightMap>,
) -> Option<CpuMesh> {
    if indices.is_empty() {
        return None;
    }
    let mut map: FxHashMap<u32, u32> = FxHashMap::default();
    let mut positions = Vec::new();
    let mut normals = Vec::new();
    let mut colors = Vec::new();
    let mut out = Vec::with_capacity(indices.len());
    for &i in indices {
        let next = positions.len() as u32;
        let j = *map.entry(i).or_insert_with(|| {
            let k = i as usize;
            positions.push(Vec3::from(buf.positions[k]));
            normals.push(Vec3::from(buf.normals[k]));
            let lit = light_at(light, buf.positions[k]);
            colors.push(palette.blend(buf.materials[k], buf.weights[k], lit));
            next
        });
        out.push(j);
    }
    Some(CpuMesh {
        positions: Positions::F32(positions),
        indices: Indices::U32(out),
        normals: Some(normals),
        colors: Some(colors),
        ..Default::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use strata_engine::voxel::{Voxel, VoxelBox, VoxelPos};

    #[test]
    fn a_flat_ground_chunk_becomes_one_solid_mesh_with_material_colors() {
        let table = MaterialTable::builtin();
        let grass = table.require("Grass").expect("grass");
        let mut grid = Grid::new();
        grid.fill_box(
            VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(64, 10, 64)),
            Voxel::new(grass, 255),
        );
        let palette = Palette::new(&table);
        let mut buf = MeshBuffer::new();
        let up = build(
            &grid,
            &table,
            &palette,
            ChunkPos::new(0, 0, 0),
            0,
            &mut buf,
            None,
        );
        let mesh = up.solid.expect("ground");
        assert!(up.water.is_none());
        assert!(up.triangles > 0);
        let (r, g, b) = table.materials[usize::from(grass)].color;
        let colors = mesh.colors.as_ref().expect("colors");
        assert!(
            colors.iter().all(|c| c.r == r && c.g == g && c.b == b),
            "{:?}",
            colors[0]
        );
        let Indices::U32(idx) = &mesh.indices else {
            panic!("u32 indices")
        };
        assert!(idx.iter().all(|&i| (i as usize) < colors.len()));
    }

    #[test]
    fn water_is_kept_apart() {
        let table = MaterialTable::builtin();
        let water = table.require("Water").expect("water");
        let rock = table.require("Rock").expect("rock");
        let mut grid = Grid::new();
        grid.fill_box(
            VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(40, 6, 40)),
            Voxel::new(rock, 255),
        );
        grid.fill_box(
            VoxelBox::new(VoxelPos::new(0, 6, 0), VoxelPos::new(40, 12, 40)),
            Voxel::new(water, 255),
        );
        let palette = Palette::new(&table);
        let mut buf = MeshBuffer::new();
        let up = build(
            &grid,
            &table,
            &palette,
            ChunkPos::new(0, 0, 0),
            0,
            &mut buf,
            None,
        );
        assert!(up.water.is_some());
        assert!(up.solid.is_some());
    }

    #[test]
    fn baked_light_darkens_shadowed_vertices_and_stale_light_is_grey() {
        use strata_engine::light::{bake, LightSettings, SolidVolume};
        let table = MaterialTable::builtin();
        let grass = table.require("Grass").expect("grass");
        let mut grid = Grid::new();
        grid.fill_box(
            VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(32, 8, 32)),
            Voxel::new(grass, 255),
        );
        // A roof over half the ground: the ground under it gets little light.
        grid.fill_box(
            VoxelBox::new(VoxelPos::new(0, 20, 0), VoxelPos::new(16, 22, 32)),
            Voxel::new(grass, 255),
        );
        let volume = SolidVolume::from_grid(&grid, &table).expect("volume");
        let settings = LightSettings {
            particles: 8,
            steps: 24,
            ..LightSettings::default()
        };
        let (mut light, _) = bake(
            &volume,
            &settings,
            &strata_engine::progress::Progress::new(),
        )
        .expect("bake");
        let palette = Palette::new(&table);
        let mut buf = MeshBuffer::new();
        let at = |mesh: &CpuMesh, x: f32| {
            let Positions::F32(p) = &mesh.positions else {
                panic!("f32 positions")
            };
            let colors = mesh.colors.as_ref().expect("colors");
            let i = (0..p.len())
                .filter(|&i| (p[i].y - 8.0).abs() < 0.6 && (p[i].z - 16.0).abs() < 2.0)
                .min_by(|&a, &b| (p[a].x - x).abs().total_cmp(&(p[b].x - x).abs()))
                .expect("a ground vertex");
            colors[i]
        };
        let lit = build(
            &grid,
            &table,
            &palette,
            ChunkPos::new(0, 0, 0),
            0,
            &mut buf,
            Some(&light),
        );
        let mesh = lit.solid.expect("ground");
        let (under, open) = (at(&mesh, 6.0), at(&mesh, 26.0));
        assert!(
            u32::from(under.g) + 10 < u32::from(open.g),
            "{under:?} vs {open:?}"
        );
        light.mark_stale(VoxelBox::new(
            VoxelPos::new(24, 7, 14),
            VoxelPos::new(28, 8, 18),
        ));
        let stale = build(
            &grid,
            &table,
            &palette,
            ChunkPos::new(0, 0, 0),
            0,
            &mut buf,
            Some(&light),
        );
        let grey = at(&stale.solid.expect("ground"), 26.0);
        let spread = |c: Srgba| c.r.max(c.g).max(c.b) - c.r.min(c.g).min(c.b);
        assert!(spread(grey) < spread(open), "{grey:?} vs {open:?}");
    }
}
