//! Which parts of the world have meshes, at which level of detail, which are drawn, and which must
//! be rebuilt.
//!
//! The terrain is an octree of mesh nodes (`strata_engine::mesh::NodeKey`): a node of level `l` is
//! `2^l` chunks a side meshed at LOD `l`, from single chunks at full resolution up to 32 chunks a
//! side at one sample per chunk. Only nodes holding a chunk that can own surface exist.
//!
//! ```text
//!   every frame:  wanted = the octree split by distance to the camera (its leaves)
//!                 edits (boxes) ──> ready nodes whose mesh input meets them ──> outdated;
//!                                   drawn ones urgent (meshed now: a stroke shows the same frame)
//!                 mesh: urgent, then the coarsest nodes until the world is covered, then
//!                       wanted nodes nearest first, in parallel batches, within the frame budget
//!                 draw: each wanted node when ready; where it is not yet, its ready ancestor or
//!                       its ready descendants, so the view never shows a hole while it refines
//!                 drop: ready nodes neither drawn, wanted nor an ancestor of a wanted node
//! ```
//!
//! So a world of any size shows whole from its coarsest nodes within a few frames (the 4096² hills
//! world is 16 nodes), and refines toward the camera while the view stays interactive; a distant
//! chunk never costs a full-resolution mesh.

use std::time::{Duration, Instant};

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};
use three_d::{InnerSpace, Vec3};

use strata_engine::light::LightMap;
use strata_engine::mesh::{surface_owners, MeshBuffer, NodeKey, MAX_NODE_LEVEL};
use strata_engine::storage::Grid;
use strata_engine::tools::node_reads;
use strata_engine::voxel::{ChunkPos, MaterialTable, VoxelBox, CHUNK_SIZE};

use super::upload::{build, ChunkUpload, Palette};

/// Distance (chunks, to the node's box) within which a node of level 1 is split into chunks at
/// full resolution, at the default LOD distance; level `l` splits within `2^(l−1)` times this.
pub const DEFAULT_LOD_DISTANCE: f32 = 6.0;
/// Nodes meshed per parallel batch.
const BATCH: usize = 16;
/// Batches up to this many nodes are meshed serially.
const SERIAL_MAX: usize = 8;

/// What one [`ChunkMeshes::update`] asks of the scene.
#[derive(Default)]
pub struct MeshUpdate {
    /// New or replaced node meshes.
    pub uploads: Vec<ChunkUpload>,
    /// Node meshes no longer needed.
    pub drops: Vec<NodeKey>,
    /// The nodes to draw, when the set changed.
    pub visible: Option<Vec<NodeKey>>,
}

/// Mesh bookkeeping of the current document.
#[derive(Default)]
pub struct ChunkMeshes {
    /// Nodes holding at least one chunk that can own surface.
    nodes: FxHashSet<NodeKey>,
    /// The nodes of the coarsest level, sorted (kept as nodes are added: every frame walks them).
    roots: Vec<NodeKey>,
    /// Level-0 nodes: chunks that can own surface.
    chunk_count: usize,
    /// Nodes whose mesh the scene holds.
    ready: FxHashSet<NodeKey>,
    /// Ready nodes whose mesh an edit or a new light made outdated (drawn until rebuilt).
    outdated: FxHashSet<NodeKey>,
    /// Outdated nodes to rebuild this frame whatever the budget.
    urgent: FxHashSet<NodeKey>,
    /// Leaves of the octree split for the last camera position.
    wanted: FxHashSet<NodeKey>,
    /// What the last update drew.
    drawn: Vec<NodeKey>,
    /// Use coarser meshes for distant parts of the world.
    pub lod_enabled: bool,
    /// Distance in chunks within which level-1 nodes split (twice that for level 2, and so on);
    /// 0 means the default.
    pub lod_distance: f32,
    /// The viewport's fast path: nodes split at half the distance, so distant triangles are not
    /// much smaller than on the near ones' screen (software GL runs the shader per 4×4 block a
    /// triangle touches, so tiny triangles cost many times their pixels).
    pub coarse: bool,
    palette: Option<Palette>,
}

