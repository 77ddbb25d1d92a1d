//! The region calls of `workspace.Terrain`: `ReadVoxels` / `WriteVoxels` (1-based `[x][y][z]`
//! arrays with `.Size`), `FillRegion`, `ReplaceMaterial`, and `CopyRegion` / `PasteRegion` with
//! their `TerrainRegion`.

use mlua::{AnyUserData, Lua, Table, UserData, UserDataFields, Value};
use strata_engine::voxel::{Voxel, VoxelBox, VoxelPos, AIR};

use super::material_enum::MaterialItem;
use super::vector3::{Vector3, Vector3int16};
use crate::state::{lua_err, with_state};
use crate::world::occupancy_voxel;

/// One userdata per material of the project, indexed by id (so `==` and identity both work).
fn material_values(lua: &Lua) -> mlua::Result<Vec<AnyUserData>> {
    let names: Vec<String> = with_state(lua, |s| {
        Ok(s.world
            .materials()
            .materials
            .iter()
            .map(|m| m.name.clone())
            .collect())
    })?;
    names
        .into_iter()
        .enumerate()
        .map(|(id, name)| lua.create_userdata(MaterialItem { id: id as u8, name }))
        .collect()
}

/// The Luau side of `ReadVoxels`: builds the nested arrays from a buffer of (material, occupancy)
/// byte pairs, X fastest. Building them in Luau costs a third of building them through the API.
const BUILD_ARRAYS: &str = r#"
local items, buf, sx, sy, sz = ...
local lut = table.create(256)
for k = 1, 256 do lut[k] = k / 256 end
local stride = sx * sy * 2
local mats, occs = table.create(sx), table.create(sx)
for x = 1, sx do
    local mx, ox = table.create(sy), table.create(sy)
    for y = 1, sy do
        local my, oy = table.create(sz), table.create(sz)
        local i = ((y - 1) * sx + (x - 1)) * 2
        for z = 1, sz do
            local m = buffer.readu8(buf, i)
            my[z] = items[m + 1]
            oy[z] = if m == 0 then 0 else lut[buffer.readu8(buf, i + 1) + 1]
            i += stride
        end
        mx[y], ox[y] = my, oy
    end
    mats[x], occs[x] = mx, ox
end
return mats, occs
"#;

/// Registry key of the compiled [`BUILD_ARRAYS`].
const BUILD_KEY: &str = "strata.read_voxels";

/// Compile the Luau helpers of this module into `lua`'s registry (before the sandbox seals it).
///
/// # Errors
/// When the helper fails to compile (a bug) or Luau cannot allocate.
pub fn install(lua: &Lua) -> mlua::Result<()> {
    let f = lua
        .load(BUILD_ARRAYS)
        .set_name("=ReadVoxels")
        .into_function()?;
    lua.set_named_registry_value(BUILD_KEY, f)
}

/// `ReadVoxels(region, 4)` on box `b`: `(materials, occupancies)`.
///
/// # Errors
/// When Luau cannot allocate the arrays (the memory limit).
pub fn read_voxels(lua: &Lua, b: VoxelBox) -> mlua::Result<(Table, Table)> {
    let voxels = with_state(lua, |s| Ok(s.world.read_box(b)))?;
    let items = lua.create_sequence_from(material_values(lua)?)?;
    let bytes: Vec<u8> = voxels
        .iter()
        .flat_map(|v| [v.material, v.occupancy])
        .collect();
    let buf = lua.create_buffer(bytes)?;
    let [sx, sy, sz] = b.size();
    let build: mlua::Function = lua.named_registry_value(BUILD_KEY)?;
    let (mats, occs): (Table, Table) = build.call((items, buf, sx, sy, sz))?;
    let size = Vector3::new(sx as f64, sy as f64, sz as f64);
    mats.raw_set("Size", size)?;
    occs.raw_set("Size", size)?;
    Ok((mats, occs))
}

/// Entry `i` (1-based) of `t` as a table, checking `t` has exactly `n` entries.
fn rows(t: &Table, n: usize, what: &str, axis: &str) -> mlua::Result<Vec<Table>> {
    if t.raw_len() != n {
        return Err(mlua::Error::runtime(format!(
            "WriteVoxels: {what} has {} entries along {axis}, the region is {n} voxels",
            t.raw_len()
        )));
    }
    (1..=n)
        .map(|i| match t.raw_get::<Value>(i)? {
            Value::Table(r) => Ok(r),
            other => Err(mlua::Error::runtime(format!(
                "WriteVoxels: {what}[{i}] must be a table, got {}",
                other.type_name()
            ))),
        })
        .collect()
}

