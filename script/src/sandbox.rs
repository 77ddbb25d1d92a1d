//! The Luau state a script runs in, and what it cannot do.
//!
//! - Libraries: base, coroutine, table, string, utf8, bit32, math, buffer, vector, and `os` with
//!   its time functions only (Luau has no `os.execute` or `io`); touching `io`, `os.execute`,
//!   `loadstring`, `getfenv`, `setfenv` or `debug` is an error that says it is not available.
//! - `require` is replaced (mlua installs a file-reading one): see [`crate::require`].
//! - Limits: the interrupt ends a run past its time or when cancelled; the allocator refuses past
//!   the memory limit; globals are read-only (Luau's sandbox), each script gets its own proxy.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use mlua::{Lua, LuaOptions, StdLib, Table, Value, VmState};

use crate::limits::Limits;
use crate::state::with_state;

/// Globals a script may not use, and why.
const REMOVED: [(&str, &str); 8] = [
    ("loadstring", "compiling code at run time"),
    ("load", "compiling code at run time"),
    ("dofile", "files"),
    ("loadfile", "files"),
    ("getfenv", "reading another function's environment"),
    ("setfenv", "changing a function's environment"),
    ("io", "files"),
    ("debug", "the debug library"),
];

/// A table whose every field is an error saying `what` is not available.
fn refusing(lua: &Lua, name: &'static str, what: &'static str) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    let meta = lua.create_table()?;
    meta.set(
        "__index",
        lua.create_function(move |_, (_, key): (Value, Value)| -> mlua::Result<Value> {
            let key = key.to_string().unwrap_or_default();
            Err(mlua::Error::runtime(format!(
                "{name}.{key} is not available in Strata scripts (no {what}; scripts are sandboxed)"
            )))
        })?,
    )?;
    meta.set("__metatable", "locked")?;
    t.set_metatable(Some(meta))?;
    Ok(t)
}

/// A function that is an error saying `name` (`what`) is not available.
fn refused(lua: &Lua, name: &'static str, what: &'static str) -> mlua::Result<mlua::Function> {
    lua.create_function(move |_, _: mlua::Variadic<Value>| -> mlua::Result<()> {
        Err(mlua::Error::runtime(format!(
            "{name} is not available in Strata scripts (no {what}; scripts are sandboxed)"
        )))
    })
}

/// A new Luau state with the safe libraries and the sandboxing above (before the bindings; call
/// [`seal`] once they are installed).
///
/// # Errors
/// When Luau cannot be set up.
pub fn new_state(limits: &Limits) -> mlua::Result<Lua> {
    let libs = StdLib::COROUTINE
        | StdLib::TABLE
        | StdLib::STRING
        | StdLib::UTF8
        | StdLib::BIT
        | StdLib::MATH
        | StdLib::BUFFER
        | StdLib::VECTOR
        | StdLib::OS;
    let lua = Lua::new_with(libs, LuaOptions::new())?;
    lua.set_memory_limit(limits.memory_bytes)?;
    let g = lua.globals();
    for (name, what) in REMOVED {
        if name == "io" || name == "debug" {
            g.raw_set(name, refusing(&lua, name, what)?)?;
        } else {
            g.raw_set(name, refused(&lua, name, what)?)?;
        }
    }
    let os: Table = g.get("os")?;
    let safe = lua.create_table()?;
    for key in ["clock", "time", "date", "difftime"] {
        safe.raw_set(key, os.raw_get::<Value>(key)?)?;
    }
    let meta = lua.create_table()?;
    meta.set(
        "__index",
        refusing(&lua, "os", "programs, files or environment")?,
    )?;
    safe.set_metatable(Some(meta))?;
    g.raw_set("os", safe)?;
    Ok(lua)
}

/// Make the globals read-only (each script gets a writable proxy) and start the limits: the
/// interrupt stops the run past `limits.timeout` or when `cancel` is set, and keeps the script's
/// position for errors that carry none.
///
/// # Errors
/// When Luau's sandbox cannot be enabled.
pub fn seal(lua: &Lua, limits: &Limits, cancel: Option<Arc<AtomicBool>>) -> mlua::Result<()> {
    lua.sandbox(true)?;
    let start = Instant::now();
    let timeout = limits.timeout;
    let ticks_cell = std::cell::Cell::new(0u32);
    lua.set_interrupt(move |lua| {
        let n = ticks_cell.get().wrapping_add(1);
        ticks_cell.set(n);
        if n.is_multiple_of(64) {
            if let Some(at) = location(lua) {
                let _ = with_state(lua, |s| {
                    s.last_location = Some(at);
                    Ok(())
                });
            }
        }
        if cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Err(mlua::Error::runtime(CANCELLED));
        }
        if start.elapsed() > timeout {
            return Err(mlua::Error::runtime(format!(
                "the script ran longer than its time limit of {} s (--timeout)",
                timeout.as_secs_f64()
            )));
        }
        Ok(VmState::Continue)
    });
    Ok(())
}

/// The message of the error the interrupt raises on Cancel.
pub const CANCELLED: &str = "strata: script cancelled";

/// `file:line` of the innermost Luau function running, if any.
pub fn location(lua: &Lua) -> Option<String> {
    for level in 0..8 {
        let found = lua.inspect_stack(level, |d| {
            let src = d.source().short_src.map(|s| s.into_owned())?;
            let line = d.current_line()?;
            (src != "[C]").then(|| format!("{src}:{line}"))
        });
        match found {
            Some(Some(at)) => return Some(at),
            Some(None) => continue,
            None => return None,
        }
    }
    None
}
