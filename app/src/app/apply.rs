//! Applying actions: the one `match` every request from panels, menus, shortcuts and tools goes
//! through, the unsaved-changes guard, and the file prompts (system dialog or in-app browser).

use std::path::PathBuf;

use eframe::egui;

use super::editor_app::EditorApp;
use crate::app::action::{Action, Guarded};
use crate::app::file_browser::FileBrowser;
use crate::app::keymap::Command;
use crate::app::panel::View;
use crate::document::region_job::RegionWork;
use crate::document::Document;
use crate::files::file_jobs::{self, NativeAnswer, PathPurpose};
use crate::viewport::camera::AxisView;

/// F without a selection sees this many brush sizes around the point under the pointer…
const FOCUS_BRUSHES: f32 = 3.0;
/// …and at least this many voxels.
const FOCUS_MIN_RADIUS: f32 = 12.0;

/// Undoing (or redoing) `count` steps as a background job, when they restore more than `limit`
/// voxels.
fn large_history_write(
    doc: &mut Document,
    redo: bool,
    count: usize,
    limit: u64,
) -> Option<RegionWork> {
    if count == 0 || doc.history_voxels(redo, count) <= limit {
        return None;
    }
    doc.prepare_history(redo, count)
}

impl EditorApp {
    /// Run `action` now if nothing unsaved would be lost, else ask first. An answer covers the
    /// document as it was when given: after Don't Save on New World, the Generate that follows
    /// does not ask again unless the world was edited in between.
    pub(super) fn guard(&mut self, action: Guarded) {
        let unsaved = self
            .doc
            .as_ref()
            .is_some_and(|d| d.is_modified() && self.discard_answered != Some(d.revision()));
        if unsaved {
            self.dialogs.unsaved = Some(action);
        } else {
            self.proceed(action);
        }
    }

    pub(super) fn proceed(&mut self, action: Guarded) {
        self.discard_answered = self.doc.as_ref().map(Document::revision);
        match action {
            Guarded::New => self.panels.set_open(crate::generate::new_world::NAME, true),
            Guarded::Open(Some(path)) => {
                let thumbs = self.config.as_deref().map(crate::files::thumbnails::folder);
                self.start_job(file_jobs::open_job(path, thumbs));
            }
            Guarded::Open(None) => self.ask_path(PathPurpose::OpenProject),
            Guarded::Quit => self.quit_confirmed = true,
            Guarded::Generate(settings) => self.start_job(file_jobs::generate_job(settings)),
            Guarded::ImportHeightmap(import) => self.start_job(file_jobs::heightmap_job(import)),
            Guarded::ImportVxr => self.ask_path(PathPurpose::ImportVxr),
        }
    }

    pub(super) fn start_job(&mut self, job: crate::app::jobs::Job) {
        if let Err(job) = self.jobs.start(job) {
            self.message = format!("Busy: {} waits until the running job ends", job.label());
        }
    }

    /// Ask for a path with the platform's dialog, or the in-app browser when that is unavailable
    /// or preferred.
    pub(super) fn ask_path(&mut self, purpose: PathPurpose) {
        let start = self.prefs.last_folder.clone();
        if !self.prefs.in_app_file_browser {
            match file_jobs::ask_native(&purpose.spec()) {
                NativeAnswer::Chosen(path) => {
                    self.apply(Action::PathChosen(purpose, path));
                    return;
                }
                NativeAnswer::Cancelled => return,
                NativeAnswer::Unavailable => {
                    self.message = "No system file dialog: using Strata's file browser".into();
                }
            }
        }
        self.dialogs.browser = Some(FileBrowser::new(purpose, start));
    }

