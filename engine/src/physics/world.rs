//! The physics view of a grid: broadphase for the whole world, narrowphase built lazily per cell, and
//! world raycasts over both.
//!
//! ```text
//!   PhysicsWorld::new(grid) ── Broadphase::build (all cells)         cache: CellCache<CellShape>
//!   raycast ── DDA over 8³ cells ── broadphase: empty? skip ── else shape (cache hit, or mesh + tree)
//!   on_edit(grid, box) ── Broadphase::update + invalidate every cached shape whose 12³ input overlaps
//! ```
//!
//! # World raycast
//! A cell's triangles may reach [`SPILL`] voxels past its box (see [`super::narrowphase`]), so a
//! ray can hit a cell's triangle without entering the cell. The walk therefore treats each cell as
//! its box grown by `SPILL` and visits cells in order of the ray's entry into that grown box:
//!
//! ```text
//!   DDA over the plain 8³ grid, cell D with segment [t_in, t_out]:
//!     for each of D's 27 neighbours N with matter (broadphase) not yet seen:
//!        t_enter(N) = entry of the ray into N's grown box  -> min-heap
//!     pop and query every N with t_enter(N) <= t_out, shortening the ray to the best hit
//!     stop once the best hit t <= t_out
//! ```
//!
//! Any point within `SPILL` (< 8) of cell N's box lies in N or one of its 26 neighbours, so by the
//! time the DDA has passed `t`, every cell whose grown box the ray enters before `t` is in the heap:
//! cells are queried in order of `t_enter`, and the first hit found before the next entry is the
//! closest.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rustc_hash::FxHashSet;

use super::broadphase::{self, physics_cell_of, Broadphase, CellBits, PHYSICS_CELL};
use super::cache::CellCache;
use super::kdtree::{Ray, RayHit};
use super::narrowphase::{CellShape, ShapeScratch, SPILL};
use crate::mesh::BORDER;
use crate::storage::Grid;
use crate::voxel::{MaterialTable, VoxelBox, CHUNK_SIZE};
use crate::{Error, Result};

/// Default byte budget of the narrowphase cache (64 MiB).
pub const DEFAULT_CACHE_BYTES: usize = 64 << 20;

/// Which surfaces a ray stops at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RayFilter {
    /// Stop at solid terrain.
    pub solid: bool,
    /// Stop at water surfaces.
    pub water: bool,
}

impl Default for RayFilter {
    fn default() -> Self {
        Self {
            solid: true,
            water: true,
        }
    }
}

/// What a world raycast hit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WorldHit {
    /// The hit point, world voxel units.
    pub point: [f32; 3],
    /// Unit normal of the triangle hit, pointing out of the terrain (out of the water for water).
    pub normal: [f32; 3],
    /// Distance from the ray origin, in voxels (the direction is normalized).
    pub t: f32,
    /// Material id at the hit point (the heaviest blended vertex material).
    pub material: u8,
    /// True when the triangle is a water surface.
    pub water: bool,
    /// The physics cell whose mesh holds the triangle.
    pub cell: [i32; 3],
}

/// Counters of narrowphase work since the world was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PhysicsStats {
    /// Cell shapes meshed and built.
    pub builds: u64,
    /// Cell shapes found in the cache.
    pub cache_hits: u64,
}

/// Broadphase + lazily built narrowphase of one grid (see the module docs). The grid itself is not
/// owned: pass the same grid to every call, and report every edit with [`PhysicsWorld::on_edit`].
#[derive(Debug)]
pub struct PhysicsWorld {
    table: MaterialTable,
    broadphase: Broadphase,
    bp_scratch: broadphase::BuildScratch,
    cache: CellCache<CellShape>,
    shape_scratch: ShapeScratch,
    /// Inclusive physics-cell range that can hold matter (`None`: nothing yet).
    bounds: Option<([i32; 3], [i32; 3])>,
    stats: PhysicsStats,
    seen: FxHashSet<[i32; 3]>,
    /// (entry t as f64 bits, cell); entry t is never negative, so the bits order like the values.
    heap: BinaryHeap<Reverse<(u64, [i32; 3])>>,
}