/// `WriteVoxels(region, 4, materials, occupancies)` on box `b`.
///
/// # Errors
/// Arrays whose dimensions do not match the region, entries that are not materials or numbers in
/// 0..1, or the cap on voxels written.
pub fn write_voxels(lua: &Lua, b: VoxelBox, mats: &Table, occs: &Table) -> mlua::Result<()> {
    let [sx, sy, sz] = b.size();
    let mut voxels = vec![Voxel::AIR; b.volume()];
    let count = with_state(lua, |s| Ok(s.world.materials().len()))?;
    let (mx, ox) = (
        rows(mats, sx, "materials", "X")?,
        rows(occs, sx, "occupancies", "X")?,
    );
    for x in 0..sx {
        let (my, oy) = (
            rows(&mx[x], sy, "materials", "Y")?,
            rows(&ox[x], sy, "occupancies", "Y")?,
        );
        for y in 0..sy {
            if my[y].raw_len() != sz || oy[y].raw_len() != sz {
                return Err(mlua::Error::runtime(format!(
                    "WriteVoxels: materials[{}][{}] and occupancies[{}][{}] must have {sz} \
                     entries along Z",
                    x + 1,
                    y + 1,
                    x + 1,
                    y + 1
                )));
            }
            for z in 0..sz {
                let id = match my[y].raw_get::<Value>(z + 1)? {
                    Value::UserData(ud) => ud.borrow::<MaterialItem>().map(|m| m.id).ok(),
                    _ => None,
                };
                let id = id.filter(|&id| usize::from(id) < count).ok_or_else(|| {
                    mlua::Error::runtime(format!(
                        "WriteVoxels: materials[{}][{}][{}] is not an Enum.Material",
                        x + 1,
                        y + 1,
                        z + 1
                    ))
                })?;
                let o = match oy[y].raw_get::<Value>(z + 1)? {
                    Value::Number(n) => n,
                    Value::Integer(n) => n as f64,
                    other => {
                        return Err(mlua::Error::runtime(format!(
                            "WriteVoxels: occupancies[{}][{}][{}] must be a number, got {}",
                            x + 1,
                            y + 1,
                            z + 1,
                            other.type_name()
                        )))
                    }
                };
                voxels[(z * sy + y) * sx + x] = occupancy_voxel(id, o);
            }
        }
    }
    with_state(lua, |s| s.world.write_box(b, &voxels).map_err(lua_err))
}

/// `FillRegion(region, 4, material)`: every voxel of `b` becomes `material` at full occupancy.
///
/// # Errors
/// The cap on voxels written.
pub fn fill_region(lua: &Lua, b: VoxelBox, material: u8) -> mlua::Result<()> {
    let v = occupancy_voxel(material, 1.0);
    with_state(lua, |s| s.world.modify_box(b, |_, _| v).map_err(lua_err))
}

/// `ReplaceMaterial(region, 4, from, to)`: voxels of `from` in `b` become `to`, keeping their
/// occupancy (Air becomes `to` at full occupancy; `to` Air empties them).
///
/// # Errors
/// The cap on voxels written.
pub fn replace_material(lua: &Lua, b: VoxelBox, from: u8, to: u8) -> mlua::Result<()> {
    with_state(lua, |s| {
        s.world
            .modify_box(b, |_, old| {
                if old.material != from {
                    old
                } else if from == AIR {
                    occupancy_voxel(to, 1.0)
                } else if to == AIR {
                    Voxel::AIR
                } else {
                    Voxel::new(to, old.occupancy)
                }
            })
            .map_err(lua_err)
    })
}

/// Roblox's `TerrainRegion`: a copied box of voxels.
#[derive(Debug, Clone)]
pub struct TerrainRegion {
    /// Size in voxels.
    pub size: [u32; 3],
    /// The voxels, X fastest, then Y, then Z.
    pub voxels: Vec<Voxel>,
}

impl UserData for TerrainRegion {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        fields.add_field_method_get("SizeInCells", |_, r| {
            Ok(Vector3::new(
                f64::from(r.size[0]),
                f64::from(r.size[1]),
                f64::from(r.size[2]),
            ))
        });
        fields.add_field_method_get("IsSmooth", |_, _| Ok(true));
    }
}

/// `CopyRegion(region)` of box `b`.
///
/// # Errors
/// None beyond Luau allocation.
pub fn copy_region(lua: &Lua, b: VoxelBox) -> mlua::Result<TerrainRegion> {
    let voxels = with_state(lua, |s| Ok(s.world.read_box(b)))?;
    let [x, y, z] = b.size();
    Ok(TerrainRegion {
        size: [x as u32, y as u32, z as u32],
        voxels,
    })
}

/// `PasteRegion(region, corner, pasteEmptyCells)`.
///
/// # Errors
/// The cap on voxels written.
pub fn paste_region(
    lua: &Lua,
    region: &TerrainRegion,
    corner: Vector3int16,
    paste_empty: bool,
) -> mlua::Result<()> {
    let b = VoxelBox::from_min_size(VoxelPos::new(corner.x, corner.y, corner.z), region.size);
    let [sx, sy, _] = b.size();
    with_state(lua, |s| {
        s.world
            .modify_box(b, |p, old| {
                let i = ((p.z - b.min.z) as usize * sy + (p.y - b.min.y) as usize) * sx
                    + (p.x - b.min.x) as usize;
                let v = region.voxels[i];
                if v.is_air() && !paste_empty {
                    old
                } else {
                    v
                }
            })
            .map_err(lua_err)
    })
}
