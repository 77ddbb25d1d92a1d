//! Mesher output to GPU-ready meshes: one [`ChunkUpload`] per mesh node (a chunk, or a cube of chunks
//! at a coarser level of detail), built on the
//! UI thread (in parallel with rayon) and handed to the scene, which uploads it inside the paint
//! callback where the GL context is current.
//!
//! ```text
//!   MeshBuffer (shared vertices, solid / water / skirt index lists)
//!     ├─ solid + skirt indices ─> compact vertices ─> TerrainVertices (colours, corner material ids)
//!     └─ water indices        ─> compact vertices ─> TerrainVertices (alpha: depth to the ground)
//! ```
//!
//! Vertex colors blend the vertex's up to four materials by weight in linear light, so material
//! borders fade over one cell like the exported meshes do. With baked light shown, each colour is
//! multiplied by the light sampled around the vertex (`LightMap::sample`), and vertices whose light
//! is stale (an edit since the bake reaches them) are drawn desaturated until the next bake.
//! Each vertex also carries its triangle's three dominant material ids (see `terrain_mesh`), which
//! pick the procedural detail in the shader. Water vertices carry the depth of water below them
//! (down to the first solid voxel, at most [`MAX_WATER_DEPTH`]), which darkens deep water and fades
//! the shoreline.

use rustc_hash::FxHashMap;
use three_d::{Vec3, Vec4};

use strata_engine::light::LightMap;
use strata_engine::mesh::{mesh_node, MeshBuffer, NodeKey};
use strata_engine::storage::Grid;
use strata_engine::voxel::{linear_palette, MaterialTable, VoxelPos, MATERIAL_COUNT};

use super::terrain_mesh::TerrainVertices;

/// Deepest water the shading tells apart, voxels (the vertex alpha is depth / this).
pub const MAX_WATER_DEPTH: f32 = 32.0;

/// The meshes of one node; `None` parts have no triangles.
pub struct ChunkUpload {
    /// Which node (its level is the mesh's level of detail).
    pub key: NodeKey,
    /// Ground (and LOD skirts).
    pub solid: Option<TerrainVertices>,
    /// Water surface.
    pub water: Option<TerrainVertices>,
    /// Triangles in both parts.
    pub triangles: usize,
}

/// Linear-light colors and liquid flags of every material id.
#[derive(Debug, Clone)]
pub struct Palette {
    linear: Vec<[f32; 3]>,
    liquid: [bool; MATERIAL_COUNT],
}

impl Palette {
    /// The palette of `table`; unknown ids are mid grey.
    pub fn new(table: &MaterialTable) -> Self {
        let mut liquid = [false; MATERIAL_COUNT];
        for (l, m) in liquid.iter_mut().zip(&table.materials) {
            *l = m.liquid;
        }
        Self {
            linear: linear_palette(table).to_vec(),
            liquid,
        }
    }

    /// Linear RGB of the blend of `ids` by `weights`, times `light`.
    fn blend(&self, ids: [u8; 4], weights: [u8; 4], light: Light) -> [f32; 3] {
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
                // High dynamic range: the viewport's exposure and tone curve bring it to the screen.
                c[k] = (c[k] * rgb[k]).min(MAX_VERTEX_LIGHT);
            }
            if stale {
                // Stale light: halfway to grey, so the designer sees where a re-bake is due.
                let grey = 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
                for v in &mut c {
                    *v = 0.5 * *v + 0.5 * grey;
                }
            }
        }
        c
    }

    /// True for a solid (not liquid, not Air) voxel that holds matter.
    fn is_ground(&self, material: u8, occupancy: u8) -> bool {
        material != 0 && occupancy >= 128 && !self.liquid[usize::from(material & 0x3f)]
    }
}

/// Water depth below the surface point `p`: voxels down to the first ground voxel, capped at
/// [`MAX_WATER_DEPTH`].
fn water_depth(grid: &Grid, palette: &Palette, p: [f32; 3]) -> f32 {
    let (x, z) = (p[0].floor() as i32, p[2].floor() as i32);
    let top = p[1].floor() as i32;
    let steps = MAX_WATER_DEPTH as i32;
    for d in 0..steps {
        let v = grid.get(VoxelPos::new(x, top - d, z));
        if palette.is_ground(v.material, v.occupancy) {
            // The surface point sits `fract` above its voxel's floor; ground fills the voxel.
            return (p[1] - (top - d + 1) as f32).clamp(0.0, MAX_WATER_DEPTH);
        }
    }
    MAX_WATER_DEPTH
}

