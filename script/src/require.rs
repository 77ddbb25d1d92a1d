//! `require` for scripts: modules come only from the `scripts/` folder beside the project.
//!
//! mlua installs a `require` that reads any file; it is replaced by this one, which takes a module
//! name (`"util"`, `"./util"`, `"lib/noise"`), refuses absolute paths, `..` and anything that
//! resolves (through links) outside the folder, loads `NAME.luau` (or `.lua`) once and caches
//! what it returns.

use std::path::{Component, Path, PathBuf};

use mlua::{Lua, Table, Value};

/// The file `name` names inside `dir`, or why it may not be loaded.
///
/// # Errors
/// A message for the script: absolute, `..`, missing, or outside the folder.
pub fn resolve(dir: &Path, name: &str) -> Result<PathBuf, String> {
    let trimmed = name.strip_prefix("./").unwrap_or(name);
    let rel = Path::new(trimmed);
    if trimmed.is_empty()
        || name.contains('\\')
        || name.contains(':')
        || rel.is_absolute()
        || rel
            .components()
            .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return Err(format!(
            "require({name:?}): modules are named relative to the scripts/ folder beside the \
             project, without `..` or an absolute path"
        ));
    }
    let candidates = if rel.extension().is_some() {
        vec![dir.join(rel)]
    } else {
        vec![
            dir.join(rel).with_extension("luau"),
            dir.join(rel).with_extension("lua"),
        ]
    };
    let found = candidates
        .into_iter()
        .find(|p| p.is_file())
        .ok_or_else(|| {
            format!(
                "require({name:?}): no module {trimmed}.luau in the scripts/ folder {}",
                dir.display()
            )
        })?;
    let real_dir = dir
        .canonicalize()
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    let real = found
        .canonicalize()
        .map_err(|e| format!("{}: {e}", found.display()))?;
    if !real.starts_with(&real_dir) {
        return Err(format!(
            "require({name:?}): the module resolves outside the scripts/ folder"
        ));
    }
    Ok(real)
}

/// Install `require` over the scripts folder `dir` (`None`: a project with no folder, so any
/// `require` is an error saying so).
///
/// # Errors
/// When Luau cannot allocate.
pub fn install(lua: &Lua, globals: &Table, dir: Option<PathBuf>) -> mlua::Result<()> {
    let loaded = lua.create_table()?;
    let f = lua.create_function(move |lua, name: String| -> mlua::Result<Value> {
        let Some(dir) = dir.as_deref() else {
            return Err(mlua::Error::runtime(format!(
                "require({name:?}): this project has no scripts/ folder beside it (save the \
                 project first)"
            )));
        };
        let path = resolve(dir, &name).map_err(mlua::Error::runtime)?;
        let key = path.to_string_lossy().into_owned();
        if let Some(v) = loaded.raw_get::<Option<Value>>(key.as_str())? {
            return Ok(v);
        }
        let source = std::fs::read_to_string(&path)
            .map_err(|e| mlua::Error::runtime(format!("require({name:?}): {e}")))?;
        let shown = format!(
            "@scripts/{}",
            path.strip_prefix(dir.canonicalize().unwrap_or_default())
                .unwrap_or(&path)
                .display()
        );
        let v: Value = lua.load(source).set_name(shown).call(())?;
        let v = if v.is_nil() { Value::Boolean(true) } else { v };
        loaded.raw_set(key, v.clone())?;
        Ok(v)
    })?;
    globals.raw_set("require", f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_escapes() {
        let dir = std::env::temp_dir();
        for bad in ["../x", "/etc/passwd", "a/../../x", "", "C:\\x", "..\\x"] {
            assert!(resolve(&dir, bad).is_err(), "{bad}");
        }
    }
}
