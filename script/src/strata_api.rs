//! The `strata` module: Strata's own API, in voxels (voxel `(x, y, z)` spans `x..x+1` on each
//! axis, boxes are half-open `{x0, y0, z0, x1, y1, z1}`).
//!
//! | call | what |
//! |---|---|
//! | `strata.read(box)` | a buffer of 2 bytes per voxel (material id, occupancy byte), X fastest, then Y, then Z |
//! | `strata.write(box, buf)` | the inverse of `read` |
//! | `strata.fill(box, material, occupancy?)` | one material at one occupancy (0..1, default 1) |
//! | `strata.replace(box, from, to)` | a material by another, occupancy kept |
//! | `strata.copy(box)` / `strata.paste(region, {x,y,z}, pasteAir?)` | a copied box and its paste |
//! | `strata.dab{tool, shape, radius, strength, material, at}` | one dab of the editor's brush |
//! | `strata.raycast(from, dir, max?)` | the first voxel at least half full along a ray |
//! | `strata.generate{biomes, box, seed?, biome_size?, caves?}` | the world generator's terrain in a box |
//! | `strata.bake{quality?, bounce?, denoise?, emission?, seed?}` | bake the light once the run is installed |
//! | `strata.args`, `strata.bounds`, `strata.materials`, `strata.print` | run inputs and console |

use mlua::{Buffer, Lua, Table, Value};
use strata_engine::gen::{generate_region, Biome, BiomeSettings, WorldSettings};
use strata_engine::light::{LightSettings, Quality};
use strata_engine::progress::Progress;
use strata_engine::tools::{apply_dab, Brush, BrushShape, Tool, ToolKind};
use strata_engine::voxel::{Voxel, VoxelBox, VoxelPos, AIR};

use crate::limits::{MAX_BUFFER_VOXELS, MAX_REGION_VOXELS};
use crate::roblox::material_enum::material_arg;
use crate::roblox::region3::check_size;
use crate::roblox::terrain_voxels::{
    copy_region, fill_region, paste_region, replace_material, TerrainRegion,
};
use crate::roblox::vector3::Vector3int16;
use crate::state::{lua_err, with_state};
use crate::world::occupancy_voxel;

/// A `{x0, y0, z0, x1, y1, z1}` table as a box, at most `max` voxels.
fn voxel_box(t: &Table, call: &str, max: u64) -> mlua::Result<VoxelBox> {
    let mut v = [0i32; 6];
    for (i, slot) in v.iter_mut().enumerate() {
        let n: f64 = t.raw_get(i + 1).map_err(|_| {
            mlua::Error::runtime(format!(
                "{call}: a box is {{x0, y0, z0, x1, y1, z1}} numbers"
            ))
        })?;
        if !n.is_finite() || n.fract() != 0.0 || n.abs() > f64::from(1 << 28) {
            return Err(mlua::Error::runtime(format!(
                "{call}: box entry {} ({n}) must be a whole number within ±2^28",
                i + 1
            )));
        }
        *slot = n as i32;
    }
    let b = VoxelBox::new(
        VoxelPos::new(v[0], v[1], v[2]),
        VoxelPos::new(v[3], v[4], v[5]),
    );
    if b.is_empty() {
        return Err(mlua::Error::runtime(format!(
            "{call}: the box is empty (each of x1, y1, z1 must exceed x0, y0, z0)"
        )));
    }
    check_size(call, &b, max)?;
    Ok(b)
}

fn point(t: &Table, call: &str) -> mlua::Result<[f32; 3]> {
    let mut p = [0.0f32; 3];
    for (i, slot) in p.iter_mut().enumerate() {
        let n: f64 = t.raw_get(i + 1)?;
        if !n.is_finite() {
            return Err(mlua::Error::runtime(format!(
                "{call}: a point is 3 finite numbers"
            )));
        }
        *slot = n as f32;
    }
    Ok(p)
}

