//! Write a grayscale heightmap PNG of a generated preset's surface: the input of the heightmap-import
//! benchmarks, reproducible from a seed.
//!
//! ```sh
//! cargo run --release -p strata --example heightmap_png -- OUT.png [SIDE] [BITS] [PRESET] [SEED]
//! ```
//!
//! `SIDE` pixels square (default 1024), `BITS` 8 or 16 (default 16), `PRESET` (default mountains),
//! `SEED` (default 1). White is the top of a world `SIDE / 4` voxels high.

use std::path::PathBuf;

use image::{ImageBuffer, Luma};
use rayon::prelude::*;
use strata_engine::gen::{GeneratorSettings, Preset, Terrain};
use strata_engine::voxel::MaterialTable;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let out = PathBuf::from(
        args.first()
            .ok_or("usage: heightmap_png OUT.png [SIDE] [BITS] [PRESET] [SEED]")?,
    );
    let side: u32 = args.get(1).map_or(Ok(1024), |s| s.parse())?;
    let bits: u32 = args.get(2).map_or(Ok(16), |s| s.parse())?;
    let preset = Preset::from_name(args.get(3).map_or("mountains", String::as_str))?;
    let seed: u32 = args.get(4).map_or(Ok(1), |s| s.parse())?;
    let height = (side / 4).max(16);
    let settings = GeneratorSettings {
        preset,
        size: [side, height, side],
        seed,
    };
    let terrain = Terrain::new(&settings, &MaterialTable::builtin())?;
    let heights: Vec<f32> = (0..side * side)
        .into_par_iter()
        .map(|i| terrain.height_at((i % side) as i32, (i / side) as i32) / height as f32)
        .collect();
    match bits {
        8 => {
            let px = heights.iter().map(|h| (h * 255.0).round() as u8).collect();
            ImageBuffer::<Luma<u8>, Vec<u8>>::from_raw(side, side, px)
                .ok_or("pixel count")?
                .save(&out)?;
        }
        16 => {
            let px = heights
                .iter()
                .map(|h| (h * 65535.0).round() as u16)
                .collect();
            ImageBuffer::<Luma<u16>, Vec<u16>>::from_raw(side, side, px)
                .ok_or("pixel count")?
                .save(&out)?;
        }
        _ => return Err("BITS must be 8 or 16".into()),
    }
    println!(
        "{}: {side}x{side}, {bits}-bit, {preset} seed {seed}",
        out.display()
    );
    Ok(())
}
