//! Fuzz the undo history decoder: a history that loads must undo and redo without error.
#![no_main]

use libfuzzer_sys::fuzz_target;
use strata_engine::history::History;
use strata_engine::storage::Grid;

fuzz_target!(|data: &[u8]| {
    if let Ok(mut h) = History::from_bytes(data, 0) {
        let mut grid = Grid::new();
        while let Ok(Some(_)) = h.undo(&mut grid) {}
        while let Ok(Some(_)) = h.redo(&mut grid) {}
    }
});
