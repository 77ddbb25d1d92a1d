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

#ifdef FAST
// The fast path's per-vertex light (terrain_mesh.rs, VertexLight): the haze, and the sun's
// shadow-map visibility (SUN_SHADOW: the sun's map, bound as three-d binds light 0's).
uniform float hazeDensity;
out float vertex_haze;
out float sun_visible;
#ifdef SUN_SHADOW
uniform sampler2D shadowMap0;
uniform mat4 shadowMVP0;
uniform vec3 direction0;
#endif
#endif

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
#ifdef FAST
    vertex_haze = min(0.35, 1.0 - exp(-length(eyePosition - rim) * hazeDensity));
    sun_visible = 1.0;
#ifdef SUN_SHADOW
    // three-d's one shadow tap (is_visible in its light_shared.frag), at this vertex.
    vec3 to_sun = -direction0;
    vec4 shadow = shadowMVP0 * vec4(rim, 1.0);
    vec2 uv = shadow.xy / shadow.w;
    if (uv.x >= 0.0 && uv.x <= 1.0 && uv.y >= 0.0 && uv.y <= 1.0) {
        float caster = textureLod(shadowMap0, uv, 0.0).x;
        float bias = max(0.05 * (1.0 - dot(normal, to_sun)), 0.005);
        if (caster <= 0.999 && caster <= (shadow.z - bias) / shadow.w) {
            sun_visible = 0.0;
        }
    }
#endif
#endif
}
