//! `strata script run SCRIPT.luau PROJECT... [-o OUT | --in-place] [--arg KEY=VALUE]...
//! [--timeout S] [--memory MB] [--json]`: run a Luau terrain script on each project, the same
//! operation as the editor's Scripts panel. Each project is edited as one undo step named after the
//! script (or its `ChangeHistoryService` name) and saved atomically (keeping `.bak`). A script error
//! or a limit leaves that project unchanged, prints the script's file and line, and the command
//! exits 1. Without `-o` or `--in-place` nothing is saved (a dry run). `--json` prints one summary
//! object: per project the voxels written, the time, the console lines and the error.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Subcommand;
use strata_script::limits::DEFAULT_MAX_VOXELS_WRITTEN;
use strata_script::{run, Limits, RunOptions, Script};

use super::args::parse_in_range;
use super::progress::with_bar;
use super::project_edit::{fmt_box, open, open_for_edit};
use crate::document::script_edit::bake_for_script;
use crate::{AppError, AppResult};

/// `strata script`.
#[derive(Debug, clap::Args)]
pub struct ScriptArgs {
    #[command(subcommand)]
    command: ScriptCommand,
}

#[derive(Debug, Subcommand)]
enum ScriptCommand {
    /// Run a script on one or more projects.
    Run(RunArgs),
}

/// `strata script run`.
#[derive(Debug, clap::Args)]
struct RunArgs {
    /// The Luau script (.luau).
    script: PathBuf,
    /// Project files to run it on, each in turn.
    #[arg(required = true)]
    projects: Vec<PathBuf>,
    /// Write the result here (one project only).
    #[arg(short = 'o', long = "out", conflicts_with = "in_place")]
    out: Option<PathBuf>,
    /// Save each project over itself (atomically, keeping .bak).
    #[arg(long)]
    in_place: bool,
    /// KEY=VALUE for the script's `strata.args` (repeatable).
    #[arg(long = "arg", value_name = "KEY=VALUE")]
    args: Vec<String>,
    /// Time limit per project in seconds (default 30).
    #[arg(long)]
    timeout: Option<String>,
    /// Luau memory limit in MB (default 256).
    #[arg(long)]
    memory: Option<String>,
    /// Print a JSON summary instead of the console lines.
    #[arg(long)]
    json: bool,
}

impl ScriptArgs {
    /// Run the command.
    ///
    /// # Errors
    /// Bad arguments, unreadable script or project, a failed script (its file and line), an
    /// unwritable output.
    pub fn run(self) -> AppResult<()> {
        match self.command {
            ScriptCommand::Run(args) => args.run(),
        }
    }
}

/// What one project's run did, for `--json` and the exit code.
struct ProjectRun {
    project: PathBuf,
    saved_to: Option<PathBuf>,
    voxels_written: u64,
    changed: String,
    step: String,
    seconds: f64,
    output: Vec<String>,
    error: Option<strata_script::Error>,
}

fn parse_args(pairs: &[String]) -> AppResult<BTreeMap<String, String>> {
    pairs
        .iter()
        .map(|p| {
            let (k, v) = p
                .split_once('=')
                .ok_or_else(|| AppError::Usage(format!("--arg {p:?}: give KEY=VALUE")))?;
            if k.trim().is_empty() {
                return Err(AppError::Usage(format!("--arg {p:?}: the key is empty")));
            }
            Ok((k.trim().to_owned(), v.to_owned()))
        })
        .collect()
}

impl RunArgs {
    fn limits(&self) -> AppResult<Limits> {
        let mut limits = Limits {
            max_voxels_written: DEFAULT_MAX_VOXELS_WRITTEN,
            ..Limits::default()
        };
        if let Some(t) = &self.timeout {
            limits.timeout =
                Duration::from_secs_f64(parse_in_range(t, "--timeout", 0.01, 86_400.0)?);
        }
        if let Some(m) = &self.memory {
            let mb = parse_in_range(m, "--memory", 1.0, 65_536.0)?;
            limits.memory_bytes = (mb * f64::from(1u32 << 20)) as usize;
        }
        Ok(limits)
    }

