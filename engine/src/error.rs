//! The engine's one error type.
//!
//! Everything that can go wrong with data from a file or a user becomes an [`Error`]; decoders report the
//! byte offset where they stopped, and [`Error::in_file`] wraps that with the file name so a user sees
//! `world.strata: byte 1234: chunk ChunkPos { x: 3, y: 0, z: -2 }: checksum mismatch`.

use std::path::PathBuf;

/// Result alias used throughout the engine.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Every failure the engine reports.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An I/O operation on a named file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file being read or written.
        path: PathBuf,
        /// The underlying OS error.
        source: std::io::Error,
    },
    /// Encoded bytes are malformed at a known offset.
    #[error("byte {offset}: {reason}")]
    Corrupt {
        /// Offset from the start of the decoded buffer (or file, once wrapped).
        offset: u64,
        /// What was wrong, in words a user can act on.
        reason: String,
    },
    /// A file's format version is not one this build understands.
    #[error("unsupported version {found} (this build reads {supported})")]
    UnsupportedVersion {
        /// Version found in the data.
        found: u32,
        /// Human-readable list of versions that are accepted.
        supported: String,
    },
    /// A caller-supplied argument (size, box, material name, ...) is invalid.
    #[error("{0}")]
    Invalid(String),
    /// A long operation was cancelled through its cancel flag.
    #[error("cancelled")]
    Cancelled,
    /// An error that happened while reading or writing the named file.
    #[error("{path}: {source}")]
    InFile {
        /// The file concerned.
        path: PathBuf,
        /// What went wrong inside it.
        source: Box<Error>,
    },
}

impl Error {
    /// A [`Error::Corrupt`] at `offset`.
    pub fn corrupt(offset: usize, reason: impl Into<String>) -> Self {
        Self::Corrupt {
            offset: offset as u64,
            reason: reason.into(),
        }
    }

    /// Shift the offset of a [`Error::Corrupt`] by `base` (for errors from a sub-slice); others unchanged.
    #[must_use]
    pub fn at_base(self, base: usize) -> Self {
        match self {
            Self::Corrupt { offset, reason } => Self::Corrupt {
                offset: offset + base as u64,
                reason,
            },
            other => other,
        }
    }

    /// Attach a file name to this error.
    #[must_use]
    pub fn in_file(self, path: impl Into<PathBuf>) -> Self {
        match self {
            Self::Io { .. } | Self::InFile { .. } => self,
            other => Self::InFile {
                path: path.into(),
                source: Box::new(other),
            },
        }
    }

    /// An [`Error::Io`] for `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Self::Io {
            path: path.into(),
            source,
        }
    }
}