/// The node level wanted at `distance_chunks` chunk widths from the camera (at the default
/// distance): 0 up close, one level coarser at each doubling past [`DEFAULT_LOD_DISTANCE`].
pub fn lod_for_distance(distance_chunks: f32) -> u32 {
    (1..=MAX_NODE_LEVEL)
        .take_while(|&l| distance_chunks >= DEFAULT_LOD_DISTANCE * (1 << (l - 1)) as f32)
        .count() as u32
}

/// Distance from `camera` to the nearest point of `b`, voxels (0 inside).
fn box_distance(b: VoxelBox, camera: Vec3) -> f32 {
    let axis = |lo: i32, hi: i32, c: f32| (lo as f32 - c).max(c - hi as f32).max(0.0);
    Vec3::new(
        axis(b.min.x, b.max.x, camera.x),
        axis(b.min.y, b.max.y, camera.y),
        axis(b.min.z, b.max.z, camera.z),
    )
    .magnitude()
}

fn center_distance2(key: NodeKey, camera: Vec3) -> f32 {
    let b = key.voxel_box();
    let c = Vec3::new(
        (b.min.x + b.max.x) as f32 * 0.5,
        (b.min.y + b.max.y) as f32 * 0.5,
        (b.min.z + b.max.z) as f32 * 0.5,
    );
    (c - camera).magnitude2()
}

impl ChunkMeshes {
    /// Bookkeeping with level of detail on or off.
    pub fn new(lod_enabled: bool) -> Self {
        Self {
            lod_enabled,
            ..Default::default()
        }
    }

    /// Start over for `grid`: nothing is meshed.
    pub fn reset(&mut self, grid: &Grid, table: &MaterialTable) {
        self.nodes.clear();
        self.roots.clear();
        self.chunk_count = 0;
        self.ready.clear();
        self.outdated.clear();
        self.urgent.clear();
        self.wanted.clear();
        self.drawn.clear();
        self.palette = Some(Palette::new(table));
        for (p, _) in grid.chunks() {
            self.add_owner_chunks(p);
        }
    }

    /// Colour meshes built from now on with `table` (a changed table; the chunks it changes are
    /// remeshed as edits).
    pub fn set_palette(&mut self, table: &MaterialTable) {
        self.palette = Some(Palette::new(table));
    }

    /// Track the nodes holding the chunks that can own surface of stored chunk `p`.
    fn add_owner_chunks(&mut self, p: ChunkPos) {
        for owner in surface_owners(p) {
            for level in 0..=MAX_NODE_LEVEL {
                let key = NodeKey::containing(owner, level);
                if !self.nodes.insert(key) {
                    // Its ancestors are there too.
                    break;
                }
                if level == 0 {
                    self.chunk_count += 1;
                }
                if level == MAX_NODE_LEVEL {
                    let at = self.roots.binary_search(&key).unwrap_or_else(|i| i);
                    self.roots.insert(at, key);
                }
            }
        }
    }

    /// Number of chunks that can own surface.
    pub fn len(&self) -> usize {
        self.chunk_count
    }

    /// True before any document.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Node meshes the scene holds.
    pub fn ready_count(&self) -> usize {
        self.ready.len()
    }

    /// Nodes drawn by the last update.
    pub fn drawn(&self) -> &[NodeKey] {
        &self.drawn
    }

    /// True when the last update drew the whole world (every chunk that can own surface lies in
    /// a drawn node), however coarsely.
    pub fn covers_world(&self) -> bool {
        let mut memo = FxHashMap::default();
        !self.nodes.is_empty() && self.roots.iter().all(|&r| self.full(r, &mut memo))
    }

