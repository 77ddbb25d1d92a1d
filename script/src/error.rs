//! The script crate's one error type.
//!
//! A script that fails says where: [`Error::Script`] carries `file:line` of the statement that
//! raised it (the script's own line, not a line inside Strata), so the CLI and the Scripts panel can
//! print `island.luau:12: Region has to be aligned to the grid`.

use std::path::PathBuf;

/// Result alias of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Every failure of a script run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The script raised an error, failed to compile, or hit a limit (time, memory, voxels written).
    #[error("{}{message}", location.as_deref().map(|l| format!("{l}: ")).unwrap_or_default())]
    Script {
        /// `file:line` where it happened, when known.
        location: Option<String>,
        /// What went wrong.
        message: String,
    },
    /// The run was cancelled (the Scripts panel's Cancel).
    #[error("cancelled")]
    Cancelled,
    /// A script or module file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The Luau state could not be set up.
    #[error("script engine: {0}")]
    Setup(String),
}

impl Error {
    /// An [`Error::Script`] without a location.
    pub fn script(message: impl Into<String>) -> Self {
        Self::Script {
            location: None,
            message: message.into(),
        }
    }
}