    pub(super) fn path_chosen(&mut self, purpose: PathPurpose, mut path: PathBuf) {
        let folder = if path.is_dir() {
            Some(path.clone())
        } else {
            path.parent().map(PathBuf::from)
        };
        if let Some(folder) = folder.filter(|f| !f.as_os_str().is_empty()) {
            self.prefs.last_folder = Some(folder);
        }
        match purpose {
            PathPurpose::OpenProject => self.proceed(Guarded::Open(Some(path))),
            PathPurpose::SaveProject(_) => {
                if path.extension().is_none() {
                    path.set_extension("strata");
                }
                self.save_to(path);
            }
            PathPurpose::ImportVxr => self.start_job(file_jobs::import_vxr_job(path)),
            PathPurpose::ExportMesh(_) => {
                if let Some(doc) = &self.doc {
                    let job = file_jobs::export_mesh_job(
                        doc.grid().clone(),
                        doc.materials().clone(),
                        doc.project().textures.clone(),
                        path,
                    );
                    self.start_job(job);
                }
            }
            PathPurpose::ExportVxr => {
                if let Some(doc) = &self.doc {
                    let job = file_jobs::export_vxr_job(doc.grid().clone(), doc.bounds(), path);
                    self.start_job(job);
                }
            }
            PathPurpose::Panel { panel, tag, .. } => {
                let mut out = Vec::new();
                if let Some(e) = self.panels.by_name_mut(panel) {
                    e.panel.on_path(tag, &path, &mut out);
                }
                self.apply_all(out);
            }
        }
    }

    pub(super) fn edit_result(
        &mut self,
        result: crate::AppResult<Option<String>>,
        verb: &str,
        none: &str,
    ) {
        match result {
            Ok(Some(name)) => self.message = format!("{verb} {name}"),
            Ok(None) => self.message = none.to_owned(),
            Err(e) => self.dialogs.error = Some(e.to_string()),
        }
    }

    /// Carry out every action, in order.
    pub fn apply_all(&mut self, actions: Vec<Action>) {
        for action in actions {
            self.apply(action);
        }
        self.publish();
    }