/// Brightest a lit vertex colour gets (linear); far above what the exposure controls can bring
/// back into range, low enough to keep a stray value from flooding the view.
const MAX_VERTEX_LIGHT: f32 = 64.0;

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

/// Mesh node `key` into `buf` and convert it. Errors (a level out of range) give an empty upload,
/// which removes the node's old mesh.
pub fn build(
    grid: &Grid,
    table: &MaterialTable,
    palette: &Palette,
    key: NodeKey,
    buf: &mut MeshBuffer,
    light: Option<&LightMap>,
) -> ChunkUpload {
    if mesh_node(grid, key, table, buf).is_err() {
        buf.clear();
    }
    let solid_idx: Vec<u32> = buf
        .solid_indices
        .iter()
        .chain(&buf.skirt_indices)
        .copied()
        .collect();
    let solid = compact(buf, &solid_idx, palette, Shade::Ground(light));
    let water = compact(buf, &buf.water_indices, palette, Shade::Water(grid));
    ChunkUpload {
        key,
        triangles: (solid_idx.len() + buf.water_indices.len()) / 3,
        solid,
        water,
    }
}

/// Ground vertex alpha of a skirt bottom (every other ground vertex has alpha 1): its `corners`
/// entry is then the way up to the rim vertex it hangs from, which the terrain vertex shader
/// shades it as (and scales the flap by; see `scene`).
pub const SKIRT_ALPHA: f32 = 2.0;

