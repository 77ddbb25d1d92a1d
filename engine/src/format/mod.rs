//! File formats: atomic file writes, the `.strata` project file and the godot_voxel block, region
//! and container formats. The byte codecs they share with the undo history (RLE, LZ4,
//! [`Reader`](crate::codec::Reader)) live one layer below in [`crate::codec`]. Byte-level specs live in `docs/formats/`.

mod atomic;
pub mod godot;
pub mod input;
mod lock;
pub mod project;

pub use atomic::{
    backup_path, files_written_by_save, names_same_file, refuse_overwriting_inputs,
    refuse_same_file, same_file, write_atomic, AtomicFile,
};
pub use lock::{LockWait, ProjectLock};
