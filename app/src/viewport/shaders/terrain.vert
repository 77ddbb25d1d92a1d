// Terrain vertices (see terrain_mesh.rs): world positions (no model matrix), normals, colours, and
// the triangle's three corner material ids with this vertex's one-hot corner weight. `pos` is where
// a fragment is shaded; `gl_Position` where it is drawn.
uniform mat4 viewProjection;
uniform vec3 eyePosition;

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
    // Skirt bottoms (alpha 2 + d) are shaded at their rim, d voxels back along the normal; every
    // other vertex has alpha at most 1 (ground 1, water its depth).
    float lift = max(color.a - 2.0, 0.0);
    vec3 rim = position + normal * lift;
    // A skirt is seen only from the side its rim faces. From behind it could only show where it
    // pokes through terrain thinner than it hangs (the underside of a thin world, whose skirts hang
    // up through the ground at coarse levels), so there it collapses onto its rim and draws nothing.
    bool behind = lift > 0.0 && dot(normal, eyePosition - rim) < 0.0;
    pos = rim;
    nor = normal;
    col = vec4(color.rgb, min(color.a, 1.0));
    mat_ids = mats;
    mat_w = corner;
    gl_Position = viewProjection * vec4(behind ? rim : position, 1.0);
}
