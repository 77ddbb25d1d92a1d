//! Terrain physics: which cells a body can touch, and the triangles it can touch there.
//!
//! ```text
//!   Grid ──(10³ box per 8³ cell, dilate)──> broadphase: 2 bit masks per cell, whole world, always
//!                                               │ query(AABB) -> cells touched (solid / water)
//!                                               v
//!   cell_mesh (16-bit quads) ────────build──> kdtree: loose kD tree, built lazily per touched cell
//!                                               │ query_aabb, raycast, raycast_any
//!                                               v
//!                                     cache: LRU of built cells under a byte budget, dropped on edit
//!   world: PhysicsWorld = broadphase + cache of narrowphase shapes; raycast walks cells with a DDA
//! ```
//!
//! - [`broadphase`]: the bit broadphase over 8³ physics cells.
//! - [`kdtree`]: the loose kD tree and its queries.
//! - [`cell_mesh`]: the compact mesh of a physics cell (16-bit positions and quad indices).
//! - [`cache`]: the LRU cache that holds built narrowphase data per cell.
//! - [`narrowphase`]: one cell's LOD 0 mesh and tree ([`CellShape`]).
//! - [`body`]: rigid bodies (spheres, boxes, capsules) on the terrain: contacts, water, sleeping, drops.
//! - [`world`]: [`PhysicsWorld`], the lazily built whole-world view, and world raycasts.
//!
//! Coordinates are world voxel units: voxel `(x, y, z)` occupies `[x, x + 1)` on each axis, the same
//! space the mesher's positions use.

pub mod body;
pub mod broadphase;
pub mod cache;
pub mod cell_mesh;
pub mod kdtree;
pub mod narrowphase;
pub mod world;

pub use body::{Body, BodyMaterial, Shape, SimSettings, Simulation};
pub use broadphase::REFRESH_REACH;
pub use broadphase::{Broadphase, CellBits, Touch};
pub use cache::CellCache;
pub use kdtree::{KdTree, Ray, RayHit};
pub use narrowphase::CellShape;
pub use world::{
    PhysicsRefresh, PhysicsRefresher, PhysicsStats, PhysicsWorld, RayFilter, WorldHit,
    DEFAULT_CACHE_BYTES,
};