    /// Nodes still to mesh (or rebuild) before the view is fully refined for `camera`.
    pub fn stale_count(&self, camera: Vec3) -> usize {
        let wanted = self.wanted_leaves(camera);
        wanted
            .iter()
            .filter(|k| !self.ready.contains(k) || self.outdated.contains(k))
            .count()
    }

    /// Rebuild the meshes of the nodes overlapping `region` within the normal frame budget
    /// (nearest first); their old meshes stay drawn until then. For changes of colour only
    /// (new baked light), where an immediate rebuild of many nodes would stall a frame.
    pub fn invalidate(&mut self, region: VoxelBox) {
        for k in &self.ready {
            if !k.voxel_box().intersect(&region).is_empty() {
                self.outdated.insert(*k);
            }
        }
    }

    /// Nodes waiting to be remeshed because an edit touched them.
    pub fn urgent_count(&self) -> usize {
        self.urgent.len()
    }

    /// Mark every ready node whose mesh reads voxels of `changed` as outdated: drawn ones are
    /// rebuilt in the next update whatever the budget, the others are dropped.
    pub fn edited(&mut self, grid: &Grid, changed: VoxelBox) {
        for p in changed.chunks() {
            if grid.chunk(p).is_some() {
                self.add_owner_chunks(p);
            }
        }
        let drawn: FxHashSet<NodeKey> = self.drawn.iter().copied().collect();
        for k in &self.ready {
            if !node_reads(*k, changed) {
                continue;
            }
            self.outdated.insert(*k);
            if drawn.contains(k) {
                self.urgent.insert(*k);
            }
        }
    }

    /// Whether node `key` (of `level > 0`) is split for a camera at `camera`.
    fn splits(&self, key: NodeKey, camera: Vec3) -> bool {
        if key.level == 0 {
            return false;
        }
        if !self.lod_enabled {
            return true;
        }
        let scale = if self.lod_distance > 0.0 {
            self.lod_distance / DEFAULT_LOD_DISTANCE
        } else {
            1.0
        };
        let scale = if self.coarse { scale * 0.5 } else { scale };
        let reach = DEFAULT_LOD_DISTANCE * scale * (1 << (key.level - 1)) as f32;
        box_distance(key.voxel_box(), camera) < reach * CHUNK_SIZE as f32
    }

