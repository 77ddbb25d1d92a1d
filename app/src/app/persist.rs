//! What outlives a frame: finished jobs applied to the editor, saving and recovery, autosave on a
//! timer, and the preferences file.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::editor_app::{EditorApp, AUTOSAVE};
use crate::app::action::Action;
use crate::app::job_output::JobOutput;
use crate::app::jobs::Finished;
use crate::app::keymap::Keymap;
use crate::document::region_job::REGION_WRITE;
use crate::files::autosave::{self, RecoveryInfo};
use crate::files::file_jobs::{self, PathPurpose};

impl EditorApp {
    pub(super) fn finish_job(&mut self, finished: Finished) {
        let mut out = Vec::new();
        match finished.result {
            Ok(JobOutput::Opened {
                document,
                save_path,
            }) => {
                let mut doc = *document;
                let path = doc.path().map(std::path::Path::to_path_buf);
                if let Some(p) = &path {
                    self.prefs.add_recent(p);
                    self.save_prefs();
                }
                self.message = match &path {
                    Some(p) => format!("Opened {}", p.display()),
                    None => format!("Created {}", doc.header().name),
                };
                if save_path.is_some() {
                    doc.set_path(save_path);
                }
                let warnings = &doc.project().warnings;
                if !warnings.is_empty() {
                    self.dialogs.warning = Some(warnings.join("\n\n"));
                }
                self.set_document(doc);
                self.lock_document_file();
            }
            Ok(JobOutput::Saved { path, revision }) => {
                if let Some(doc) = self.doc.as_mut() {
                    doc.mark_saved(path.clone(), revision);
                }
                self.renew_document_lock();
                self.prefs.add_recent(&path);
                self.save_prefs();
                self.discard_autosave();
                self.message = format!("Saved {}", path.display());
                if let Some(next) = self.after_save.take() {
                    out.push(Action::Proceed(next));
                }
            }
            Ok(JobOutput::Autosaved { revision }) => self.autosaved_revision = revision,
            Ok(JobOutput::Wrote { message }) => self.message = message,
            Ok(JobOutput::Delivered) if finished.owner == Some(REGION_WRITE) => {
                self.install_region_write(finished.cancelled);
            }
            Ok(JobOutput::Delivered) => self.panel_job(finished.owner, Ok(()), &mut out),
            Err(crate::AppError::Engine(strata_engine::Error::Cancelled)) => {
                self.after_save = None;
                self.message = "Cancelled".into();
                let e = crate::AppError::Engine(strata_engine::Error::Cancelled);
                self.panel_job(finished.owner, Err(e), &mut out);
            }
            Err(e) if finished.owner == Some(AUTOSAVE) => {
                self.message = format!("Autosave failed: {e}");
            }
            Err(e) => {
                self.after_save = None;
                self.dialogs.error = Some(e.to_string());
                self.panel_job(finished.owner, Err(e), &mut out);
            }
        }
        let _ = finished.kind;
        self.apply_all(out);
    }

    /// Install a background region write, unless Cancel was pressed before it came back.
    pub(super) fn install_region_write(&mut self, cancelled: bool) {
        let (Some(done), Some(doc)) = (self.region_writes.take(), self.doc.as_mut()) else {
            return;
        };
        if cancelled {
            self.message = "Cancelled: nothing changed".into();
            return;
        }
        match doc.install_region(done) {
            Ok(message) => self.message = message,
            Err(e) => self.dialogs.error = Some(e.to_string()),
        }
    }

    /// Hand a job's result to the panel that started it, if a panel did.
    pub(super) fn panel_job(
        &mut self,
        owner: Option<&'static str>,
        result: crate::AppResult<()>,
        out: &mut Vec<Action>,
    ) {
        let Some(owner) = owner else {
            return;
        };
        if let Some(e) = self.panels.by_name_mut(owner) {
            e.panel.on_job(result, out);
        }
    }

    pub(super) fn poll_jobs(&mut self) {
        for finished in self.jobs.poll() {
            self.finish_job(finished);
        }
    }

