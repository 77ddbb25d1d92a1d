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
mod userdata;
pub mod vector3;

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
    terrain_voxels::install(lua)?;
    globals::install(lua, globals)
}