    fn children(&self, key: NodeKey) -> impl Iterator<Item = NodeKey> + '_ {
        key.children()
            .into_iter()
            .filter(|c| self.nodes.contains(c))
    }

    /// The leaves of the octree split for `camera`.
    fn wanted_leaves(&self, camera: Vec3) -> FxHashSet<NodeKey> {
        let mut out = FxHashSet::default();
        let mut stack = self.roots.clone();
        while let Some(k) = stack.pop() {
            if self.splits(k, camera) {
                stack.extend(self.children(k));
            } else {
                out.insert(k);
            }
        }
        out
    }

    /// True when `key`'s area can be drawn from ready nodes at or below it.
    fn covered_below(&self, key: NodeKey) -> bool {
        self.ready.contains(&key)
            || (key.level > 0 && self.children(key).all(|c| self.covered_below(c)))
    }

    /// True when drawing `key` (as [`Self::draw`] does) leaves no hole.
    fn full(&self, key: NodeKey, memo: &mut FxHashMap<NodeKey, bool>) -> bool {
        if let Some(&f) = memo.get(&key) {
            return f;
        }
        let f = if self.wanted.contains(&key) {
            self.covered_below(key)
        } else {
            self.ready.contains(&key)
                || self
                    .children(key)
                    .collect::<Vec<_>>()
                    .into_iter()
                    .all(|c| self.full(c, memo))
        };
        memo.insert(key, f);
        f
    }

    /// Append to `out` the nodes that show `key`'s area.
    fn draw(&self, key: NodeKey, memo: &mut FxHashMap<NodeKey, bool>, out: &mut Vec<NodeKey>) {
        if self.wanted.contains(&key) {
            if self.ready.contains(&key) {
                out.push(key);
            } else if self.covered_below(key) {
                self.draw_ready_below(key, out);
            }
            return;
        }
        let kids: Vec<NodeKey> = self.children(key).collect();
        if !kids.iter().all(|&c| self.full(c, memo)) && self.ready.contains(&key) {
            out.push(key);
            return;
        }
        for c in kids {
            self.draw(c, memo, out);
        }
    }

    fn draw_ready_below(&self, key: NodeKey, out: &mut Vec<NodeKey>) {
        if self.ready.contains(&key) {
            out.push(key);
            return;
        }
        for c in self.children(key).collect::<Vec<_>>() {
            self.draw_ready_below(c, out);
        }
    }

    /// Mesh what is due (urgent nodes, then uncovered roots, then wanted nodes nearest first,
    /// until `budget` has passed), choose what to draw and what to drop.
    pub fn update(
        &mut self,
        grid: &Grid,
        table: &MaterialTable,
        camera: Vec3,
        budget: Duration,
        light: Option<&LightMap>,
    ) -> MeshUpdate {
        let mut result = MeshUpdate::default();
        let Some(palette) = self.palette.clone() else {
            return result;
        };
        let started = Instant::now();
        self.wanted = self.wanted_leaves(camera);
        let urgent: Vec<NodeKey> = self.urgent.drain().collect();
        let mut uploads = mesh_batch(grid, table, &palette, &urgent, light);
        self.install(&mut uploads);
        result.uploads.append(&mut uploads);
        // First the roots no ready node covers (the whole world shows as early as possible),
        // then the wanted nodes, nearest first, and outdated drawn ones.
        let mut memo = FxHashMap::default();
        let mut todo: Vec<(u32, f32, NodeKey)> = self
            .roots
            .iter()
            .copied()
            .filter(|&r| !self.full(r, &mut memo))
            .map(|r| (0, center_distance2(r, camera), r))
            .collect();
        let drawn: FxHashSet<NodeKey> = self.drawn.iter().copied().collect();
        todo.extend(
            self.wanted
                .iter()
                .filter(|k| !self.ready.contains(k) || self.outdated.contains(k))
                .map(|&k| (1, center_distance2(k, camera), k)),
        );
        todo.extend(
            self.outdated
                .iter()
                .filter(|k| drawn.contains(k) && !self.wanted.contains(k))
                .map(|&k| (1, center_distance2(k, camera), k)),
        );
        todo.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
        todo.dedup_by_key(|t| t.2);
        for batch in todo.chunks(BATCH) {
            if started.elapsed() >= budget && !result.uploads.is_empty() {
                break;
            }
            let jobs: Vec<NodeKey> = batch.iter().map(|t| t.2).collect();
            let mut ups = mesh_batch(grid, table, &palette, &jobs, light);
            self.install(&mut ups);
            result.uploads.append(&mut ups);
        }
        let mut memo = FxHashMap::default();
        let mut drawn = Vec::new();
        for &r in &self.roots {
            self.draw(r, &mut memo, &mut drawn);
        }
        drawn.sort_unstable();
        // Keep what is drawn, wanted, or an ancestor of a wanted node (the fallback while the
        // camera moves back); drop the rest.
        let mut keep: FxHashSet<NodeKey> = drawn.iter().copied().collect();
        for w in &self.wanted {
            let mut k = Some(*w);
            while let Some(n) = k {
                if !keep.insert(n) && n != *w {
                    break;
                }
                k = n.parent();
            }
        }
        let dropped: Vec<NodeKey> = self
            .ready
            .iter()
            .filter(|k| !keep.contains(k))
            .copied()
            .collect();
        for k in &dropped {
            self.ready.remove(k);
            self.outdated.remove(k);
        }
        result.drops = dropped;
        if drawn != self.drawn {
            result.visible = Some(drawn.clone());
            self.drawn = drawn;
        }
        result
    }

    /// Record freshly built meshes as ready; empty ones are ready too (nothing to draw).
    fn install(&mut self, uploads: &mut [ChunkUpload]) {
        for up in uploads.iter() {
            self.ready.insert(up.key);
            self.outdated.remove(&up.key);
            self.urgent.remove(&up.key);
        }
    }
}