/// What a compacted mesh's vertex colours carry.
#[derive(Clone, Copy)]
enum Shade<'a> {
    /// Ground: material colour times the baked light, if shown.
    Ground(Option<&'a LightMap>),
    /// Water: material colour, alpha the depth to the ground in this grid.
    Water(&'a Grid),
}

/// The rim vertex skirt bottom `i` of `buf` hangs from, if it is one.
fn rim_of(buf: &MeshBuffer, i: usize) -> Option<usize> {
    let from = buf.skirt_from?;
    let k = i.checked_sub(from)?;
    buf.skirt_rims.get(k).map(|&r| r as usize)
}

/// A mesh of only the vertices `indices` uses. A vertex is shared by the triangles whose three
/// corners have one material; a triangle on a material border gets three vertices of its own that
/// carry all three corners' ids (see `terrain_mesh`). A skirt triangle takes the material of its
/// first corner (a rim vertex) throughout, so its bottoms' `corners` entries are free to carry the
/// way up to their rims.
fn compact(
    buf: &MeshBuffer,
    indices: &[u32],
    palette: &Palette,
    shade: Shade<'_>,
) -> Option<TerrainVertices> {
    if indices.is_empty() {
        return None;
    }
    let mut out = TerrainVertices::default();
    let mut shared: FxHashMap<u32, u32> = FxHashMap::default();
    let mut colors: FxHashMap<u32, Vec4> = FxHashMap::default();
    let mut color_of = |k: u32| {
        *colors.entry(k).or_insert_with(|| {
            let i = k as usize;
            let p = buf.positions[i];
            match shade {
                Shade::Ground(light) => {
                    // A skirt bottom is lit as its rim (the light sampled there too).
                    let rim = rim_of(buf, i);
                    let at = rim.map_or(p, |r| buf.positions[r]);
                    let c = palette.blend(buf.materials[i], buf.weights[i], light_at(light, at));
                    let alpha = if rim.is_some() { SKIRT_ALPHA } else { 1.0 };
                    Vec4::new(c[0], c[1], c[2], alpha)
                }
                Shade::Water(grid) => {
                    let c = palette.blend(buf.materials[i], buf.weights[i], Light::None);
                    let depth = water_depth(grid, palette, p);
                    Vec4::new(c[0], c[1], c[2], depth / MAX_WATER_DEPTH)
                }
            }
        })
    };
    out.indices.reserve(indices.len());
    for tri in indices.chunks_exact(3) {
        let skirt = tri.iter().any(|&k| rim_of(buf, k as usize).is_some());
        let ids = if skirt {
            [f32::from(buf.materials[tri[0] as usize][0]); 3]
        } else {
            [0, 1, 2].map(|c| f32::from(buf.materials[tri[c] as usize][0]))
        };
        let uniform = ids[0] == ids[1] && ids[0] == ids[2];
        for (corner, &k) in tri.iter().enumerate() {
            let push = |out: &mut TerrainVertices, color: Vec4| {
                let i = k as usize;
                let p = buf.positions[i];
                out.positions.push(Vec3::from(p));
                out.normals.push(Vec3::from(buf.normals[i]));
                out.colors.push(color);
                out.mats.push(Vec3::new(ids[0], ids[1], ids[2]));
                let weight = match rim_of(buf, i) {
                    Some(r) => {
                        let up = buf.positions[r];
                        Vec3::new(up[0] - p[0], up[1] - p[1], up[2] - p[2])
                    }
                    None => {
                        let mut one_hot = [0.0; 3];
                        one_hot[if uniform { 0 } else { corner }] = 1.0;
                        Vec3::from(one_hot)
                    }
                };
                out.corners.push(weight);
                out.positions.len() as u32 - 1
            };
            let j = if uniform {
                match shared.get(&k) {
                    Some(&j) if out.mats[j as usize].x == ids[0] => j,
                    _ => {
                        let j = push(&mut out, color_of(k));
                        shared.insert(k, j);
                        j
                    }
                }
            } else {
                push(&mut out, color_of(k))
            };
            out.indices.push(j);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The node of chunk (0, 0, 0) at full resolution, where every test world sits.
    const CHUNK0: NodeKey = NodeKey {
        level: 0,
        pos: strata_engine::voxel::ChunkPos::new(0, 0, 0),
    };
    use strata_engine::voxel::{Voxel, VoxelBox};

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
        let up = build(&grid, &table, &palette, CHUNK0, &mut buf, None);
        let mesh = up.solid.expect("ground");
        assert!(up.water.is_none());
        assert!(up.triangles > 0);
        assert!(mesh.is_consistent());
        let want = linear_palette(&table)[usize::from(grass)];
        assert!(
            mesh.colors
                .iter()
                .all(|c| (c.x - want[0]).abs() < 1e-5 && (c.y - want[1]).abs() < 1e-5),
            "{:?}",
            mesh.colors[0]
        );
        let id = f32::from(grass);
        assert!(mesh
            .mats
            .iter()
            .all(|m| m.x == id && m.y == id && m.z == id));
        // One material everywhere: every vertex is shared, none duplicated per triangle.
        assert!(mesh.positions.len() < mesh.indices.len());
    }

    #[test]
    fn skirt_bottoms_carry_the_way_up_to_their_rim() {
        use three_d::InnerSpace;
        let table = MaterialTable::builtin();
        let grass = table.require("Grass").expect("grass");
        let mut grid = Grid::new();
        grid.fill_box(
            VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(128, 21, 128)),
            Voxel::new(grass, 255),
        );
        let palette = Palette::new(&table);
        let mut buf = MeshBuffer::new();
        for key in [CHUNK0, NodeKey { level: 1, ..CHUNK0 }] {
            let mesh = build(&grid, &table, &palette, key, &mut buf, None)
                .solid
                .expect("ground");
            assert!(mesh.is_consistent());
            let surface: Vec<Vec3> = (0..mesh.positions.len())
                .filter(|&i| mesh.colors[i].w == 1.0)
                .map(|i| mesh.positions[i])
                .collect();
            let skirts: Vec<usize> = (0..mesh.positions.len())
                .filter(|&i| mesh.colors[i].w == SKIRT_ALPHA)
                .collect();
            assert!(!skirts.is_empty() && !surface.is_empty(), "{key:?}");
            for i in skirts {
                // As the vertex shader does: go up to the rim.
                let rim = mesh.positions[i] + mesh.corners[i];
                assert!(
                    surface.iter().any(|p| (p - rim).magnitude() < 1e-3),
                    "skirt vertex {i} at {:?} goes up to {rim:?}, on no surface vertex",
                    mesh.positions[i]
                );
                // Flat ground: the flap goes down into the ground, never up out of it.
                assert!(mesh.corners[i].y > 0.5, "{:?}", mesh.corners[i]);
            }
        }
    }

    #[test]
    fn border_triangles_carry_all_three_corner_materials() {
        let table = MaterialTable::builtin();
        let rock = table.require("Rock").expect("rock");
        let snow = table.require("Snow").expect("snow");
        let mut grid = Grid::new();
        grid.fill_box(
            VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(32, 10, 32)),
            Voxel::new(rock, 255),
        );
        grid.fill_box(
            VoxelBox::new(VoxelPos::new(16, 0, 0), VoxelPos::new(32, 10, 32)),
            Voxel::new(snow, 255),
        );
        let palette = Palette::new(&table);
        let mut buf = MeshBuffer::new();
        let up = build(&grid, &table, &palette, CHUNK0, &mut buf, None);
        let mesh = up.solid.expect("ground");
        assert!(mesh.is_consistent());
        let (r, s) = (f32::from(rock), f32::from(snow));
        let mut border = 0;
        for tri in mesh.indices.chunks_exact(3) {
            let m = mesh.mats[tri[0] as usize];
            // The three vertices of a triangle agree on its ids.
            assert!(tri.iter().all(|&i| mesh.mats[i as usize] == m));
            assert!([m.x, m.y, m.z].iter().all(|&id| id == r || id == s));
            if m.x != m.y || m.x != m.z {
                border += 1;
                // Each corner is one-hot on its own slot, so weights interpolate to barycentrics.
                for (c, &i) in tri.iter().enumerate() {
                    let w = mesh.corners[i as usize];
                    assert_eq!([w.x, w.y, w.z][c], 1.0);
                    assert_eq!(w.x + w.y + w.z, 1.0);
                }
            }
        }
        assert!(border > 0, "the rock/snow border has mixed triangles");
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
        let up = build(&grid, &table, &palette, CHUNK0, &mut buf, None);
        assert!(up.solid.is_some());
        let water = up.water.expect("water");
        assert!(water.is_consistent());
        // The top of the water is 6 voxels above the rock: alpha carries depth / MAX_WATER_DEPTH.
        let top: Vec<f32> = (0..water.positions.len())
            .filter(|&i| water.positions[i].y > 11.0 && water.normals[i].y > 0.9)
            .map(|i| water.colors[i].w * MAX_WATER_DEPTH)
            .collect();
        assert!(!top.is_empty());
        assert!(
            top.iter().all(|d| (d - 6.0).abs() < 1.0),
            "depths {:?}",
            &top[..top.len().min(8)]
        );
    }

    #[test]
    fn water_depth_stops_at_ground_and_is_capped() {
        let table = MaterialTable::builtin();
        let rock = table.require("Rock").expect("rock");
        let water = table.require("Water").expect("water");
        let palette = Palette::new(&table);
        let mut grid = Grid::new();
        grid.fill_box(
            VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(4, 3, 4)),
            Voxel::new(rock, 255),
        );
        grid.fill_box(
            VoxelBox::new(VoxelPos::new(0, 3, 0), VoxelPos::new(4, 10, 4)),
            Voxel::new(water, 255),
        );
        assert!((water_depth(&grid, &palette, [1.5, 10.0, 1.5]) - 7.0).abs() < 1e-4);
        assert!((water_depth(&grid, &palette, [1.5, 3.2, 1.5]) - 0.2).abs() < 1e-4);
        // No ground below within reach: the cap.
        assert_eq!(
            water_depth(&grid, &palette, [20.5, 10.0, 1.5]),
            MAX_WATER_DEPTH
        );
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
        // A roof over half the ground: the ground under it gets little light. The sun comes from
        // +x, so the ground under the roof's far (-x) end is in its shadow; 32 particles a kind
        // keep one vertex's light from being decided by a handful of walks.
        grid.fill_box(
            VoxelBox::new(VoxelPos::new(0, 20, 0), VoxelPos::new(16, 22, 32)),
            Voxel::new(grass, 255),
        );
        let volume = SolidVolume::from_grid(&grid, &table).expect("volume");
        let settings = LightSettings {
            particles: 32,
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
        let at = |mesh: &TerrainVertices, x: f32| {
            let p = &mesh.positions;
            let colors = &mesh.colors;
            let i = (0..p.len())
                .filter(|&i| (p[i].y - 8.0).abs() < 0.6 && (p[i].z - 16.0).abs() < 2.0)
                .min_by(|&a, &b| (p[a].x - x).abs().total_cmp(&(p[b].x - x).abs()))
                .expect("a ground vertex");
            colors[i]
        };
        let lit = build(&grid, &table, &palette, CHUNK0, &mut buf, Some(&light));
        let mesh = lit.solid.expect("ground");
        let (under, open) = (at(&mesh, 2.0), at(&mesh, 26.0));
        assert!(under.y * 1.3 < open.y, "{under:?} vs {open:?}");
        light.mark_stale(VoxelBox::new(
            VoxelPos::new(24, 7, 14),
            VoxelPos::new(28, 8, 18),
        ));
        let stale = build(&grid, &table, &palette, CHUNK0, &mut buf, Some(&light));
        let grey = at(&stale.solid.expect("ground"), 26.0);
        let spread = |c: Vec4| c.x.max(c.y).max(c.z) - c.x.min(c.y).min(c.z);
        assert!(spread(grey) < spread(open), "{grey:?} vs {open:?}");
    }
}
