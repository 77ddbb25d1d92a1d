//! What a finished background job hands back to the editor: a document to open, a save or autosave
//! that finished, a message, or word that a panel's result waits in that panel's typed inbox.

use std::path::PathBuf;

use strata_engine::format::project::Project;

use crate::document::Document;

/// What a finished job hands back.
pub enum JobOutput {
    /// A document to open, made with [`JobOutput::opened`].
    Opened {
        /// The document (its path is `None` for a new, generated or imported, world).
        document: Box<Document>,
        /// The file Save writes to, when it differs from the document's path (a recovered
        /// autosave).
        save_path: Option<PathBuf>,
    },
    /// The document revision `revision` was written to `path`.
    Saved {
        /// The file.
        path: PathBuf,
        /// The document revision that was saved.
        revision: u64,
    },
    /// An autosave finished.
    Autosaved {
        /// The revision that was autosaved.
        revision: u64,
    },
    /// Something was written that does not change the document (an export).
    Wrote {
        /// What to tell the user.
        message: String,
    },
    /// The job delivered its result to its owner's typed [`super::jobs::Inbox`].
    Delivered,
}

impl JobOutput {
    /// Open `project` (from `path`): the document's physics world is built here, on the job's
    /// thread, so the editor keeps drawing while a large world is prepared.
    pub fn opened(project: Project, path: Option<PathBuf>, save_path: Option<PathBuf>) -> Self {
        Self::Opened {
            document: Box::new(Document::new(project, path)),
            save_path,
        }
    }
}
