//! The shape fills of `workspace.Terrain`: `FillBall`, `FillBlock`, `FillCylinder`, `FillWedge`.
//!
//! Each shape is a signed distance `sd` in studs (positive inside) sampled at voxel centres
//! (`4i + 2`). A voxel's occupancy is `o = clamp(0.5 + sd / 4, 0, 1)`: full a half voxel inside
//! the surface, empty a half voxel outside, so a block aligned to the 4-stud grid fills its voxels
//! exactly and nothing around them.
//!
//! Merging with what is there (Roblox does not document it; docs/scripting.md says this):
//! - a material: where `o` is at least the old occupancy (or the old voxel is Air), the voxel
//!   becomes `(material, o)`; elsewhere it stays as it was (the fill never thins matter);
//! - Air: the occupancy becomes `min(old, 1 − o)` and the old material stays (Air at 0).

use strata_engine::voxel::{Voxel, VoxelBox, VoxelPos, AIR};

use super::cframe::CFrame;
use super::region3::{check_size, STUDS_PER_VOXEL};
use super::vector3::Vector3;
use crate::limits::MAX_REGION_VOXELS;
use crate::world::{occupancy_voxel, ScriptWorld};
use crate::{Error, Result};

/// A signed distance (studs, positive inside) of a shape.
pub type Distance<'a> = &'a dyn Fn(Vector3) -> f64;

/// The voxels whose centres may lie within half a voxel of the stud box `lo..hi`.
fn voxel_cover(lo: Vector3, hi: Vector3) -> Result<VoxelBox> {
    let cell = |v: f64, up: bool| -> Result<i32> {
        let c = if up {
            (v / STUDS_PER_VOXEL).ceil() + 1.0
        } else {
            (v / STUDS_PER_VOXEL).floor() - 1.0
        };
        if !c.is_finite() || c.abs() > f64::from(1 << 28) {
            return Err(Error::script(format!(
                "the shape reaches {v} studs, outside the voxel range"
            )));
        }
        Ok(c as i32)
    };
    Ok(VoxelBox::new(
        VoxelPos::new(cell(lo.x, false)?, cell(lo.y, false)?, cell(lo.z, false)?),
        VoxelPos::new(cell(hi.x, true)?, cell(hi.y, true)?, cell(hi.z, true)?),
    ))
}

/// The studs position of voxel `p`'s centre.
pub fn voxel_center(p: VoxelPos) -> Vector3 {
    let c = |i: i32| (f64::from(i) + 0.5) * STUDS_PER_VOXEL;
    Vector3::new(c(p.x), c(p.y), c(p.z))
}

/// The new voxel where a fill of `material` with occupancy `o` meets `old` (see the module docs).
pub fn merge(old: Voxel, material: u8, o: f64) -> Voxel {
    if o <= 0.0 {
        return old;
    }
    if material == AIR {
        if old.is_air() {
            return old;
        }
        let left = f64::from(old.occupancy_f32()).min(1.0 - o);
        return occupancy_voxel(old.material, left);
    }
    if old.is_air() || o >= f64::from(old.occupancy_f32()) {
        occupancy_voxel(material, o)
    } else {
        old
    }
}

/// Fill the shape `sd` bounded by the stud box `lo..hi` with `material`, named `call` in errors.
///
/// # Errors
/// A shape reaching outside the voxel range, a bounding box of more than
/// [`MAX_REGION_VOXELS`] voxels, or the cap on voxels written.
pub fn fill_shape(
    world: &mut ScriptWorld,
    call: &str,
    lo: Vector3,
    hi: Vector3,
    material: u8,
    sd: Distance<'_>,
) -> Result<()> {
    let b = voxel_cover(lo, hi)?;
    check_size(call, &b, MAX_REGION_VOXELS).map_err(|e| Error::script(e.to_string()))?;
    world.modify_box(b, |p, old| {
        let o = (0.5 + sd(voxel_center(p)) / STUDS_PER_VOXEL).clamp(0.0, 1.0);
        merge(old, material, o)
    })
}

/// The stud bounding box of a box of `size` placed by `cf`.
pub fn oriented_bounds(cf: &CFrame, size: Vector3) -> (Vector3, Vector3) {
    let half = size.scale(0.5);
    let mut ext = [0.0; 3];
    for (r, e) in ext.iter_mut().enumerate() {
        *e = (0..3)
            .map(|c| cf.rot[r][c].abs() * half.to_array()[c])
            .sum();
    }
    let ext = Vector3::from_array(ext);
    (cf.pos.minus(ext), cf.pos.plus(ext))
}

/// Signed distance of a box with half extents `h` (local coordinates).
pub fn box_distance(q: Vector3, h: Vector3) -> f64 {
    let d = Vector3::new(q.x.abs() - h.x, q.y.abs() - h.y, q.z.abs() - h.z);
    let outside = Vector3::new(d.x.max(0.0), d.y.max(0.0), d.z.max(0.0)).magnitude();
    let inside = d.x.max(d.y).max(d.z).min(0.0);
    -(outside + inside)
}

/// Signed distance of an upright cylinder (axis local Y) of `radius` and half height `half_h`.
pub fn cylinder_distance(q: Vector3, radius: f64, half_h: f64) -> f64 {
    let dr = (q.x * q.x + q.z * q.z).sqrt() - radius;
    let dy = q.y.abs() - half_h;
    let outside = (dr.max(0.0).powi(2) + dy.max(0.0).powi(2)).sqrt();
    let inside = dr.max(dy).min(0.0);
    -(outside + inside)
}

/// Signed distance of a Roblox wedge of `size` (local coordinates): the box below the slope that
/// rises from the bottom front edge (−Z) to the top back edge (+Z).
pub fn wedge_distance(q: Vector3, size: Vector3) -> f64 {
    let boxed = box_distance(q, size.scale(0.5));
    let n = (size.y * size.y + size.z * size.z).sqrt();
    if n == 0.0 {
        return boxed;
    }
    let above = (q.y * size.z - q.z * size.y) / n;
    boxed.min(-above)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_rules() {
        let rock = Voxel::new(7, 255);
        assert_eq!(merge(Voxel::AIR, 3, 1.0), Voxel::new(3, 255));
        assert_eq!(merge(rock, 3, 0.5), rock, "a thinner fill keeps the rock");
        assert_eq!(merge(rock, 3, 1.0), Voxel::new(3, 255));
        assert_eq!(merge(rock, AIR, 1.0), Voxel::AIR);
        assert_eq!(merge(rock, AIR, 0.5), Voxel::new(7, 127));
        assert_eq!(merge(rock, 3, 0.0), rock);
    }

    #[test]
    fn distances() {
        let h = Vector3::new(2.0, 2.0, 2.0);
        assert_eq!(box_distance(Vector3::default(), h), 2.0);
        assert_eq!(box_distance(Vector3::new(3.0, 0.0, 0.0), h), -1.0);
        assert_eq!(
            cylinder_distance(Vector3::new(0.0, 0.0, 1.0), 3.0, 5.0),
            2.0
        );
        let s = Vector3::new(4.0, 4.0, 4.0);
        assert!(
            wedge_distance(Vector3::new(0.0, -1.5, 1.5), s) > 0.0,
            "low back inside"
        );
        assert!(
            wedge_distance(Vector3::new(0.0, 1.5, -1.5), s) < 0.0,
            "high front outside"
        );
    }
}
