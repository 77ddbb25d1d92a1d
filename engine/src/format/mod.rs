//! Byte formats: the seed RLE voxel encoding, LZ4 framing of RLE streams, atomic file writes and the
//! `.strata` project file. Byte-level specs live in `docs/formats/`.

mod atomic;
mod bytes;
pub mod godot;
pub mod lz4;
pub mod project;
pub mod rle;

pub use atomic::{backup_path, write_atomic, AtomicFile};
pub use bytes::Reader;
