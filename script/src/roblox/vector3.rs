//! Roblox's `Vector3` (a point or direction in studs, f64 as Luau numbers are) and `Vector3int16`
//! (a voxel index), with the constructors, fields, methods and operators terrain scripts use.

use mlua::{Lua, MetaMethod, UserData, UserDataFields, UserDataMethods, Value};

use super::userdata::from_lua_userdata;

/// A Roblox `Vector3`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Vector3 {
    /// X in studs.
    pub x: f64,
    /// Y in studs.
    pub y: f64,
    /// Z in studs.
    pub z: f64,
}

impl Vector3 {
    /// `Vector3.new(x, y, z)`.
    pub const fn new(x: f64, y: f64, z: f64) -> Self {
        Self { x, y, z }
    }

    /// The components as an array.
    pub const fn to_array(self) -> [f64; 3] {
        [self.x, self.y, self.z]
    }

    /// From an array.
    pub const fn from_array(a: [f64; 3]) -> Self {
        Self::new(a[0], a[1], a[2])
    }

    fn map2(self, o: Self, f: impl Fn(f64, f64) -> f64) -> Self {
        Self::new(f(self.x, o.x), f(self.y, o.y), f(self.z, o.z))
    }

    fn map(self, f: impl Fn(f64) -> f64) -> Self {
        Self::new(f(self.x), f(self.y), f(self.z))
    }

    /// Dot product.
    pub fn dot(self, o: Self) -> f64 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }

    /// Cross product.
    pub fn cross(self, o: Self) -> Self {
        Self::new(
            self.y * o.z - self.z * o.y,
            self.z * o.x - self.x * o.z,
            self.x * o.y - self.y * o.x,
        )
    }

    /// Length.
    pub fn magnitude(self) -> f64 {
        self.dot(self).sqrt()
    }

    /// Unit length (zero stays zero... as NaN in Roblox; here zero).
    pub fn unit(self) -> Self {
        let m = self.magnitude();
        if m > 0.0 {
            self.scale(1.0 / m)
        } else {
            self
        }
    }

    /// `self * s`.
    pub fn scale(self, s: f64) -> Self {
        self.map(|v| v * s)
    }

    /// `self + o`.
    pub fn plus(self, o: Self) -> Self {
        self.map2(o, |a, b| a + b)
    }

    /// `self - o`.
    pub fn minus(self, o: Self) -> Self {
        self.map2(o, |a, b| a - b)
    }
}

from_lua_userdata!(Vector3, "Vector3");

/// A number or a Vector3 on one side of `*` or `/`.
fn operand(v: &Value) -> mlua::Result<Vector3> {
    match v {
        Value::Integer(i) => Ok(Vector3::new(*i as f64, *i as f64, *i as f64)),
        Value::Number(n) => Ok(Vector3::new(*n, *n, *n)),
        Value::UserData(ud) => ud
            .borrow::<Vector3>()
            .map(|r| *r)
            .map_err(|_| mlua::Error::runtime("Vector3 arithmetic needs a number or a Vector3")),
        _ => Err(mlua::Error::runtime(format!(
            "Vector3 arithmetic needs a number or a Vector3, got {}",
            v.type_name()
        ))),
    }
}

