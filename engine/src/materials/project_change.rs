//! A material-table edit applied to a project as one undo step: the voxels whose ids move are
//! rewritten chunk by chunk (each chunk recorded first), then the table changes, and the history
//! keeps both, so undo puts back the voxels and the table together.

use super::table_edit::{Remap, TableChange};
use crate::format::project::Project;
use crate::history::{DataChange, DataKind};
use crate::progress::Progress;
use crate::storage::Grid;
use crate::voxel::{ChunkPos, MaterialTable, Voxel, VoxelBox, MATERIAL_COUNT};
use crate::{Error, Result};

/// What applying a table change did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Applied {
    /// The bounding box of the voxels rewritten (empty when no id moved).
    pub changed: VoxelBox,
    /// Chunks holding a material whose row changed (its colour, its light, its texture...): what
    /// a viewport redraws and a bake re-lights.
    pub affected: Vec<VoxelBox>,
}

/// The table as the history stores it.
pub fn table_bytes(table: &MaterialTable) -> Result<Vec<u8>> {
    ron::to_string(table)
        .map(String::into_bytes)
        .map_err(|e| Error::Invalid(format!("material table: {e}")))
}

/// The boxes of the chunks of `grid` that show a material whose row differs between `old` and `new`
/// (same id): what to redraw after an undo or redo put back another table.
pub fn affected_chunks(grid: &Grid, old: &MaterialTable, new: &MaterialTable) -> Vec<VoxelBox> {
    let rows = changed_rows(old, new, None);
    let mut out: Vec<VoxelBox> = grid
        .chunks()
        .filter(|(_, c)| {
            let mut counts = [0u64; MATERIAL_COUNT];
            c.count_materials(&mut counts);
            counts.iter().zip(rows).any(|(&n, ch)| n > 0 && ch)
        })
        .map(|(p, _)| p.voxel_box())
        .collect();
    out.sort_unstable_by_key(|b| (b.min.z, b.min.y, b.min.x));
    out
}

/// Apply `change` to `project` as one undo step called `name`. Progress counts chunks.
///
/// # Errors
/// [`Error::Cancelled`] (nothing is applied then: the rewritten chunks are rolled back).
pub fn apply_change(
    project: &mut Project,
    name: &str,
    change: TableChange,
    progress: &Progress,
) -> Result<Applied> {
    let old = project.header.materials.clone();
    let before = table_bytes(&old)?;
    let after = table_bytes(&change.table)?;
    let remap = change.remap;
    let rows_changed = changed_rows(&old, &change.table, remap.as_ref());
    let mut positions = project.grid.sorted_positions();
    positions.retain(|p| {
        project.grid.chunk(*p).is_some_and(|c| {
            let mut counts = [0u64; MATERIAL_COUNT];
            c.count_materials(&mut counts);
            counts.iter().zip(rows_changed).any(|(&n, ch)| n > 0 && ch)
                || remap.is_some_and(|m| {
                    counts
                        .iter()
                        .enumerate()
                        .any(|(id, &n)| n > 0 && usize::from(m[id]) != id)
                })
        })
    });
    project.history.begin_group(name);
    progress.start(positions.len() as u64);
    let mut changed = VoxelBox::default();
    let mut affected = Vec::new();
    for &pos in &positions {
        if let Err(e) = progress.check() {
            project.history.discard_group(&mut project.grid)?;
            return Err(e);
        }
        let b = pos.voxel_box();
        affected.push(b);
        if let Some(map) = &remap {
            if remap_chunk(project, pos, map, name) {
                changed = changed.union(&b);
            }
        }
        progress.advance(1);
    }
    let history = &mut project.history;
    history.record_data(
        DataChange {
            kind: DataKind::Materials,
            before,
            after,
        },
        name,
    );
    history.end_group();
    project.header.materials = change.table;
    Ok(Applied { changed, affected })
}