/// Computes the voxel-reading part of [`PhysicsWorld::on_edit`] on any thread, e.g. on a copy of
/// the chunks an edit changed (holding the changed box grown by
/// [`broadphase::REFRESH_REACH`] voxels).
#[derive(Debug, Clone)]
pub struct PhysicsRefresher {
    matter: broadphase::MatterTable,
}

/// The broadphase entries of one edited box (from [`PhysicsRefresher::refresh`]).
#[derive(Debug, Clone, Default)]
pub struct PhysicsRefresh {
    changed: VoxelBox,
    broadphase: broadphase::BroadphaseRefresh,
}

impl PhysicsRefresher {
    /// The refresh for an edit of `changed`, from `grid` as it is after the edit.
    pub fn refresh(&self, grid: &Grid, changed: VoxelBox) -> PhysicsRefresh {
        PhysicsRefresh {
            changed,
            broadphase: Broadphase::refresh(&self.matter, grid, changed),
        }
    }
}

impl PhysicsWorld {
    /// The physics view of `grid`, with a narrowphase cache of `cache_bytes`.
    pub fn new(grid: &Grid, table: &MaterialTable, cache_bytes: usize) -> Self {
        let mut bp_scratch = broadphase::BuildScratch::default();
        let broadphase = Broadphase::build(grid, table, &mut bp_scratch);
        let mut world = Self {
            table: table.clone(),
            broadphase,
            bp_scratch,
            cache: CellCache::new(cache_bytes),
            shape_scratch: ShapeScratch::default(),
            bounds: None,
            stats: PhysicsStats::default(),
            seen: FxHashSet::default(),
            heap: BinaryHeap::new(),
        };
        for (pos, _) in grid.chunks() {
            let min = [pos.x, pos.y, pos.z].map(|c| c * CHUNK_SIZE as i32);
            world.grow_bounds(min, min.map(|c| c + CHUNK_SIZE as i32));
        }
        world
    }

    /// The broadphase.
    pub fn broadphase(&self) -> &Broadphase {
        &self.broadphase
    }

    /// The narrowphase cache.
    pub fn cache(&self) -> &CellCache<CellShape> {
        &self.cache
    }

    /// Work counters.
    pub fn stats(&self) -> PhysicsStats {
        self.stats
    }

    /// Widen the cell range to cover voxels `min..max` (exclusive) and the dilation around them.
    fn grow_bounds(&mut self, min: [i32; 3], max: [i32; 3]) {
        let lo = min.map(|v| physics_cell_of(v - 1));
        let hi = max.map(physics_cell_of);
        self.bounds = Some(match self.bounds {
            None => (lo, hi),
            Some((a, b)) => (
                std::array::from_fn(|i| a[i].min(lo[i])),
                std::array::from_fn(|i| b[i].max(hi[i])),
            ),
        });
    }

    /// Report that the voxels of `changed` were edited in `grid`: refresh the broadphase there and drop
    /// every cached shape whose mesher input (the cell plus a border of [`BORDER`]) overlaps the box.
    pub fn on_edit(&mut self, grid: &Grid, changed: VoxelBox) {
        if changed.is_empty() {
            return;
        }
        self.broadphase.update(grid, changed, &mut self.bp_scratch);
        self.invalidate(changed);
    }

    /// Bounds and narrowphase cache after an edit of `changed`.
    fn invalidate(&mut self, changed: VoxelBox) {
        let (min, max) = (changed.min, changed.max);
        let (min, max) = ([min.x, min.y, min.z], [max.x, max.y, max.z]);
        self.grow_bounds(min, max);
        // Cell c reads voxels 8c − BORDER .. 8c + 8 + BORDER (exclusive).
        let b = BORDER as i32;
        let lo = min.map(|v| physics_cell_of(v - PHYSICS_CELL - b));
        let hi = max.map(|v| physics_cell_of(v - 1 + b));
        self.cache.invalidate_box(lo, hi);
    }

