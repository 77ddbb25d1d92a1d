//! Each `workspace.Terrain` call and Roblox type against hand-computed voxels.
//!
//! Units: voxel i covers studs [4i, 4i + 4); its centre is 4i + 2. Occupancy o is stored as the
//! byte round(o × 256) − 1 (as `strata fill --occupancy`), Air where that rounds to nothing.

mod common;

use common::{at, fails, id, ok};
use strata_engine::voxel::Voxel;
use strata_script::Limits;

#[test]
fn fill_block_aligned_fills_exactly_its_voxels() {
    let out = ok("workspace.Terrain:FillBlock(CFrame.new(4, 4, 4), Vector3.new(8, 8, 8), Enum.Material.Rock)");
    let rock = Voxel::new(id("Rock"), 255);
    for (x, y, z) in [(0, 0, 0), (1, 1, 1), (1, 0, 1)] {
        assert_eq!(at(&out, x, y, z), rock, "{x},{y},{z}");
    }
    for (x, y, z) in [(2, 0, 0), (0, 2, 0), (0, 0, 2), (2, 2, 2)] {
        assert!(at(&out, x, y, z).is_air(), "{x},{y},{z}");
    }
    // Voxels −1..3 (the bounding box with a voxel of margin), clipped to the world at 0.
    assert_eq!(out.voxels_written, 3 * 3 * 3);
}

#[test]
fn fill_ball_occupancy_falls_off_at_the_surface() {
    // Centre at voxel (8, 8, 8)'s centre (34 studs), radius 6 studs: o = clamp(0.5 + (6 − d) / 4).
    let out = ok("workspace.Terrain:FillBall(Vector3.new(34, 34, 34), 6, Enum.Material.Grass)");
    let g = id("Grass");
    assert_eq!(at(&out, 8, 8, 8), Voxel::new(g, 255), "d = 0");
    assert_eq!(at(&out, 9, 8, 8), Voxel::new(g, 255), "d = 4: o = 1");
    assert!(at(&out, 10, 8, 8).is_air(), "d = 8: o = 0");
    // d = √32 = 5.657: o = 0.5858, byte round(149.96) − 1 = 149.
    assert_eq!(at(&out, 9, 9, 8), Voxel::new(g, 149));
    // d = √48 = 6.928: o = 0.268, byte round(68.6) − 1 = 68.
    assert_eq!(at(&out, 9, 9, 9), Voxel::new(g, 68));
}