    /// Carry out one action.
    pub fn apply(&mut self, action: Action) {
        let idle = !self.jobs.busy();
        match action {
            Action::New => self.guard(Guarded::New),
            Action::Open(path) => self.guard(Guarded::Open(path)),
            Action::Quit => self.guard(Guarded::Quit),
            Action::Save if idle => self.save(),
            Action::SaveAs if idle => {
                if let Some(doc) = &self.doc {
                    self.ask_path(PathPurpose::SaveProject(doc.header().name.clone()));
                }
            }
            Action::SaveThen(next) => {
                self.after_save = Some(next);
                self.save();
                if !self.jobs.busy() {
                    // No file chosen (yet): nothing was saved, so nothing happens now.
                    if self.dialogs.browser.is_none() {
                        self.after_save = None;
                    }
                }
            }
            Action::Proceed(next) => self.proceed(next),
            Action::AskPath(PathPurpose::ImportVxr) => self.guard(Guarded::ImportVxr),
            Action::AskPath(purpose) => self.ask_path(purpose),
            Action::PathChosen(purpose, path) => self.path_chosen(purpose, path),
            Action::ImportHeightmap(import) => self.guard(Guarded::ImportHeightmap(import)),
            Action::Generate(settings) => self.guard(Guarded::Generate(settings)),
            Action::CancelJob => self.jobs.cancel_modal(),
            Action::Recover => self.recover(),
            Action::DiscardRecovery => {
                self.dialogs.recover = None;
                self.discard_autosave();
            }
            Action::Undo if idle => {
                if let Some(doc) = self.doc.as_mut() {
                    if let Some(work) = large_history_write(doc, false, 1, self.sync_voxels) {
                        self.start_job(work.job(&self.region_writes));
                        return;
                    }
                    let r = doc.undo();
                    self.edit_result(r, "Undid", "Nothing to undo");
                }
            }
            Action::Redo if idle => {
                if let Some(doc) = self.doc.as_mut() {
                    if let Some(work) = large_history_write(doc, true, 1, self.sync_voxels) {
                        self.start_job(work.job(&self.region_writes));
                        return;
                    }
                    let r = doc.redo();
                    self.edit_result(r, "Redid", "Nothing to redo");
                }
            }
            Action::JumpTo(n) if idle => {
                if let Some(doc) = self.doc.as_mut() {
                    let have = doc.history().undo_len();
                    let (redo, count) = (n > have, n.abs_diff(have));
                    if let Some(work) = large_history_write(doc, redo, count, self.sync_voxels) {
                        self.start_job(work.job(&self.region_writes));
                        return;
                    }
                    match doc.jump_to(n) {
                        Ok(0) => {}
                        Ok(k) if k < 0 => self.message = format!("Undid {} steps", -k),
                        Ok(k) => self.message = format!("Redid {k} steps"),
                        Err(e) => self.dialogs.error = Some(e.to_string()),
                    }
                }
            }
            Action::BeginStroke(name) if idle => {
                if let Some(doc) = self.doc.as_mut() {
                    doc.begin_stroke(&name);
                }
            }
            Action::Dab {
                tool,
                brush,
                center,
            } if idle => {
                if let Some(doc) = self.doc.as_mut() {
                    doc.dab(&tool, &brush, center);
                }
            }
            Action::EndStroke => {
                if let Some(doc) = self.doc.as_mut() {
                    doc.end_stroke();
                    if !self.prefs.hint_seen {
                        // The first stroke: the viewport hint has done its job.
                        self.prefs.hint_seen = true;
                        self.save_prefs();
                    }
                }
            }
            Action::SeaLevel {
                region,
                level,
                mode,
            } if idle => {
                if let Some(doc) = self.doc.as_mut() {
                    if doc.sea_level(region, level, mode).is_none() {
                        self.message = match mode {
                            strata_engine::tools::SeaLevelMode::Fill => {
                                "No air below the level to fill".into()
                            }
                            strata_engine::tools::SeaLevelMode::Clear => "No water to clear".into(),
                        };
                    }
                }
            }
            Action::Edit(edit) if idle => {
                if let Some(doc) = self.doc.as_mut() {
                    doc.edit_boxes(&edit.name, &edit.boxes, edit.write);
                }
            }
            Action::Materials(edit) if idle => {
                if let Some(doc) = self.doc.as_mut() {
                    match edit.apply(doc) {
                        Ok(said) => self.message = said,
                        Err(e) => self.dialogs.error = Some(e.to_string()),
                    }
                }
            }
            Action::DeleteFloating(found, chosen) if idle => {
                if let Some(doc) = self.doc.as_mut() {
                    let n = chosen.iter().filter(|&&c| c).count();
                    self.message = match doc.delete_floating(&found, &chosen) {
                        Some(_) => format!("Deleted {n} floating pieces"),
                        None => "No floating terrain to delete".into(),
                    };
                }
            }
            Action::ClearStray(stray) if idle => {
                if let Some(doc) = self.doc.as_mut() {
                    self.message = match doc.clear_stray(&stray) {
                        Some(_) => format!("Cleared {} voxels of invisible matter", stray.voxels()),
                        None => "No invisible matter".into(),
                    };
                }
            }
            Action::Select(b) => {
                if let Some(doc) = self.doc.as_mut() {
                    doc.set_selection(b);
                }
            }
            Action::Region { name, op, select } if idle => {
                if let Some(doc) = self.doc.as_mut() {
                    if doc.region_voxels(&op) > self.sync_voxels {
                        let work = doc.prepare_region_edit(&name, op, select);
                        self.start_job(work.job(&self.region_writes));
                        return;
                    }
                    match doc.region_edit(&name, &op) {
                        Ok(changed) if changed.is_empty() => {
                            self.message = format!("{name}: nothing changed");
                        }
                        Ok(changed) => {
                            let [x, y, z] = changed.size();
                            self.message = format!("{name}: {x}×{y}×{z} voxels changed");
                        }
                        Err(e) => self.dialogs.error = Some(format!("{name}: {e}")),
                    }
                    if select.is_some() {
                        doc.set_selection(select);
                    }
                }
            }
            Action::PasteBrush { region, name } => {
                if let Some(p) = self.panels.get_mut::<crate::region::RegionPanel>() {
                    p.float(region, &name);
                    self.apply(Action::ActivateTool(crate::region::NAME));
                }
            }
            Action::InstallLight(light) => {
                if let Some(doc) = self.doc.as_mut() {
                    doc.install_light(*light);
                    self.message = "Light baked".into();
                }
            }
            Action::PatchLight {
                patch,
                baked_on,
                current,
            } => {
                if let Some(doc) = self.doc.as_mut() {
                    if let Err(e) = doc.patch_light(patch, &baked_on, &current) {
                        self.message = format!("Live light skipped: {e}");
                    }
                }
            }
            Action::RemoveLight => {
                if let Some(doc) = self.doc.as_mut() {
                    doc.remove_light();
                }
            }
            Action::ChangeLights { name, lights } => {
                if let Some(doc) = self.doc.as_mut() {
                    self.message = match doc.change_lights(&name, lights) {
                        Ok(()) => name,
                        Err(e) => format!("{name}: {e}"),
                    };
                }
            }
            Action::LightView(view) => self.viewport.set_light_view(view),
            Action::Exposure(exposure) => {
                self.viewport.exposure = exposure;
                self.prefs.exposure = exposure;
            }
            Action::FragmentPreview(preview) => {
                let light = self.doc.as_ref().and_then(|d| d.light());
                self.viewport.fragment_preview(preview, light);
            }
            Action::Start(job) => self.start_job(job),
            Action::ActivateTool(name) => {
                if self.active_tool != name {
                    if let Some(doc) = self.doc.as_mut() {
                        doc.end_stroke();
                    }
                    self.active_tool = name;
                    self.panels.select_tab(name);
                }
            }
            Action::TogglePanel(name) => {
                let open = self.panels.is_open(name);
                self.panels.set_open(name, !open);
                if !open {
                    self.panels.select_tab(name);
                }
            }
            Action::ShowPanel(name) => {
                self.panels.set_open(name, true);
                self.panels.select_tab(name);
            }
            Action::SetPrefs(prefs) => self.set_prefs(*prefs),
            Action::CaptureKeys(on) => self.capturing_keys = on,
            Action::Message(m) => self.message = m,
            Action::Error(e) => self.dialogs.error = Some(e),
            Action::Save
            | Action::SaveAs
            | Action::Undo
            | Action::Redo
            | Action::JumpTo(_)
            | Action::BeginStroke(_)
            | Action::Dab { .. }
            | Action::SeaLevel { .. }
            | Action::Region { .. }
            | Action::Edit(_)
            | Action::Materials(_)
            | Action::DeleteFloating(..)
            | Action::ClearStray(_) => {
                self.message = "Busy: wait for the running job to finish".into();
            }
        }
    }

