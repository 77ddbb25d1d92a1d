//! The optional metadata section of a v4 block: one item for the whole block, then items for single
//! voxels.
//!
//! ```text
//!   item       = u8 type, then: type 0 nothing; type 1 u64; any other type: data with no length
//!   section    = item (block) | { u16 x, u16 y, u16 z, item }*
//! ```
//!
//! Type 32 is a Godot `Variant` and types from 40 up are application-defined; neither carries a
//! length, so an item of such a type can only be read as "everything up to the end of the section".
//! [`Metadata`] therefore keeps the section as opaque bytes (it survives a read and a write exactly),
//! and [`Metadata::items`] parses what can be parsed, taking the rest of the section as the payload
//! of the first item whose length is unknown.

use crate::codec::Reader;
use crate::Result;

/// Item type with no data.
pub const TYPE_EMPTY: u8 = 0;
/// Item type followed by a little-endian `u64`.
pub const TYPE_U64: u8 = 1;

/// The metadata section of a block, as the bytes after its `u32` size.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Metadata {
    bytes: Vec<u8>,
}

/// One metadata item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MetadataItem {
    /// Type 0: no value.
    Empty,
    /// Type 1: a 64-bit value.
    U64(u64),
    /// Any other type: its payload, which runs to the end of the section.
    Opaque {
        /// The type byte (32 = Godot Variant, 40 and up = application-defined).
        type_id: u8,
        /// The payload bytes.
        bytes: Vec<u8>,
    },
}

/// A metadata item attached to one voxel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VoxelMetadata {
    /// Block-local voxel position `[x, y, z]`.
    pub pos: [u16; 3],
    /// The item.
    pub item: MetadataItem,
}

/// The parsed contents of a metadata section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MetadataItems {
    /// The item for the whole block.
    pub block: MetadataItem,
    /// Items for single voxels, in file order.
    pub voxels: Vec<VoxelMetadata>,
}

impl Metadata {
    /// A section from its bytes (after the `u32` size).
    pub fn from_bytes(bytes: Vec<u8>) -> Self {
        Self { bytes }
    }

    /// The section's bytes; empty when the block has no metadata.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// True when there is no section.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Encode `items` as a section. An [`MetadataItem::Opaque`] item must be the last one, since its
    /// payload has no length; items after it would be read back as part of it.
    pub fn from_items(items: &MetadataItems) -> Self {
        let mut bytes = Vec::new();
        write_item(&items.block, &mut bytes);
        for v in &items.voxels {
            for c in v.pos {
                bytes.extend_from_slice(&c.to_le_bytes());
            }
            write_item(&v.item, &mut bytes);
        }
        Self { bytes }
    }

    /// Parse the section.
    ///
    /// # Errors
    /// [`crate::Error::Corrupt`] (offsets within the section) when an item is cut short; godot_voxel
    /// ignores such errors and still loads the voxels, and so does [`super::BlockData::decode`].
    pub fn items(&self) -> Result<MetadataItems> {
        let mut r = Reader::new(&self.bytes, 0);
        let block = read_item(&mut r)?;
        let mut voxels = Vec::new();
        while r.remaining() > 0 {
            let pos = [r.u16("voxel x")?, r.u16("voxel y")?, r.u16("voxel z")?];
            voxels.push(VoxelMetadata {
                pos,
                item: read_item(&mut r)?,
            });
        }
        Ok(MetadataItems { block, voxels })
    }
}

fn write_item(item: &MetadataItem, out: &mut Vec<u8>) {
    match item {
        MetadataItem::Empty => out.push(TYPE_EMPTY),
        MetadataItem::U64(v) => {
            out.push(TYPE_U64);
            out.extend_from_slice(&v.to_le_bytes());
        }
        MetadataItem::Opaque { type_id, bytes } => {
            out.push(*type_id);
            out.extend_from_slice(bytes);
        }
    }
}

fn read_item(r: &mut Reader<'_>) -> Result<MetadataItem> {
    Ok(match r.u8("metadata type")? {
        TYPE_EMPTY => MetadataItem::Empty,
        TYPE_U64 => MetadataItem::U64(r.u64("metadata u64")?),
        type_id => MetadataItem::Opaque {
            type_id,
            bytes: r.take(r.remaining(), "metadata payload")?.to_vec(),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_round_trip_with_an_opaque_tail() {
        let items = MetadataItems {
            block: MetadataItem::U64(0x0102_0304_0506_0708),
            voxels: vec![
                VoxelMetadata {
                    pos: [1, 2, 3],
                    item: MetadataItem::Empty,
                },
                VoxelMetadata {
                    pos: [15, 0, 7],
                    item: MetadataItem::Opaque {
                        type_id: 40,
                        bytes: vec![0xaa, 0xbb],
                    },
                },
            ],
        };
        let m = Metadata::from_items(&items);
        assert_eq!(
            m.as_bytes(),
            &[
                1, 8, 7, 6, 5, 4, 3, 2, 1, // block: u64
                1, 0, 2, 0, 3, 0, 0, // (1,2,3): empty
                15, 0, 0, 0, 7, 0, 40, 0xaa, 0xbb, // (15,0,7): type 40, opaque
            ]
        );
        assert_eq!(m.items().expect("parses"), items);
    }

    #[test]
    fn cut_items_are_errors() {
        assert!(Metadata::from_bytes(vec![1, 2, 3]).items().is_err());
        assert!(Metadata::from_bytes(vec![0, 1, 0]).items().is_err());
        assert!(Metadata::from_bytes(vec![]).items().is_err());
    }
}