fn material(lua: &Lua, v: &Value, what: &str) -> mlua::Result<u8> {
    with_state(lua, |s| material_arg(s.world.materials(), v, what))
}

fn read(lua: &Lua, t: Table) -> mlua::Result<Buffer> {
    let b = voxel_box(&t, "strata.read", MAX_BUFFER_VOXELS)?;
    let voxels = with_state(lua, |s| Ok(s.world.read_box(b)))?;
    let bytes: Vec<u8> = voxels
        .iter()
        .flat_map(|v| [v.material, v.occupancy])
        .collect();
    lua.create_buffer(bytes)
}

fn write(lua: &Lua, (t, buf): (Table, Buffer)) -> mlua::Result<()> {
    let b = voxel_box(&t, "strata.write", MAX_BUFFER_VOXELS)?;
    if buf.len() != 2 * b.volume() {
        return Err(mlua::Error::runtime(format!(
            "strata.write: the buffer has {} bytes, the box needs 2 per voxel: {}",
            buf.len(),
            2 * b.volume()
        )));
    }
    let bytes = buf.to_vec();
    let count = with_state(lua, |s| Ok(s.world.materials().len()))?;
    let mut voxels = Vec::with_capacity(b.volume());
    for (i, pair) in bytes.chunks_exact(2).enumerate() {
        if usize::from(pair[0]) >= count {
            return Err(mlua::Error::runtime(format!(
                "strata.write: voxel {i} has material {}, the project has {count} materials",
                pair[0]
            )));
        }
        voxels.push(if pair[0] == AIR {
            Voxel::AIR
        } else {
            Voxel::new(pair[0], pair[1])
        });
    }
    with_state(lua, |s| s.world.write_box(b, &voxels).map_err(lua_err))
}

fn dab(lua: &Lua, t: Table) -> mlua::Result<()> {
    let tool: String = t
        .get::<Option<String>>("tool")?
        .unwrap_or_else(|| "add".into());
    let kind = match tool.to_ascii_lowercase().as_str() {
        "add" => ToolKind::Add,
        "subtract" => ToolKind::Subtract,
        "grow" => ToolKind::Grow,
        "erode" => ToolKind::Erode,
        "smooth" => ToolKind::Smooth,
        "flatten" => ToolKind::Flatten,
        "paint" => ToolKind::Paint,
        other => {
            return Err(mlua::Error::runtime(format!(
                "strata.dab: tool {other:?} is not one of add, subtract, grow, erode, smooth, \
                 flatten, paint"
            )))
        }
    };
    let shape = match t
        .get::<Option<String>>("shape")?
        .unwrap_or_else(|| "sphere".into())
        .to_ascii_lowercase()
        .as_str()
    {
        "sphere" => BrushShape::Sphere,
        "cube" => BrushShape::Cube,
        "cylinder" => BrushShape::Cylinder,
        other => {
            return Err(mlua::Error::runtime(format!(
                "strata.dab: shape {other:?} is not one of sphere, cube, cylinder"
            )))
        }
    };
    let radius: f64 = t.get::<Option<f64>>("radius")?.unwrap_or(3.0);
    let strength: f64 = t.get::<Option<f64>>("strength")?.unwrap_or(1.0);
    if !(radius.is_finite() && strength.is_finite()) {
        return Err(mlua::Error::runtime(
            "strata.dab: radius and strength must be numbers",
        ));
    }
    let at: Table = t
        .get::<Option<Table>>("at")?
        .ok_or_else(|| mlua::Error::runtime("strata.dab: `at = {x, y, z}` is required"))?;
    let at = point(&at, "strata.dab")?;
    let m = match t.get::<Value>("material")? {
        Value::Nil => with_state(lua, |s| Ok(s.world.materials().id_of("Grass").unwrap_or(1)))?,
        v => material(lua, &v, "strata.dab: material")?,
    };
    let tool = Tool::new(kind, m);
    let mut brush = Brush::new(shape, (radius * 2.0) as f32, strength as f32);
    with_state(lua, |s| {
        brush.floor_y = Some(s.world.bounds().min.y.saturating_add(1));
        let table = s.world.materials().clone();
        s.world
            .edit_grid(|g| apply_dab(g, &table, &tool, &brush, at))
            .map_err(lua_err)
    })
}

