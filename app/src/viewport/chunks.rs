//! Which chunk meshes the viewport has, at which level of detail, and which must be rebuilt.
//!
//! ```text
//!   every frame:  desired LOD per chunk from its distance to the camera
//!                 edits (boxes) ──> chunks whose mesher input overlaps them ──> urgent
//!                 urgent chunks: meshed now, all of them (a brush stroke shows the same frame)
//!                 stale chunks:  nearest first, in parallel batches, until the frame budget is spent
//! ```
//!
//! A chunk's mesh at LOD `l` reads a border of `BORDER << l` voxels around it, so an edit dirties
//! every chunk whose bordered box at its current LOD touches the edit.

use std::time::{Duration, Instant};

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};
use three_d::{InnerSpace, Vec3};

use strata_engine::light::LightMap;
use strata_engine::mesh::{surface_owners, MeshBuffer, BORDER, MAX_LOD};
use strata_engine::storage::Grid;
use strata_engine::voxel::{ChunkPos, MaterialTable, VoxelBox, VoxelPos, CHUNK_SIZE};

use super::upload::{build, ChunkUpload, Palette};

/// Distances (in chunks) beyond which LOD 1, 2 and 3 are used, at the default LOD distance.
const LOD_DISTANCES: [f32; 3] = [6.0, 12.0, 24.0];
/// The default distance (chunks) at which LOD 1 starts; the others scale with it.
pub const DEFAULT_LOD_DISTANCE: f32 = LOD_DISTANCES[0];
/// Chunks meshed per parallel batch.
const BATCH: usize = 16;
/// Batches up to this many chunks are meshed serially.
const SERIAL_MAX: usize = 8;

/// Mesh bookkeeping of the current document.
#[derive(Default)]
pub struct ChunkMeshes {
    /// Chunks that can own surface, with the LOD their mesh has (`None` = never meshed).
    chunks: FxHashMap<ChunkPos, Option<u32>>,
    /// Chunks to rebuild this frame whatever the budget.
    urgent: FxHashSet<ChunkPos>,
    /// Use coarser meshes for distant chunks.
    pub lod_enabled: bool,
    /// Distance in chunks at which LOD 1 starts (LOD 2 and 3 at twice and four times it);
    /// 0 means the default.
    pub lod_distance: f32,
    palette: Option<Palette>,
}

/// The level of detail for a chunk whose centre is `distance_chunks` chunk widths from the camera.
pub fn lod_for_distance(distance_chunks: f32) -> u32 {
    LOD_DISTANCES
        .iter()
        .take_while(|&&d| distance_chunks >= d)
        .count()
        .min(MAX_LOD as usize) as u32
}

fn center(p: ChunkPos) -> Vec3 {
    let s = CHUNK_SIZE as f32;
    Vec3::new(
        (p.x as f32 + 0.5) * s,
        (p.y as f32 + 0.5) * s,
        (p.z as f32 + 0.5) * s,
    )
}

impl ChunkMeshes {
    /// Bookkeeping with level of detail on or off.
    pub fn new(lod_enabled: bool) -> Self {
        Self {
            lod_enabled,
            ..Default::default()
        }
    }

    /// Start over for `grid`: every chunk that can own surface is stale.
    pub fn reset(&mut self, grid: &Grid, table: &MaterialTable) {
        self.chunks.clear();
        self.urgent.clear();
        self.palette = Some(Palette::new(table));
        for (p, _) in grid.chunks() {
            self.add_owner_chunks(p);
        }
    }

    /// Track the chunks that can own surface of stored chunk `p`.
    fn add_owner_chunks(&mut self, p: ChunkPos) {
        for owner in surface_owners(p) {
            self.chunks.entry(owner).or_insert(None);
        }
    }

    /// Number of chunks that can own surface.
    pub fn len(&self) -> usize {
        self.chunks.len()
    }

    /// True before any document.
    pub fn is_empty(&self) -> bool {
        self.chunks.is_empty()
    }

    /// Chunks not yet meshed at their wanted LOD.
    pub fn stale_count(&self, camera: Vec3) -> usize {
        self.chunks
            .iter()
            .filter(|(p, lod)| **lod != Some(self.wanted_lod(**p, camera)))
            .count()
    }

    /// Rebuild the meshes of the chunks overlapping `region` within the normal frame budget
    /// (nearest first); their old meshes stay drawn until then. For changes of colour only
    /// (new baked light), where an immediate rebuild of many chunks would stall a frame.
    pub fn invalidate(&mut self, region: VoxelBox) {
        for (p, lod) in &mut self.chunks {
            let min = p.min_voxel();
            let s = CHUNK_SIZE as i32;
            let chunk = VoxelBox::new(min, VoxelPos::new(min.x + s, min.y + s, min.z + s));
            if !chunk.intersect(&region).is_empty() {
                *lod = None;
            }
        }
    }

    /// Chunks waiting to be remeshed because an edit touched them.
    pub fn urgent_count(&self) -> usize {
        self.urgent.len()
    }

    /// Mark every chunk whose mesh reads voxels of `changed` as urgent.
    pub fn edited(&mut self, grid: &Grid, changed: VoxelBox) {
        let reach = (BORDER << MAX_LOD) as i32 + 1;
        let grown = VoxelBox::new(
            VoxelPos::new(
                changed.min.x - reach,
                changed.min.y - reach,
                changed.min.z - reach,
            ),
            VoxelPos::new(
                changed.max.x + reach,
                changed.max.y + reach,
                changed.max.z + reach,
            ),
        );
        for p in changed.chunks() {
            if grid.chunk(p).is_some() {
                self.add_owner_chunks(p);
            }
        }
        for p in grown.chunks() {
            let Some(&lod) = self.chunks.get(&p) else {
                continue;
            };
            let r = ((BORDER << lod.unwrap_or(0)) as i32) + (1 << lod.unwrap_or(0));
            let min = p.min_voxel();
            let s = CHUNK_SIZE as i32;
            let input = VoxelBox::new(
                VoxelPos::new(min.x - r, min.y - r, min.z - r),
                VoxelPos::new(min.x + s + r, min.y + s + r, min.z + s + r),
            );
            if !input.intersect(&changed).is_empty() {
                self.urgent.insert(p);
            }
        }
    }

