//! Autosave and crash recovery.
//!
//! Every few minutes (preference, default 3) a modified document is copied and written on a
//! background thread to `<config>/autosave/autosave.strata`, with `autosave.ron` saying which file it
//! belongs to. A clean exit, or a save of the document, deletes both; so if they exist when the editor
//! starts, the last session ended without saving and the editor offers to recover them.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use strata_engine::format::project::Project;
use strata_engine::format::write_atomic;

use crate::app::job_output::JobOutput;
use crate::app::jobs::{Job, JobKind};
use crate::{AppError, AppResult};

const PROJECT: &str = "autosave.strata";
const INFO: &str = "autosave.ron";

/// What an autosave belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecoveryInfo {
    /// The document's file, if it had one.
    pub original: Option<PathBuf>,
    /// The document's display name.
    pub name: String,
    /// Seconds since the Unix epoch when it was written.
    pub saved_at_unix: u64,
}

/// The autosave folder inside the config directory.
pub fn folder(config: &Path) -> PathBuf {
    config.join("autosave")
}

/// Write `project` as the autosave of a document at `original` on a background thread.
pub fn spawn(folder: PathBuf, project: Project, original: Option<PathBuf>, revision: u64) -> Job {
    Job::spawn("Autosaving", JobKind::Background, move |progress| {
        std::fs::create_dir_all(&folder).map_err(|e| AppError::io(&folder, e))?;
        project.save_with(&folder.join(PROJECT), progress)?;
        let info = RecoveryInfo {
            original,
            name: project.header.name.clone(),
            saved_at_unix: SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
        };
        let text = ron::to_string(&info).map_err(|e| AppError::Usage(format!("autosave: {e}")))?;
        write_atomic(&folder.join(INFO), text.as_bytes())?;
        Ok(JobOutput::Autosaved { revision })
    })
}

/// The autosave left by a session that did not end cleanly, if any.
pub fn find(folder: &Path) -> Option<RecoveryInfo> {
    if !folder.join(PROJECT).is_file() {
        return None;
    }
    let text = std::fs::read_to_string(folder.join(INFO)).ok()?;
    ron::from_str(&text).ok()
}

/// The autosaved project file.
pub fn project_path(folder: &Path) -> PathBuf {
    folder.join(PROJECT)
}

/// Delete the autosave (after a clean exit, a save, or when the user declines recovery).
///
/// # Errors
/// When a file exists but cannot be removed.
pub fn discard(folder: &Path) -> AppResult<()> {
    for name in [PROJECT, INFO] {
        let p = folder.join(name);
        match std::fs::remove_file(&p) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(AppError::io(p, e)),
        }
    }
    let bak = strata_engine::format::backup_path(&folder.join(PROJECT));
    let _ = std::fs::remove_file(bak);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use strata_engine::format::project::ProjectHeader;
    use strata_engine::storage::Grid;
    use strata_engine::voxel::{Voxel, VoxelBox, VoxelPos};

    #[test]
    fn autosave_is_found_recovered_and_discarded() {
        let dir = std::env::temp_dir().join(format!("strata-autosave-{}", std::process::id()));
        let folder = folder(&dir);
        assert_eq!(find(&folder), None);
        let bounds = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(32, 32, 32));
        let mut grid = Grid::new();
        grid.set(VoxelPos::new(1, 2, 3), Voxel::new(3, 200));
        let project = Project::new(ProjectHeader::new("w", bounds), grid.clone());
        let job = spawn(
            folder.clone(),
            project,
            Some(PathBuf::from("/somewhere/w.strata")),
            5,
        );
        assert!(matches!(
            job.wait(),
            Ok(JobOutput::Autosaved { revision: 5 })
        ));
        let info = find(&folder).expect("found");
        assert_eq!(info.original, Some(PathBuf::from("/somewhere/w.strata")));
        let back = Project::load(&project_path(&folder)).expect("load");
        assert_eq!(back.grid, grid);
        discard(&folder).expect("discard");
        assert_eq!(find(&folder), None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
