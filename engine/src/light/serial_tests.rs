//! `LITE` payload tests: golden bytes, round trips through the project file, rejects.

use super::map::LightMap;
use super::serial::{from_bytes, to_bytes};
use super::*;
use crate::format::project::{Project, ProjectHeader};
use crate::progress::Progress;
use crate::storage::Grid;
use crate::voxel::{Voxel, VoxelBox, VoxelPos};
use crate::Error;

fn bx(a: [i32; 3], b: [i32; 3]) -> VoxelBox {
    VoxelBox::new(VoxelPos::from(a), VoxelPos::from(b))
}

fn tiny_settings() -> LightSettings {
    LightSettings {
        sun_dir: [0.0, 1.0, 0.0],
        sun_color: [1.0, 0.5, 0.25],
        sky_color: [2.0, 2.0, 2.0],
        particles: 2,
        steps: 3,
        step_length: 1.0,
        sun_bias: 0.5,
        seed: 7,
        emission: false,
        bounce: 0,
        denoise: false,
    }
}

#[test]
fn golden_bytes() {
    let mut map = LightMap::from_sorted(
        tiny_settings(),
        &[
            (VoxelPos::new(1, 0, 0), [4096, 2048, 1], WalkExtent::UNKNOWN),
            (VoxelPos::new(0, 1, 0), [0, 0, 65535], WalkExtent::UNKNOWN),
            (VoxelPos::new(-1, 0, 0), [7, 8, 9], WalkExtent::UNKNOWN),
        ],
    );
    map.mark_stale(bx([0, 0, 0], [1, 2, 3]));
    let bytes = to_bytes(&map);
    #[rustfmt::skip]
    let expected: Vec<u8> = [
        vec![1u8],
        // sun_dir 0,1,0 | sun_color 1,0.5,0.25 | sky_color 2,2,2
        vec![0, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0],
        vec![0, 0, 0x80, 0x3f, 0, 0, 0, 0x3f, 0, 0, 0x80, 0x3e],
        vec![0, 0, 0, 0x40, 0, 0, 0, 0x40, 0, 0, 0, 0x40],
        // particles 2, steps 3, step_length 1, sun_bias 0.5, seed 7
        vec![2, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0x3f],
        vec![7, 0, 0, 0, 0, 0, 0, 0],
        // one stale box 0,0,0 .. 1,2,3
        vec![1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0],
        // two chunks: (-1, 0, 0) then (0, 0, 0)
        vec![2, 0, 0, 0],
        vec![0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0],
        vec![31, 0, 7, 0, 8, 0, 9, 0],
        vec![0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0],
        // local indices 1 (x = 1) and 32 (y = 1), then their light
        vec![1, 0, 32, 0, 0x00, 0x10, 0x00, 0x08, 1, 0, 0, 0, 0, 0, 0xff, 0xff],
    ]
    .concat();
    assert_eq!(bytes, expected);
    let back = from_bytes(&bytes, 0).expect("decodes");
    assert!(back == map);
    assert_eq!(
        back.light(VoxelPos::new(1, 0, 0)),
        Some([1.0, 0.5, 1.0 / 4096.0])
    );
}

fn baked_project() -> Project {
    let mut grid = Grid::new();
    grid.fill_box(bx([0, 0, 0], [20, 3, 20]), Voxel::filled(7));
    grid.fill_box(bx([5, 3, 5], [8, 10, 8]), Voxel::filled(18));
    let header = ProjectHeader::new("lit", bx([0, 0, 0], [20, 16, 20]));
    let mut p = Project::new(header, grid);
    let settings = LightSettings {
        particles: 3,
        steps: 6,
        ..LightSettings::default()
    };
    let (light, _) = bake_grid(
        &p.grid,
        &p.header.materials,
        &[],
        &settings,
        &Progress::new(),
    )
    .expect("bake");
    p.light = Some(light);
    p
}

#[test]
fn projects_keep_their_light_and_old_files_still_open() {
    let p = baked_project();
    let bytes = p.to_bytes().expect("encodes");
    let back = Project::from_bytes(&bytes).expect("decodes");
    assert!(back.light == p.light);
    assert_eq!(back.to_bytes().expect("again"), bytes);
    let mut old = p.clone();
    old.light = None;
    let old_bytes = old.to_bytes().expect("encodes");
    assert!(!old_bytes.windows(4).any(|w| w == b"LITE"));
    assert!(Project::from_bytes(&old_bytes)
        .expect("old")
        .light
        .is_none());
    // Stale regions survive a save.
    let mut edited = p.clone();
    let b = bx([5, 3, 5], [8, 10, 8]);
    edited.grid.fill_box(b, Voxel::AIR);
    edited.light.as_mut().expect("light").mark_stale(b);
    let back = Project::from_bytes(&edited.to_bytes().expect("enc")).expect("stale loads");
    let light = back.light.expect("light");
    assert_eq!(light.stale_boxes().collect::<Vec<_>>(), vec![b]);
}

/// The LITE payload range inside a project file's bytes.
fn lite_payload(bytes: &[u8]) -> std::ops::Range<usize> {
    let at = bytes
        .windows(4)
        .position(|w| w == b"LITE")
        .expect("LITE section");
    let mut len = [0u8; 8];
    len.copy_from_slice(&bytes[at + 4..at + 12]);
    let start = at + 20;
    start..start + u64::from_le_bytes(len) as usize
}