    /// What [`PhysicsWorld::on_edit`] computes from the voxels, done apart (see
    /// [`PhysicsRefresher`]); [`PhysicsWorld::on_edit_refreshed`] installs it.
    pub fn refresher(&self) -> PhysicsRefresher {
        PhysicsRefresher {
            matter: self.broadphase.matter().clone(),
        }
    }

    /// [`PhysicsWorld::on_edit`] with the broadphase entries already computed by
    /// [`PhysicsRefresher::refresh`] on the voxels as they are now.
    pub fn on_edit_refreshed(&mut self, refresh: PhysicsRefresh) {
        let changed = refresh.changed;
        if changed.is_empty() {
            return;
        }
        self.broadphase.apply_refresh(refresh.broadphase);
        self.invalidate(changed);
    }

    /// Run `f` on the shape of cell `pos`, building and caching it on first use.
    fn with_shape<R>(
        &mut self,
        grid: &Grid,
        pos: [i32; 3],
        f: impl FnOnce(&CellShape) -> R,
    ) -> Result<R> {
        if let Some(shape) = self.cache.get(pos) {
            self.stats.cache_hits += 1;
            return Ok(f(shape));
        }
        let shape = CellShape::build(grid, &self.table, pos, &mut self.shape_scratch)?;
        self.stats.builds += 1;
        let bytes = shape.memory_bytes();
        let r = f(&shape);
        // A shape larger than the whole budget is handed back and dropped.
        let _ = self.cache.insert(pos, shape, bytes);
        Ok(r)
    }

    /// Append to `out` (not cleared) the corners of every solid triangle whose bounding box overlaps
    /// the closed box `min..=max`, building cell shapes as needed (the contact query of bodies).
    ///
    /// # Errors
    /// Errors of [`CellShape::build`].
    pub fn solid_triangles_in(
        &mut self,
        grid: &Grid,
        min: [f32; 3],
        max: [f32; 3],
        out: &mut Vec<[[f32; 3]; 3]>,
    ) -> Result<()> {
        let mut touches = Vec::new();
        // The broadphase expands by one voxel, which covers the half-voxel spill of triangles.
        self.broadphase.query(min, max, &mut touches);
        let mut ids = Vec::new();
        for t in touches.iter().filter(|t| t.solid) {
            self.with_shape(grid, t.cell_pos, |shape| {
                ids.clear();
                shape.tree.query_aabb(&shape.mesh, min, max, &mut ids);
                out.extend(
                    ids.iter()
                        .filter(|&&id| !shape.is_water(id))
                        .map(|&id| shape.corners(id)),
                );
            })?;
        }
        Ok(())
    }

    /// The closest surface along the ray from `origin` in direction `dir` within `max_t` voxels,
    /// solid and water alike. See [`PhysicsWorld::raycast_with`].
    ///
    /// # Errors
    /// As [`PhysicsWorld::raycast_with`].
    pub fn raycast(
        &mut self,
        grid: &Grid,
        origin: [f32; 3],
        dir: [f32; 3],
        max_t: f32,
    ) -> Result<Option<WorldHit>> {
        self.raycast_with(grid, origin, dir, max_t, RayFilter::default())
    }

