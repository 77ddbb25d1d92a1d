//! Assembling a [`Region`] row by row.
//!
//! Rows may arrive in any order (a quarter turn about Y produces them column by column); each row is
//! written in one go between [`RowsBuilder::start_row`] and [`RowsBuilder::end_row`], and equal
//! neighbouring voxels merge into one run as they arrive. [`RowsBuilder::finish`] lays the rows out in
//! row order (a no-op when they came in order) and trims the run array to its exact size.

use super::rows::{Region, Run};
use crate::voxel::Voxel;

/// A region under construction.
#[derive(Debug)]
pub(crate) struct RowsBuilder {
    size: [u32; 3],
    /// (first run, run count) of every row written so far.
    spans: Vec<(u32, u32)>,
    runs: Vec<Run>,
    /// True while every row so far came right after the previous one.
    in_order: bool,
    next_row: usize,
    /// The row being written, its first run and the x reached.
    row: usize,
    row_first: usize,
    x: usize,
    /// The run being extended (not yet in `runs`).
    pending: Option<Voxel>,
}

impl RowsBuilder {
    /// A builder for a region of `size` (already checked by the caller).
    pub fn new(size: [u32; 3]) -> Self {
        let rows = size[1] as usize * size[2] as usize;
        Self {
            size,
            spans: vec![(0, 0); rows],
            runs: Vec::new(),
            in_order: true,
            next_row: 0,
            row: 0,
            row_first: 0,
            x: 0,
            pending: None,
        }
    }

    /// Start row `row` (`z * size_y + y`).
    pub fn start_row(&mut self, row: usize) {
        debug_assert!(self.pending.is_none(), "previous row not ended");
        if row != self.next_row {
            self.in_order = false;
        }
        self.row = row;
        self.row_first = self.runs.len();
        self.x = 0;
    }

    /// Append `count` copies of `voxel` (normalized by the caller) to the current row.
    #[inline]
    pub fn push_fill(&mut self, voxel: Voxel, count: usize) {
        if count == 0 {
            return;
        }
        match self.pending {
            Some(p) if p == voxel => {}
            Some(p) => {
                self.runs.push(Run {
                    voxel: p,
                    end: self.x as u16,
                });
                self.pending = Some(voxel);
            }
            None => self.pending = Some(voxel),
        }
        self.x += count;
    }

    /// Append `voxels` (normalized by the caller) to the current row.
    #[inline]
    pub fn push_voxels(&mut self, voxels: &[Voxel]) {
        let Some((&first, rest)) = voxels.split_first() else {
            return;
        };
        self.push_fill(first, 1);
        let mut cur = first;
        for &v in rest {
            if v != cur {
                self.runs.push(Run {
                    voxel: cur,
                    end: self.x as u16,
                });
                cur = v;
            }
            self.x += 1;
        }
        self.pending = Some(cur);
    }

    /// Finish the current row.
    ///
    /// # Panics
    /// If the row does not hold exactly `size[0]` voxels (a caller bug).
    pub fn end_row(&mut self) {
        assert_eq!(self.x, self.size[0] as usize, "row length does not match");
        if let Some(p) = self.pending.take() {
            self.runs.push(Run {
                voxel: p,
                end: self.x as u16,
            });
        }
        let count = self.runs.len() - self.row_first;
        self.spans[self.row] = (self.row_first as u32, count as u32);
        self.next_row = self.row + 1;
    }

    /// The finished region. Run numbers fit in 32 bits because a region's volume does (checked by
    /// whoever chose the size).
    ///
    /// # Panics
    /// If a row was never written (a caller bug).
    pub fn finish(self) -> Region {
        assert!(
            self.spans.iter().all(|s| s.1 > 0),
            "every row must be written"
        );
        let mut row_start = Vec::with_capacity(self.spans.len() + 1);
        let runs = if self.in_order {
            row_start.extend(self.spans.iter().map(|s| s.0));
            let mut runs = self.runs;
            runs.shrink_to_fit();
            runs
        } else {
            let mut runs = Vec::with_capacity(self.runs.len());
            for &(first, count) in &self.spans {
                row_start.push(runs.len() as u32);
                runs.extend_from_slice(&self.runs[first as usize..(first + count) as usize]);
            }
            runs
        };
        row_start.push(runs.len() as u32);
        Region::from_parts(self.size, row_start, runs)
    }
}
