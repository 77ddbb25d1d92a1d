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

    /// An [`Error::Io`] for `path`. A write refused for the process's file-size limit says so.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Self::Io {
            path: path.into(),
            source: explain_io(source),
        }
    }
}

/// The OS error number of "File too large" (EFBIG) on Linux and the BSDs.
const EFBIG: i32 = 27;

/// `e`, with a sentence added when it is the file-size limit (`ulimit -f`): the OS's own words
/// ("File too large") do not say that the limit is the process's, not the disk's.
pub fn explain_io(e: std::io::Error) -> std::io::Error {
    if cfg!(unix) && e.raw_os_error() == Some(EFBIG) {
        return std::io::Error::new(
            e.kind(),
            format!(
                "{e}: the file-size limit of this process (ulimit -f) was hit; the file was not \
                 written and any previous version is kept"
            ),
        );
    }
    e
}
