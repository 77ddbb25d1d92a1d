//! `meta.vxrm`: the JSON file at the root of a region forest that gives the format of every region.
//!
//! ```json
//! { "version": 3, "block_size_po2": 4, "region_size_po2": 4, "sector_size": 512,
//!   "channel_depths": [1, 1, 0, 1, 1, 0, 0, 0], "lod_count": 4,
//!   "strata_bounds": [0, 0, 0, 256, 128, 256] }
//! ```
//!
//! `lod_count` is required by older godot_voxel releases and ignored by newer ones. `strata_bounds` is
//! Strata's own key (the world's half-open box); godot_voxel ignores keys it does not know. Numbers
//! may be written as floats (`3.0`), as older Godot versions do.

use serde_json::{json, Map, Value};

use super::channel::{Depth, CHANNEL_COUNT};
use super::region::RegionFormat;
use crate::voxel::{VoxelBox, VoxelPos};
use crate::{Error, Result};

/// File name of the forest's meta file.
pub const META_FILE: &str = "meta.vxrm";

/// The contents of `meta.vxrm`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForestMeta {
    /// Forest version (2 or 3).
    pub version: u8,
    /// log2 of the block edge.
    pub block_size_po2: u8,
    /// log2 of the region edge in blocks.
    pub region_size_po2: u8,
    /// Bytes per sector.
    pub sector_size: u16,
    /// Depth of each channel.
    pub channel_depths: [Depth; CHANNEL_COUNT],
    /// Number of LOD levels written (1 = only `lod0`).
    pub lod_count: u8,
    /// The Strata world's box, when Strata wrote the forest.
    pub bounds: Option<VoxelBox>,
}

impl ForestMeta {
    /// The format every region file of this forest uses.
    pub fn region_format(&self) -> RegionFormat {
        RegionFormat {
            block_size_po2: self.block_size_po2,
            region_size: [1 << self.region_size_po2; 3],
            channel_depths: self.channel_depths,
            sector_size: self.sector_size,
            palette: None,
        }
    }

    /// The JSON text.
    pub fn to_json(&self) -> String {
        let mut v = json!({
            "version": self.version,
            "block_size_po2": self.block_size_po2,
            "region_size_po2": self.region_size_po2,
            "sector_size": self.sector_size,
            "channel_depths": self.channel_depths.map(Depth::code),
            "lod_count": self.lod_count,
        });
        if let (Some(b), Value::Object(m)) = (self.bounds, &mut v) {
            let [x0, y0, z0] = b.min.to_array();
            let [x1, y1, z1] = b.max.to_array();
            m.insert("strata_bounds".into(), json!([x0, y0, z0, x1, y1, z1]));
        }
        serde_json::to_string_pretty(&v).unwrap_or_default()
    }

    /// Parse and check the JSON text.
    ///
    /// # Errors
    /// [`Error::Corrupt`] for malformed JSON (offset of the line), a missing or out-of-range key;
    /// [`Error::UnsupportedVersion`] for forest versions other than 2 and 3.
    pub fn from_json(text: &[u8]) -> Result<Self> {
        let v: Value = serde_json::from_slice(text).map_err(|e| {
            let line_start = text
                .split(|&b| b == b'\n')
                .take(e.line().saturating_sub(1))
                .map(|l| l.len() + 1)
                .sum::<usize>();
            Error::corrupt(
                line_start + e.column().saturating_sub(1),
                format!("JSON: {e}"),
            )
        })?;
        let m = v
            .as_object()
            .ok_or_else(|| Error::corrupt(0, "meta.vxrm is not a JSON object"))?;
        let version = int(m, "version", 0, 255)? as u8;
        if version != 2 && version != 3 {
            return Err(Error::UnsupportedVersion {
                found: u32::from(version),
                supported: "region forest 2 and 3".into(),
            });
        }
        let depths = m
            .get("channel_depths")
            .and_then(Value::as_array)
            .filter(|a| a.len() == CHANNEL_COUNT)
            .ok_or_else(|| Error::corrupt(0, "channel_depths must be an array of 8 depths"))?;
        let mut channel_depths = [Depth::Bit8; CHANNEL_COUNT];
        for (d, value) in channel_depths.iter_mut().zip(depths) {
            *d = number(value)
                .and_then(|n| Depth::from_code(n as u8).filter(|_| (0..4).contains(&n)))
                .ok_or_else(|| Error::corrupt(0, format!("channel depth {value} is not 0..3")))?;
        }
        let bounds = match m.get("strata_bounds") {
            None | Some(Value::Null) => None,
            Some(b) => Some(parse_bounds(b)?),
        };
        Ok(Self {
            version,
            block_size_po2: int(m, "block_size_po2", 1, 8)? as u8,
            region_size_po2: int(m, "region_size_po2", 1, 8)? as u8,
            sector_size: int(m, "sector_size", 1, 65535)? as u16,
            channel_depths,
            lod_count: match m.get("lod_count") {
                Some(_) => int(m, "lod_count", 1, 32)? as u8,
                None => 1,
            },
            bounds,
        })
    }
}