    /// Take new preferences (from the Preferences window) and save them.
    pub(super) fn set_prefs(&mut self, prefs: crate::app::prefs::Prefs) {
        let recent = std::mem::take(&mut self.prefs.recent);
        self.prefs = prefs;
        self.prefs.recent = recent;
        self.viewport.meshes.lod_enabled = self.prefs.lod;
        self.viewport.meshes.lod_distance = self.prefs.lod_distance;
        self.viewport.fly_speed = self.prefs.fly_speed;
        self.viewport.orbit_degrees_per_px = self.prefs.orbit_degrees_per_px;
        self.apply_viewport_quality();
        // The Lighting panel owns the exposure; the Preferences window's copy may be older.
        self.prefs.exposure = self.viewport.exposure;
        let mut keymap = Keymap::default();
        let skipped = keymap.apply_overrides(&self.prefs.key_bindings);
        self.keymap = keymap;
        // The autosave timer restarts with the new interval.
        self.last_autosave = Instant::now();
        self.save_prefs();
        self.message = if skipped.is_empty() {
            "Preferences saved".into()
        } else {
            format!("Ignored key bindings: {}", skipped.join(", "))
        };
    }

    /// The window opened on the GL renderer `renderer`, anti-aliased or not: remember the renderer
    /// for the next start and say when anti-aliasing is (or will be) off because it draws in
    /// software.
    pub fn renderer_found(&mut self, renderer: String, antialiased: bool) {
        self.startup_note =
            crate::app::software_gl::startup_note(&self.prefs, &renderer, antialiased);
        self.software_gl = crate::app::software_gl::is_software_renderer(&renderer);
        self.apply_viewport_quality();
        if self.prefs.gl_renderer.as_deref() != Some(renderer.as_str()) {
            self.prefs.gl_renderer = Some(renderer);
            self.save_prefs();
        }
    }

    /// Draw the viewport on the fast or the full path, as the session's override, else the
    /// preference, says for the renderer found.
    pub fn apply_viewport_quality(&mut self) {
        let quality = self.quality_override.unwrap_or(self.prefs.viewport_quality);
        self.viewport
            .set_fast(crate::app::viewport_quality::fast_viewport(
                quality,
                self.software_gl,
            ));
    }

    /// Remember the brush, display and panel settings in the preferences file.
    pub fn save_prefs(&mut self) {
        let brush = self.tools().state.brush;
        self.prefs.brush_size = brush.size;
        self.prefs.brush_strength = brush.strength;
        if self.lod_override != Some(self.viewport.meshes.lod_enabled) {
            self.prefs.lod = self.viewport.meshes.lod_enabled;
        }
        self.prefs.lod_distance = self.viewport.meshes.lod_distance;
        self.prefs.fly_speed = self.viewport.fly_speed;
        self.prefs.exposure = self.viewport.exposure;
        self.prefs.open_panels = Some(self.panels.open_names());
        self.prefs.key_bindings = self.keymap.overrides();
        if let Some(dir) = &self.config {
            if let Err(e) = self.prefs.save(dir) {
                self.message = format!("Could not save preferences: {e}");
            }
        }
    }

    pub(super) fn discard_autosave(&mut self) {
        if let Some(dir) = &self.config {
            if let Err(e) = autosave::discard(&autosave::folder(dir)) {
                self.message = format!("Could not remove the autosave: {e}");
            }
        }
    }

    /// Start an autosave when one is due; returns how long until the next check is needed.
    pub(super) fn autosave_tick(&mut self) -> Option<Duration> {
        let minutes = self.prefs.autosave_minutes;
        let (Some(doc), Some(dir)) = (self.doc.as_mut(), self.config.as_ref()) else {
            return None;
        };
        if minutes == 0 || !doc.is_modified() || doc.revision() == self.autosaved_revision {
            return None;
        }
        let interval = Duration::from_secs(u64::from(minutes) * 60);
        let elapsed = self.last_autosave.elapsed();
        if elapsed < interval {
            return Some(interval - elapsed);
        }
        if self.jobs.busy() || self.jobs.running_for(Some(AUTOSAVE)) || doc.stroking() {
            // Try again shortly: a stroke or another job is in the way.
            return Some(Duration::from_secs(1));
        }
        self.last_autosave = Instant::now();
        let mut project = doc.snapshot();
        project.header.camera = self.viewport.camera.to_saved();
        let job = autosave::spawn(
            autosave::folder(dir),
            project,
            doc.path().map(PathBuf::from),
            doc.revision(),
        )
        .owned_by(AUTOSAVE);
        // Background jobs are never refused.
        let _ = self.jobs.start(job);
        Some(interval)
    }

    /// Save to the document's file, or ask for one.
    pub(super) fn save(&mut self) {
        let Some(doc) = self.doc.as_ref() else {
            return;
        };
        match doc.path() {
            Some(p) => self.save_to(p.to_path_buf()),
            None => self.ask_path(PathPurpose::SaveProject(doc.header().name.clone())),
        }
    }