/// Mesh `jobs`; a few nodes (a brush stroke) are meshed on this thread, because waking rayon's
/// workers costs more than meshing them (see the engine `edit` bench), larger batches in parallel.
fn mesh_batch(
    grid: &Grid,
    table: &MaterialTable,
    palette: &Palette,
    jobs: &[NodeKey],
    light: Option<&LightMap>,
) -> Vec<ChunkUpload> {
    if jobs.len() <= SERIAL_MAX {
        let mut buf = MeshBuffer::new();
        return jobs
            .iter()
            .map(|&k| build(grid, table, palette, k, &mut buf, light))
            .collect();
    }
    jobs.par_iter()
        .map_init(MeshBuffer::new, |buf, &k| {
            build(grid, table, palette, k, buf, light)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use strata_engine::voxel::{Voxel, VoxelPos};

    fn ground(size: i32) -> Grid {
        let mut grid = Grid::new();
        grid.fill_box(
            VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(size, 20, size)),
            Voxel::new(2, 255),
        );
        grid
    }

    /// Run updates with no budget until nothing is left to mesh; returns the uploads' keys.
    fn settle(m: &mut ChunkMeshes, grid: &Grid, camera: Vec3) -> Vec<NodeKey> {
        let table = MaterialTable::builtin();
        let mut keys = Vec::new();
        for _ in 0..10_000 {
            let up = m.update(grid, &table, camera, Duration::ZERO, None);
            keys.extend(up.uploads.iter().map(|u| u.key));
            if m.stale_count(camera) == 0 && up.uploads.is_empty() {
                return keys;
            }
        }
        panic!("never settled");
    }

    /// The drawn nodes cover every chunk that can own surface exactly once.
    fn assert_tiles(m: &ChunkMeshes) {
        let mut seen = FxHashMap::default();
        for k in m.drawn() {
            let span = k.span();
            let min = k.min_chunk();
            for z in 0..span {
                for y in 0..span {
                    for x in 0..span {
                        let c = ChunkPos::new(min.x + x, min.y + y, min.z + z);
                        *seen.entry(c).or_insert(0) += 1;
                    }
                }
            }
        }
        for k in m.nodes.iter().filter(|k| k.level == 0) {
            assert_eq!(seen.get(&k.pos), Some(&1), "chunk {:?}", k.pos);
        }
    }

    #[test]
    fn lod_grows_with_distance() {
        assert_eq!(lod_for_distance(0.0), 0);
        assert_eq!(lod_for_distance(6.5), 1);
        assert_eq!(lod_for_distance(13.0), 2);
        assert_eq!(lod_for_distance(25.0), 3);
        assert_eq!(lod_for_distance(1.0e6), MAX_NODE_LEVEL);
    }

    #[test]
    fn the_first_update_covers_the_world_from_its_coarsest_nodes() {
        let grid = ground(96);
        let table = MaterialTable::builtin();
        let mut m = ChunkMeshes::new(true);
        m.reset(&grid, &table);
        let camera = Vec3::new(48.0, 40.0, 48.0);
        let up = m.update(&grid, &table, camera, Duration::ZERO, None);
        assert!(up.uploads.iter().any(|u| u.key.level == MAX_NODE_LEVEL));
        assert_eq!(up.visible.as_deref(), Some(m.drawn()));
        assert_tiles(&m);
        assert!(m.stale_count(camera) > 0);
    }

    #[test]
    fn refinement_ends_with_full_resolution_near_the_camera_and_no_overlaps() {
        let grid = ground(640);
        let table = MaterialTable::builtin();
        let mut m = ChunkMeshes::new(true);
        m.reset(&grid, &table);
        let camera = Vec3::new(16.0, 30.0, 16.0);
        settle(&mut m, &grid, camera);
        assert_tiles(&m);
        let near = NodeKey::containing(ChunkPos::new(0, 0, 0), 0);
        assert!(m.drawn().contains(&near), "{:?}", m.drawn());
        assert!(m.drawn().iter().any(|k| k.level >= 2));
        // Moving far away coarsens the view and drops the fine meshes.
        let far = Vec3::new(320.0, 40.0, 320.0 + 32.0 * 300.0);
        let before = m.ready_count();
        settle(&mut m, &grid, far);
        assert_tiles(&m);
        assert!(m.drawn().iter().all(|k| k.level == MAX_NODE_LEVEL));
        assert!(m.ready_count() < before);
    }

    #[test]
    fn the_fast_path_splits_at_half_the_distance() {
        let grid = ground(640);
        let table = MaterialTable::builtin();
        let camera = Vec3::new(16.0, 30.0, 16.0);
        let levels = |coarse: bool| {
            let mut m = ChunkMeshes::new(true);
            m.coarse = coarse;
            m.reset(&grid, &table);
            settle(&mut m, &grid, camera);
            assert_tiles(&m);
            let full_resolution = m.drawn().iter().filter(|k| k.level == 0).count();
            (full_resolution, m.drawn().len())
        };
        let (full_near, full_drawn) = levels(false);
        let (fast_near, fast_drawn) = levels(true);
        assert!(fast_near > 0, "the chunk under the camera stays fine");
        assert!(
            fast_near * 2 < full_near && fast_drawn < full_drawn,
            "full resolution {fast_near} of {fast_drawn} nodes, against {full_near} of {full_drawn}"
        );
        // A node splits within half the reach: a level-1 node at 4 chunk widths (inside the
        // default 6, outside 3).
        let mut m = ChunkMeshes::new(true);
        let key = NodeKey::containing(ChunkPos::new(6, 0, 0), 1);
        let at = Vec3::new(
            key.voxel_box().min.x as f32 - 4.0 * CHUNK_SIZE as f32,
            10.0,
            10.0,
        );
        assert!(m.splits(key, at));
        m.coarse = true;
        assert!(!m.splits(key, at));
    }

    #[test]
    fn lod_off_draws_every_chunk_at_full_resolution() {
        let grid = ground(96);
        let table = MaterialTable::builtin();
        let mut m = ChunkMeshes::new(false);
        m.reset(&grid, &table);
        let far = Vec3::new(48.0, 40.0, 48.0 + 32.0 * 300.0);
        settle(&mut m, &grid, far);
        assert_tiles(&m);
        assert!(m.drawn().iter().all(|k| k.level == 0));
    }

    #[test]
    fn edits_remesh_only_the_drawn_nodes_that_read_them() {
        let grid = ground(96);
        let table = MaterialTable::builtin();
        let mut m = ChunkMeshes::new(true);
        m.reset(&grid, &table);
        let camera = Vec3::new(48.0, 40.0, 48.0);
        settle(&mut m, &grid, camera);
        let edit = VoxelBox::new(VoxelPos::new(40, 18, 40), VoxelPos::new(44, 22, 44));
        m.edited(&grid, edit);
        assert!(m.urgent_count() > 0);
        let up = m.update(&grid, &table, camera, Duration::ZERO, None);
        let got: Vec<NodeKey> = up.uploads.iter().map(|u| u.key).collect();
        assert!(got.contains(&NodeKey::containing(ChunkPos::new(1, 0, 1), 0)));
        assert!(
            !got.contains(&NodeKey::containing(ChunkPos::new(0, 0, 0), 0)),
            "{got:?}"
        );
        assert!(got.len() <= 8, "{got:?}");
        assert_eq!(m.urgent_count(), 0);
    }
}
