//! The `strata` module in voxels, and a Roblox-style sample script (written in the style of
//! Roblox's own terrain samples) that runs unchanged.

mod common;

use common::{at, id, ok};
use strata_engine::voxel::Voxel;

#[test]
fn read_write_fill_replace_copy_paste() {
    let out = ok(r#"
        local box = {0, 0, 0, 2, 1, 1}
        local buf = buffer.create(4)
        buffer.writeu8(buf, 0, 7) buffer.writeu8(buf, 1, 127)   -- voxel (0,0,0): material 7, half full
        buffer.writeu8(buf, 2, 0) buffer.writeu8(buf, 3, 200)   -- voxel (1,0,0): Air (occupancy ignored)
        strata.write(box, buf)
        local back = strata.read(box)
        assert(buffer.readu8(back, 0) == 7 and buffer.readu8(back, 1) == 127)
        assert(buffer.readu8(back, 2) == 0 and buffer.readu8(back, 3) == 0, "Air reads as 0, 0")
        strata.fill({0, 2, 0, 4, 3, 4}, "Sand", 0.5)
        strata.replace({0, 2, 0, 2, 3, 4}, "Sand", Enum.Material.Rock)
        local r = strata.copy({0, 2, 0, 4, 3, 1})
        strata.paste(r, {10, 10, 10})
        strata.dab{tool = "add", radius = 3, material = "Grass", at = {30.5, 20.5, 30.5}}
        local hit = strata.raycast({30.5, 31, 30.5}, {0, -1, 0})
        assert(hit and hit.material == "Grass", "the dab is hit from above")
        strata.print("bounds", strata.bounds[4], strata.bounds[5], strata.args.none)
    "#);
    assert_eq!(at(&out, 0, 0, 0), Voxel::new(7, 127));
    assert!(at(&out, 1, 0, 0).is_air());
    assert_eq!(
        at(&out, 1, 2, 3),
        Voxel::new(id("Rock"), 127),
        "replaced, occupancy kept"
    );
    assert_eq!(
        at(&out, 3, 2, 3),
        Voxel::new(id("Sand"), 127),
        "fill at 0.5"
    );
    assert_eq!(at(&out, 12, 10, 10), Voxel::new(id("Sand"), 127), "pasted");
    assert_eq!(at(&out, 30, 20, 30).material, id("Grass"));
    assert_eq!(out.output, vec!["bounds 64 32 nil"]);
}

#[test]
fn generate_fills_a_box_with_the_generator() {
    let out = ok(r#"strata.generate{biomes = {"plains"}, box = {0, 0, 0, 32, 32, 32}, seed = 4}"#);
    assert!(!at(&out, 5, 0, 5).is_air(), "ground at the bottom");
    assert!(at(&out, 40, 0, 40).is_air(), "nothing outside the box");
}

/// A sample in the style of Roblox's documentation: a region filled through WriteVoxels, then read
/// back, a ball of water, a block, and a region expanded to the grid.
#[test]
fn roblox_style_sample_runs_unchanged() {
    let out = ok(r#"
        local Terrain = workspace.Terrain

        -- Create a 3x3x3 cube of grass, as Roblox's WriteVoxels sample does.
        local region = Region3.new(Vector3.new(0, 0, 0), Vector3.new(12, 12, 12))
        local resolution = 4
        local materials, occupancies = {}, {}
        for x = 1, 3 do
            materials[x], occupancies[x] = {}, {}
            for y = 1, 3 do
                materials[x][y], occupancies[x][y] = {}, {}
                for z = 1, 3 do
                    materials[x][y][z] = Enum.Material.Grass
                    occupancies[x][y][z] = 1
                end
            end
        end
        Terrain:WriteVoxels(region, resolution, materials, occupancies)

        local mats, occs = Terrain:ReadVoxels(region, resolution)
        local size = mats.Size
        for x = 1, size.X do
            for y = 1, size.Y do
                for z = 1, size.Z do
                    if mats[x][y][z] ~= Enum.Material.Grass or occs[x][y][z] ~= 1 then
                        error("unexpected voxel")
                    end
                end
            end
        end

        Terrain:FillBall(Vector3.new(100, 40, 100), 10, Enum.Material.Water)
        Terrain:FillBlock(CFrame.new(150, 20, 150) * CFrame.Angles(0, math.rad(45), 0), Vector3.new(20, 8, 20), Enum.Material.Rock)
        local expanded = Region3.new(Vector3.new(201, 1, 201), Vector3.new(219, 9, 219)):ExpandToGrid(4)
        Terrain:FillRegion(expanded, 4, Enum.Material.Sand)
        print(string.format("read %d voxels", size.X * size.Y * size.Z))
    "#);
    assert_eq!(out.output, vec!["read 27 voxels"]);
    assert_eq!(at(&out, 2, 2, 2), Voxel::new(id("Grass"), 255));
    assert_eq!(at(&out, 25, 10, 25), Voxel::new(id("Water"), 255));
    assert_eq!(at(&out, 37, 5, 37), Voxel::new(id("Rock"), 255));
    assert_eq!(
        at(&out, 50, 0, 50),
        Voxel::new(id("Sand"), 255),
        "expanded to studs 200..220"
    );
    assert_eq!(at(&out, 54, 2, 54), Voxel::new(id("Sand"), 255));
    assert!(at(&out, 55, 0, 55).is_air());
}
