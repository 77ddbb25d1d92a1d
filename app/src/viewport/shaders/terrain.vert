// Terrain vertices (see terrain_mesh.rs): world positions (no model matrix), normals, colours, and
// the triangle's three corner material ids with this vertex's one-hot corner weight.
uniform mat4 viewProjection;

in vec3 position;
in vec3 normal;
in vec4 color;
in vec3 mats;
in vec3 corner;

out vec3 pos;
out vec3 nor;
out vec4 col;
out vec3 mat_ids;
out vec3 mat_w;

void main()
{
    pos = position;
    nor = normal;
    col = color;
    mat_ids = mats;
    mat_w = corner;
    gl_Position = viewProjection * vec4(position, 1.0);
}
