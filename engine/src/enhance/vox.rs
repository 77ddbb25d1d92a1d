//! MagicaVoxel `.vox` writer (version 150 with the scene-graph extension), one model per 256³ piece.
//!
//! ```text
//!   "VOX " i32 150
//!   MAIN (content 0, children M)
//!     SIZE x y z | XYZI n, n × (x y z colour: u8)        one pair per model (at most 256 per axis)
//!     nTRN 0 -> nGRP 1 -> { nTRN 2+2i (_t "x y z") -> nSHP 3+2i (model i) }
//!     RGBA 256 × (r g b a): entry k is colour index k + 1
//!   chunk = id (4 ASCII) | i32 content bytes | i32 children bytes | content | children; all LE
//! ```
//!
//! MagicaVoxel is Z-up; Strata is Y-up with Z to the south. A fragment `(x, y, z)` of the box (from its
//! minimum corner) becomes `(x, Z − 1 − z, y)` with `Z` the box's fragment depth, a rotation that keeps
//! the terrain unmirrored. A fragment's colour index is its material id, and the palette holds the
//! material table's colours at those indices. A model's `_t` is its centre: its minimum corner plus
//! half its size (rounded down), the anchor MagicaVoxel uses. Models with no solid fragment are left
//! out; a box with none at all gets one empty 1×1×1 model, since a file needs a model.

use std::io::Write;
use std::path::Path;

use super::volume::{FragmentBox, FragmentVolume};
use crate::format::AtomicFile;
use crate::progress::Progress;
use crate::voxel::MaterialTable;
use crate::{Error, Result};

/// Largest model edge MagicaVoxel opens.
pub const MODEL_EDGE: usize = 256;

/// One model: where it sits in MagicaVoxel space and how many voxels it has.
#[derive(Debug, Clone, Copy)]
struct Model {
    min: [usize; 3],
    size: [usize; 3],
    count: usize,
}

fn dict(pairs: &[(&str, &str)]) -> Vec<u8> {
    let mut d = (pairs.len() as i32).to_le_bytes().to_vec();
    for (k, v) in pairs {
        d.extend_from_slice(&(k.len() as i32).to_le_bytes());
        d.extend_from_slice(k.as_bytes());
        d.extend_from_slice(&(v.len() as i32).to_le_bytes());
        d.extend_from_slice(v.as_bytes());
    }
    d
}

fn chunk(id: &[u8; 4], content: &[u8]) -> Vec<u8> {
    let mut c = id.to_vec();
    c.extend_from_slice(&(content.len() as i32).to_le_bytes());
    c.extend_from_slice(&0i32.to_le_bytes());
    c.extend_from_slice(content);
    c
}

fn ints(v: &[i32]) -> Vec<u8> {
    v.iter().flat_map(|i| i.to_le_bytes()).collect()
}

/// The fragments of MagicaVoxel-space box `model` as Strata fragments, X fastest then Y then Z.
fn strata_box(b: FragmentBox, depth: usize, model: &Model) -> FragmentBox {
    let [x0, y0, z0] = model.min;
    let [sx, sy, sz] = model.size;
    FragmentBox {
        min: [
            b.min[0] + x0 as i64,
            b.min[1] + z0 as i64,
            b.min[2] + (depth - (y0 + sy)) as i64,
        ],
        max: [
            b.min[0] + (x0 + sx) as i64,
            b.min[1] + (z0 + sz) as i64,
            b.min[2] + (depth - y0) as i64,
        ],
    }
}

/// Scene graph, palette and the chunks around the models.
fn scene(models: &[Model]) -> Vec<u8> {
    let mut out = Vec::new();
    let n = models.len() as i32;
    let mut root = ints(&[0]);
    root.extend(dict(&[]));
    root.extend(ints(&[1, -1, -1, 1]));
    root.extend(dict(&[]));
    out.extend(chunk(b"nTRN", &root));
    let mut group = ints(&[1]);
    group.extend(dict(&[]));
    group.extend(ints(&[n]));
    group.extend(ints(&(0..n).map(|i| 2 + 2 * i).collect::<Vec<_>>()));
    out.extend(chunk(b"nGRP", &group));
    for (i, m) in models.iter().enumerate() {
        let i = i as i32;
        let t: Vec<String> = (0..3)
            .map(|a| (m.min[a] + m.size[a] / 2).to_string())
            .collect();
        let mut trn = ints(&[2 + 2 * i]);
        trn.extend(dict(&[]));
        trn.extend(ints(&[3 + 2 * i, -1, 0, 1]));
        trn.extend(dict(&[("_t", &t.join(" "))]));
        out.extend(chunk(b"nTRN", &trn));
        let mut shp = ints(&[3 + 2 * i]);
        shp.extend(dict(&[]));
        shp.extend(ints(&[1, i]));
        shp.extend(dict(&[]));
        out.extend(chunk(b"nSHP", &shp));
    }
    out
}

