//! `strata info FILE [--json]`: facts about a project (materials, bounds, counts, memory, encoded sizes).

use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};
use strata_engine::format::project::encoded_sizes;
use strata_engine::storage::MemoryReport;

use super::escape;
use crate::{AppError, AppResult};

/// Everything `info` reports, as JSON (the text form is rendered from it).
///
/// # Errors
/// When the file cannot be read or decoded.
pub fn report(file: &Path) -> AppResult<Value> {
    let file_bytes = std::fs::metadata(file)
        .map_err(|e| AppError::io(file, e))?
        .len();
    let project = super::project_edit::load(file)?;
    let stats = project.grid.stats();
    let memory = MemoryReport::of(&project.grid);
    let sizes = encoded_sizes(&project.grid);
    let table = &project.header.materials;
    let materials = super::materials::materials_json(&project)["materials"].take();
    let mut by_material = Map::new();
    for (id, m) in table.materials.iter().enumerate().skip(1) {
        by_material.insert(m.name.clone(), json!(stats.by_material[id]));
    }
    let b = project.header.bounds;
    let per = |bytes: u64| memory.per_voxel(bytes);
    Ok(json!({
        "name": project.header.name,
        "materials": materials,
        "bounds": {
            "min": b.min.to_array(),
            "max": [b.max.x - 1, b.max.y - 1, b.max.z - 1],
            "size": b.size(),
        },
        "generator": project.header.world().map(|w| json!({
            "preset": w.preset.name(),
            "size": w.size,
            "seed": w.seed,
            "biomes": w.biomes.biomes.iter().map(|b| b.name()).collect::<Vec<_>>(),
            "biome_size": w.biomes.biome_size,
            "caves": w.biomes.caves,
        })),
        "chunks": stats.chunks,
        "nonair_voxels": stats.nonair_voxels,
        "voxels_by_material": by_material,
        "memory_bytes": memory.total_bytes,
        "bytes_per_voxel": per(memory.total_bytes),
        "memory": {
            "level0_bytes": memory.level0_bytes,
            "level0_bytes_per_voxel": per(memory.level0_bytes),
            "plain_row_packed_bytes": memory.plain_row_packed_bytes,
            "plain_row_packed_bytes_per_voxel": per(memory.plain_row_packed_bytes),
            "unpacked_bytes": memory.unpacked_bytes,
            "unpacked_bytes_per_voxel": per(memory.unpacked_bytes),
        },
        "rle_bytes": sizes.rle_bytes,
        "rle_bytes_per_voxel": per(sizes.rle_bytes),
        "rle_lz4_bytes": sizes.rle_lz4_bytes,
        "rle_lz4_bytes_per_voxel": per(sizes.rle_lz4_bytes),
        "column_bytes": sizes.column_bytes,
        "column_bytes_per_voxel": per(sizes.column_bytes),
        "file_bytes": file_bytes,
        "history_steps": project.history.undo_len(),
        "redo_steps": project.history.redo_len(),
        "light": project.light.as_ref().map(|l| json!({
            "lit_voxels": l.len(),
            "stale_boxes": l.stale_boxes().count(),
        })),
        "warnings": project.warnings,
    }))
}

/// `strata info`.
#[derive(Debug, clap::Args)]
pub struct InfoArgs {
    /// Project file.
    file: PathBuf,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

impl InfoArgs {
    /// Run the command.
    ///
    /// # Errors
    /// When the file cannot be read or decoded.
    pub fn run(self) -> AppResult<()> {
        run(&self.file, self.json)
    }
}

fn run(file: &Path, json: bool) -> AppResult<()> {
    let r = report(file)?;
    if json {
        out!("{}", serde_json::to_string_pretty(&r).unwrap_or_default())?;
        return Ok(());
    }
    let g = |k: &str| r.get(k).cloned().unwrap_or(Value::Null);
    let f = |k: &str| g(k).as_f64().unwrap_or(0.0);
    out!(
        "{} ({})",
        escape::text(g("name").as_str().unwrap_or("")),
        escape::display(file)
    )?;
    out!(
        "bounds        {} .. {}",
        r["bounds"]["min"],
        r["bounds"]["max"]
    )?;
    out!("chunks        {}", g("chunks"))?;
    out!("non-air       {} voxels", g("nonair_voxels"))?;
    out!(
        "memory        {} bytes ({:.3} B/voxel; plain row-packed {:.3}, unpacked {:.3})",
        g("memory_bytes"),
        f("bytes_per_voxel"),
        r["memory"]["plain_row_packed_bytes_per_voxel"]
            .as_f64()
            .unwrap_or(0.0),
        r["memory"]["unpacked_bytes_per_voxel"]
            .as_f64()
            .unwrap_or(0.0)
    )?;
    out!(
        "RLE           {} bytes ({:.4} B/voxel)",
        g("rle_bytes"),
        f("rle_bytes_per_voxel")
    )?;
    out!(
        "RLE+LZ4       {} bytes ({:.4} B/voxel)",
        g("rle_lz4_bytes"),
        f("rle_lz4_bytes_per_voxel")
    )?;
    out!(
        "columns       {} bytes ({:.4} B/voxel, the chunk records of the file)",
        g("column_bytes"),
        f("column_bytes_per_voxel")
    )?;
    out!("file          {} bytes", g("file_bytes"))?;
    out!("undo steps    {}", g("history_steps"))?;
    if let Some(Value::Object(m)) = r.get("voxels_by_material") {
        for (name, count) in m.iter().filter(|(_, c)| c.as_u64() != Some(0)) {
            out!("  {:<14}{count}", escape::text(name))?;
        }
    }
    Ok(())
}