    fn wanted_lod(&self, p: ChunkPos, camera: Vec3) -> u32 {
        if !self.lod_enabled {
            return 0;
        }
        let scale = if self.lod_distance > 0.0 {
            DEFAULT_LOD_DISTANCE / self.lod_distance
        } else {
            1.0
        };
        lod_for_distance((center(p) - camera).magnitude() / CHUNK_SIZE as f32 * scale)
    }

    /// Rebuild urgent chunks, then stale ones nearest first until `budget` has passed. Returns the
    /// uploads for the scene.
    pub fn update(
        &mut self,
        grid: &Grid,
        table: &MaterialTable,
        camera: Vec3,
        budget: Duration,
        light: Option<&LightMap>,
    ) -> Vec<ChunkUpload> {
        let Some(palette) = self.palette.clone() else {
            return Vec::new();
        };
        let started = Instant::now();
        let mut work: Vec<(ChunkPos, u32)> = self
            .urgent
            .drain()
            .filter(|p| self.chunks.contains_key(p))
            .map(|p| (p, 0))
            .collect();
        for w in &mut work {
            w.1 = self.wanted_lod(w.0, camera);
        }
        let mut uploads = mesh_batch(grid, table, &palette, &work, light);
        let mut stale: Vec<(f32, ChunkPos, u32)> = self
            .chunks
            .iter()
            .filter_map(|(p, lod)| {
                let want = self.wanted_lod(*p, camera);
                (*lod != Some(want)).then(|| ((center(*p) - camera).magnitude2(), *p, want))
            })
            .collect();
        stale.sort_by(|a, b| a.0.total_cmp(&b.0));
        for batch in stale.chunks(BATCH) {
            if started.elapsed() >= budget && !uploads.is_empty() {
                break;
            }
            let jobs: Vec<(ChunkPos, u32)> = batch.iter().map(|&(_, p, l)| (p, l)).collect();
            uploads.extend(mesh_batch(grid, table, &palette, &jobs, light));
        }
        for up in &uploads {
            self.chunks.insert(up.pos, Some(up.lod));
        }
        uploads
    }
}

/// Mesh `jobs`; a few chunks (a brush stroke) are meshed on this thread, because waking rayon's
/// workers costs more than meshing them (see the engine `edit` bench), larger batches in parallel.
fn mesh_batch(
    grid: &Grid,
    table: &MaterialTable,
    palette: &Palette,
    jobs: &[(ChunkPos, u32)],
    light: Option<&LightMap>,
) -> Vec<ChunkUpload> {
    if jobs.len() <= SERIAL_MAX {
        let mut buf = MeshBuffer::new();
        return jobs
            .iter()
            .map(|&(p, lod)| build(grid, table, palette, p, lod, &mut buf, light))
            .collect();
    }
    jobs.par_iter()
        .map_init(MeshBuffer::new, |buf, &(p, lod)| {
            build(grid, table, palette, p, lod, buf, light)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use strata_engine::voxel::Voxel;

    fn ground() -> Grid {
        let mut grid = Grid::new();
        grid.fill_box(
            VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(96, 20, 96)),
            Voxel::new(2, 255),
        );
        grid
    }

    #[test]
    fn lod_grows_with_distance() {
        assert_eq!(lod_for_distance(0.0), 0);
        assert_eq!(lod_for_distance(6.5), 1);
        assert_eq!(lod_for_distance(13.0), 2);
        assert_eq!(lod_for_distance(1000.0), 3);
    }

    #[test]
    fn everything_gets_meshed_and_edits_remesh_only_nearby_chunks() {
        let grid = ground();
        let table = MaterialTable::builtin();
        let mut m = ChunkMeshes::new(true);
        m.reset(&grid, &table);
        let camera = Vec3::new(48.0, 40.0, 48.0);
        assert_eq!(m.stale_count(camera), m.len());
        let ups = m.update(&grid, &table, camera, Duration::from_secs(60), None);
        assert_eq!(ups.len(), m.len());
        assert_eq!(m.stale_count(camera), 0);
        assert!(ups.iter().any(|u| u.solid.is_some()));
        let edit = VoxelBox::new(VoxelPos::new(40, 18, 40), VoxelPos::new(44, 22, 44));
        m.edited(&grid, edit);
        let ups = m.update(&grid, &table, camera, Duration::ZERO, None);
        let mut got: Vec<ChunkPos> = ups.iter().map(|u| u.pos).collect();
        got.sort_by_key(|p| (p.x, p.y, p.z));
        assert!(got.contains(&ChunkPos::new(1, 0, 1)));
        assert!(!got.contains(&ChunkPos::new(0, 0, 0)), "{got:?}");
        assert!(got.len() <= 8, "{got:?}");
    }

    #[test]
    fn far_chunks_use_coarser_meshes() {
        let grid = ground();
        let table = MaterialTable::builtin();
        let mut m = ChunkMeshes::new(true);
        m.reset(&grid, &table);
        let far = Vec3::new(48.0, 40.0, 48.0 + 32.0 * 30.0);
        let ups = m.update(&grid, &table, far, Duration::from_secs(60), None);
        assert!(ups.iter().all(|u| u.lod == 3));
    }
}
