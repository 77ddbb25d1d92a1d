//! Roblox's `CFrame`: a position and a rotation. Terrain calls (`FillBlock`, `FillCylinder`,
//! `FillWedge`) place their shape with one; the shape's local axes are the rotation's columns.
//!
//! ```text
//!   rotation columns:  RightVector = X,  UpVector = Y,  LookVector = −Z
//!   world point = position + rotation · local point
//! ```

use mlua::{Lua, MetaMethod, UserData, UserDataFields, UserDataMethods, Value, Variadic};

use super::userdata::from_lua_userdata;
use super::vector3::Vector3;

/// A Roblox `CFrame`: `rot` is row-major (`rot[row][column]`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CFrame {
    /// Position in studs.
    pub pos: Vector3,
    /// Rotation, row-major.
    pub rot: [[f64; 3]; 3],
}

const IDENTITY: [[f64; 3]; 3] = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];

impl Default for CFrame {
    fn default() -> Self {
        Self {
            pos: Vector3::default(),
            rot: IDENTITY,
        }
    }
}

fn mat_mul(a: &[[f64; 3]; 3], b: &[[f64; 3]; 3]) -> [[f64; 3]; 3] {
    let mut out = [[0.0; 3]; 3];
    for (r, row) in out.iter_mut().enumerate() {
        for (c, v) in row.iter_mut().enumerate() {
            *v = (0..3).map(|k| a[r][k] * b[k][c]).sum();
        }
    }
    out
}

fn transpose(a: &[[f64; 3]; 3]) -> [[f64; 3]; 3] {
    let mut out = [[0.0; 3]; 3];
    for (r, row) in a.iter().enumerate() {
        for (c, v) in row.iter().enumerate() {
            out[c][r] = *v;
        }
    }
    out
}

impl CFrame {
    /// A translation.
    pub fn at(pos: Vector3) -> Self {
        Self { pos, rot: IDENTITY }
    }

    /// `CFrame.Angles(rx, ry, rz)`: rotate about X, then Y, then Z (`Rx · Ry · Rz`), radians.
    pub fn angles(rx: f64, ry: f64, rz: f64) -> Self {
        let (sx, cx) = rx.sin_cos();
        let (sy, cy) = ry.sin_cos();
        let (sz, cz) = rz.sin_cos();
        let x = [[1.0, 0.0, 0.0], [0.0, cx, -sx], [0.0, sx, cx]];
        let y = [[cy, 0.0, sy], [0.0, 1.0, 0.0], [-sy, 0.0, cy]];
        let z = [[cz, -sz, 0.0], [sz, cz, 0.0], [0.0, 0.0, 1.0]];
        Self {
            pos: Vector3::default(),
            rot: mat_mul(&mat_mul(&x, &y), &z),
        }
    }

    /// `CFrame.fromAxisAngle(axis, angle)`.
    pub fn axis_angle(axis: Vector3, angle: f64) -> Self {
        let Vector3 { x, y, z } = axis.unit();
        let (s, c) = angle.sin_cos();
        let t = 1.0 - c;
        Self {
            pos: Vector3::default(),
            rot: [
                [t * x * x + c, t * x * y - s * z, t * x * z + s * y],
                [t * x * y + s * z, t * y * y + c, t * y * z - s * x],
                [t * x * z - s * y, t * y * z + s * x, t * z * z + c],
            ],
        }
    }

    /// `CFrame.lookAt(at, target)` / `CFrame.new(at, target)`: LookVector toward `target`, up
    /// as close to +Y as it can be.
    pub fn look_at(at: Vector3, target: Vector3) -> Self {
        let look = target.minus(at).unit();
        let mut right = look.cross(Vector3::new(0.0, 1.0, 0.0));
        if right.magnitude() < 1e-9 {
            right = Vector3::new(1.0, 0.0, 0.0);
        }
        let right = right.unit();
        let up = right.cross(look);
        let back = look.scale(-1.0);
        Self {
            pos: at,
            rot: [
                [right.x, up.x, back.x],
                [right.y, up.y, back.y],
                [right.z, up.z, back.z],
            ],
        }
    }

