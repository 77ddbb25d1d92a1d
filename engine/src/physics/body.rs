//! Sphere bodies against terrain triangles: gravity, a fixed time step, substeps against tunnelling.
//!
//! ```text
//!   step(dt):  n = substeps so no substep moves more than radius / 2
//!     each substep:  v += g·h;  x += v·h
//!                    triangles near the sphere (broadphase -> lazily built chunk shapes -> kD AABB query)
//!                    up to 4 passes: deepest contact first, push out along (x − closest point),
//!                    drop the velocity into the surface, damp the tangential velocity by friction
//! ```
//!
//! This is the first body type of issue 5 (spheres only: no boxes, capsules, body–body contacts, water
//! or sleeping yet). Units are voxels and seconds.

use super::world::PhysicsWorld;
use crate::storage::Grid;
use crate::Result;

/// Default fixed time step (seconds).
pub const DEFAULT_DT: f32 = 1.0 / 120.0;

/// A sphere body.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sphere {
    /// Centre, world voxel units.
    pub center: [f32; 3],
    /// Velocity, voxels per second.
    pub velocity: [f32; 3],
    /// Radius in voxels (positive).
    pub radius: f32,
}

/// Step settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StepSettings {
    /// Gravity, voxels per second².
    pub gravity: [f32; 3],
    /// Fixed time step, seconds.
    pub dt: f32,
    /// Fraction of tangential velocity removed per contact substep (0 = ice, 1 = glue).
    pub friction: f32,
}

impl Default for StepSettings {
    fn default() -> Self {
        Self {
            gravity: [0.0, -9.81, 0.0],
            dt: DEFAULT_DT,
            friction: 0.1,
        }
    }
}

/// What one step found.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct StepReport {
    /// The sphere touched terrain in the last substep.
    pub in_contact: bool,
    /// Deepest penetration left after resolution in any substep, voxels.
    pub max_penetration: f32,
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn add_scaled(a: [f32; 3], b: [f32; 3], s: f32) -> [f32; 3] {
    [a[0] + b[0] * s, a[1] + b[1] * s, a[2] + b[2] * s]
}

