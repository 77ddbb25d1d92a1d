//! The `.strata` project file: one file holding a world, its settings and its undo history.
//!
//! ```text
//!   magic "\x89STRATA\n" | u32 version | section | section | ...
//!   section = tag[4] | u64 length | u32 crc32(payload) | u32 crc32(previous 16 bytes) | payload
//!   HEAD  RON header: name, bounds, material table, generator settings, camera   (required, first)
//!   CHNK  chunk table + one record per chunk (v2: column-coded, v1: LZ4(RLE)), CRC32 each (required)
//!   HIST  undo/redo history                                                       (optional)
//!   LITE  baked light: settings, stale boxes, RGB per surface voxel                (optional)
//!   LOPT  the baked light's options: emission, bounce, denoise, reach, light boxes  (with LITE)
//!   LAMP  placed point and spot lights                                             (optional)
//!   TEXR  material textures: each PNG once, under its hash                         (optional)
//!   END   empty; marks a complete file                                            (required, last)
//! ```
//!
//! Every section header and payload, and every chunk record, carries a CRC32, so a flipped bit is
//! reported with the file name and byte offset instead of being loaded as wrong terrain. Unknown
//! sections (from newer versions) are skipped. Saves are atomic and keep `NAME.bak`. The byte-level spec
//! is `docs/formats/strata.md`.

mod chunks;
mod header;
mod sections;
mod textures;

use std::path::Path;

pub use chunks::{encode_chunk_rle, encoded_sizes, ChunkCoding, EncodedSizes};
pub use header::{Camera, ProjectHeader};

use super::atomic::write_atomic;
use crate::history::{DataKind, History};
use crate::light::{placed_serial, serial as light_serial, LightMap, PlacedLight};
use crate::progress::Progress;
use crate::storage::Grid;
use crate::voxel::{MaterialTable, Textures};
use crate::{Error, Result};
use sections::{read_sections, write_section, Section};
pub use sections::{MAGIC, OLDEST_VERSION, VERSION};

const TAG_HEAD: [u8; 4] = *b"HEAD";
const TAG_CHUNKS: [u8; 4] = *b"CHNK";
const TAG_HISTORY: [u8; 4] = *b"HIST";
const TAG_LIGHT: [u8; 4] = *b"LITE";
const TAG_LIGHT_OPTIONS: [u8; 4] = *b"LOPT";
const TAG_LAMPS: [u8; 4] = *b"LAMP";
const TAG_TEXTURES: [u8; 4] = *b"TEXR";
const TAG_END: [u8; 4] = *b"END ";

/// A whole project: header, voxels, undo history and baked light.
#[derive(Debug, Clone)]
pub struct Project {
    /// Settings and metadata.
    pub header: ProjectHeader,
    /// The voxels.
    pub grid: Grid,
    /// Undo/redo steps, saved with the file.
    pub history: History,
    /// Baked light, if the project has been baked (with the regions edits made stale since).
    pub light: Option<LightMap>,
    /// Point and spot lights placed in the world, in list order.
    pub lights: Vec<PlacedLight>,
    /// The images of the material table's textures (and of tables in the undo history).
    pub textures: Textures,
    /// What loading repaired or dropped, one sentence each (not saved; empty for a new project).
    pub warnings: Vec<String>,
}

impl Project {
    /// A project with an empty history.
    pub fn new(header: ProjectHeader, grid: Grid) -> Self {
        Self {
            header,
            grid,
            history: History::default(),
            light: None,
            lights: Vec::new(),
            textures: Textures::default(),
            warnings: Vec::new(),
        }
    }