    /// Column `c` of the rotation.
    pub fn column(&self, c: usize) -> Vector3 {
        Vector3::new(self.rot[0][c], self.rot[1][c], self.rot[2][c])
    }

    /// Rotate a direction into world space.
    pub fn vector_to_world(&self, v: Vector3) -> Vector3 {
        let r = &self.rot;
        Vector3::new(
            r[0][0] * v.x + r[0][1] * v.y + r[0][2] * v.z,
            r[1][0] * v.x + r[1][1] * v.y + r[1][2] * v.z,
            r[2][0] * v.x + r[2][1] * v.y + r[2][2] * v.z,
        )
    }

    /// A local point in world space.
    pub fn point_to_world(&self, v: Vector3) -> Vector3 {
        self.pos.plus(self.vector_to_world(v))
    }

    /// A world point in local space.
    pub fn point_to_object(&self, v: Vector3) -> Vector3 {
        self.inverse().point_to_world(v)
    }

    /// The inverse transform.
    pub fn inverse(&self) -> Self {
        let rot = transpose(&self.rot);
        let inv = Self {
            pos: Vector3::default(),
            rot,
        };
        Self {
            pos: inv.vector_to_world(self.pos).scale(-1.0),
            rot,
        }
    }

    /// `self * o`.
    pub fn compose(&self, o: &Self) -> Self {
        Self {
            pos: self.point_to_world(o.pos),
            rot: mat_mul(&self.rot, &o.rot),
        }
    }
}

from_lua_userdata!(CFrame, "CFrame");

impl UserData for CFrame {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        fields.add_field_method_get("Position", |_, c| Ok(c.pos));
        fields.add_field_method_get("p", |_, c| Ok(c.pos));
        fields.add_field_method_get("X", |_, c| Ok(c.pos.x));
        fields.add_field_method_get("Y", |_, c| Ok(c.pos.y));
        fields.add_field_method_get("Z", |_, c| Ok(c.pos.z));
        fields.add_field_method_get("RightVector", |_, c| Ok(c.column(0)));
        fields.add_field_method_get("UpVector", |_, c| Ok(c.column(1)));
        fields.add_field_method_get("LookVector", |_, c| Ok(c.column(2).scale(-1.0)));
        fields.add_field_method_get("Rotation", |_, c| {
            Ok(CFrame {
                pos: Vector3::default(),
                rot: c.rot,
            })
        });
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("Inverse", |_, c, ()| Ok(c.inverse()));
        methods.add_method("PointToWorldSpace", |_, c, v: Vector3| {
            Ok(c.point_to_world(v))
        });
        methods.add_method("PointToObjectSpace", |_, c, v: Vector3| {
            Ok(c.point_to_object(v))
        });
        methods.add_method("VectorToWorldSpace", |_, c, v: Vector3| {
            Ok(c.vector_to_world(v))
        });
        methods.add_method("VectorToObjectSpace", |_, c, v: Vector3| {
            Ok(c.inverse().vector_to_world(v))
        });
        methods.add_method("ToWorldSpace", |_, c, o: CFrame| Ok(c.compose(&o)));
        methods.add_method("ToObjectSpace", |_, c, o: CFrame| {
            Ok(c.inverse().compose(&o))
        });
        methods.add_meta_function(MetaMethod::Mul, |lua, (a, b): (CFrame, Value)| match &b {
            Value::UserData(ud) if ud.is::<CFrame>() => {
                let o = *ud.borrow::<CFrame>()?;
                mlua::IntoLua::into_lua(a.compose(&o), lua)
            }
            _ => {
                let v: Vector3 = mlua::FromLua::from_lua(b, lua)?;
                mlua::IntoLua::into_lua(a.point_to_world(v), lua)
            }
        });
        methods.add_meta_function(MetaMethod::Add, |_, (a, v): (CFrame, Vector3)| {
            Ok(CFrame {
                pos: a.pos.plus(v),
                rot: a.rot,
            })
        });
        methods.add_meta_function(MetaMethod::Sub, |_, (a, v): (CFrame, Vector3)| {
            Ok(CFrame {
                pos: a.pos.minus(v),
                rot: a.rot,
            })
        });
        methods.add_meta_method(MetaMethod::ToString, |_, c, ()| {
            let r = c.rot;
            Ok(format!(
                "{}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}",
                c.pos.x,
                c.pos.y,
                c.pos.z,
                r[0][0],
                r[0][1],
                r[0][2],
                r[1][0],
                r[1][1],
                r[1][2],
                r[2][0],
                r[2][1],
                r[2][2]
            ))
        });
    }
}