/// The point of triangle `[a, b, c]` closest to `p` (Ericson, Real-Time Collision Detection 5.1.5).
pub fn closest_point_on_triangle(p: [f32; 3], [a, b, c]: [[f32; 3]; 3]) -> [f32; 3] {
    let (ab, ac, ap) = (sub(b, a), sub(c, a), sub(p, a));
    let (d1, d2) = (dot(ab, ap), dot(ac, ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return a;
    }
    let bp = sub(p, b);
    let (d3, d4) = (dot(ab, bp), dot(ac, bp));
    if d3 >= 0.0 && d4 <= d3 {
        return b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return add_scaled(a, ab, d1 / (d1 - d3));
    }
    let cp = sub(p, c);
    let (d5, d6) = (dot(ab, cp), dot(ac, cp));
    if d6 >= 0.0 && d5 <= d6 {
        return c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return add_scaled(a, ac, d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        let w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return add_scaled(b, sub(c, b), w);
    }
    let den = 1.0 / (va + vb + vc);
    let (v, w) = (vb * den, vc * den);
    add_scaled(add_scaled(a, ab, v), ac, w)
}

impl PhysicsWorld {
    /// Advance `body` by one fixed step of `settings.dt` against the terrain of `grid`.
    ///
    /// # Errors
    /// Errors of building chunk shapes (see [`PhysicsWorld::solid_triangles_in`]).
    pub fn step_sphere(
        &mut self,
        grid: &Grid,
        body: &mut Sphere,
        settings: &StepSettings,
    ) -> Result<StepReport> {
        let r = body.radius.max(1e-3);
        let speed = dot(body.velocity, body.velocity).sqrt()
            + dot(settings.gravity, settings.gravity).sqrt() * settings.dt;
        let substeps = ((speed * settings.dt / (0.5 * r)).ceil() as usize).clamp(1, 4096);
        let h = settings.dt / substeps as f32;
        let mut report = StepReport::default();
        let mut tris = Vec::new();
        for _ in 0..substeps {
            body.velocity = add_scaled(body.velocity, settings.gravity, h);
            body.center = add_scaled(body.center, body.velocity, h);
            tris.clear();
            let min = body.center.map(|c| c - r);
            let max = body.center.map(|c| c + r);
            self.solid_triangles_in(grid, min, max, &mut tris)?;
            report.in_contact = false;
            for _ in 0..4 {
                // Deepest contact: (depth, normal).
                let mut deepest: Option<(f32, [f32; 3])> = None;
                for &t in &tris {
                    let q = closest_point_on_triangle(body.center, t);
                    let d = sub(body.center, q);
                    let dist = dot(d, d).sqrt();
                    if dist < r && dist > 1e-6 && deepest.is_none_or(|(p, _)| r - dist > p) {
                        deepest = Some((r - dist, d.map(|c| c / dist)));
                    }
                }
                let Some((depth, n)) = deepest else {
                    break;
                };
                report.in_contact = true;
                body.center = add_scaled(body.center, n, depth);
                let vn = dot(body.velocity, n);
                if vn < 0.0 {
                    body.velocity = add_scaled(body.velocity, n, -vn);
                    let keep = 1.0 - settings.friction.clamp(0.0, 1.0);
                    let vt = add_scaled(body.velocity, n, -dot(body.velocity, n));
                    body.velocity = add_scaled(body.velocity, vt, keep - 1.0);
                }
            }
            let left = tris
                .iter()
                .map(|&t| {
                    let d = sub(body.center, closest_point_on_triangle(body.center, t));
                    r - dot(d, d).sqrt()
                })
                .fold(0.0f32, f32::max);
            report.max_penetration = report.max_penetration.max(left);
        }
        Ok(report)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::{generate, GeneratorSettings, Preset};
    use crate::physics::world::DEFAULT_CACHE_BYTES;
    use crate::progress::Progress;
    use crate::voxel::{MaterialTable, Voxel, VoxelBox, VoxelPos};

    #[test]
    fn closest_point_regions() {
        let t = [[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.0, 2.0, 0.0]];
        assert_eq!(
            closest_point_on_triangle([0.5, 0.5, 3.0], t),
            [0.5, 0.5, 0.0]
        );
        assert_eq!(
            closest_point_on_triangle([-1.0, -1.0, 0.0], t),
            [0.0, 0.0, 0.0]
        );
        assert_eq!(
            closest_point_on_triangle([3.0, -1.0, 1.0], t),
            [2.0, 0.0, 0.0]
        );
        assert_eq!(
            closest_point_on_triangle([1.0, -5.0, 0.0], t),
            [1.0, 0.0, 0.0]
        );
        assert_eq!(
            closest_point_on_triangle([2.0, 2.0, 0.0], t),
            [1.0, 1.0, 0.0]
        );
    }

    #[test]
    fn sphere_dropped_fast_rests_on_a_slab() {
        let table = MaterialTable::builtin();
        let mut grid = Grid::new();
        grid.fill_box(
            VoxelBox::new(VoxelPos::new(-16, 0, -16), VoxelPos::new(16, 4, 16)),
            Voxel::filled(table.require("Rock").expect("rock")),
        );
        let mut world = PhysicsWorld::new(&grid, &table, DEFAULT_CACHE_BYTES);
        // From 100 voxels up at terminal-like speed: no tunnelling through a 4-voxel slab.
        let mut body = Sphere {
            center: [0.3, 104.0, -0.7],
            velocity: [0.0, -200.0, 0.0],
            radius: 0.5,
        };
        let settings = StepSettings::default();
        let mut worst = 0.0f32;
        for _ in 0..240 {
            let rep = world
                .step_sphere(&grid, &mut body, &settings)
                .expect("step");
            worst = worst.max(rep.max_penetration);
        }
        assert!((body.center[1] - 4.5).abs() < 0.05, "{body:?}");
        assert!(worst < 0.05 * 2.0 * body.radius, "penetration {worst}");
    }

    #[test]
    fn spheres_stay_above_generated_terrain() {
        let table = MaterialTable::builtin();
        let settings = GeneratorSettings {
            preset: Preset::Hills,
            size: [48, 32, 48],
            seed: 2,
        };
        let grid = generate(&settings, &table, &Progress::new()).expect("generate");
        let mut world = PhysicsWorld::new(&grid, &table, DEFAULT_CACHE_BYTES);
        for i in 0..6 {
            let (x, z) = (8.0 + 6.1 * i as f32, 40.0 - 5.3 * i as f32);
            let mut body = Sphere {
                center: [x, 40.0, z],
                velocity: [0.0; 3],
                radius: 1.0,
            };
            let mut worst = 0.0f32;
            let mut last = StepReport::default();
            for _ in 0..480 {
                last = world
                    .step_sphere(&grid, &mut body, &StepSettings::default())
                    .expect("step");
                worst = worst.max(last.max_penetration);
            }
            assert!(last.in_contact, "body {i} never landed: {body:?}");
            assert!(worst < 0.05 * 2.0, "body {i}: penetration {worst}");
            // The ground straight below the final centre is under the sphere's bottom.
            let down = world
                .raycast(&grid, body.center, [0.0, -1.0, 0.0], f32::INFINITY)
                .expect("ray");
            if let Some(hit) = down {
                assert!(
                    hit.t >= body.radius * 0.9,
                    "body {i} sank: {body:?} {hit:?}"
                );
            }
            assert!(body.center[1] > 0.0, "body {i} fell through: {body:?}");
        }
    }
}
