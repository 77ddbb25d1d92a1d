//! Heightmap import: a grayscale PNG (8- or 16-bit; colour images by luminance) and an optional colour
//! map of the same size into a new project. Shared by `strata import --format heightmap` and the
//! editor's File ▸ Import Heightmap; the voxels come from the engine's `gen::heightmap_grid`.

use std::path::{Path, PathBuf};

use image::DynamicImage;
use strata_engine::format::project::{Project, ProjectHeader};
use strata_engine::gen::{
    colormap_materials, heightmap_chunk_counts, heightmap_grid, Heightmap, HeightmapSettings,
};
use strata_engine::progress::Progress;
use strata_engine::voxel::{MaterialTable, VoxelBox, VoxelPos};

use crate::files::png::read_png;
use crate::{AppError, AppResult};

/// World height in voxels when none is given.
pub const DEFAULT_HEIGHT: u32 = 128;

/// What to import and how.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HeightmapImport {
    /// The grayscale heightmap PNG.
    pub map: PathBuf,
    /// A colour map PNG of the same size whose colours pick each column's surface material.
    pub colormap: Option<PathBuf>,
    /// The world's X,Z size (default: one voxel per pixel).
    pub size: Option<[u32; 2]>,
    /// The world's Y size: the height of the whitest sample (default [`DEFAULT_HEIGHT`]).
    pub height: Option<u32>,
    /// Terrace smoothing radius in pixels (0: off; see [`HeightmapImport::build_smoothed`]).
    pub smooth_radius: u32,
}

/// The heightmap of a decoded image: grey levels scaled to 16 bits (8-bit 255 becomes 65535).
pub fn heightmap_of(image: &DynamicImage) -> Heightmap {
    let luma = image.to_luma16();
    Heightmap {
        width: luma.width(),
        depth: luma.height(),
        samples: luma.into_raw(),
    }
}

impl HeightmapImport {
    /// Build the project.
    ///
    /// # Errors
    /// Unreadable or corrupt PNGs, a colour map whose size differs from the heightmap's, sizes out of
    /// range, cancellation.
    pub fn build(&self, progress: &Progress) -> AppResult<Project> {
        self.build_smoothed(self.smooth_radius, progress)
    }

    /// [`HeightmapImport::build`] with terrace smoothing over `smooth_radius` pixels (0: off, at most
    /// `gen::MAX_SMOOTHING_RADIUS`; see `gen::heightmap_grid`).
    ///
    /// # Errors
    /// As for [`HeightmapImport::build`], and a radius out of range.
    pub fn build_smoothed(&self, smooth_radius: u32, progress: &Progress) -> AppResult<Project> {
        self.load(smooth_radius)?.build(progress)
    }

    /// Read and check the images, ready to build with terrace smoothing over `smooth_radius`.
    ///
    /// # Errors
    /// As for [`HeightmapImport::build`], without cancellation.
    pub fn load(&self, smooth_radius: u32) -> AppResult<LoadedHeightmap> {
        let input = self.map.as_path();
        let height = self.height.unwrap_or(DEFAULT_HEIGHT);
        let map = heightmap_of(&read_png(input)?);
        let size = self.size.unwrap_or([map.width, map.depth]);
        let table = MaterialTable::builtin();
        let materials = match self.colormap.as_deref() {
            None => None,
            Some(path) => Some(colormap(&table, path, input, &map)?),
        };
        let settings = HeightmapSettings {
            size,
            height,
            smooth_radius,
        };
        Ok(LoadedHeightmap {
            input: input.to_path_buf(),
            map,
            materials,
            settings,
            table,
        })
    }
}

/// A heightmap read and checked, not yet built.
#[derive(Debug, Clone)]
pub struct LoadedHeightmap {
    input: PathBuf,
    map: Heightmap,
    materials: Option<Vec<u8>>,
    settings: HeightmapSettings,
    table: MaterialTable,
}

/// Bytes a chunk stored as one material costs (measured: a 2048 × 512 × 2048 world of uniform
/// chunks, 366 B each with its hash-table slot).
const UNIFORM_CHUNK_BYTES: u64 = 400;
/// Bytes a chunk the surface crosses costs, rounded up from generated hills (12.7 kB a chunk on
/// average over a 1024 × 256 × 1024 world).
const SURFACE_CHUNK_BYTES: u64 = 16 * 1024;
/// Memory of the save on top of the grid (the encoded file is built in memory).
const SAVE_OVERHEAD: f64 = 0.5;

impl LoadedHeightmap {
    /// The world's size in voxels.
    pub fn size(&self) -> [u32; 3] {
        let [x, z] = self.settings.size;
        [x, self.settings.height, z]
    }

    /// Peak memory the build and save will need, bytes, and the chunks it will store, estimated
    /// from the map's heights before any voxel is made.
    ///
    /// # Errors
    /// Sizes out of range.
    pub fn estimate(&self) -> AppResult<(u64, u64)> {
        let [uniform, surface] = heightmap_chunk_counts(&self.map, &self.settings)
            .map_err(|e| e.in_file(&self.input))?;
        let grid = uniform * UNIFORM_CHUNK_BYTES + surface * SURFACE_CHUNK_BYTES;
        let bytes =
            (grid as f64 * (1.0 + SAVE_OVERHEAD)) as u64 + self.map.samples.len() as u64 * 6;
        Ok((bytes, uniform + surface))
    }