fn generate(lua: &Lua, t: Table) -> mlua::Result<()> {
    let names: Vec<String> = match t.get::<Value>("biomes")? {
        Value::String(s) => s
            .to_str()?
            .split(',')
            .map(|n| n.trim().to_owned())
            .collect(),
        Value::Table(list) => list
            .sequence_values::<String>()
            .collect::<mlua::Result<_>>()?,
        Value::Nil => Vec::new(),
        other => {
            return Err(mlua::Error::runtime(format!(
                "strata.generate: biomes is a list of names or \"a,b\", got {}",
                other.type_name()
            )))
        }
    };
    let mut settings = BiomeSettings::default();
    if !names.is_empty() {
        settings.biomes = names
            .iter()
            .map(|n| Biome::from_name(n))
            .collect::<strata_engine::Result<_>>()
            .map_err(|e| mlua::Error::runtime(format!("strata.generate: {e}")))?;
    }
    if let Some(size) = t.get::<Option<u32>>("biome_size")? {
        settings.biome_size = size;
    }
    if let Some(caves) = t.get::<Option<bool>>("caves")? {
        settings.caves = caves;
    }
    let seed = t.get::<Option<u32>>("seed")?.unwrap_or(1);
    let (bounds, table) = with_state(lua, |s| Ok((s.world.bounds(), s.world.materials().clone())))?;
    let b = match t.get::<Option<Table>>("box")? {
        Some(bt) => voxel_box(&bt, "strata.generate", MAX_REGION_VOXELS)?,
        None => bounds,
    };
    if bounds.min != VoxelPos::new(0, 0, 0) {
        return Err(mlua::Error::runtime(
            "strata.generate: the world does not start at 0,0,0, so the generator cannot place it",
        ));
    }
    let size = bounds.max.to_array().map(|v| v.max(0) as u32);
    let world = WorldSettings::with_biomes(size, seed, settings);
    let fill = generate_region(&world, b, &table, &Progress::new())
        .map_err(|e| mlua::Error::runtime(format!("strata.generate: {e}")))?;
    with_state(lua, |s| {
        s.world
            .edit_grid(|g| {
                fill.write_into(g);
                Some(fill.region())
            })
            .map_err(lua_err)
    })
}

fn bake(lua: &Lua, t: Option<Table>) -> mlua::Result<()> {
    let mut s = LightSettings::default();
    let fail = |e: strata_engine::Error| mlua::Error::runtime(format!("strata.bake: {e}"));
    if let Some(t) = t {
        if let Some(q) = t.get::<Option<String>>("quality")? {
            s = Quality::parse(&q).map_err(fail)?.apply(&s);
        }
        if let Some(b) = t.get::<Option<u8>>("bounce")? {
            s.bounce = b;
        }
        if let Some(d) = t.get::<Option<bool>>("denoise")? {
            s.denoise = d;
        }
        if let Some(e) = t.get::<Option<bool>>("emission")? {
            s.emission = e;
        }
        if let Some(seed) = t.get::<Option<u64>>("seed")? {
            s.seed = seed;
        }
    }
    s.validate().map_err(fail)?;
    with_state(lua, |st| {
        st.bake = Some(s);
        Ok(())
    })
}

