//! Point a project's saved camera at its steepest slope from a low angle, for before/after
//! screenshots of cliffs (`strata open FILE --screenshot OUT.png`).
//!
//! ```sh
//! cargo run --release -p strata --example cliff_camera -- FILE [PITCH_DEG] [DISTANCE] [YAW_OFFSET_DEG]
//! cargo run --release -p strata --example cliff_camera -- FILE --from OTHER   # copy OTHER's camera
//! ```
//!
//! The slope is found from the voxels (each column's solid occupancy summed), so a file made by any
//! build works. The camera looks uphill at the steepest column at least 24 voxels inside the world.

use std::path::PathBuf;

use strata_engine::format::project::{Camera, Project};
use strata_engine::voxel::{VoxelBox, VoxelPos};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = PathBuf::from(
        args.first()
            .ok_or("usage: cliff_camera FILE [PITCH_DEG] [DISTANCE] [YAW_OFFSET_DEG]")?,
    );
    if args.get(1).map(String::as_str) == Some("--from") {
        let other = Project::load(&PathBuf::from(args.get(2).ok_or("--from needs a file")?))?;
        let mut project = Project::load(&path)?;
        project.header.camera = other.header.camera;
        project.save(&path)?;
        println!("{}: camera copied", path.display());
        return Ok(());
    }
    let pitch: f32 = args.get(1).map_or(Ok(12.0), |s| s.parse())?;
    let distance: f32 = args.get(2).map_or(Ok(48.0), |s| s.parse())?;
    let yaw_offset: f32 = args.get(3).map_or(Ok(0.0), |s| s.parse())?;
    let mut project = Project::load(&path)?;
    let b = project.header.bounds;
    let [sx, sy, sz] = b.size();
    let liquid: Vec<bool> = project
        .header
        .materials
        .materials
        .iter()
        .map(|m| m.liquid)
        .collect();
    let height = |x: i32, z: i32| -> f32 {
        let column = VoxelBox::new(
            VoxelPos::new(x, b.min.y, z),
            VoxelPos::new(x + 1, b.max.y, z + 1),
        );
        project
            .grid
            .read_box_vec(column)
            .iter()
            .filter(|v| !liquid[usize::from(v.material)])
            .map(|v| v.occupancy_f32())
            .sum::<f32>()
            + b.min.y as f32
    };
    let heights: Vec<f32> = (0..sz as i32)
        .flat_map(|z| (0..sx as i32).map(move |x| (x, z)))
        .map(|(x, z)| height(b.min.x + x, b.min.z + z))
        .collect();
    let at = |x: usize, z: usize| heights[z * sx + x];
    let margin = 24.min(sx / 3).min(sz / 3);
    let mut best = (0.0f32, 0usize, 0usize, 0.0f32, 0.0f32);
    for z in margin..sz - margin {
        for x in margin..sx - margin {
            let gx = (at(x + 1, z) - at(x - 1, z)) / 2.0;
            let gz = (at(x, z + 1) - at(x, z - 1)) / 2.0;
            let g = gx.hypot(gz);
            if g > best.0 && at(x, z) < sy as f32 * 0.9 {
                best = (g, x, z, gx, gz);
            }
        }
    }
    let (g, x, z, gx, gz) = best;
    project.header.camera = Camera {
        target: [
            b.min.x as f32 + x as f32 + 0.5,
            at(x, z),
            b.min.z as f32 + z as f32 + 0.5,
        ],
        yaw_degrees: gx.atan2(gz).to_degrees() + yaw_offset,
        pitch_degrees: pitch,
        distance,
    };
    project.save(&path)?;
    println!(
        "{}: camera on ({x}, {z}), slope {g:.2} ({:.0}°)",
        path.display(),
        g.atan().to_degrees()
    );
    Ok(())
}
