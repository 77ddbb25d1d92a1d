//! Undo and redo of a whole project: the voxels (the history restores them in the grid) and the
//! project data a step changed besides (the material table), which the history hands back to be
//! applied here. Every undo of a project goes through these, so no step is half undone.

use super::Project;
use crate::history::DataKind;
use crate::progress::Progress;
use crate::voxel::MaterialTable;
use crate::{Error, Result};

impl Project {
    /// Undo the newest step, voxels and data; returns its name (`None`: nothing to undo).
    ///
    /// # Errors
    /// When a stored box or table fails to decode (a corrupt loaded history).
    pub fn undo(&mut self) -> Result<Option<String>> {
        let name = self.history.undo(&mut self.grid)?;
        self.apply_history_data()?;
        Ok(name)
    }

    /// Redo the most recently undone step, voxels and data; returns its name.
    ///
    /// # Errors
    /// As for [`Project::undo`].
    pub fn redo(&mut self) -> Result<Option<String>> {
        let name = self.history.redo(&mut self.grid)?;
        self.apply_history_data()?;
        Ok(name)
    }

    /// [`Project::undo`] with progress per box and cancellation.
    ///
    /// # Errors
    /// As for [`Project::undo`]; [`Error::Cancelled`].
    pub fn undo_with(&mut self, progress: &Progress) -> Result<Option<String>> {
        let name = self.history.undo_with(&mut self.grid, progress)?;
        self.apply_history_data()?;
        Ok(name)
    }

    /// Apply what the last undo, redo or install of the history restored besides voxels.
    ///
    /// # Errors
    /// A stored table that does not parse or validate (the table is left as it was).
    pub fn apply_history_data(&mut self) -> Result<()> {
        for (kind, bytes) in self.history.take_data() {
            match kind {
                DataKind::Materials => {
                    let text = std::str::from_utf8(&bytes).map_err(|_| {
                        Error::Invalid("a stored material table is not UTF-8".into())
                    })?;
                    self.header.materials = MaterialTable::from_ron(text)?;
                }
            }
        }
        Ok(())
    }
}