/// An integral JSON number (written as an int or a float).
fn number(v: &Value) -> Option<i64> {
    v.as_i64().or_else(|| {
        v.as_f64()
            .filter(|f| f.fract() == 0.0 && f.abs() < 1e15)
            .map(|f| f as i64)
    })
}

fn int(m: &Map<String, Value>, key: &str, lo: i64, hi: i64) -> Result<i64> {
    let v = m
        .get(key)
        .ok_or_else(|| Error::corrupt(0, format!("meta.vxrm has no \"{key}\"")))?;
    number(v)
        .filter(|n| (lo..=hi).contains(n))
        .ok_or_else(|| Error::corrupt(0, format!("\"{key}\" is {v}, expected {lo} to {hi}")))
}

fn parse_bounds(v: &Value) -> Result<VoxelBox> {
    let n: Vec<i32> = v
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| number(x).and_then(|n| i32::try_from(n).ok()))
                .collect()
        })
        .unwrap_or_default();
    if n.len() != 6 {
        return Err(Error::corrupt(0, "strata_bounds must be 6 integers"));
    }
    Ok(VoxelBox::new(
        VoxelPos::new(n[0], n[1], n[2]),
        VoxelPos::new(n[3], n[4], n[5]),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::godot::channel::DEFAULT_DEPTHS;

    fn meta() -> ForestMeta {
        ForestMeta {
            version: 3,
            block_size_po2: 4,
            region_size_po2: 4,
            sector_size: 512,
            channel_depths: DEFAULT_DEPTHS,
            lod_count: 4,
            bounds: Some(VoxelBox::new(
                VoxelPos::new(-16, 0, 0),
                VoxelPos::new(256, 128, 256),
            )),
        }
    }

    #[test]
    fn round_trips_and_reads_godot_floats() {
        let m = meta();
        assert_eq!(ForestMeta::from_json(m.to_json().as_bytes()).ok(), Some(m));
        let godot3 = br#"{"version":3.0,"block_size_po2":4.0,"region_size_po2":4.0,
            "lod_count":1.0,"sector_size":512.0,"channel_depths":[1,1,0,1,1,0,0,0]}"#;
        let g = ForestMeta::from_json(godot3).expect("parses");
        assert_eq!(g.region_format(), RegionFormat::default());
        assert_eq!(g.bounds, None);
    }

    #[test]
    fn rejects_bad_meta() {
        assert!(matches!(
            ForestMeta::from_json(br#"{"version":1}"#),
            Err(Error::UnsupportedVersion { found: 1, .. })
        ));
        let text = meta().to_json().replace("512", "0");
        assert!(ForestMeta::from_json(text.as_bytes()).is_err());
        let text = meta().to_json().replace("[\n    1,", "[\n    9,");
        assert!(ForestMeta::from_json(text.as_bytes()).is_err());
        match ForestMeta::from_json(b"{\n  \"version\": }") {
            Err(Error::Corrupt { offset, .. }) => assert_eq!(offset, 15),
            other => panic!("{other:?}"),
        }
    }
}
