//! The section container of the project file: tagged, length-prefixed, checksummed payloads.

use crate::codec::Reader;
use crate::{Error, Result};

/// File magic: a high byte first (catches 7-bit transfers), the name, a newline (catches CRLF fixes).
pub const MAGIC: [u8; 8] = *b"\x89STRATA\n";
/// The version this build writes. Version 1 (chunk records in RLE+LZ4) is still read; version 2
/// codes chunk records by columns through a range coder (see `chunks.rs`).
pub const VERSION: u32 = 2;
/// The oldest version this build reads.
pub const OLDEST_VERSION: u32 = 1;

/// Bytes of a section header.
pub const SECTION_HEADER_LEN: usize = 20;

/// A section found in a file: its tag and where its payload lies.
#[derive(Debug, Clone)]
pub struct Section {
    /// Four-byte tag.
    pub tag: [u8; 4],
    /// Absolute offset of the payload.
    pub offset: usize,
    /// Payload length.
    pub len: usize,
}

impl Section {
    /// The payload inside the whole file.
    pub fn payload<'a>(&self, file: &'a [u8]) -> &'a [u8] {
        &file[self.offset..self.offset + self.len]
    }
}

/// Append a section with `tag` and `payload` to `out`.
pub fn write_section(out: &mut Vec<u8>, tag: [u8; 4], payload: &[u8]) {
    let start = out.len();
    out.extend_from_slice(&tag);
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(payload).to_le_bytes());
    let header_crc = crc32fast::hash(&out[start..]);
    out.extend_from_slice(&header_crc.to_le_bytes());
    out.extend_from_slice(payload);
}

fn tag_name(tag: [u8; 4]) -> String {
    String::from_utf8_lossy(&tag).escape_debug().to_string()
}

/// Check magic and version, then list the sections with verified checksums; returns the file's
/// version with them.
///
/// # Errors
/// Bad magic, unsupported version, truncated or corrupt section headers, checksum mismatches,
/// a repeated section.
pub fn read_sections(bytes: &[u8]) -> Result<(u32, Vec<Section>)> {
    let mut r = Reader::new(bytes, 0);
    let magic = r
        .take(MAGIC.len(), "magic")
        .map_err(|_| Error::corrupt(0, "not a Strata project (file too short)"))?;
    if magic != MAGIC {
        return Err(Error::corrupt(0, "not a Strata project (bad magic)"));
    }
    let version = r.u32("format version")?;
    if !(OLDEST_VERSION..=VERSION).contains(&version) {
        return Err(Error::UnsupportedVersion {
            found: version,
            supported: format!("{OLDEST_VERSION} to {VERSION}"),
        });
    }
    let mut sections: Vec<Section> = Vec::new();
    while r.remaining() > 0 {
        let start = r.offset();
        let head = r.take(SECTION_HEADER_LEN, "section header")?;
        let stored_header_crc = u32::from_le_bytes([head[16], head[17], head[18], head[19]]);
        if crc32fast::hash(&head[..16]) != stored_header_crc {
            return Err(Error::corrupt(start, "section header checksum mismatch"));
        }
        let tag = [head[0], head[1], head[2], head[3]];
        let mut len_bytes = [0u8; 8];
        len_bytes.copy_from_slice(&head[4..12]);
        let len = u64::from_le_bytes(len_bytes);
        let payload_crc = u32::from_le_bytes([head[12], head[13], head[14], head[15]]);
        if len > r.remaining() as u64 {
            return Err(Error::corrupt(
                start + 4,
                format!(
                    "section {} claims {len} bytes but only {} remain (truncated file?)",
                    tag_name(tag),
                    r.remaining()
                ),
            ));
        }
        let offset = r.offset();
        let payload = r.take(len as usize, "section payload")?;
        if crc32fast::hash(payload) != payload_crc {
            return Err(Error::corrupt(
                offset,
                format!("section {} checksum mismatch", tag_name(tag)),
            ));
        }
        if sections.iter().any(|s| s.tag == tag) {
            return Err(Error::corrupt(
                start,
                format!("section {} appears twice", tag_name(tag)),
            ));
        }
        sections.push(Section {
            tag,
            offset,
            len: len as usize,
        });
    }
    Ok((version, sections))
}
