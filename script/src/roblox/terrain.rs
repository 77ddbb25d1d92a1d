//! `workspace.Terrain`: the methods of Roblox's Terrain class, each checked as Roblox documents
//! (resolution 4, regions aligned to the grid, size limits) and run on the run's
//! [`crate::ScriptWorld`].

use mlua::{Lua, Table, UserData, UserDataFields, UserDataMethods, Value};

use super::cframe::CFrame;
use super::material_enum::material_arg;
use super::region3::{Region3, Region3int16, STUDS_PER_VOXEL};
use super::terrain_fill::{
    box_distance, cylinder_distance, fill_shape, oriented_bounds, wedge_distance,
};
use super::terrain_voxels::{
    copy_region, fill_region, paste_region, read_voxels, replace_material, write_voxels,
    TerrainRegion,
};
use super::vector3::{Vector3, Vector3int16};
use crate::limits::{MAX_READ_WRITE_VOXELS, MAX_REGION_VOXELS};
use crate::state::{lua_err, with_state};

/// The `workspace.Terrain` object.
#[derive(Debug, Clone, Copy)]
pub struct Terrain;

/// The project material id a material argument names.
fn material(lua: &Lua, v: &Value, call: &str) -> mlua::Result<u8> {
    with_state(lua, |s| {
        material_arg(s.world.materials(), v, &format!("{call}: material"))
    })
}

/// A positive, finite size argument.
fn positive(v: f64, call: &str, what: &str) -> mlua::Result<f64> {
    if v.is_finite() && v >= 0.0 {
        Ok(v)
    } else {
        Err(mlua::Error::runtime(format!(
            "{call}: {what} must be a finite number, not negative, got {v}"
        )))
    }
}

/// Run a shape fill on the run's world.
fn shape(
    lua: &Lua,
    call: &str,
    (lo, hi): (Vector3, Vector3),
    id: u8,
    sd: &dyn Fn(Vector3) -> f64,
) -> mlua::Result<()> {
    with_state(lua, |s| {
        fill_shape(&mut s.world, call, lo, hi, id, sd).map_err(lua_err)
    })
}

fn cell_to_world(offset: f64) -> impl Fn(&Lua, &Terrain, (f64, f64, f64)) -> mlua::Result<Vector3> {
    move |_, _, (x, y, z)| {
        let w = |v: f64| (v.floor() + offset) * STUDS_PER_VOXEL;
        Ok(Vector3::new(w(x), w(y), w(z)))
    }
}

