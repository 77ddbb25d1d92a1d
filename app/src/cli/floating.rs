//! `strata floating FILE [--json] [--delete] [-o OUT]`: find the pieces of solid terrain that do not
//! reach the world's bottom layer, and optionally delete them.
//!
//! A piece is a set of face-connected (6-neighbour) voxels whose material is neither Air nor a liquid,
//! whatever their occupancy, none of which lies in the world's bottom layer (the header's minimum y).
//! JSON output: `{"count": N, "voxels": total, "pieces": [{"voxels": n, "min": [x, y, z], "max":
//! [x, y, z]}, ...]}`, pieces largest first, `max` inclusive. `--delete` turns every piece to Air as
//! one undo step and saves the project in place (atomically, keeping `FILE.bak`) or to `OUT`; with
//! nothing to delete, the file is left alone (and `OUT`, if given, is still written). The deletion is
//! the editor's own edit (`Document::delete_floating`), so baked light is marked stale where it
//! reaches.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::json;
use strata_engine::floating::{find_floating, FloatingPiece};

use super::progress::with_bar;
use super::project_edit::open_for_edit;
use crate::{AppError, AppResult};

/// `strata floating`.
#[derive(Debug, Clone, clap::Args)]
pub struct FloatingArgs {
    /// Project file.
    file: PathBuf,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Turn every floating piece to Air (one undo step) and save the project.
    #[arg(long)]
    delete: bool,
    /// With --delete: save to this file instead of overwriting FILE.
    #[arg(short = 'o', long = "out", value_name = "OUT")]
    out: Option<PathBuf>,
}

impl FloatingArgs {
    /// Run the command.
    ///
    /// # Errors
    /// `-o` without `--delete`, an unreadable project, a failed save.
    pub fn run(self) -> AppResult<()> {
        if self.out.is_some() && !self.delete {
            return Err(AppError::Usage(
                "-o OUT writes the project with its floating pieces deleted; add --delete".into(),
            ));
        }
        let mut doc = open_for_edit(&self.file, self.out.as_deref(), &[])?;
        let bottom = doc.bounds().min.y;
        let started = Instant::now();
        let found = with_bar("searching", |p| {
            find_floating(doc.grid(), doc.materials(), bottom, p)
        })?;
        let search_ms = started.elapsed().as_secs_f64() * 1e3;
        let mut saved = None;
        if self.delete {
            let chosen = vec![true; found.len()];
            let changed = doc.delete_floating(&found, &chosen);
            let target = self.out.clone().or(changed.map(|_| self.file.clone()));
            if let Some(path) = target {
                with_bar("saving", |p| doc.project().save_with(&path, p))?;
                saved = Some(path);
            }
        }
        let stdout = std::io::stdout();
        let mut out = std::io::BufWriter::new(stdout.lock());
        let io = |e| AppError::io("stdout", e);
        if self.json {
            let deleted = self.delete.then(|| (!found.is_empty(), saved.as_deref()));
            write_json(&mut out, found.pieces(), deleted).map_err(io)?;
        } else {
            write_text(&mut out, found.pieces(), bottom, search_ms).map_err(io)?;
            if self.delete {
                let line = match (&saved, found.is_empty()) {
                    (Some(p), false) => format!(
                        "deleted {} pieces as one undo step; saved {}",
                        found.len(),
                        p.display()
                    ),
                    (Some(p), true) => format!("nothing to delete; saved {}", p.display()),
                    (None, _) => "nothing to delete; file unchanged".to_owned(),
                };
                writeln!(out, "{line}").map_err(io)?;
            }
        }
        out.flush().map_err(io)
    }
}

/// The JSON report as one line, written piece by piece (a world of millions of pieces prints
/// without holding the text). `deleted`: with `--delete`, whether anything was and the file saved.
fn write_json(
    out: &mut impl Write,
    pieces: &[FloatingPiece],
    deleted: Option<(bool, Option<&Path>)>,
) -> std::io::Result<()> {
    let total: u64 = pieces.iter().map(|p| p.voxels).sum();
    write!(
        out,
        "{{\"count\":{},\"voxels\":{total},\"pieces\":[",
        pieces.len()
    )?;
    for (i, p) in pieces.iter().enumerate() {
        let [a, b] = [p.min.to_array(), p.max.to_array()];
        write!(
            out,
            "{}{{\"voxels\":{},\"min\":[{},{},{}],\"max\":[{},{},{}]}}",
            if i == 0 { "" } else { "," },
            p.voxels,
            a[0],
            a[1],
            a[2],
            b[0],
            b[1],
            b[2]
        )?;
    }
    write!(out, "]")?;
    if let Some((any, saved)) = deleted {
        let saved = saved.map_or_else(
            || "null".to_owned(),
            |p| json!(p.display().to_string()).to_string(),
        );
        write!(out, ",\"deleted\":{any},\"saved\":{saved}")?;
    }
    writeln!(out, "}}")
}

/// The text report: a summary line, then one line per piece.
fn write_text(
    out: &mut impl Write,
    pieces: &[FloatingPiece],
    bottom: i32,
    search_ms: f64,
) -> std::io::Result<()> {
    let total: u64 = pieces.iter().map(|p| p.voxels).sum();
    writeln!(
        out,
        "{} floating pieces, {total} voxels (not connected to the bottom layer y = {bottom}); \
         searched in {search_ms:.0} ms",
        pieces.len()
    )?;
    if !pieces.is_empty() {
        writeln!(out, "{:>5} {:>10}  {:<20} max", "#", "voxels", "min")?;
    }
    let v = |p: [i32; 3]| format!("{},{},{}", p[0], p[1], p[2]);
    for (i, p) in pieces.iter().enumerate() {
        writeln!(
            out,
            "{i:>5} {:>10}  {:<20} {}",
            p.voxels,
            v(p.min.to_array()),
            v(p.max.to_array())
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use strata_engine::voxel::VoxelPos;

    #[test]
    fn reports_keep_the_contract() {
        let piece = |n: u64, y: i32| FloatingPiece {
            voxels: n,
            min: VoxelPos::new(1, y, 3),
            max: VoxelPos::new(4, y + 2, 6),
        };
        let pieces = [piece(27, 10), piece(4, 20)];
        let json = |pieces: &[FloatingPiece], deleted| {
            let mut v = Vec::new();
            write_json(&mut v, pieces, deleted).expect("writes");
            serde_json::from_slice::<serde_json::Value>(&v).expect("valid JSON")
        };
        let j = json(&pieces, None);
        assert_eq!(j["count"], 2);
        assert_eq!(j["voxels"], 31);
        assert_eq!(j["pieces"][0]["voxels"], 27);
        assert_eq!(j["pieces"][0]["min"], json!([1, 10, 3]));
        assert_eq!(j["pieces"][1]["max"], json!([4, 22, 6]));
        assert!(j.get("deleted").is_none());
        let mut t = Vec::new();
        write_text(&mut t, &pieces, 0, 1.0).expect("writes");
        let t = String::from_utf8(t).expect("utf-8");
        assert!(t.starts_with("2 floating pieces, 31 voxels"), "{t}");
        assert_eq!(json(&[], None)["pieces"], json!([]));
        let saved = Path::new("a \"quoted\" name.strata");
        let j = json(&pieces, Some((true, Some(saved))));
        assert_eq!(j["deleted"], true);
        assert_eq!(j["saved"], "a \"quoted\" name.strata");
        assert_eq!(
            json(&[], Some((false, None)))["saved"],
            serde_json::Value::Null
        );
    }
}