impl UserData for Vector3 {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        fields.add_field_method_get("X", |_, v| Ok(v.x));
        fields.add_field_method_get("Y", |_, v| Ok(v.y));
        fields.add_field_method_get("Z", |_, v| Ok(v.z));
        fields.add_field_method_get("Magnitude", |_, v| Ok(v.magnitude()));
        fields.add_field_method_get("Unit", |_, v| Ok(v.unit()));
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("Dot", |_, a, b: Vector3| Ok(a.dot(b)));
        methods.add_method("Cross", |_, a, b: Vector3| Ok(a.cross(b)));
        methods.add_method("Lerp", |_, a, (b, t): (Vector3, f64)| {
            Ok(a.plus(b.minus(*a).scale(t)))
        });
        methods.add_method("Abs", |_, a, ()| Ok(a.map(f64::abs)));
        methods.add_method("Floor", |_, a, ()| Ok(a.map(f64::floor)));
        methods.add_method("Ceil", |_, a, ()| Ok(a.map(f64::ceil)));
        methods.add_method("Min", |_, a, b: Vector3| Ok(a.map2(b, f64::min)));
        methods.add_method("Max", |_, a, b: Vector3| Ok(a.map2(b, f64::max)));
        methods.add_method("FuzzyEq", |_, a, (b, eps): (Vector3, Option<f64>)| {
            let eps = eps.unwrap_or(1e-5);
            Ok(a.minus(b).magnitude() <= eps)
        });
        methods.add_meta_function(MetaMethod::Add, |_, (a, b): (Vector3, Vector3)| {
            Ok(a.plus(b))
        });
        methods.add_meta_function(MetaMethod::Sub, |_, (a, b): (Vector3, Vector3)| {
            Ok(a.minus(b))
        });
        methods.add_meta_function(MetaMethod::Mul, |_, (a, b): (Value, Value)| {
            Ok(operand(&a)?.map2(operand(&b)?, |x, y| x * y))
        });
        methods.add_meta_function(MetaMethod::Div, |_, (a, b): (Value, Value)| {
            Ok(operand(&a)?.map2(operand(&b)?, |x, y| x / y))
        });
        methods.add_meta_function(MetaMethod::Unm, |_, a: Vector3| Ok(a.scale(-1.0)));
        methods.add_meta_function(MetaMethod::Eq, |_, (a, b): (Vector3, Vector3)| Ok(a == b));
        methods.add_meta_method(MetaMethod::ToString, |_, a, ()| {
            Ok(format!("{}, {}, {}", a.x, a.y, a.z))
        });
    }
}

/// A Roblox `Vector3int16`: a voxel index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Vector3int16 {
    /// X.
    pub x: i32,
    /// Y.
    pub y: i32,
    /// Z.
    pub z: i32,
}

from_lua_userdata!(Vector3int16, "Vector3int16");

/// An integer component in Vector3int16's range.
pub fn int16(v: f64) -> mlua::Result<i32> {
    if v.is_finite() && (-32768.0..=32767.0).contains(&v.trunc()) {
        Ok(v.trunc() as i32)
    } else {
        Err(mlua::Error::runtime(format!(
            "{v} is outside Vector3int16's range -32768 to 32767"
        )))
    }
}

impl UserData for Vector3int16 {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        fields.add_field_method_get("X", |_, v| Ok(v.x));
        fields.add_field_method_get("Y", |_, v| Ok(v.y));
        fields.add_field_method_get("Z", |_, v| Ok(v.z));
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_meta_function(MetaMethod::Add, |_, (a, b): (Self, Self)| {
            Ok(Self {
                x: a.x + b.x,
                y: a.y + b.y,
                z: a.z + b.z,
            })
        });
        methods.add_meta_function(MetaMethod::Sub, |_, (a, b): (Self, Self)| {
            Ok(Self {
                x: a.x - b.x,
                y: a.y - b.y,
                z: a.z - b.z,
            })
        });
        methods.add_meta_function(MetaMethod::Eq, |_, (a, b): (Self, Self)| Ok(a == b));
        methods.add_meta_method(MetaMethod::ToString, |_, a, ()| {
            Ok(format!("{}, {}, {}", a.x, a.y, a.z))
        });
    }
}

/// Install `Vector3` and `Vector3int16` into `globals`.
///
/// # Errors
/// When Luau cannot allocate the tables.
pub fn install(lua: &Lua, globals: &mlua::Table) -> mlua::Result<()> {
    let v3 = lua.create_table()?;
    v3.set(
        "new",
        lua.create_function(|_, (x, y, z): (Option<f64>, Option<f64>, Option<f64>)| {
            Ok(Vector3::new(
                x.unwrap_or(0.0),
                y.unwrap_or(0.0),
                z.unwrap_or(0.0),
            ))
        })?,
    )?;
    v3.set("zero", Vector3::default())?;
    v3.set("one", Vector3::new(1.0, 1.0, 1.0))?;
    v3.set("xAxis", Vector3::new(1.0, 0.0, 0.0))?;
    v3.set("yAxis", Vector3::new(0.0, 1.0, 0.0))?;
    v3.set("zAxis", Vector3::new(0.0, 0.0, 1.0))?;
    globals.set("Vector3", v3)?;
    let v16 = lua.create_table()?;
    v16.set(
        "new",
        lua.create_function(|_, (x, y, z): (Option<f64>, Option<f64>, Option<f64>)| {
            Ok(Vector3int16 {
                x: int16(x.unwrap_or(0.0))?,
                y: int16(y.unwrap_or(0.0))?,
                z: int16(z.unwrap_or(0.0))?,
            })
        })?,
    )?;
    globals.set("Vector3int16", v16)
}