    /// The closest surface accepted by `filter` along the ray from `origin` in direction `dir` (need
    /// not be unit length; it is normalized, so `t` and `max_t` are in voxels). `max_t` may be
    /// infinite. Both faces of a triangle count.
    ///
    /// # Errors
    /// [`Error::Invalid`] when `origin` or `dir` is not finite, `dir` is zero, or `max_t` is NaN or
    /// negative; errors of [`CellShape::build`].
    pub fn raycast_with(
        &mut self,
        grid: &Grid,
        origin: [f32; 3],
        dir: [f32; 3],
        max_t: f32,
        filter: RayFilter,
    ) -> Result<Option<WorldHit>> {
        let ray = checked_ray(origin, dir, max_t)?;
        let Some((lo, hi)) = self.bounds else {
            return Ok(None);
        };
        let o = ray.origin.map(f64::from);
        let d = ray.dir.map(f64::from);
        let spill = f64::from(SPILL);
        let bmin = lo.map(|c| f64::from(c * PHYSICS_CELL) - spill);
        let bmax = hi.map(|c| f64::from((c + 1) * PHYSICS_CELL) + spill);
        let Some((t0, t1)) = slab(o, d, bmin, bmax, 0.0, f64::from(max_t)) else {
            return Ok(None);
        };
        self.seen.clear();
        self.heap.clear();
        let mut dda = Dda::new(o, d, t0, lo, hi);
        let mut best: Option<WorldHit> = None;
        let mut limit = max_t;
        loop {
            let t_out = dda.t_out().min(t1);
            self.discover(dda.cell, o, d, t0, t1, lo, hi, filter);
            self.query_until(grid, &ray, t_out, &mut limit, &mut best, filter)?;
            if best.is_some() && f64::from(limit) <= t_out || t_out >= t1 {
                break;
            }
            dda.step();
        }
        self.query_until(grid, &ray, f64::INFINITY, &mut limit, &mut best, filter)?;
        Ok(best)
    }

    /// Push onto the heap every unseen cell with matter around `cell` whose grown box the ray enters
    /// within `t0..=t1`.
    #[allow(clippy::too_many_arguments)]
    fn discover(
        &mut self,
        cell: [i32; 3],
        o: [f64; 3],
        d: [f64; 3],
        t0: f64,
        t1: f64,
        lo: [i32; 3],
        hi: [i32; 3],
        filter: RayFilter,
    ) {
        let spill = f64::from(SPILL);
        for dz in -1..=1 {
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let n = [cell[0] + dx, cell[1] + dy, cell[2] + dz];
                    if (0..3).any(|a| n[a] < lo[a] || n[a] > hi[a]) || !self.seen.insert(n) {
                        continue;
                    }
                    let wanted = match self.broadphase.cell(n) {
                        None => false,
                        Some(CellBits::Water) => filter.water,
                        Some(CellBits::Solid) => filter.solid,
                        Some(CellBits::Masks(_)) => filter.solid || filter.water,
                    };
                    if !wanted {
                        continue;
                    }
                    let bmin = n.map(|c| f64::from(c * PHYSICS_CELL) - spill);
                    let bmax = n.map(|c| f64::from((c + 1) * PHYSICS_CELL) + spill);
                    if let Some((te, _)) = slab(o, d, bmin, bmax, t0, t1) {
                        self.heap.push(Reverse(((te + 0.0).to_bits(), n)));
                    }
                }
            }
        }
    }

    /// Query, in order, every queued cell the ray enters at or before `until` and before the best
    /// hit so far, lowering `limit` to each better hit.
    fn query_until(
        &mut self,
        grid: &Grid,
        ray: &Ray,
        until: f64,
        limit: &mut f32,
        best: &mut Option<WorldHit>,
        filter: RayFilter,
    ) -> Result<()> {
        while let Some(&Reverse((bits, pos))) = self.heap.peek() {
            let te = f64::from_bits(bits);
            if te > until || te > f64::from(*limit) {
                break;
            }
            self.heap.pop();
            let max_t = *limit;
            let found = self.with_shape(grid, pos, |shape| {
                let accept = |id: u32| {
                    if shape.is_water(id) {
                        filter.water
                    } else {
                        filter.solid
                    }
                };
                let hit = shape
                    .tree
                    .raycast_filtered(&shape.mesh, ray, max_t, accept)?;
                Some(world_hit(shape, ray, hit, pos))
            })?;
            if let Some(hit) = found {
                if best.is_none_or(|b| hit.t < b.t) {
                    *limit = hit.t;
                    *best = Some(hit);
                }
            }
        }
        Ok(())
    }
}