fn raycast(lua: &Lua, (from, dir, max): (Table, Table, Option<f64>)) -> mlua::Result<Value> {
    let o = point(&from, "strata.raycast")?.map(f64::from);
    let d = point(&dir, "strata.raycast")?.map(f64::from);
    let len = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
    if len == 0.0 {
        return Err(mlua::Error::runtime(
            "strata.raycast: the direction is zero",
        ));
    }
    let max = max.unwrap_or(1024.0).clamp(0.0, 65536.0);
    let step = 0.25;
    let hit = with_state(lua, |s| {
        let mut t = 0.0;
        while t <= max {
            let p = [0, 1, 2].map(|i| o[i] + d[i] / len * t);
            let v = VoxelPos::new(
                p[0].floor() as i32,
                p[1].floor() as i32,
                p[2].floor() as i32,
            );
            let voxel = s.world.get(v);
            if !voxel.is_air() && voxel.occupancy_f32() >= 0.5 {
                return Ok(Some((t, v, voxel.material)));
            }
            t += step;
        }
        Ok(None)
    })?;
    let Some((t, v, m)) = hit else {
        return Ok(Value::Nil);
    };
    let name = with_state(lua, |s| {
        Ok(s.world
            .materials()
            .get(m)
            .map(|m| m.name.clone())
            .unwrap_or_default())
    })?;
    let r = lua.create_table()?;
    r.set("distance", t)?;
    r.set("voxel", lua.create_sequence_from([v.x, v.y, v.z])?)?;
    r.set("material", name)?;
    Ok(Value::Table(r))
}

/// Install the `strata` table into `globals`.
///
/// # Errors
/// When Luau cannot allocate.
pub fn install(lua: &Lua, globals: &Table) -> mlua::Result<()> {
    let s = lua.create_table()?;
    s.set("read", lua.create_function(read)?)?;
    s.set("write", lua.create_function(write)?)?;
    s.set(
        "fill",
        lua.create_function(|lua, (t, m, o): (Table, Value, Option<f64>)| {
            let b = voxel_box(&t, "strata.fill", MAX_REGION_VOXELS)?;
            let id = material(lua, &m, "strata.fill: material")?;
            match o {
                None => fill_region(lua, b, id),
                Some(o) => {
                    let v = occupancy_voxel(id, o);
                    with_state(lua, |s| s.world.modify_box(b, |_, _| v).map_err(lua_err))
                }
            }
        })?,
    )?;
    s.set(
        "replace",
        lua.create_function(|lua, (t, from, to): (Table, Value, Value)| {
            let b = voxel_box(&t, "strata.replace", MAX_REGION_VOXELS)?;
            let from = material(lua, &from, "strata.replace: from")?;
            let to = material(lua, &to, "strata.replace: to")?;
            replace_material(lua, b, from, to)
        })?,
    )?;
    s.set(
        "copy",
        lua.create_function(|lua, t: Table| {
            let b = voxel_box(&t, "strata.copy", MAX_REGION_VOXELS)?;
            copy_region(lua, b)
        })?,
    )?;
    s.set(
        "paste",
        lua.create_function(
            |lua, (r, at, empty): (mlua::UserDataRef<TerrainRegion>, Table, Option<bool>)| {
                let p = point(&at, "strata.paste")?;
                let corner = Vector3int16 {
                    x: p[0].floor() as i32,
                    y: p[1].floor() as i32,
                    z: p[2].floor() as i32,
                };
                paste_region(lua, &r, corner, empty.unwrap_or(true))
            },
        )?,
    )?;
    s.set("dab", lua.create_function(dab)?)?;
    s.set("raycast", lua.create_function(raycast)?)?;
    s.set("generate", lua.create_function(generate)?)?;
    s.set("bake", lua.create_function(bake)?)?;
    s.set("print", lua.create_function(crate::roblox::globals::print)?)?;
    let (bounds, names, args) = with_state(lua, |st| {
        let b = st.world.bounds();
        let names: Vec<String> = st
            .world
            .materials()
            .materials
            .iter()
            .map(|m| m.name.clone())
            .collect();
        Ok((
            [b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z],
            names,
            st.args.clone(),
        ))
    })?;
    s.set("bounds", lua.create_sequence_from(bounds)?)?;
    s.set("materials", lua.create_sequence_from(names)?)?;
    let a = lua.create_table()?;
    for (k, v) in args {
        a.set(k, v)?;
    }
    s.set("args", a)?;
    globals.set("strata", s)
}