#[test]
fn fill_cylinder_and_wedge() {
    let out = ok(r#"
        workspace.Terrain:FillCylinder(CFrame.new(2, 8, 2), 16, 2, Enum.Material.Rock)
        workspace.Terrain:FillWedge(CFrame.new(40, 8, 40), Vector3.new(16, 16, 16), Enum.Material.Sand)
    "#);
    let rock = Voxel::new(id("Rock"), 255);
    for y in 0..4 {
        assert_eq!(at(&out, 0, y, 0), rock, "column y {y}");
    }
    assert!(at(&out, 0, 4, 0).is_air(), "above the cylinder");
    assert!(at(&out, 1, 1, 0).is_air(), "beside the cylinder");
    // Wedge: voxels 8..12 in X and Z, 0..4 in Y; low at the front (−Z), full height at the back.
    let sand = id("Sand");
    assert_eq!(at(&out, 9, 0, 11), Voxel::new(sand, 255), "low back");
    assert!(at(&out, 9, 3, 8).is_air(), "high front");
    assert_eq!(
        at(&out, 9, 1, 9),
        Voxel::new(sand, 127),
        "on the slope: o = 0.5"
    );
}

#[test]
fn fill_region_read_and_write_voxels() {
    let out = ok(r#"
        local T = workspace.Terrain
        T:FillRegion(Region3.new(Vector3.new(0, 0, 0), Vector3.new(8, 4, 4)), 4, Enum.Material.Sand)
        local m, o = T:ReadVoxels(Region3.new(Vector3.new(0, 0, 0), Vector3.new(12, 4, 4)), 4)
        assert(m.Size == Vector3.new(3, 1, 1) and o.Size.X == 3, "Size")
        assert(#m == 3 and #m[1] == 1 and #m[1][1] == 1, "1-based [x][y][z]")
        assert(m[1][1][1] == Enum.Material.Sand and m[3][1][1] == Enum.Material.Air, "materials")
        assert(o[2][1][1] == 1 and o[3][1][1] == 0, "occupancies")
        local mats = {{{Enum.Material.Water}}, {{Enum.Material.Rock}}, {{Enum.Material.Rock}}}
        local occs = {{{0.5}}, {{1}}, {{0}}}
        T:WriteVoxels(Region3.new(Vector3.new(0, 4, 0), Vector3.new(12, 8, 4)), 4, mats, occs)
    "#);
    assert_eq!(at(&out, 0, 0, 0), Voxel::new(id("Sand"), 255));
    assert_eq!(at(&out, 1, 0, 0), Voxel::new(id("Sand"), 255));
    assert!(at(&out, 2, 0, 0).is_air());
    assert_eq!(at(&out, 0, 1, 0), Voxel::new(id("Water"), 127));
    assert_eq!(at(&out, 1, 1, 0), Voxel::new(id("Rock"), 255));
    assert!(at(&out, 2, 1, 0).is_air(), "occupancy 0 is Air");
}

#[test]
fn region_rules_follow_roblox() {
    let unaligned =
        "workspace.Terrain:ReadVoxels(Region3.new(Vector3.new(1, 0, 0), Vector3.new(8, 4, 4)), 4)";
    let (e, _) = fails(unaligned, Limits::default());
    assert!(
        e.contains("aligned to the grid") && e.starts_with("test.luau:1:"),
        "{e}"
    );
    let expanded =
        "local r = Region3.new(Vector3.new(1, 0, 0), Vector3.new(7, 3, 4)):ExpandToGrid(4)\n\
                    assert(r.Size == Vector3.new(8, 4, 4))\n\
                    workspace.Terrain:ReadVoxels(r, 4)";
    ok(expanded);
    let (e, _) = fails(
        "workspace.Terrain:FillRegion(Region3.new(Vector3.new(0,0,0), Vector3.new(4,4,4)), 2, Enum.Material.Rock)",
        Limits::default(),
    );
    assert!(e.contains("resolution must be 4"), "{e}");
    let (e, _) = fails(
        "workspace.Terrain:ReadVoxels(Region3.new(Vector3.new(0,0,0), Vector3.new(1024,1024,1024)), 4)",
        Limits::default(),
    );
    assert!(e.contains("too large") && e.contains("4194304"), "{e}");
    let (e, _) = fails(
        "workspace.Terrain:WriteVoxels(Region3.new(Vector3.new(0,0,0), Vector3.new(8,4,4)), 4, {{{Enum.Material.Rock}}}, {{{1}}})",
        Limits::default(),
    );
    assert!(e.contains("along X"), "{e}");
    let (e, _) = fails("local m = Enum.Material.Unobtainium", Limits::default());
    assert!(e.contains("Unobtainium") && e.contains("Rock"), "{e}");
}

#[test]
fn replace_clear_copy_paste() {
    let out = ok(r#"
        local T = workspace.Terrain
        T:FillRegion(Region3.new(Vector3.new(0, 0, 0), Vector3.new(16, 4, 4)), 4, Enum.Material.Sand)
        T:ReplaceMaterial(Region3.new(Vector3.new(0, 0, 0), Vector3.new(8, 4, 4)), 4, Enum.Material.Sand, Enum.Material.Rock)
        local copied = T:CopyRegion(Region3int16.new(Vector3int16.new(0, 0, 0), Vector3int16.new(3, 0, 0)))
        assert(copied.SizeInCells == Vector3.new(4, 1, 1))
        T:PasteRegion(copied, Vector3int16.new(10, 5, 10), true)
    "#);
    let (rock, sand) = (Voxel::new(id("Rock"), 255), Voxel::new(id("Sand"), 255));
    assert_eq!(at(&out, 1, 0, 0), rock);
    assert_eq!(at(&out, 2, 0, 0), sand);
    assert_eq!(at(&out, 10, 5, 10), rock);
    assert_eq!(at(&out, 13, 5, 10), sand);
    let cleared = ok(r#"
        workspace.Terrain:FillRegion(Region3.new(Vector3.new(0, 0, 0), Vector3.new(16, 4, 4)), 4, Enum.Material.Sand)
        workspace.Terrain:Clear()
    "#);
    assert!(at(&cleared, 1, 0, 0).is_air());
}

#[test]
fn cells_and_types() {
    ok(r#"
        local T = workspace.Terrain
        assert(T:WorldToCell(Vector3.new(5, -1, 8)) == Vector3.new(1, -1, 2))
        assert(T:CellCenterToWorld(1, 2, 3) == Vector3.new(6, 10, 14))
        assert(T:CellCornerToWorld(1, 2, 3) == Vector3.new(4, 8, 12))
        local v = Vector3.new(1, 2, 3)
        assert(v + Vector3.one == Vector3.new(2, 3, 4) and v * 2 == Vector3.new(2, 4, 6))
        assert(2 * v == v * 2 and (v / 2).X == 0.5 and -v == Vector3.new(-1, -2, -3))
        assert(math.abs(Vector3.new(3, 4, 0).Magnitude - 5) < 1e-12)
        local cf = CFrame.new(10, 0, 0) * CFrame.Angles(0, math.pi / 2, 0)
        local p = cf * Vector3.new(1, 0, 0)
        assert(p:FuzzyEq(Vector3.new(10, 0, -1), 1e-9), tostring(p))
        assert(cf:Inverse() * p):FuzzyEq(Vector3.new(1, 0, 0), 1e-9)
        assert(CFrame.new(Vector3.zero, Vector3.new(0, 0, -5)).LookVector:FuzzyEq(Vector3.new(0, 0, -1)))
        assert(math.noise(1, 2, 3) == 0 and math.noise(0.5, 0.25) ~= 0)
        assert(task.wait(0.1) == 0.1)
        assert(Enum.Material.Rock.Name == "Rock" and tostring(Enum.Material.Rock) == "Enum.Material.Rock")
        assert(game:GetService("Workspace").Terrain ~= nil)
    "#);
}

#[test]
fn change_history_names_the_step() {
    let out = ok(r#"game:GetService("ChangeHistoryService"):SetWaypoint("Carve river")"#);
    assert_eq!(out.step_name, "Carve river");
    assert_eq!(ok("print(1)").step_name, "Script test");
}

#[test]
fn write_then_read_voxels_round_trips_every_entry() {
    let out = ok(r#"
        local T = workspace.Terrain
        local r = Region3.new(Vector3.new(0, 0, 0), Vector3.new(12, 8, 16)) -- 3 × 2 × 4 voxels
        local names = {"Grass", "Rock", "Sand", "Snow"}
        local m, o = {}, {}
        for x = 1, 3 do
            m[x], o[x] = {}, {}
            for y = 1, 2 do
                m[x][y], o[x][y] = {}, {}
                for z = 1, 4 do
                    m[x][y][z] = Enum.Material[names[(x + y + z) % 4 + 1]]
                    o[x][y][z] = (x * 8 + y * 4 + z) / 64
                end
            end
        end
        T:WriteVoxels(r, 4, m, o)
        local m2, o2 = T:ReadVoxels(r, 4)
        assert(m2.Size == Vector3.new(3, 2, 4))
        for x = 1, 3 do
            for y = 1, 2 do
                for z = 1, 4 do
                    assert(m2[x][y][z] == m[x][y][z], string.format("material %d %d %d", x, y, z))
                    assert(math.abs(o2[x][y][z] - o[x][y][z]) < 1 / 256, "occupancy")
                end
            end
        end
    "#);
    // [3][2][4] is voxel (2, 1, 3): Rock ((3 + 2 + 4) % 4 + 1 = 2) at 36/64, byte 143.
    assert_eq!(at(&out, 2, 1, 3), Voxel::new(id("Rock"), 143));
    // [1][1][1] is voxel (0, 0, 0): Snow ((1 + 1 + 1) % 4 + 1 = 4) at 13/64: byte round(52) − 1.
    assert_eq!(at(&out, 0, 0, 0), Voxel::new(id("Snow"), 51));
}
