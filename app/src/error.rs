//! The application's one error type: engine errors plus command-line usage problems.

use std::path::PathBuf;

/// Result alias for the application.
pub type AppResult<T, E = AppError> = std::result::Result<T, E>;

/// Everything the app reports to a user.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AppError {
    /// An engine error (file, format, generation).
    #[error(transparent)]
    Engine(#[from] strata_engine::Error),
    /// Reading or writing a file outside the engine failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// A terrain script failed (with its file and line) or hit a limit.
    #[error(transparent)]
    Script(#[from] strata_script::Error),
    /// Bad command-line input.
    #[error("{0}")]
    Usage(String),
}

impl AppError {
    /// An [`AppError::Io`] for `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Self::Io {
            path: path.into(),
            source: strata_engine::explain_io(source),
        }
    }
}