/// Rewrite the ids of chunk `pos` through `map`, recording the chunk first; false when no voxel
/// of it moved.
fn remap_chunk(project: &mut Project, pos: ChunkPos, map: &Remap, name: &str) -> bool {
    let b = pos.voxel_box();
    let mut voxels = project.grid.read_box_vec(b);
    let mut moved = false;
    for v in &mut voxels {
        let to = map[usize::from(v.material & 0x3f)];
        if to != v.material {
            *v = Voxel::new(to, v.occupancy);
            moved = true;
        }
    }
    if moved {
        project.history.record(&project.grid, b, name);
        project.grid.write_box(b, &voxels);
    }
    moved
}

/// Per old id: true when the material its voxels show after the change differs from before.
fn changed_rows(
    old: &MaterialTable,
    new: &MaterialTable,
    remap: Option<&Remap>,
) -> [bool; MATERIAL_COUNT] {
    std::array::from_fn(|id| {
        let to = remap.map_or(id, |m| usize::from(m[id]));
        old.materials.get(id) != new.materials.get(to)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::project::ProjectHeader;
    use crate::materials::table_edit::{remove, set, MaterialPatch};
    use crate::storage::Grid;
    use crate::voxel::VoxelPos;

    fn project() -> Project {
        let t = MaterialTable::builtin();
        let (mud, rock) = (t.id_of("Mud").expect("mud"), t.id_of("Rock").expect("rock"));
        let mut grid = Grid::new();
        grid.fill_box(
            VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(64, 8, 40)),
            Voxel::filled(rock),
        );
        grid.fill_box(
            VoxelBox::new(VoxelPos::new(40, 8, 0), VoxelPos::new(50, 12, 10)),
            Voxel::new(mud, 200),
        );
        let bounds = VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(64, 32, 40));
        Project::new(ProjectHeader::new("m", bounds), grid)
    }

    #[test]
    fn a_removal_remaps_the_voxels_and_undoes_as_one_step() {
        let mut p = project();
        let before = (p.grid.clone(), p.header.materials.clone());
        let t = p.header.materials.clone();
        let sand = t.id_of("Sand").expect("sand");
        let change = remove(&t, "Mud", "Sand").expect("remove");
        let done = apply_change(&mut p, "Remove Mud", change, &Progress::new()).expect("apply");
        // Rock sits above Mud, so its id moves down too: every chunk is rewritten.
        assert_eq!(
            done.changed,
            VoxelBox::new(VoxelPos::new(0, 0, 0), VoxelPos::new(64, 32, 64))
        );
        assert_eq!(p.header.materials.id_of("Mud"), None);
        let v = p.grid.get(VoxelPos::new(45, 9, 5));
        assert_eq!(
            (v.material, v.occupancy),
            (sand - 1, 200),
            "Sand moved down one id"
        );
        let rock = p.header.materials.id_of("Rock").expect("rock");
        assert_eq!(p.grid.get(VoxelPos::new(1, 1, 1)).material, rock);
        assert_eq!(p.history.undo_len(), 1);
        p.grid.assert_valid();
        // Saved and loaded, then undone: voxels and table as they were.
        let mut back = Project::from_bytes(&p.to_bytes().expect("save")).expect("load");
        assert_eq!(back.undo().expect("undo").as_deref(), Some("Remove Mud"));
        assert_eq!((back.grid.clone(), back.header.materials.clone()), before);
        back.redo().expect("redo");
        assert_eq!(back.header.materials, p.header.materials);
        assert!(back.grid == p.grid);
    }

    #[test]
    fn a_recolour_changes_no_voxel_and_names_the_chunks_that_show_it() {
        let mut p = project();
        let t = p.header.materials.clone();
        let patch = MaterialPatch {
            color: Some((255, 0, 255)),
            ..MaterialPatch::default()
        };
        let change = set(&t, "Mud", &patch).expect("set");
        let grid = p.grid.clone();
        let done = apply_change(&mut p, "Recolour Mud", change, &Progress::new()).expect("apply");
        assert!(done.changed.is_empty());
        assert_eq!(
            done.affected,
            vec![VoxelBox::new(
                VoxelPos::new(32, 0, 0),
                VoxelPos::new(64, 32, 32)
            )]
        );
        assert!(p.grid == grid);
        p.undo().expect("undo");
        assert_eq!(p.header.materials, t);
    }
}