    /// Encode the whole file.
    ///
    /// # Errors
    /// When the header cannot be serialized (not expected for valid headers).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        self.to_bytes_with(&Progress::new())
    }

    /// [`Project::to_bytes`], counting encoded chunks in `progress`.
    ///
    /// # Errors
    /// As for [`Project::to_bytes`].
    pub fn to_bytes_with(&self, progress: &Progress) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        write_section(&mut out, TAG_HEAD, self.header.to_ron()?.as_bytes());
        write_section(&mut out, TAG_CHUNKS, &chunks::encode(&self.grid, progress));
        if !self.history.is_empty() {
            write_section(&mut out, TAG_HISTORY, &self.history.to_bytes());
        }
        if let Some(light) = &self.light {
            write_section(&mut out, TAG_LIGHT, &light_serial::to_bytes(light));
            write_section(
                &mut out,
                TAG_LIGHT_OPTIONS,
                &light_serial::options_to_bytes(light),
            );
        }
        if !self.lights.is_empty() {
            write_section(&mut out, TAG_LAMPS, &placed_serial::to_bytes(&self.lights));
        }
        let used = self.textures_in_use();
        if !used.is_empty() {
            write_section(&mut out, TAG_TEXTURES, &textures::to_bytes(&used));
        }
        write_section(&mut out, TAG_END, &[]);
        Ok(out)
    }

    /// Decode a whole file.
    ///
    /// # Errors
    /// [`Error::Corrupt`] with the byte offset of the first problem, or
    /// [`Error::UnsupportedVersion`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        Self::from_bytes_with(bytes, &Progress::new())
    }

    /// [`Project::from_bytes`], counting decoded chunks in `progress` and stopping with
    /// [`Error::Cancelled`] when it is cancelled.
    ///
    /// # Errors
    /// As for [`Project::from_bytes`].
    pub fn from_bytes_with(bytes: &[u8], progress: &Progress) -> Result<Self> {
        let (version, sections) = read_sections(bytes)?;
        if sections
            .last()
            .is_none_or(|s| s.tag != TAG_END || s.len != 0)
        {
            return Err(Error::corrupt(
                bytes.len(),
                "file ends without its END section (truncated?)",
            ));
        }
        let find = |tag: [u8; 4]| sections.iter().find(|s| s.tag == tag);
        let head = match sections.first() {
            Some(s) if s.tag == TAG_HEAD => s,
            _ => {
                return Err(Error::corrupt(
                    MAGIC.len() + 4,
                    "the first section must be HEAD",
                ))
            }
        };
        let mut header = ProjectHeader::from_ron(head.payload(bytes), head.offset)?;
        let chunk_section: &Section = find(TAG_CHUNKS)
            .ok_or_else(|| Error::corrupt(bytes.len(), "file has no CHNK (chunk) section"))?;
        let grid = chunks::decode(
            chunk_section.payload(bytes),
            chunk_section.offset,
            ChunkCoding::of_version(version),
            &header,
            progress,
        )?;
        let history = match find(TAG_HISTORY) {
            Some(s) => History::from_bytes(s.payload(bytes), s.offset)?,
            None => History::default(),
        };
        let mut warnings = Vec::new();
        let textures =
            match find(TAG_TEXTURES).map(|s| textures::from_bytes(s.payload(bytes), s.offset)) {
                Some(Ok(t)) => t,
                Some(Err(e)) => {
                    warnings.push(format!(
                        "the material textures could not be read and were left out ({e})"
                    ));
                    Textures::default()
                }
                None => Textures::default(),
            };
        warnings.extend(textures::drop_missing(&mut header.materials, &textures));
        let mut light =
            find(TAG_LIGHT).and_then(|s| load_light(s, bytes, &grid, &header, &mut warnings));
        if let (Some(map), Some(s)) = (light.as_mut(), find(TAG_LIGHT_OPTIONS)) {
            if let Err(e) = light_serial::options_from_bytes(s.payload(bytes), s.offset, map) {
                warnings.push(format!(
                    "the baked light's options could not be read ({e}); it counts as a bake \
                     without emission, bounce or filter"
                ));
            }
        }
        let lights = match find(TAG_LAMPS)
            .map(|s| placed_serial::from_bytes(s.payload(bytes), s.offset, &header.bounds))
        {
            Some(Ok(l)) => l,
            Some(Err(e)) => {
                warnings.push(format!(
                    "the placed lights could not be read and were left out ({e})"
                ));
                Vec::new()
            }
            None => Vec::new(),
        };
        Ok(Self {
            header,
            grid,
            history,
            light,
            lights,
            textures,
            warnings,
        })
    }

    /// The textures the material table or a table in the undo history names (what a save keeps).
    pub fn textures_in_use(&self) -> Textures {
        let mut used: Vec<u64> = Vec::new();
        let mut note = |t: &MaterialTable| {
            used.extend(t.materials.iter().filter_map(|m| m.texture.map(|r| r.hash)));
        };
        note(&self.header.materials);
        for (kind, bytes) in self.history.data_payloads() {
            if kind != DataKind::Materials {
                continue;
            }
            if let Some(t) = std::str::from_utf8(bytes)
                .ok()
                .and_then(|text| MaterialTable::from_ron(text).ok())
            {
                note(&t);
            }
        }
        let mut out = self.textures.clone();
        out.retain(|h| used.contains(&h));
        out
    }

    /// Save atomically to `path`, keeping the previous file as `NAME.bak`.
    ///
    /// # Errors
    /// [`Error::Io`] when writing fails; the previous file is untouched then.
    pub fn save(&self, path: &Path) -> Result<()> {
        self.save_with(path, &Progress::new())
    }

    /// [`Project::save`] with progress.
    ///
    /// # Errors
    /// As for [`Project::save`].
    pub fn save_with(&self, path: &Path, progress: &Progress) -> Result<()> {
        let bytes = self.to_bytes_with(progress).map_err(|e| e.in_file(path))?;
        write_atomic(path, &bytes)
    }

    /// Load a project file.
    ///
    /// # Errors
    /// [`Error::Io`] when it cannot be read; otherwise decode errors wrapped with the file name.
    pub fn load(path: &Path) -> Result<Self> {
        Self::load_with(path, &Progress::new())
    }

    /// [`Project::load`] with progress and cancellation.
    ///
    /// # Errors
    /// As for [`Project::load`], or [`Error::Cancelled`].
    pub fn load_with(path: &Path, progress: &Progress) -> Result<Self> {
        let bytes = super::input::read_input(path, super::input::MAX_PROJECT_BYTES)?;
        let mut project = Self::from_bytes_with(&bytes, progress).map_err(|e| e.in_file(path))?;
        for w in &mut project.warnings {
            *w = format!("{}: {w}", path.display());
        }
        Ok(project)
    }
}