    /// Save the document to `path` in the background (atomic, previous file kept as `.bak`).
    pub(super) fn save_to(&mut self, path: PathBuf) {
        if self.jobs.busy() {
            return;
        }
        let Some(doc) = self.doc.as_mut() else {
            return;
        };
        let mut project = doc.snapshot();
        project.header.camera = self.viewport.camera.to_saved();
        if doc.path() != Some(path.as_path()) {
            project.header.name = file_jobs::stem(&path);
        }
        let revision = doc.revision();
        let thumbs = self.config.as_deref().map(crate::files::thumbnails::folder);
        self.start_job(file_jobs::save_job(project, path, revision, thumbs));
    }

    pub(super) fn recover(&mut self) {
        let Some(dir) = self.config.clone() else {
            return;
        };
        let original = self
            .dialogs
            .recover
            .take()
            .and_then(|i: RecoveryInfo| i.original);
        // The start-up world is not needed: the recovered one replaces it.
        self.jobs.cancel_modal();
        self.wait_for_job();
        let path = autosave::project_path(&autosave::folder(&dir));
        self.start_job(file_jobs::recover_job(path, original));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::Start;
    use crate::document::Document;
    use strata_engine::gen::{GeneratorSettings, Preset};
    use strata_engine::voxel::{Voxel, VoxelBox, VoxelPos};

    /// A small flat world to start the editor on.
    fn small_flat() -> GeneratorSettings {
        GeneratorSettings {
            preset: Preset::Flat,
            size: [64, 32, 64],
            seed: 1,
        }
    }

    #[test]
    fn autosave_runs_on_a_timer_and_a_recovered_world_keeps_its_path() {
        let dir =
            std::env::temp_dir().join(format!("strata-autosave-timer-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut app = EditorApp::new(Start::Generate(small_flat()), false, Some(dir.clone()));
        app.wait_for_job();
        app.prefs.autosave_minutes = 1;
        let b = VoxelBox::new(VoxelPos::new(1, 20, 1), VoxelPos::new(5, 24, 5));
        if let Some(doc) = app.doc.as_mut() {
            doc.edit_boxes("Fill", &[b], |g| g.fill_box(b, Voxel::new(3, 255)));
        }
        // Idle: the next check is due when the interval ends, so the editor wakes itself up then.
        let next = app.autosave_tick().expect("a check is scheduled");
        assert!(
            next <= Duration::from_secs(60) && next > Duration::from_secs(50),
            "{next:?}"
        );
        app.last_autosave = Instant::now() - Duration::from_secs(61);
        assert_eq!(app.autosave_tick(), Some(Duration::from_secs(60)));
        for finished in app.jobs.wait_owned(Some(AUTOSAVE)) {
            app.finish_job(finished);
        }
        let folder = autosave::folder(&dir);
        assert!(
            autosave::find(&folder).is_some(),
            "the autosave was written"
        );
        // Nothing changed since: no new autosave is scheduled.
        assert_eq!(app.autosave_tick(), None);
        // Recovery of an autosave of a saved file keeps that file as the save target.
        let original = dir.join("world.strata");
        let project = app.doc.as_mut().map(Document::snapshot).expect("doc");
        autosave::spawn(folder.clone(), project, Some(original.clone()), 9)
            .wait()
            .expect("autosave");
        app.dialogs.recover = autosave::find(&folder);
        app.apply(Action::Recover);
        app.wait_for_job();
        let doc = app.doc.as_ref().expect("recovered");
        assert_eq!(doc.path(), Some(original.as_path()));
        assert!(doc.is_modified(), "recovered work is unsaved until saved");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_level_of_detail_forced_from_the_command_line_is_not_saved() {
        let dir = std::env::temp_dir().join(format!("strata-lod-override-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut app = EditorApp::new(Start::Generate(small_flat()), false, Some(dir.clone()));
        assert!(app.viewport.meshes.lod_enabled, "on by default");
        // `strata open FILE --lod off`, then the window closes.
        app.viewport.meshes.lod_enabled = false;
        app.lod_override = Some(false);
        app.save_prefs();
        assert!(
            crate::app::prefs::Prefs::load(Some(&dir)).lod,
            "the preference stays on"
        );
        // The user turns it on in the View menu: their choice, saved.
        app.viewport.meshes.lod_enabled = true;
        app.save_prefs();
        assert!(crate::app::prefs::Prefs::load(Some(&dir)).lod);
        // Without an override, what is shown is saved.
        app.lod_override = None;
        app.viewport.meshes.lod_enabled = false;
        app.save_prefs();
        assert!(!crate::app::prefs::Prefs::load(Some(&dir)).lod);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
