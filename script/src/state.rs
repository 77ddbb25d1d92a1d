//! What every binding of one run shares, kept in the Luau state's app data: the world being
//! edited, the console lines, the undo step's name, the args.

use std::collections::BTreeMap;

use mlua::Lua;

use crate::world::ScriptWorld;

/// A sink for console lines as they are printed (the Scripts panel shows them live).
pub type OutputSink = Box<dyn FnMut(&str) + Send>;

/// The shared state of one run.
pub struct RunState {
    /// The voxels being edited.
    pub world: ScriptWorld,
    /// Lines printed so far.
    pub output: Vec<String>,
    /// The undo step's name, when the script set one (`ChangeHistoryService`).
    pub undo_name: Option<String>,
    /// `--arg KEY=VALUE` pairs.
    pub args: BTreeMap<String, String>,
    /// Where printed lines also go.
    pub sink: Option<OutputSink>,
    /// The light bake the script asked for (`strata.bake{...}`), done by the caller after the run.
    pub bake: Option<strata_engine::light::LightSettings>,
    /// The script position last seen by the interrupt (`file:line`), for errors that carry none.
    pub last_location: Option<String>,
}

impl RunState {
    /// Print one line to the script console.
    pub fn print(&mut self, line: String) {
        if let Some(sink) = self.sink.as_mut() {
            sink(&line);
        }
        self.output.push(line);
    }
}

/// Run `f` on the run's state.
///
/// # Errors
/// Whatever `f` returns; a runtime error when called outside a run (a bug).
pub fn with_state<R>(
    lua: &Lua,
    f: impl FnOnce(&mut RunState) -> mlua::Result<R>,
) -> mlua::Result<R> {
    let mut state = lua
        .app_data_mut::<RunState>()
        .ok_or_else(|| mlua::Error::runtime("no script run in progress"))?;
    f(&mut state)
}

/// Turn this crate's error into a Luau runtime error (the script sees its message).
pub fn lua_err(e: crate::Error) -> mlua::Error {
    mlua::Error::runtime(e.to_string())
}
