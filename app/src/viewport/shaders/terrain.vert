// Terrain vertices (see terrain_mesh.rs): world positions (no model matrix), normals, colours, and
// the triangle's three corner material ids with this vertex's one-hot corner weight. `pos` is where
// a fragment is shaded; `gl_Position` where it is drawn.
uniform mat4 viewProjection;
uniform vec3 eyePosition;
// How many times as deep as meshed this mesh's skirt flaps reach into the terrain (a neighbour two
// or more levels coarser while the view refines; 1 otherwise; 0 collapses them, for the shadow map).
// Only the depth along the rim's normal grows: the part of a flap that reaches out along the surface
// may point uphill, and drawn longer it stood up into the sky.
uniform float skirtScale;

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
    // A skirt bottom (alpha 2) carries the way up to its rim in `corner` and is shaded there;
    // every other vertex has alpha at most 1 (ground 1, water its depth).
    bool skirt = color.a > 1.5;
    vec3 rim = skirt ? position + corner : position;
    // A skirt is seen only from the side its rim faces. From behind it could only show where it
    // pokes through terrain thinner than it hangs (the underside of a thin world, whose skirts hang
    // up through the ground at coarse levels), so there it collapses onto its rim and draws nothing.
    bool behind = skirt && dot(normal, eyePosition - rim) < 0.0;
    pos = rim;
    nor = normal;
    col = vec4(color.rgb, min(color.a, 1.0));
    mat_ids = mats;
    mat_w = skirt ? vec3(1.0, 0.0, 0.0) : corner;
    float deep = max(dot(corner, normal), 0.0);
    vec3 bottom = rim - corner - normal * deep * (skirtScale - 1.0);
    vec3 drawn = skirt ? (behind || skirtScale == 0.0 ? rim : bottom) : position;
    gl_Position = viewProjection * vec4(drawn, 1.0);
}
