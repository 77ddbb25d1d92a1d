//! Fuzz the palette readers (a material table in RON, a MagicaVoxel .vox, a named-colour list): any
//! bytes, never a panic; a palette that reads applies to the built-in table as a valid table whose
//! remap stays inside it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use strata_engine::materials::{apply_palette, parse_palette};
use strata_engine::voxel::MaterialTable;

fuzz_target!(|data: &[u8]| {
    let table = MaterialTable::builtin();
    for ext in ["ron", "vox", "txt"] {
        let Ok(palette) = parse_palette(data, ext) else {
            continue;
        };
        if let Ok(change) = apply_palette(&table, &palette) {
            change.table.validate().expect("a palette change gives a valid table");
            if let Some(map) = change.remap {
                assert!(map.iter().take(table.len()).all(|&id| usize::from(id) < change.table.len()));
            }
        }
    }
});