// Undo and redo of a whole project: the voxels (the history restores them in the grid) and the project
// data a step changed besides (the material table), which the history hands back to be applied here.
// Every undo of a project goes through these, so no step is half undone.
impl Project {
    /// Undo the newest step, voxels and data; returns its name (`None`: nothing to undo).
    ///
    /// # Errors
    /// When a stored box or table fails to decode (a corrupt loaded history).
    pub fn undo(&mut self) -> Result<Option<String>> {
        let name = self.history.undo(&mut self.grid)?;
        self.apply_history_data()?;
        Ok(name)
    }

    /// Redo the most recently undone step, voxels and data; returns its name.
    ///
    /// # Errors
    /// As for [`Project::undo`].
    pub fn redo(&mut self) -> Result<Option<String>> {
        let name = self.history.redo(&mut self.grid)?;
        self.apply_history_data()?;
        Ok(name)
    }

    /// [`Project::undo`] with progress per box and cancellation.
    ///
    /// # Errors
    /// As for [`Project::undo`]; [`Error::Cancelled`].
    pub fn undo_with(&mut self, progress: &Progress) -> Result<Option<String>> {
        let name = self.history.undo_with(&mut self.grid, progress)?;
        self.apply_history_data()?;
        Ok(name)
    }

    /// Apply what the last undo, redo or install of the history restored besides voxels.
    ///
    /// # Errors
    /// A stored table that does not parse or validate (the table is left as it was).
    pub fn apply_history_data(&mut self) -> Result<()> {
        for (kind, bytes) in self.history.take_data() {
            match kind {
                DataKind::Materials => {
                    let text = std::str::from_utf8(&bytes).map_err(|_| {
                        Error::Invalid("a stored material table is not UTF-8".into())
                    })?;
                    self.header.materials = MaterialTable::from_ron(text)?;
                }
                DataKind::Lights => {
                    self.lights = placed_serial::from_bytes(&bytes, 0, &self.header.bounds)?;
                }
            }
        }
        Ok(())
    }
}

/// The light of section `s`, made to fit the voxels. Light that cannot be decoded or checked is
/// dropped and light that does not fit is marked stale, each with a warning: the voxels always load.
fn load_light(
    s: &Section,
    bytes: &[u8],
    grid: &Grid,
    header: &ProjectHeader,
    warnings: &mut Vec<String>,
) -> Option<LightMap> {
    let mut light = match light_serial::from_bytes(s.payload(bytes), s.offset) {
        Ok(light) => light,
        Err(e) => {
            warnings.push(format!(
                "the baked light could not be read and was left out ({e}); bake again"
            ));
            return None;
        }
    };
    match light_serial::fit_to_voxels(&mut light, grid, &header.materials) {
        Ok(None) => Some(light),
        Ok(Some(w)) => {
            warnings.push(format!("byte {}: {w}", s.offset));
            Some(light)
        }
        Err(e) => {
            warnings.push(format!(
                "byte {}: the baked light could not be checked against the voxels and was left \
                 out ({e}); bake again",
                s.offset
            ));
            None
        }
    }
}

#[cfg(test)]
mod hostile_tests;
#[cfg(test)]
mod project_tests;