    pub(super) fn command(&mut self, command: Command, out: &mut Vec<Action>) {
        match command {
            Command::New => out.push(Action::New),
            Command::Open => out.push(Action::Open(None)),
            Command::Save => out.push(Action::Save),
            Command::SaveAs => out.push(Action::SaveAs),
            Command::Undo => out.push(Action::Undo),
            Command::Redo => out.push(Action::Redo),
            Command::Focus => self.focus(),
            Command::FrontView => self.viewport.camera.axis_view(AxisView::Front),
            Command::RightView => self.viewport.camera.axis_view(AxisView::Right),
            Command::TopView => self.viewport.camera.axis_view(AxisView::Top),
            other => {
                let view = view!(self, egui::Modifiers::NONE);
                for e in self.panels.entries_mut() {
                    if e.panel.on_command(other, &view, out) {
                        break;
                    }
                }
            }
        }
    }

    /// F: frame the selection; without one, an area around the point under the pointer a few
    /// brushes wide; with neither, the whole world.
    pub(super) fn focus(&mut self) {
        let selection = self.doc.as_ref().and_then(Document::selection);
        if let Some(b) = selection {
            self.viewport.frame_box(b);
        } else if self.viewport.hover.is_some() {
            let radius = (self.tools().state.brush.size * FOCUS_BRUSHES).max(FOCUS_MIN_RADIUS);
            self.viewport.focus_hovered(radius);
        } else if self.doc.is_some() {
            self.viewport.reset_camera();
        }
    }
}
