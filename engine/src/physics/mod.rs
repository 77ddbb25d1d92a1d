//! Terrain physics: which chunks a body can touch, and the triangles it can touch there.
//!
//! ```text
//!   Grid ──(10³ box per 8³ chunk, dilate)──> broadphase: 2 bit masks per chunk, whole world, always
//!                                               │ query(AABB) -> chunks touched (solid / water)
//!                                               v
//!   chunk_mesh (16-bit quads) ────────build──> kdtree: loose kD tree, built lazily per touched chunk
//!                                               │ query_aabb, raycast, raycast_any
//!                                               v
//!                                     cache: LRU of built chunks under a byte budget, dropped on edit
//!   world: PhysicsWorld = broadphase + cache of narrowphase shapes; raycast walks chunks with a DDA
//! ```
//!
//! - [`broadphase`]: the bit broadphase over 8³ physics chunks.
//! - [`kdtree`]: the loose kD tree and its queries.
//! - [`chunk_mesh`]: the compact mesh of a physics chunk (16-bit positions and quad indices).
//! - [`cache`]: the LRU cache that holds built narrowphase data per chunk.
//! - [`narrowphase`]: one chunk's LOD 0 mesh and tree ([`ChunkShape`]).
//! - [`body`]: rigid bodies (spheres, boxes, capsules) on the terrain: contacts, water, sleeping, drops.
//! - [`world`]: [`PhysicsWorld`], the lazily built whole-world view, and world raycasts.
//!
//! Coordinates are world voxel units: voxel `(x, y, z)` occupies `[x, x + 1)` on each axis, the same
//! space the mesher's positions use.

pub mod body;
pub mod broadphase;
pub mod cache;
pub mod chunk_mesh;
pub mod kdtree;
pub mod narrowphase;
pub mod world;

pub use body::{Body, BodyMaterial, Shape, SimSettings, Simulation};
pub use broadphase::{Broadphase, ChunkBits, Touch};
pub use cache::ChunkCache;
pub use kdtree::{KdTree, Ray, RayHit};
pub use narrowphase::ChunkShape;
pub use world::{PhysicsStats, PhysicsWorld, RayFilter, WorldHit, DEFAULT_CACHE_BYTES};