impl UserData for Terrain {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        fields.add_field_method_get("Name", |_, _| Ok("Terrain"));
        fields.add_field_method_get("ClassName", |_, _| Ok("Terrain"));
        fields.add_field_method_get("MaxExtents", |lua, _| {
            let b = with_state(lua, |s| Ok(s.world.bounds()))?;
            let clamp = |v: i32| v.clamp(-32768, 32767);
            Ok(Region3int16 {
                min: Vector3int16 {
                    x: clamp(b.min.x),
                    y: clamp(b.min.y),
                    z: clamp(b.min.z),
                },
                max: Vector3int16 {
                    x: clamp(b.max.x - 1),
                    y: clamp(b.max.y - 1),
                    z: clamp(b.max.z - 1),
                },
            })
        });
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method(
            "FillBall",
            |lua, _, (center, radius, m): (Vector3, f64, Value)| {
                let r = positive(radius, "FillBall", "radius")?;
                let id = material(lua, &m, "FillBall")?;
                let ext = Vector3::new(r, r, r);
                shape(
                    lua,
                    "FillBall",
                    (center.minus(ext), center.plus(ext)),
                    id,
                    &|p| r - p.minus(center).magnitude(),
                )
            },
        );
        methods.add_method(
            "FillBlock",
            |lua, _, (cf, size, m): (CFrame, Vector3, Value)| {
                for v in size.to_array() {
                    positive(v, "FillBlock", "size")?;
                }
                let id = material(lua, &m, "FillBlock")?;
                let inv = cf.inverse();
                let half = size.scale(0.5);
                shape(lua, "FillBlock", oriented_bounds(&cf, size), id, &|p| {
                    box_distance(inv.point_to_world(p), half)
                })
            },
        );
        methods.add_method(
            "FillCylinder",
            |lua, _, (cf, height, radius, m): (CFrame, f64, f64, Value)| {
                let h = positive(height, "FillCylinder", "height")?;
                let r = positive(radius, "FillCylinder", "radius")?;
                let id = material(lua, &m, "FillCylinder")?;
                let inv = cf.inverse();
                let size = Vector3::new(2.0 * r, h, 2.0 * r);
                shape(lua, "FillCylinder", oriented_bounds(&cf, size), id, &|p| {
                    cylinder_distance(inv.point_to_world(p), r, h / 2.0)
                })
            },
        );
        methods.add_method(
            "FillWedge",
            |lua, _, (cf, size, m): (CFrame, Vector3, Value)| {
                for v in size.to_array() {
                    positive(v, "FillWedge", "size")?;
                }
                let id = material(lua, &m, "FillWedge")?;
                let inv = cf.inverse();
                shape(lua, "FillWedge", oriented_bounds(&cf, size), id, &|p| {
                    wedge_distance(inv.point_to_world(p), size)
                })
            },
        );
        methods.add_method(
            "FillRegion",
            |lua, _, (region, res, m): (Region3, f64, Value)| {
                let b = region.voxel_box("FillRegion", res, MAX_REGION_VOXELS)?;
                let id = material(lua, &m, "FillRegion")?;
                fill_region(lua, b, id)
            },
        );
        methods.add_method("ReadVoxels", |lua, _, (region, res): (Region3, f64)| {
            let b = region.voxel_box("ReadVoxels", res, MAX_READ_WRITE_VOXELS)?;
            read_voxels(lua, b)
        });
        methods.add_method(
            "WriteVoxels",
            |lua, _, (region, res, mats, occs): (Region3, f64, Table, Table)| {
                let b = region.voxel_box("WriteVoxels", res, MAX_READ_WRITE_VOXELS)?;
                write_voxels(lua, b, &mats, &occs)
            },
        );
        methods.add_method(
            "ReplaceMaterial",
            |lua, _, (region, res, from, to): (Region3, f64, Value, Value)| {
                let b = region.voxel_box("ReplaceMaterial", res, MAX_REGION_VOXELS)?;
                let from = material(lua, &from, "ReplaceMaterial")?;
                let to = material(lua, &to, "ReplaceMaterial")?;
                replace_material(lua, b, from, to)
            },
        );
        methods.add_method("Clear", |lua, _, ()| {
            with_state(lua, |s| s.world.clear().map_err(lua_err))
        });
        methods.add_method("CopyRegion", |lua, _, region: Region3int16| {
            let b = region.voxel_box();
            if b.is_empty() {
                return Err(mlua::Error::runtime(
                    "CopyRegion: the region is empty (its Max must not be below its Min)",
                ));
            }
            super::region3::check_size("CopyRegion", &b, MAX_REGION_VOXELS)?;
            copy_region(lua, b)
        });
        methods.add_method(
            "PasteRegion",
            |lua, _, (region, corner, empty): (mlua::UserDataRef<TerrainRegion>, Vector3int16, bool)| {
                paste_region(lua, &region, corner, empty)
            },
        );
        methods.add_method("WorldToCell", |_, _, p: Vector3| {
            Ok(Vector3::from_array(
                p.to_array().map(|v| (v / STUDS_PER_VOXEL).floor()),
            ))
        });
        methods.add_method("WorldToCellPreferSolid", |_, _, p: Vector3| {
            Ok(Vector3::from_array(
                p.to_array().map(|v| (v / STUDS_PER_VOXEL).floor()),
            ))
        });
        methods.add_method("WorldToCellPreferEmpty", |_, _, p: Vector3| {
            Ok(Vector3::from_array(
                p.to_array().map(|v| (v / STUDS_PER_VOXEL).floor()),
            ))
        });
        methods.add_method("CellCenterToWorld", cell_to_world(0.5));
        methods.add_method("CellCornerToWorld", cell_to_world(0.0));
    }
}
