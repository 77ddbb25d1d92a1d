//! The data formats `export` and `import` name with `--format`, and which file extensions imply them.

use std::path::Path;

use clap::ValueEnum;

/// Data formats for `export` and `import`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// 2 bytes per voxel (material id, occupancy), X fastest, then Y, then Z; no header.
    Raw,
    /// The RLE stream of the box, same order; no header.
    Rle,
    /// A godot_voxel region forest (a folder: meta.vxrm + regions/lod*/r.X.Y.Z.vxr).
    Vxr,
    /// One godot_voxel v4 block in a compressed container.
    V4,
    /// Wavefront OBJ mesh of the surface (with a .mtl beside it).
    Obj,
    /// Binary glTF 2.0 mesh of the surface.
    Glb,
    /// Baked light: 3 bytes (R, G, B) per voxel, X fastest, then Y, then Z; 0,0,0 without light.
    Light,
    /// A glTF scene of tiles with levels of detail, materials, light and collision (.glb or .gltf).
    Scene,
    /// A grayscale heightmap: import reads 8- or 16-bit PNGs (colour images by luminance); export
    /// writes the top surface as a 16-bit PNG or a little-endian `.r16` with a JSON sidecar.
    Heightmap,
}

impl Format {
    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Format::Raw => "raw",
            Format::Rle => "rle",
            Format::Vxr => "vxr",
            Format::V4 => "v4",
            Format::Obj => "obj",
            Format::Glb => "glb",
            Format::Light => "light",
            Format::Heightmap => "heightmap",
            Format::Scene => "scene",
        }
    }

    /// The format an output file's extension names (`.raw`, `.rle`, `.obj`, `.glb`).
    pub fn from_extension(path: &Path) -> Option<Self> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "raw" => Some(Format::Raw),
            "rle" => Some(Format::Rle),
            "obj" => Some(Format::Obj),
            "glb" => Some(Format::Glb),
            "gltf" => Some(Format::Scene),
            _ => None,
        }
    }
}