    /// Build the project.
    ///
    /// # Errors
    /// Sizes out of range, cancellation.
    pub fn build(&self, progress: &Progress) -> AppResult<Project> {
        let input = self.input.as_path();
        let settings = self.settings;
        let grid = heightmap_grid(
            &self.map,
            self.materials.as_deref(),
            &settings,
            &self.table,
            progress,
        )
        .map_err(|e| e.in_file(input))?;
        let [x, y, z] = self.size();
        let bounds = VoxelBox::from_min_size(VoxelPos::new(0, 0, 0), [x, y, z]);
        let name = input.file_stem().map_or_else(
            || "heightmap".to_owned(),
            |s| s.to_string_lossy().into_owned(),
        );
        let mut header = ProjectHeader::new(name, bounds);
        header.materials = self.table.clone();
        Ok(Project::new(header, grid))
    }
}

fn colormap(
    table: &MaterialTable,
    path: &Path,
    input: &Path,
    map: &Heightmap,
) -> AppResult<Vec<u8>> {
    let colors = read_png(path)?.to_rgb8();
    if colors.dimensions() != (map.width, map.depth) {
        return Err(AppError::Usage(format!(
            "{}: the colour map is {}x{} but the heightmap {} is {}x{}; they must match",
            path.display(),
            colors.width(),
            colors.height(),
            input.display(),
            map.width,
            map.depth
        )));
    }
    Ok(colormap_materials(table, colors.as_raw()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::{ImageBuffer, Luma};
    use strata_engine::mesh::{mesh_chunk, MeshBuffer};

    /// Import a 16-bit PNG ramp rising at `angle_deg` (towards 30° off +X) and return the
    /// area-weighted mean angle between its interior faces and the ramp's normal, and the share of
    /// area more than 10° off.
    fn ramp_face_error(angle_deg: f64, dir: &Path) -> (f64, f64) {
        let (side, height) = (96u32, 256u32);
        let t = angle_deg.to_radians().tan();
        let a = 30f64.to_radians();
        let (gx, gz) = (t * a.cos(), t * a.sin());
        let h = |x: f64, z: f64| 128.0 + gx * (x - 48.0) + gz * (z - 48.0);
        let px: Vec<u16> = (0..side * side)
            .map(|i| {
                let (x, z) = (f64::from(i % side) + 0.5, f64::from(i / side) + 0.5);
                (h(x, z) / f64::from(height) * 65535.0).clamp(0.0, 65535.0) as u16
            })
            .collect();
        let map = dir.join(format!("ramp{angle_deg}.png"));
        ImageBuffer::<Luma<u16>, Vec<u16>>::from_raw(side, side, px)
            .expect("pixels")
            .save(&map)
            .expect("png");
        let import = HeightmapImport {
            map,
            height: Some(height),
            ..Default::default()
        };
        let project = import.build(&Progress::new()).expect("imports");
        let n = (1.0 + gx * gx + gz * gz).sqrt();
        let want = [-gx / n, 1.0 / n, -gz / n];
        let mut buf = MeshBuffer::new();
        let (mut area, mut weighted, mut off) = (0.0, 0.0, 0.0);
        let positions: Vec<_> = project.grid.chunks().map(|(p, _)| p).collect();
        for pos in positions {
            mesh_chunk(&project.grid, pos, 0, &project.header.materials, &mut buf).expect("mesh");
            for tri in buf.solid_indices.chunks_exact(3) {
                let p = [tri[0], tri[1], tri[2]].map(|i| buf.positions[i as usize].map(f64::from));
                let c = [0, 1, 2].map(|k| (p[0][k] + p[1][k] + p[2][k]) / 3.0);
                if !(12.0..84.0).contains(&c[0])
                    || !(12.0..84.0).contains(&c[2])
                    || !(8.0..248.0).contains(&c[1])
                {
                    continue;
                }
                let u = [0, 1, 2].map(|k| p[1][k] - p[0][k]);
                let v = [0, 1, 2].map(|k| p[2][k] - p[0][k]);
                let cross = [
                    u[1] * v[2] - u[2] * v[1],
                    u[2] * v[0] - u[0] * v[2],
                    u[0] * v[1] - u[1] * v[0],
                ];
                let len = cross.iter().map(|c| c * c).sum::<f64>().sqrt();
                if len == 0.0 {
                    continue;
                }
                let cos = (0..3).map(|k| cross[k] * want[k]).sum::<f64>() / len;
                let angle = cos.clamp(-1.0, 1.0).acos().to_degrees();
                area += len / 2.0;
                weighted += angle * len / 2.0;
                if angle > 10.0 {
                    off += len / 2.0;
                }
            }
        }
        assert!(area > 100.0, "no surface for {angle_deg}°");
        (weighted / area, off / area)
    }

    #[test]
    fn png_ramps_mesh_to_their_own_slope() {
        let dir = std::env::temp_dir().join(format!("strata-ramps-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        for angle in [15.0, 45.0, 63.0, 80.0] {
            let (mean, off) = ramp_face_error(angle, &dir);
            assert!(
                mean < 3.0 && off < 0.02,
                "{angle}°: mean {mean}°, {off} of the area off"
            );
        }
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }
}