#[test]
fn light_payload_rejects() {
    let p = baked_project();
    let good = to_bytes(p.light.as_ref().expect("light"));
    let reject = |bytes: &[u8], word: &str| match from_bytes(bytes, 100) {
        Err(Error::Corrupt { offset, reason }) => {
            assert!(offset >= 100, "offset {offset} is absolute");
            assert!(reason.contains(word), "{reason} should mention {word}");
        }
        Err(Error::UnsupportedVersion { .. }) => assert_eq!(word, "version"),
        other => panic!("expected an error about {word}, got {other:?}"),
    };
    for cut in 0..good.len() {
        assert!(from_bytes(&good[..cut], 0).is_err(), "cut at {cut}");
    }
    let mut b = good.clone();
    b[0] = 2;
    reject(&b, "version");
    let mut b = good.clone();
    b[37..41].copy_from_slice(&0u32.to_le_bytes());
    reject(&b, "particles");
    let mut b = good.clone();
    b[1..5].copy_from_slice(&f32::NAN.to_le_bytes());
    reject(&b, "finite");
    let mut b = good.clone();
    b[61..65].copy_from_slice(&u32::MAX.to_le_bytes());
    reject(&b, "stale boxes do not fit");
    let mut b = good.clone();
    b[65..69].copy_from_slice(&u32::MAX.to_le_bytes());
    reject(&b, "light chunks do not fit");
    let mut b = good.clone();
    b[81..85].copy_from_slice(&40_000u32.to_le_bytes());
    reject(&b, "impossible");
    let mut b = good.clone();
    b[85..87].copy_from_slice(&40_000u16.to_le_bytes());
    reject(&b, "out of range or order");
    let mut b = good.clone();
    b.push(0);
    reject(&b, "follow");
}

/// Loads `p`'s bytes: the voxels always load; returns the warnings. The light, if kept, fits the
/// voxels afterwards (a second check finds nothing).
fn load_repaired(p: &Project) -> (Project, String) {
    let back = Project::from_bytes(&p.to_bytes().expect("enc")).expect("the voxels load");
    assert!(back.grid == p.grid, "the voxels are the file's");
    if let Some(light) = &back.light {
        let mut again = light.clone();
        let second = super::serial::fit_to_voxels(&mut again, &back.grid, &back.header.materials)
            .expect("checks");
        assert_eq!(second, None, "the repaired light fits");
    }
    let w = back.warnings.join("\n");
    (back, w)
}

#[test]
fn light_that_does_not_fit_its_voxels_is_marked_stale_and_the_voxels_load() {
    let p = baked_project();
    let (clean, w) = load_repaired(&p);
    assert!(w.is_empty() && clean.light == p.light, "{w}");
    let mut wrong = p.clone();
    // Light for a buried voxel (not a surface voxel).
    let light = wrong.light.as_mut().expect("light");
    let mut entries: Vec<_> = light
        .entries()
        .map(|(p, rgb)| (p, rgb, WalkExtent::UNKNOWN))
        .collect();
    entries.push((VoxelPos::new(10, 1, 10), [1, 2, 3], WalkExtent::UNKNOWN));
    entries.sort_by_key(|(p, _, _)| {
        let c = p.chunk();
        (c.z, c.y, c.x, super::map::local_index(*p))
    });
    *light = LightMap::from_sorted(*light.settings(), &entries);
    let (back, msg) = load_repaired(&wrong);
    assert!(
        msg.contains("(10, 1, 10)") && msg.contains("not a surface voxel"),
        "{msg}"
    );
    let light = back.light.expect("kept");
    assert!(light.is_stale(VoxelPos::new(10, 1, 10)));
    assert!(
        !light.is_stale(VoxelPos::new(19, 3, 19)),
        "only near the misfit"
    );
    // Light for a voxel of air (voxels changed by a program that did not mark the light stale).
    let mut air = p.clone();
    air.grid.fill_box(bx([5, 3, 5], [8, 10, 8]), Voxel::AIR);
    let (back, msg) = load_repaired(&air);
    assert!(
        msg.contains("not a surface voxel") && msg.contains("re-bake"),
        "{msg}"
    );
    assert!(back.light.expect("kept").is_stale(VoxelPos::new(5, 9, 5)));
    // A surface voxel without light.
    let mut grown = p.clone();
    grown
        .grid
        .fill_box(bx([15, 5, 15], [16, 6, 16]), Voxel::filled(7));
    let (back, msg) = load_repaired(&grown);
    assert!(msg.contains("without light"), "{msg}");
    assert!(back.light.expect("kept").is_stale(VoxelPos::new(15, 5, 15)));
    // The same edits marked stale load without a warning.
    grown
        .light
        .as_mut()
        .expect("light")
        .mark_stale(bx([15, 5, 15], [16, 6, 16]));
    let (_, msg) = load_repaired(&grown);
    assert!(msg.is_empty(), "{msg}");
    // A flipped byte inside the section is caught by its checksum.
    let mut bytes = p.to_bytes().expect("enc");
    let r = lite_payload(&bytes);
    bytes[r.start + 70] ^= 4;
    assert!(matches!(
        Project::from_bytes(&bytes),
        Err(Error::Corrupt { .. })
    ));
}
