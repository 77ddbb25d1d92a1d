//! Roblox's `Region3` (a box in studs, with `ExpandToGrid`) and `Region3int16` (a box of voxel
//! indices, inclusive on both ends), and the conversion of both to Strata's half-open voxel boxes.
//!
//! ```text
//!   studs:   0    4    8    12        voxel i covers studs [4i, 4i + 4)
//!   voxels:  | 0  | 1  | 2  |         Region3(0,0,0 → 8,4,4)  = voxels x 0..2, y 0..1, z 0..1
//!                                     Region3int16(0,0,0 → 1,0,0) = the same box, ends inclusive
//! ```

use mlua::{Lua, MetaMethod, UserData, UserDataFields, UserDataMethods};
use strata_engine::voxel::{VoxelBox, VoxelPos};

use super::cframe::CFrame;
use super::userdata::from_lua_userdata;
use super::vector3::{Vector3, Vector3int16};

/// Studs per voxel on each axis.
pub const STUDS_PER_VOXEL: f64 = 4.0;

/// A Roblox `Region3`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Region3 {
    /// Lower corner in studs.
    pub min: Vector3,
    /// Upper corner in studs.
    pub max: Vector3,
}

from_lua_userdata!(Region3, "Region3");

impl Region3 {
    /// `Region3:ExpandToGrid(resolution)`: the smallest region aligned to `resolution` that holds
    /// this one.
    pub fn expand_to_grid(&self, resolution: f64) -> Self {
        let r = resolution;
        Self {
            min: Vector3::from_array(self.min.to_array().map(|v| (v / r).floor() * r)),
            max: Vector3::from_array(self.max.to_array().map(|v| (v / r).ceil() * r)),
        }
    }

    /// The voxels this region covers, for a call named `call` at `resolution`: Roblox requires
    /// resolution 4 and a region aligned to the voxel grid.
    ///
    /// # Errors
    /// A resolution other than 4, an unaligned region, a negative size, or more voxels than
    /// `max_voxels`.
    pub fn voxel_box(
        &self,
        call: &str,
        resolution: f64,
        max_voxels: u64,
    ) -> mlua::Result<VoxelBox> {
        if resolution != STUDS_PER_VOXEL {
            return Err(mlua::Error::runtime(format!(
                "{call}: resolution must be 4, got {resolution}"
            )));
        }
        let cell = |v: f64| -> mlua::Result<i32> {
            let c = v / STUDS_PER_VOXEL;
            if !c.is_finite()
                || (c - c.round()).abs() > 1e-6
                || c.round().abs() > f64::from(1 << 28)
            {
                return Err(mlua::Error::runtime(format!(
                    "{call}: Region has to be aligned to the grid (use Region3:ExpandToGrid(4)); \
                     {v} is not a multiple of 4 studs"
                )));
            }
            Ok(c.round() as i32)
        };
        let [x0, y0, z0] = [cell(self.min.x)?, cell(self.min.y)?, cell(self.min.z)?];
        let [x1, y1, z1] = [cell(self.max.x)?, cell(self.max.y)?, cell(self.max.z)?];
        if x1 < x0 || y1 < y0 || z1 < z0 {
            return Err(mlua::Error::runtime(format!(
                "{call}: the region's size is negative (its min must not exceed its max)"
            )));
        }
        let b = VoxelBox::new(VoxelPos::new(x0, y0, z0), VoxelPos::new(x1, y1, z1));
        check_size(call, &b, max_voxels)?;
        Ok(b)
    }
}

/// Refuse a box of more than `max_voxels` voxels, as Roblox does ("region is too large").
///
/// # Errors
/// A runtime error naming the call, the size and the limit.
pub fn check_size(call: &str, b: &VoxelBox, max_voxels: u64) -> mlua::Result<()> {
    let [sx, sy, sz] = b.size().map(|v| v as u64);
    let n = sx.saturating_mul(sy).saturating_mul(sz);
    if n > max_voxels {
        return Err(mlua::Error::runtime(format!(
            "{call}: Region is too large: {sx}×{sy}×{sz} = {n} voxels, the limit is {max_voxels}"
        )));
    }
    Ok(())
}

impl UserData for Region3 {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        fields.add_field_method_get("Size", |_, r| Ok(r.max.minus(r.min)));
        fields.add_field_method_get("CFrame", |_, r| {
            Ok(CFrame::at(r.min.plus(r.max).scale(0.5)))
        });
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("ExpandToGrid", |_, r, res: f64| {
            if !(res.is_finite() && res > 0.0) {
                return Err(mlua::Error::runtime(format!(
                    "ExpandToGrid: resolution must be a positive number, got {res}"
                )));
            }
            Ok(r.expand_to_grid(res))
        });
        methods.add_meta_method(MetaMethod::ToString, |_, r, ()| {
            let c = r.min.plus(r.max).scale(0.5);
            let s = r.max.minus(r.min);
            Ok(format!(
                "{}, {}, {}; {}, {}, {}",
                c.x, c.y, c.z, s.x, s.y, s.z
            ))
        });
    }
}

/// A Roblox `Region3int16`: voxel indices, both ends inclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Region3int16 {
    /// First voxel.
    pub min: Vector3int16,
    /// Last voxel (inclusive).
    pub max: Vector3int16,
}

from_lua_userdata!(Region3int16, "Region3int16");

impl Region3int16 {
    /// The half-open voxel box.
    pub fn voxel_box(&self) -> VoxelBox {
        VoxelBox::new(
            VoxelPos::new(self.min.x, self.min.y, self.min.z),
            VoxelPos::new(self.max.x + 1, self.max.y + 1, self.max.z + 1),
        )
    }
}

impl UserData for Region3int16 {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        fields.add_field_method_get("Min", |_, r| Ok(r.min));
        fields.add_field_method_get("Max", |_, r| Ok(r.max));
    }
}

/// Install `Region3` and `Region3int16` into `globals`.
///
/// # Errors
/// When Luau cannot allocate the tables.
pub fn install(lua: &Lua, globals: &mlua::Table) -> mlua::Result<()> {
    let r = lua.create_table()?;
    r.set(
        "new",
        lua.create_function(|_, (min, max): (Vector3, Vector3)| Ok(Region3 { min, max }))?,
    )?;
    globals.set("Region3", r)?;
    let r16 = lua.create_table()?;
    r16.set(
        "new",
        lua.create_function(|_, (min, max): (Vector3int16, Vector3int16)| {
            Ok(Region3int16 { min, max })
        })?,
    )?;
    globals.set("Region3int16", r16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expand_and_align() {
        let r = Region3 {
            min: Vector3::new(-1.0, 0.5, 4.0),
            max: Vector3::new(5.0, 8.0, 9.0),
        };
        let g = r.expand_to_grid(4.0);
        assert_eq!(g.min, Vector3::new(-4.0, 0.0, 4.0));
        assert_eq!(g.max, Vector3::new(8.0, 8.0, 12.0));
        let b = g.voxel_box("T", 4.0, 1000).expect("aligned");
        assert_eq!(
            b,
            VoxelBox::new(VoxelPos::new(-1, 0, 1), VoxelPos::new(2, 2, 3))
        );
        assert!(r.voxel_box("T", 4.0, 1000).is_err(), "unaligned");
        assert!(g.voxel_box("T", 2.0, 1000).is_err(), "resolution");
        assert!(g.voxel_box("T", 4.0, 5).is_err(), "too large");
    }
}
