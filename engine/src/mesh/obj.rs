//! Wavefront OBJ + MTL writer, streamed chunk by chunk.
//!
//! ```text
//!   NAME.obj                               NAME.mtl
//!   mtllib NAME.mtl                        newmtl Rock
//!   o terrain                              Kd 0.463 0.455 0.439   (sRGB color / 255)
//!   v x y z r g b    (vertex color, sRGB)  ...
//!   vn nx ny nz                            newmtl Water
//!   usemtl Rock                            Kd ...
//!   f a//a b//b c//c (1-based)             d 0.6                  (liquids are translucent)
//! ```
//!
//! Vertex and face lines are written after every chunk, so memory holds the weld map but not the
//! text. Faces are grouped by the heaviest material of their first vertex. Colors are sRGB because OBJ
//! readers display them as they are.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::weld::{Marks, Welded};
use crate::format::{write_atomic, AtomicFile};
use crate::voxel::{linear_to_srgb, MaterialTable};
use crate::{Error, Result};

/// An OBJ file being written, plus the MTL text written at the end.
pub(crate) struct ObjWriter {
    file: AtomicFile,
    path: PathBuf,
    mtl_path: PathBuf,
    names: Vec<String>,
    mtl: String,
    scratch: Vec<[u32; 4]>,
}

/// A material name usable in OBJ/MTL (no whitespace).
fn sanitize(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_whitespace() { '_' } else { c })
        .collect()
}

/// The material (`.mtl`) file an OBJ at `path` comes with: `path` with the extension `.mtl`.
pub fn obj_material_path(path: &Path) -> PathBuf {
    path.with_extension("mtl")
}

impl ObjWriter {
    /// Start `path` (and plan its [`obj_material_path`]).
    pub fn create(path: &Path, table: &MaterialTable) -> Result<Self> {
        let mtl_path = obj_material_path(path);
        if mtl_path == path || crate::format::same_file(&mtl_path, path) {
            return Err(Error::Invalid(format!(
                "{}: the OBJ's material file would be this same file; name the OBJ with another \
                 extension (.obj)",
                path.display()
            )));
        }
        let mtl_name = mtl_path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .ok_or_else(|| Error::Invalid(format!("{}: not a file name", path.display())))?;
        let mut names = Vec::new();
        let mut mtl = String::from("# Strata terrain materials\n");
        for m in &table.materials {
            let name = sanitize(&m.name);
            let (r, g, b) = m.color;
            mtl.push_str(&format!(
                "newmtl {name}\nKa 0 0 0\nKd {:.4} {:.4} {:.4}\nKs 0 0 0\nillum 1\n",
                f32::from(r) / 255.0,
                f32::from(g) / 255.0,
                f32::from(b) / 255.0
            ));
            if let Some(e) = m.emission.filter(|e| !e.is_dark()) {
                let (r, g, b) = e.color;
                mtl.push_str(&format!(
                    "Ke {:.4} {:.4} {:.4}\n",
                    f32::from(r) / 255.0 * e.strength,
                    f32::from(g) / 255.0 * e.strength,
                    f32::from(b) / 255.0 * e.strength
                ));
            }
            if m.liquid {
                mtl.push_str("d 0.6\n");
            }
            mtl.push('\n');
            names.push(name);
        }
        let mut file = AtomicFile::create(path)?;
        writeln!(file, "# Strata terrain mesh\nmtllib {mtl_name}\no terrain")
            .map_err(|e| Error::io(path, e))?;
        Ok(Self {
            file,
            path: path.to_path_buf(),
            mtl_path,
            names,
            mtl,
            scratch: Vec::new(),
        })
    }

    /// Write what the last chunk added to `w`.
    pub fn append(&mut self, w: &Welded, from: Marks) -> Result<()> {
        self.write_tail(w, from)
            .map_err(|e| Error::io(&self.path, e))
    }

    fn write_tail(&mut self, w: &Welded, from: Marks) -> std::io::Result<()> {
        let f = &mut self.file;
        let o = w.origin;
        if from.vertices == 0 && w.positions.len() > from.vertices && (o.x, o.y, o.z) != (0, 0, 0) {
            writeln!(
                f,
                "# origin {} {} {}: vertex positions are relative to this world position (voxels)",
                o.x, o.y, o.z
            )?;
        }
        for i in from.vertices..w.positions.len() {
            let [x, y, z] = w.positions[i];
            let c = w.colors[i].map(|l| f32::from(linear_to_srgb(l)) / 255.0);
            writeln!(f, "v {x} {y} {z} {:.4} {:.4} {:.4}", c[0], c[1], c[2])?;
        }
        for i in from.vertices..w.positions.len() {
            let [x, y, z] = w.normals[i];
            writeln!(f, "vn {x:.5} {y:.5} {z:.5}")?;
        }
        for (list, start) in [(&w.solid, from.solid), (&w.water, from.water)] {
            self.scratch.clear();
            for t in list[start..].chunks_exact(3) {
                let m = u32::from(w.material[t[0] as usize]);
                self.scratch.push([m, t[0], t[1], t[2]]);
            }
            self.scratch.sort_by_key(|t| t[0]);
            let mut current = u32::MAX;
            for &[m, a, b, c] in &self.scratch {
                if m != current {
                    current = m;
                    let name = self.names.get(m as usize).map_or("Unknown", String::as_str);
                    writeln!(self.file, "usemtl {name}")?;
                }
                let (a, b, c) = (a + 1, b + 1, c + 1);
                writeln!(self.file, "f {a}//{a} {b}//{b} {c}//{c}")?;
            }
        }
        Ok(())
    }

    /// Write the MTL file and commit the OBJ.
    pub fn finish(self) -> Result<()> {
        write_atomic(&self.mtl_path, self.mtl.as_bytes())?;
        self.file.commit()
    }
}
