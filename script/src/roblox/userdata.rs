//! The one macro the Roblox types share: `FromLua` for a userdata type by copy, with an error that
//! names the type a script should have passed.

/// `impl FromLua` for a `Copy`/`Clone` userdata type, with an error naming the expected type.
macro_rules! from_lua_userdata {
    ($t:ty, $name:expr) => {
        impl mlua::FromLua for $t {
            fn from_lua(value: mlua::Value, _: &mlua::Lua) -> mlua::Result<Self> {
                match &value {
                    mlua::Value::UserData(ud) => {
                        ud.borrow::<Self>().map(|r| r.clone()).map_err(|_| {
                            mlua::Error::runtime(format!(
                                "expected {}, got another userdata",
                                $name
                            ))
                        })
                    }
                    other => Err(mlua::Error::runtime(format!(
                        "expected {}, got {}",
                        $name,
                        other.type_name()
                    ))),
                }
            }
        }
    };
}
pub(crate) use from_lua_userdata;
