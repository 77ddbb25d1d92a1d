//! Roblox's terrain API and the types and globals its scripts use, bound to a [`crate::ScriptWorld`].
//! A script written for Roblox Studio's `workspace.Terrain` runs here unchanged, within the
//! differences `docs/scripting.md` lists.

pub mod cframe;
pub mod globals;
pub mod material_enum;
pub mod noise;
pub mod region3;
pub mod terrain;
pub mod terrain_fill;
pub mod terrain_voxels;
pub mod vector3;

/// `impl FromLua` for a `Copy`/`Clone` userdata type, with an error naming the expected type.
macro_rules! from_lua_userdata {
    ($t:ty, $name:expr) => {
        impl mlua::FromLua for $t {
            fn from_lua(value: mlua::Value, _: &mlua::Lua) -> mlua::Result<Self> {
                match &value {
                    mlua::Value::UserData(ud) => {
                        ud.borrow::<Self>().map(|r| r.clone()).map_err(|_| {
                            mlua::Error::runtime(format!(
                                "expected {}, got another userdata",
                                $name
                            ))
                        })
                    }
                    other => Err(mlua::Error::runtime(format!(
                        "expected {}, got {}",
                        $name,
                        other.type_name()
                    ))),
                }
            }
        }
    };
}
pub(crate) use from_lua_userdata;

/// Install every Roblox type and global into `globals`.
///
/// # Errors
/// When Luau cannot allocate them.
pub fn install(
    lua: &mlua::Lua,
    globals: &mlua::Table,
    table: &strata_engine::voxel::MaterialTable,
) -> mlua::Result<()> {
    vector3::install(lua, globals)?;
    cframe::install(lua, globals)?;
    region3::install(lua, globals)?;
    material_enum::install(lua, globals, table)?;
    noise::install(lua, globals)?;
    globals::install(lua, globals)
}