fn palette(table: &MaterialTable) -> Vec<u8> {
    let mut rgba = Vec::with_capacity(1024);
    for k in 1..=256usize {
        let (r, g, b) = table
            .get(k.min(255) as u8)
            .filter(|_| k < 256)
            .map_or((128, 128, 128), |m| m.color);
        rgba.extend_from_slice(&[r, g, b, 255]);
    }
    chunk(b"RGBA", &rgba)
}

/// Write the fragments of `b` as a `.vox` file at `path`. Returns (models written, solid fragments).
/// Reports one progress unit per model piece, twice (a counting pass, then the writing pass).
///
/// # Errors
/// [`Error::Io`] when the file cannot be written, [`Error::Invalid`] when it would exceed the format's
/// 2 GiB chunk sizes, [`Error::Cancelled`].
pub fn write_vox(
    volume: &FragmentVolume<'_>,
    b: FragmentBox,
    table: &MaterialTable,
    path: &Path,
    progress: &Progress,
) -> Result<(usize, u64)> {
    let [fx, fy, fz] = b.size();
    let vox_dims = [fx, fz, fy];
    let pieces = vox_dims.map(|d| d.div_ceil(MODEL_EDGE));
    progress.start(2 * (pieces[0] * pieces[1] * pieces[2]) as u64);
    let mut models = Vec::new();
    let mut frags = Vec::new();
    for mz in 0..pieces[2] {
        for my in 0..pieces[1] {
            for mx in 0..pieces[0] {
                progress.check()?;
                let min = [mx, my, mz].map(|m| m * MODEL_EDGE);
                let size = [0, 1, 2].map(|a| MODEL_EDGE.min(vox_dims[a] - min[a]));
                let mut m = Model {
                    min,
                    size,
                    count: 0,
                };
                let sb = strata_box(b, fz, &m);
                frags.clear();
                frags.resize(sb.volume(), 0);
                volume.read_box(sb, &mut frags);
                m.count = frags.iter().filter(|&&c| c != 0).count();
                if m.count > 0 {
                    models.push(m);
                }
                progress.advance(1);
            }
        }
    }
    if models.is_empty() {
        models.push(Model {
            min: [0; 3],
            size: [1; 3],
            count: 0,
        });
    }
    let scene = scene(&models);
    let palette = palette(table);
    let model_bytes: u64 = models.iter().map(|m| 24 + 16 + 4 * m.count as u64).sum();
    let children = model_bytes + scene.len() as u64 + palette.len() as u64;
    let children = i32::try_from(children).map_err(|_| {
        Error::Invalid(format!(
            "the .vox file would hold {children} bytes, over the format's 2 GiB: use a smaller box"
        ))
    })?;
    let mut file = AtomicFile::create(path)?;
    let io = |e| Error::io(path, e);
    let mut head = b"VOX ".to_vec();
    head.extend(ints(&[150]));
    head.extend_from_slice(b"MAIN");
    head.extend(ints(&[0, children]));
    file.write_all(&head).map_err(io)?;
    let mut xyzi = Vec::new();
    for m in &models {
        progress.check()?;
        let size: Vec<i32> = m.size.iter().map(|&s| s as i32).collect();
        file.write_all(&chunk(b"SIZE", &ints(&size))).map_err(io)?;
        xyzi.clear();
        xyzi.extend(ints(&[m.count as i32]));
        if m.count > 0 {
            let sb = strata_box(b, fz, m);
            let [sx, sy, sz] = sb.size();
            frags.clear();
            frags.resize(sb.volume(), 0);
            volume.read_box(sb, &mut frags);
            for z in 0..sz {
                for y in 0..sy {
                    for x in 0..sx {
                        let c = frags[(z * sy + y) * sx + x];
                        if c != 0 {
                            xyzi.extend_from_slice(&[x as u8, (sz - 1 - z) as u8, y as u8, c]);
                        }
                    }
                }
            }
        }
        file.write_all(&chunk(b"XYZI", &xyzi)).map_err(io)?;
        progress.advance(1);
    }
    file.write_all(&scene).map_err(io)?;
    file.write_all(&palette).map_err(io)?;
    file.commit()?;
    let solid = models.iter().map(|m| m.count as u64).sum();
    Ok((models.len(), solid))
}
