//! godot_voxel interop: the v4 block format, its compressed container, `.vxr` region files and whole
//! region forests, plus the mapping between Strata voxels and godot_voxel channels.
//!
//! ```text
//!   Grid ──mapping──> BlockData (TYPE + SDF, 16³) ──encode──> container (LZ4/ZSTD/NONE)
//!                                                                  │
//!        meta.vxrm + regions/lod{L}/r.X.Y.Z.vxr  <──region──────────┘
//! ```
//!
//! The byte-level spec, the SDF mapping and the import rules for foreign data are written down in
//! `docs/formats/godot_voxel.md`.

mod block;
mod channel;
pub mod container;
mod godot_export;
#[cfg(test)]
mod godot_tests;
mod import;
mod lod;
mod mapping;
mod meta;
mod metadata;
mod region;

pub use block::{BlockData, BLOCK_VERSION, EPILOGUE};
pub use channel::{
    default_raw, Channel, ChannelData, Depth, CHANNEL_COUNT, CHANNEL_INDICES, CHANNEL_SDF,
    CHANNEL_TYPE, CHANNEL_WEIGHTS, DEFAULT_DEPTHS,
};
pub use godot_export::{
    encode_forest, export_forest, forest_meta, region_pos_of, EncodedRegion, ForestExport,
    ForestOptions,
};
pub use import::{decode_forest, import_forest, ForestImport, RegionSource};
pub use lod::{sample_block, BLOCK_EDGE, MAX_LODS};
pub use mapping::{
    block_from_voxels, block_of_box, block_to_voxel_vec, sdf_raw16, voxels_from_block,
    ImportReport, ImportRules, MAX_BLOCK_VOXELS,
};
pub use meta::{ForestMeta, META_FILE};
pub use metadata::{Metadata, MetadataItem, MetadataItems, VoxelMetadata};
pub use region::{RegionFormat, RegionReader, RegionWriter, REGION_MAGIC, REGION_VERSION};
