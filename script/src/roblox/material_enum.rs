//! `Enum.Material`: Roblox's material enum, built from the open project's material table (rule 16:
//! the project owns its data). `Enum.Material.Rock` is the project's material called Rock; a name
//! the project lacks is an error naming the materials it has.

use mlua::{Lua, MetaMethod, UserData, UserDataFields, UserDataMethods, Value};
use strata_engine::voxel::MaterialTable;

use super::userdata::from_lua_userdata;

/// One `Enum.Material` item: a material id of the project and its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MaterialItem {
    /// The project's material id.
    pub id: u8,
    /// Its name.
    pub name: String,
}

from_lua_userdata!(MaterialItem, "Enum.Material");

impl UserData for MaterialItem {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        fields.add_field_method_get("Name", |_, m| Ok(m.name.clone()));
        fields.add_field_method_get("Value", |_, m| Ok(m.id));
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_meta_function(MetaMethod::Eq, |_, (a, b): (Self, Self)| Ok(a.id == b.id));
        methods.add_meta_method(MetaMethod::ToString, |_, m, ()| {
            Ok(format!("Enum.Material.{}", m.name))
        });
    }
}

/// The item named `name` in `table`.
///
/// # Errors
/// A runtime error listing the project's materials.
pub fn item(table: &MaterialTable, name: &str) -> mlua::Result<MaterialItem> {
    let id = table.id_of(name).ok_or_else(|| {
        let names: Vec<&str> = table.materials.iter().map(|m| m.name.as_str()).collect();
        mlua::Error::runtime(format!(
            "{name} is not a valid member of Enum.Material: this project's materials are {}",
            names.join(", ")
        ))
    })?;
    Ok(MaterialItem {
        id,
        name: table.get(id).map_or_else(String::new, |m| m.name.clone()),
    })
}

/// A material argument: an `Enum.Material` item, or (Strata's convenience) a material name.
///
/// # Errors
/// Anything else, or a name the project lacks.
pub fn material_arg(table: &MaterialTable, v: &Value, what: &str) -> mlua::Result<u8> {
    match v {
        Value::UserData(ud) => ud
            .borrow::<MaterialItem>()
            .map(|m| m.id)
            .map_err(|_| mlua::Error::runtime(format!("{what} must be an Enum.Material"))),
        Value::String(s) => Ok(item(table, &s.to_str()?)?.id),
        other => Err(mlua::Error::runtime(format!(
            "{what} must be an Enum.Material, got {}",
            other.type_name()
        ))),
    }
}

/// Install `Enum` (with `Enum.Material` holding every material of `table`) into `globals`.
///
/// # Errors
/// When Luau cannot allocate the tables.
pub fn install(lua: &Lua, globals: &mlua::Table, table: &MaterialTable) -> mlua::Result<()> {
    let materials = lua.create_table()?;
    let mut items = Vec::new();
    for (id, m) in table.materials.iter().enumerate() {
        let item = MaterialItem {
            id: id as u8,
            name: m.name.clone(),
        };
        materials.set(m.name.as_str(), item.clone())?;
        items.push(item);
    }
    let list = lua.create_sequence_from(items)?;
    materials.set(
        "GetEnumItems",
        lua.create_function(move |_, _: Value| Ok(list.clone()))?,
    )?;
    let names = table
        .materials
        .iter()
        .map(|m| m.name.clone())
        .collect::<Vec<_>>()
        .join(", ");
    let meta = lua.create_table()?;
    meta.set(
        "__index",
        lua.create_function(move |_, (_, key): (Value, String)| -> mlua::Result<Value> {
            Err(mlua::Error::runtime(format!(
                "{key} is not a valid member of Enum.Material: this project's materials are {names}"
            )))
        })?,
    )?;
    materials.set_metatable(Some(meta))?;
    let e = lua.create_table()?;
    e.set("Material", materials)?;
    globals.set("Enum", e)
}
