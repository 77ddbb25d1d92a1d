//! Fuzz the project file decoder (sections, header, chunk table, chunk records, history).
#![no_main]

use libfuzzer_sys::fuzz_target;
use strata_engine::format::project::Project;

fuzz_target!(|data: &[u8]| {
    if let Ok(p) = Project::from_bytes(data) {
        p.grid.assert_valid();
    }
});
