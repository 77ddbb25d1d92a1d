//! The Region tool's background work: the paste ghost (the region's surface meshed by the engine)
//! and the selection's files (export, stamp save, import). Each runs as a job on its own copy and
//! comes back into the tool's inbox as a [`Done`].

use std::path::PathBuf;
use std::sync::Arc;

use strata_engine::region::{ghost_lod, Region, RegionSurface};
use strata_engine::voxel::MaterialTable;

use super::region_state::{Done, NAME};
use crate::app::jobs::{Inbox, Job, JobKind};
use crate::region::region_files::{read_selection, write_selection};
use crate::viewport::overlay::GhostMesh;

/// Mesh the surface of `region` for the ghost of floating paste `generation`.
pub fn ghost_job(
    inbox: &Inbox<Done>,
    region: Arc<Region>,
    table: MaterialTable,
    generation: u64,
) -> Job {
    inbox
        .spawn(
            "Meshing paste preview",
            JobKind::Background,
            move |progress| {
                let surface =
                    RegionSurface::build(&region, &table, ghost_lod(region.size()), progress)?;
                let mut mesh = GhostMesh::default();
                for (_, buf) in &surface.chunks {
                    let base = mesh.positions.len() as u32;
                    mesh.positions.extend_from_slice(&buf.positions);
                    mesh.normals.extend_from_slice(&buf.normals);
                    let all = buf.solid_indices.iter().chain(&buf.water_indices);
                    mesh.indices.extend(all.map(|i| i + base));
                }
                Ok(Done::Ghost {
                    generation,
                    mesh: Arc::new(mesh),
                })
            },
        )
        .owned_by(NAME)
}

/// Write `region` to `path` (format from the extension).
pub fn write_job(
    inbox: &Inbox<Done>,
    path: PathBuf,
    region: Arc<Region>,
    table: MaterialTable,
) -> Job {
    let label = format!("Writing {}", path.display());
    inbox
        .spawn(label, JobKind::Background, move |_| {
            let name = crate::files::file_jobs::stem(&path);
            let message = write_selection(&path, &region, &name, &table)?;
            Ok(Done::Wrote(message))
        })
        .owned_by(NAME)
}

/// Read the region in `path` for a world with `table` (`size` for RLE and raw).
pub fn read_job(
    inbox: &Inbox<Done>,
    path: PathBuf,
    size: Option<[u32; 3]>,
    table: MaterialTable,
) -> Job {
    let label = format!("Reading {}", path.display());
    inbox
        .spawn(label, JobKind::Background, move |progress| {
            let region = read_selection(&path, size, &table, progress)?;
            Ok(Done::Read {
                region,
                name: crate::files::file_jobs::stem(&path),
                table,
            })
        })
        .owned_by(NAME)
}
