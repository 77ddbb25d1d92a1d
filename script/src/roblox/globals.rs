//! The Roblox globals terrain scripts reach for besides the types: `game` (with `GetService`),
//! `workspace` (its `Terrain`), `ChangeHistoryService` (names the run's undo step), `task.wait`,
//! and `print` / `warn` to the script console.

use mlua::{Lua, Table, Value, Variadic};

use super::terrain::Terrain;
use crate::state::with_state;

/// Join printed values as Roblox's output window does: `tostring` of each, separated by spaces.
fn join(lua: &Lua, values: Variadic<Value>) -> mlua::Result<String> {
    let tostring: mlua::Function = lua.globals().get("tostring")?;
    let parts = values
        .into_iter()
        .map(|v| tostring.call::<String>(v))
        .collect::<mlua::Result<Vec<_>>>()?;
    Ok(parts.join(" "))
}

/// The `print` of scripts: a line on the script console.
///
/// # Errors
/// When a value's `__tostring` fails.
pub fn print(lua: &Lua, values: Variadic<Value>) -> mlua::Result<()> {
    let line = join(lua, values)?;
    with_state(lua, |s| {
        s.print(line);
        Ok(())
    })
}

fn change_history(lua: &Lua) -> mlua::Result<Table> {
    let chs = lua.create_table()?;
    let name_step = |lua: &Lua, name: Option<String>| -> mlua::Result<()> {
        if let Some(name) = name.filter(|n| !n.trim().is_empty()) {
            with_state(lua, |s| {
                s.undo_name = Some(name.trim().to_owned());
                Ok(())
            })?;
        }
        Ok(())
    };
    chs.set(
        "SetWaypoint",
        lua.create_function(move |lua, (_, name): (Value, Option<String>)| name_step(lua, name))?,
    )?;
    chs.set(
        "TryBeginRecording",
        lua.create_function(move |lua, (_, name): (Value, Option<String>)| {
            name_step(lua, name)?;
            Ok("strata")
        })?,
    )?;
    chs.set(
        "FinishRecording",
        lua.create_function(|_, _: Variadic<Value>| Ok(()))?,
    )?;
    chs.set("Name", "ChangeHistoryService")?;
    Ok(chs)
}

/// Install `game`, `workspace`, `task`, `print` and `warn` into `globals`.
///
/// # Errors
/// When Luau cannot allocate them.
pub fn install(lua: &Lua, globals: &Table) -> mlua::Result<()> {
    let workspace = lua.create_table()?;
    workspace.set("Terrain", Terrain)?;
    workspace.set("Name", "Workspace")?;
    let chs = change_history(lua)?;
    let game = lua.create_table()?;
    game.set("Workspace", workspace.clone())?;
    let (ws, ch) = (workspace.clone(), chs.clone());
    game.set(
        "GetService",
        lua.create_function(move |_, (_, name): (Value, String)| match name.as_str() {
            "Workspace" => Ok(ws.clone()),
            "ChangeHistoryService" => Ok(ch.clone()),
            other => Err(mlua::Error::runtime(format!(
                "Strata scripts have no {other}: only Workspace and ChangeHistoryService"
            ))),
        })?,
    )?;
    globals.set("game", game)?;
    globals.set("workspace", workspace.clone())?;
    globals.set("Workspace", workspace)?;
    globals.set("ChangeHistoryService", chs)?;
    let task = lua.create_table()?;
    task.set(
        "wait",
        lua.create_function(|_, t: Option<f64>| Ok(t.unwrap_or(0.0).max(0.0)))?,
    )?;
    globals.set("task", task)?;
    globals.set(
        "wait",
        lua.create_function(|_, t: Option<f64>| Ok(t.unwrap_or(0.0).max(0.0)))?,
    )?;
    globals.set("print", lua.create_function(print)?)?;
    globals.set(
        "warn",
        lua.create_function(|lua, values: Variadic<Value>| {
            let line = format!("warning: {}", join(lua, values)?);
            with_state(lua, |s| {
                s.print(line);
                Ok(())
            })
        })?,
    )
}
