//! Byte codecs shared by the file formats and the undo history: the run-length (RLE) voxel
//! encoding, LZ4 packing of RLE streams, the column coding of a chunk (project file version 2) over
//! an adaptive binary range coder, and a bounds-checked little-endian reader.
//!
//! This module sits below both [`crate::format`] and [`crate::history`]: it imports neither, so
//! history can pack boxes without depending on the project file, and the project file can store the
//! history without a cycle. Byte-level specs live in `docs/formats/`.

pub mod column_coder;
#[cfg(test)]
mod column_coder_tests;
mod column_predictor;
pub mod lz4;
pub mod range_coder;
mod reader;
pub mod rle;

pub use reader::Reader;
