//! One run of a script: set up the sandboxed state over a [`ScriptWorld`], run the chunk, and
//! report what it did (console lines, voxels written, time, the undo step's name) or where and
//! why it failed.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::limits::Limits;
use crate::state::{OutputSink, RunState};
use crate::world::ScriptWorld;
use crate::{sandbox, Error};

/// A script to run.
#[derive(Debug, Clone)]
pub struct Script {
    /// The name errors show (the file's name, `island.luau`).
    pub name: String,
    /// Its Luau source.
    pub source: String,
}

impl Script {
    /// Read the script at `path`; errors name it by its file name.
    ///
    /// # Errors
    /// [`Error::Io`] when it cannot be read.
    pub fn load(path: &std::path::Path) -> crate::Result<Self> {
        let source = std::fs::read_to_string(path).map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        Ok(Self { name, source })
    }

    /// The undo step's name when the script sets none: its file name without the extension.
    pub fn step_name(&self) -> String {
        let stem = self
            .name
            .rsplit_once('.')
            .map_or(self.name.as_str(), |(s, _)| s);
        format!("Script {stem}")
    }
}

/// How to run.
#[derive(Default)]
pub struct RunOptions {
    /// Time, memory and voxel limits.
    pub limits: Limits,
    /// `strata.args`.
    pub args: BTreeMap<String, String>,
    /// The `scripts/` folder `require` reads (`None`: none).
    pub scripts_dir: Option<PathBuf>,
    /// Set to stop the run (the Scripts panel's Cancel).
    pub cancel: Option<Arc<AtomicBool>>,
    /// Where printed lines go as they are printed.
    pub sink: Option<OutputSink>,
}

/// What a run did.
#[derive(Debug)]
pub struct RunOutcome {
    /// The world as the script left it (discard it when `error` is set).
    pub world: ScriptWorld,
    /// Console lines.
    pub output: Vec<String>,
    /// The undo step's name: the script's `ChangeHistoryService` name, else [`Script::step_name`].
    pub step_name: String,
    /// Voxels written (the sum of every write's box).
    pub voxels_written: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// The light bake the script asked for with `strata.bake{...}`: the caller bakes the edited
    /// voxels with these settings once the run is installed.
    pub bake: Option<strata_engine::light::LightSettings>,
    /// Why it failed, if it did.
    pub error: Option<Error>,
}

/// Run `script` on `world`.
pub fn run(script: &Script, mut world: ScriptWorld, options: RunOptions) -> RunOutcome {
    let start = Instant::now();
    world.set_max_voxels_written(options.limits.max_voxels_written);
    let state = RunState {
        world,
        output: Vec::new(),
        undo_name: None,
        args: options.args,
        sink: options.sink,
        bake: None,
        last_location: None,
    };
    let (state, error) = execute(
        script,
        state,
        &options.limits,
        options.scripts_dir,
        options.cancel,
    );
    RunOutcome {
        voxels_written: state.world.voxels_written(),
        step_name: state.undo_name.unwrap_or_else(|| script.step_name()),
        output: state.output,
        bake: state.bake,
        world: state.world,
        elapsed: start.elapsed(),
        error,
    }
}

fn execute(
    script: &Script,
    state: RunState,
    limits: &Limits,
    scripts_dir: Option<PathBuf>,
    cancel: Option<Arc<AtomicBool>>,
) -> (RunState, Option<Error>) {
    let lua = match setup(&state, limits, scripts_dir) {
        Ok(lua) => lua,
        Err(e) => return (state, Some(Error::Setup(e.to_string()))),
    };
    lua.set_app_data(state);
    let result = install_strata(&lua).and_then(|()| {
        sandbox::seal(&lua, limits, cancel)?;
        lua.load(script.source.as_str())
            .set_name(format!("@{}", script.name))
            .exec()
    });
    let mut state = match lua.remove_app_data::<RunState>() {
        Some(s) => s,
        None => unreachable_state(),
    };
    match result {
        Ok(()) => (state, None),
        Err(e) => {
            let err = describe(&e, limits, state.last_location.take());
            (state, Some(err))
        }
    }
}

#[expect(
    clippy::panic,
    reason = "the state is installed above and removed only here"
)]
fn unreachable_state() -> RunState {
    panic!("the run's state went missing")
}

fn setup(
    state: &RunState,
    limits: &Limits,
    scripts_dir: Option<PathBuf>,
) -> mlua::Result<mlua::Lua> {
    let lua = sandbox::new_state(limits)?;
    let g = lua.globals();
    crate::roblox::install(&lua, &g, state.world.materials())?;
    crate::require::install(&lua, &g, scripts_dir)?;
    Ok(lua)
}

fn install_strata(lua: &mlua::Lua) -> mlua::Result<()> {
    crate::strata_api::install(lua, &lua.globals())
}

/// The first `name.luau:LINE` (or `.lua`) in `text`.
fn first_location(text: &str) -> Option<String> {
    for (i, _) in text.match_indices(':') {
        let before = &text[..i];
        if !(before.ends_with(".luau") || before.ends_with(".lua")) {
            continue;
        }
        let digits: String = text[i + 1..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        if digits.is_empty() {
            continue;
        }
        let start = before
            .rfind(|c: char| c.is_whitespace() || c == '"' || c == '[' || c == '\'')
            .map_or(0, |p| p + 1);
        return Some(format!("{}:{digits}", &before[start..]));
    }
    None
}

/// Strip a leading `file:line: ` that [`first_location`] found.
fn strip_location(message: &str, location: &str) -> String {
    message
        .strip_prefix(location)
        .and_then(|m| m.strip_prefix(": "))
        .unwrap_or(message)
        .to_owned()
}

/// A script error with its location, from what Luau and mlua report.
fn describe(e: &mlua::Error, limits: &Limits, fallback: Option<String>) -> Error {
    let (mut location, message) = match e {
        mlua::Error::CallbackError { traceback, cause } => {
            let inner = describe(cause, limits, None);
            match inner {
                Error::Script { location, message } => {
                    (location.or_else(|| first_location(traceback)), message)
                }
                other => return other,
            }
        }
        mlua::Error::MemoryError(_) => (
            None,
            format!(
                "out of memory: the script passed its memory limit of {} MB (--memory)",
                limits.memory_bytes >> 20
            ),
        ),
        mlua::Error::SyntaxError { message, .. } | mlua::Error::RuntimeError(message) => {
            let message = message
                .split_once("\nstack traceback:")
                .map_or(message.as_str(), |(m, _)| m)
                .to_owned();
            let message = &message;
            let loc = first_location(message);
            let msg = loc
                .as_deref()
                .map_or_else(|| message.clone(), |l| strip_location(message, l));
            if msg.contains(sandbox::CANCELLED) {
                return Error::Cancelled;
            }
            (loc, msg)
        }
        mlua::Error::WithContext { cause, .. } => return describe(cause, limits, fallback),
        other => (None, other.to_string()),
    };
    if location.is_none() {
        location = fallback;
    }
    Error::Script { location, message }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_locations() {
        assert_eq!(
            first_location("island.luau:12: boom").as_deref(),
            Some("island.luau:12")
        );
        assert_eq!(
            first_location("stack:\n\t[C]: in ?\n\tscripts/a.lua:3: in function").as_deref(),
            Some("scripts/a.lua:3")
        );
        assert_eq!(first_location("no place"), None);
    }
}