/// `CFrame.new(...)`: no arguments, a position (three numbers or a Vector3), a position and a
/// point to look at, or twelve numbers (position and rotation rows).
fn construct(lua: &Lua, args: Variadic<Value>) -> mlua::Result<CFrame> {
    let num = |v: &Value| -> mlua::Result<f64> { mlua::FromLua::from_lua(v.clone(), lua) };
    match args.len() {
        0 => Ok(CFrame::default()),
        1 => Ok(CFrame::at(mlua::FromLua::from_lua(args[0].clone(), lua)?)),
        2 => Ok(CFrame::look_at(
            mlua::FromLua::from_lua(args[0].clone(), lua)?,
            mlua::FromLua::from_lua(args[1].clone(), lua)?,
        )),
        3 => Ok(CFrame::at(Vector3::new(
            num(&args[0])?,
            num(&args[1])?,
            num(&args[2])?,
        ))),
        12 => {
            let n: Vec<f64> = args.iter().map(num).collect::<mlua::Result<_>>()?;
            Ok(CFrame {
                pos: Vector3::new(n[0], n[1], n[2]),
                rot: [[n[3], n[4], n[5]], [n[6], n[7], n[8]], [n[9], n[10], n[11]]],
            })
        }
        n => Err(mlua::Error::runtime(format!(
            "CFrame.new takes 0, 1, 2, 3 or 12 arguments, got {n}"
        ))),
    }
}

/// Install `CFrame` into `globals`.
///
/// # Errors
/// When Luau cannot allocate the tables.
pub fn install(lua: &Lua, globals: &mlua::Table) -> mlua::Result<()> {
    let t = lua.create_table()?;
    t.set("new", lua.create_function(construct)?)?;
    let angles =
        lua.create_function(|_, (x, y, z): (f64, f64, f64)| Ok(CFrame::angles(x, y, z)))?;
    t.set("Angles", angles.clone())?;
    t.set("fromEulerAnglesXYZ", angles)?;
    t.set(
        "fromAxisAngle",
        lua.create_function(|_, (axis, a): (Vector3, f64)| Ok(CFrame::axis_angle(axis, a)))?,
    )?;
    t.set(
        "lookAt",
        lua.create_function(|_, (at, target): (Vector3, Vector3)| Ok(CFrame::look_at(at, target)))?,
    )?;
    t.set("identity", CFrame::default())?;
    globals.set("CFrame", t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Vector3, b: Vector3) -> bool {
        a.minus(b).magnitude() < 1e-9
    }

    #[test]
    fn rotations_and_inverse() {
        let quarter = CFrame::angles(0.0, std::f64::consts::FRAC_PI_2, 0.0);
        // Rotating +X a quarter turn about Y gives −Z.
        let v = quarter.vector_to_world(Vector3::new(1.0, 0.0, 0.0));
        assert!(close(v, Vector3::new(0.0, 0.0, -1.0)), "{v:?}");
        let c = CFrame::at(Vector3::new(5.0, 6.0, 7.0)).compose(&quarter);
        let p = Vector3::new(1.0, 2.0, 3.0);
        assert!(close(c.point_to_object(c.point_to_world(p)), p));
        let look = CFrame::look_at(Vector3::default(), Vector3::new(0.0, 0.0, -10.0));
        assert!(close(
            look.column(2).scale(-1.0),
            Vector3::new(0.0, 0.0, -1.0)
        ));
        let aa = CFrame::axis_angle(Vector3::new(0.0, 1.0, 0.0), std::f64::consts::FRAC_PI_2);
        assert!(close(
            aa.vector_to_world(Vector3::new(1.0, 0.0, 0.0)),
            Vector3::new(0.0, 0.0, -1.0)
        ));
    }
}