/// Turn a tree hit into a [`WorldHit`].
fn world_hit(shape: &CellShape, ray: &Ray, hit: RayHit, cell: [i32; 3]) -> WorldHit {
    let point: [f32; 3] = std::array::from_fn(|a| ray.origin[a] + hit.t * ray.dir[a]);
    WorldHit {
        point,
        normal: hit.normal,
        t: hit.t,
        material: shape.material_at(hit.triangle, point),
        water: shape.is_water(hit.triangle),
        cell,
    }
}

/// Check a ray's inputs and normalize its direction.
fn checked_ray(origin: [f32; 3], dir: [f32; 3], max_t: f32) -> Result<Ray> {
    if !origin.iter().all(|c| c.is_finite()) {
        return Err(Error::Invalid(format!(
            "ray origin {origin:?} is not finite"
        )));
    }
    if !dir.iter().all(|c| c.is_finite()) {
        return Err(Error::Invalid(format!(
            "ray direction {dir:?} is not finite"
        )));
    }
    if max_t.is_nan() || max_t < 0.0 {
        return Err(Error::Invalid(format!(
            "ray length {max_t} must be at least 0"
        )));
    }
    let len = dir
        .iter()
        .map(|&c| f64::from(c) * f64::from(c))
        .sum::<f64>()
        .sqrt();
    if len == 0.0 {
        return Err(Error::Invalid("ray direction is zero".into()));
    }
    Ok(Ray {
        origin,
        dir: dir.map(|c| (f64::from(c) / len) as f32),
    })
}

/// The part of `t0..=t1` where the ray `o + t·d` is inside the closed box `bmin..=bmax`.
fn slab(
    o: [f64; 3],
    d: [f64; 3],
    bmin: [f64; 3],
    bmax: [f64; 3],
    t0: f64,
    t1: f64,
) -> Option<(f64, f64)> {
    let (mut lo, mut hi) = (t0, t1);
    for a in 0..3 {
        if d[a] == 0.0 {
            if o[a] < bmin[a] || o[a] > bmax[a] {
                return None;
            }
            continue;
        }
        let (ta, tb) = ((bmin[a] - o[a]) / d[a], (bmax[a] - o[a]) / d[a]);
        lo = lo.max(ta.min(tb));
        hi = hi.min(ta.max(tb));
    }
    (lo <= hi).then_some((lo, hi))
}

/// A 3D DDA over the 8³ cell grid (Amanatides–Woo).
struct Dda {
    cell: [i32; 3],
    step: [i32; 3],
    next: [f64; 3],
    delta: [f64; 3],
}

impl Dda {
    /// Start at the cell holding the ray point at `t0`, clamped into `lo..=hi`.
    fn new(o: [f64; 3], d: [f64; 3], t0: f64, lo: [i32; 3], hi: [i32; 3]) -> Self {
        let size = f64::from(PHYSICS_CELL);
        let mut cell = [0; 3];
        let mut step = [0; 3];
        let mut next = [f64::INFINITY; 3];
        let mut delta = [f64::INFINITY; 3];
        for a in 0..3 {
            let p = o[a] + d[a] * t0;
            let c = (p / size).floor();
            let c = c.clamp(f64::from(lo[a]), f64::from(hi[a])) as i32;
            cell[a] = c;
            if d[a] > 0.0 {
                step[a] = 1;
                next[a] = (f64::from(c + 1) * size - o[a]) / d[a];
                delta[a] = size / d[a];
            } else if d[a] < 0.0 {
                step[a] = -1;
                next[a] = (f64::from(c) * size - o[a]) / d[a];
                delta[a] = -size / d[a];
            }
        }
        Self {
            cell,
            step,
            next,
            delta,
        }
    }

    /// Where the ray leaves the current cell.
    fn t_out(&self) -> f64 {
        self.next[0].min(self.next[1]).min(self.next[2])
    }

    /// Move to the next cell along the ray.
    fn step(&mut self) {
        let a = if self.next[0] <= self.next[1] && self.next[0] <= self.next[2] {
            0
        } else if self.next[1] <= self.next[2] {
            1
        } else {
            2
        };
        self.cell[a] += self.step[a];
        self.next[a] += self.delta[a];
    }
}

#[cfg(test)]
mod world_tests;
