//! The editor holds the advisory lock on the project file it has open, so a `strata` command editing
//! the same file in place waits and then refuses instead of saving over the editor's work (and the
//! editor's next save over the command's). When another program already holds the lock, the editor
//! still opens the project and says so: saving then may overwrite that program's change.
//!
//! ```text
//!   open w.strata ── lock(w) ── edit … save (new file renamed over w) ── renew: lock the new w
//!   strata fill w.strata ──────── waits for the lock … gives up: "being edited by another program"
//! ```

use std::path::Path;

use strata_engine::format::{LockWait, ProjectLock};

use super::editor_app::EditorApp;

impl EditorApp {
    /// Take the lock on the open document's file (after open or Save As); says so when another
    /// program holds it.
    pub(super) fn lock_document_file(&mut self) {
        let Some(doc) = self.doc.as_mut() else {
            return;
        };
        let Some(path) = doc.path().map(Path::to_path_buf) else {
            doc.set_lock(None);
            return;
        };
        if doc.lock().is_some_and(|l| l.path() == path) {
            return;
        }
        match ProjectLock::acquire(&path, LockWait::Never) {
            Ok(lock) => doc.set_lock(Some(lock)),
            Err(e) => {
                doc.set_lock(None);
                self.dialogs.warning = Some(format!(
                    "{e}.\n\nThe project is open here too: saving it may overwrite what the other \
                     program writes."
                ));
            }
        }
    }

    /// After a save renamed a new file over the document's path, move the lock to the new file
    /// (or take it, when the file changed or no lock was held).
    pub(super) fn renew_document_lock(&mut self) {
        let renewed = match self.doc.as_mut() {
            Some(doc) => match (doc.path().map(Path::to_path_buf), doc.lock_mut()) {
                (Some(path), Some(lock)) if lock.path() == path => lock.renew().is_ok(),
                _ => false,
            },
            None => return,
        };
        if !renewed {
            if let Some(doc) = self.doc.as_mut() {
                doc.set_lock(None);
            }
            self.lock_document_file();
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use crate::app::editor_app::EditorApp;
    use crate::app::Start;
    use strata_engine::format::{LockWait, ProjectLock};
    use strata_engine::gen::{GeneratorSettings, Preset};

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("strata-editor-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        dir
    }

    /// An editor on a small generated world saved to `path`.
    fn saved_world(path: &Path) -> EditorApp {
        let settings = GeneratorSettings {
            preset: Preset::Flat,
            size: [32, 16, 32],
            seed: 2,
        };
        let mut app = EditorApp::new(Start::Generate(settings), false, None);
        app.wait_for_job();
        app.save_to(path.to_path_buf());
        app.wait_for_job();
        app
    }

    fn free(path: &Path) -> bool {
        ProjectLock::acquire(path, LockWait::Never).is_ok()
    }

    #[test]
    fn the_editor_holds_the_lock_on_its_file_across_saves() {
        let dir = scratch("lock");
        let path = dir.join("w.strata");
        let mut app = saved_world(&path);
        assert!(app.doc.as_ref().and_then(|d| d.lock()).is_some());
        let busy = ProjectLock::acquire(&path, LockWait::Never).expect_err("the editor holds it");
        assert!(busy.to_string().contains("another program"), "{busy}");
        // A second save puts another new file under the name: the lock follows it.
        app.save_to(path.clone());
        app.wait_for_job();
        assert!(!free(&path));
        // Save As: the new file is locked, the old one free.
        let other = dir.join("other.strata");
        app.save_to(other.clone());
        app.wait_for_job();
        assert!(!free(&other));
        assert!(free(&path));
        drop(app);
        assert!(free(&other));
        // Opening takes the lock too.
        let mut app = EditorApp::new(Start::Open(path.clone()), false, None);
        app.wait_for_job();
        assert!(app.doc.is_some());
        assert!(!free(&path));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_file_another_program_holds_opens_with_a_warning() {
        let dir = scratch("lock-held");
        let path = dir.join("w.strata");
        drop(saved_world(&path));
        let held = ProjectLock::acquire(&path, LockWait::Never).expect("first");
        let mut app = EditorApp::new(Start::Open(path.clone()), false, None);
        app.wait_for_job();
        assert!(app.doc.is_some(), "the project opens anyway");
        let warning = app.dialogs.warning.clone().unwrap_or_default();
        assert!(warning.contains("another program"), "{warning}");
        drop(held);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