    fn run(self) -> AppResult<()> {
        if self.out.is_some() && self.projects.len() > 1 {
            return Err(AppError::Usage(
                "-o OUT takes one project; use --in-place for several".into(),
            ));
        }
        let limits = self.limits()?;
        let args = parse_args(&self.args)?;
        let script = Script::load(&self.script)?;
        let mut runs = Vec::new();
        for project in &self.projects {
            runs.push(self.run_one(&script, project, limits, &args)?);
        }
        if self.json {
            out!("{}", summary(&script, &runs))?;
        } else if self.out.is_none() && !self.in_place {
            note!("dry run: nothing saved (give -o OUT or --in-place to save)")?;
        }
        match runs.into_iter().find_map(|r| r.error) {
            Some(e) => Err(e.into()),
            None => Ok(()),
        }
    }

    fn run_one(
        &self,
        script: &Script,
        project: &Path,
        limits: Limits,
        args: &BTreeMap<String, String>,
    ) -> AppResult<ProjectRun> {
        let target = match (&self.out, self.in_place) {
            (Some(o), _) => Some(o.clone()),
            (None, true) => Some(project.to_path_buf()),
            (None, false) => None,
        };
        let mut doc = match &target {
            Some(t) => open_for_edit(project, Some(t), &[&self.script])?,
            None => open(project)?,
        };
        let scripts_dir = project
            .parent()
            .map(|p| p.join("scripts"))
            .filter(|d| d.is_dir());
        let json = self.json;
        let sink: strata_script::state::OutputSink = Box::new(move |line: &str| {
            if !json {
                let _ = out!("{line}");
            }
        });
        let outcome = run(
            script,
            doc.script_world(limits.max_voxels_written),
            RunOptions {
                limits,
                args: args.clone(),
                scripts_dir,
                cancel: None,
                sink: Some(sink),
            },
        );
        let changed = doc.install_script(&outcome);
        let mut baked = false;
        if let (None, Some(settings)) = (&outcome.error, &outcome.bake) {
            let lights = doc.project().lights.clone();
            let light = with_bar("baking", |p| {
                bake_for_script(doc.grid(), doc.materials(), &lights, settings, p)
            })?;
            doc.install_light(light);
            baked = true;
        }
        let mut saved_to = None;
        if outcome.error.is_none() {
            if let Some(t) = &target {
                if !changed.is_empty() || baked || t != project {
                    with_bar("saving", |p| doc.project().save_with(t, p))?;
                    saved_to = Some(t.clone());
                }
            }
        }
        if !self.json {
            match &outcome.error {
                Some(e) if self.projects.len() > 1 => {
                    note!("{}: {e}; the project is unchanged", project.display())?
                }
                Some(_) => note!(
                    "{}: the script failed; the project is unchanged",
                    project.display()
                )?,
                None => note!(
                    "{}: {} ({} voxels written, {:.3} s){}",
                    project.display(),
                    if changed.is_empty() {
                        "changed nothing".to_owned()
                    } else {
                        format!("\"{}\" changed {}", outcome.step_name, fmt_box(changed))
                    },
                    outcome.voxels_written,
                    outcome.elapsed.as_secs_f64(),
                    saved_to
                        .as_ref()
                        .map(|t| format!(", saved to {}", t.display()))
                        .unwrap_or_default()
                )?,
            }
        }
        Ok(ProjectRun {
            project: project.to_path_buf(),
            saved_to,
            voxels_written: outcome.voxels_written,
            changed: if changed.is_empty() {
                String::new()
            } else {
                fmt_box(changed)
            },
            step: outcome.step_name,
            seconds: outcome.elapsed.as_secs_f64(),
            output: outcome.output,
            error: outcome.error,
        })
    }
}

fn summary(script: &Script, runs: &[ProjectRun]) -> serde_json::Value {
    let projects: Vec<serde_json::Value> = runs
        .iter()
        .map(|r| {
            serde_json::json!({
                "project": r.project.display().to_string(),
                "saved_to": r.saved_to.as_ref().map(|p| p.display().to_string()),
                "undo_step": r.step,
                "voxels_written": r.voxels_written,
                "changed_box": r.changed,
                "seconds": r.seconds,
                "output": r.output,
                "error": r.error.as_ref().map(ToString::to_string),
            })
        })
        .collect();
    serde_json::json!({ "script": script.name, "projects": projects })
}
