// Terrain and water shading: the vertex colour (material blend, times the baked light when shown)
// times each material's procedural detail, lit by the sun (with its shadow map), a fill light and a
// sky/ground hemisphere, with a light haze toward the sky colour at distance. Water (WATER defined)
// darkens and turns opaque with the depth to the ground carried in the vertex alpha, and reflects
// the sky at grazing angles. Prepended: three-d's light functions (calculate_lighting), tone and
// colour mapping, then patterns.glsl.

uniform vec4 looks[64];
uniform vec3 cameraPosition;
uniform float realtimeLight;
uniform vec3 skyAmbient;
uniform vec3 groundAmbient;
uniform vec3 skyReflection;
uniform vec3 hazeColor;
uniform float hazeDensity;

in vec3 pos;
in vec3 nor;
in vec4 col;
in vec3 mat_ids;
in vec3 mat_w;

layout (location = 0) out vec4 outColor;

// Detail factor (x) and roughness (y) of material `id` at this fragment.
vec2 material_detail(float id, vec3 weights, float footprint)
{
    vec4 look = looks[int(id + 0.5)];
    int kind = int(look.x + 0.5);
    float scale = max(look.y, 0.25);
    float f = footprint / scale;
    // Fine detail fades out before it would shimmer; the broad variation lasts longer.
    float fine = 1.0 - smoothstep(0.25, 0.9, f);
    float blur = clamp(f * 0.5, 0.0, 0.3);
    float d = 0.0;
    float g = 0.0;
    if (fine > 0.0) {
        if (weights.x > 0.02) {
            vec2 r = pattern(kind, pos.zy / scale, 1.0, blur);
            d += weights.x * r.x;
            g += weights.x * r.y;
        }
        if (weights.y > 0.02) {
            vec2 r = pattern(kind, pos.xz / scale, 0.0, blur);
            d += weights.y * r.x;
            g += weights.y * r.y;
        }
        if (weights.z > 0.02) {
            vec2 r = pattern(kind, pos.xy / scale, 1.0, blur);
            d += weights.z * r.x;
            g += weights.z * r.y;
        }
    }
    float broad = fbm(pos.xz / (scale * 12.0) + id * 7.0) - 0.5;
    float contrast = look.z;
    float factor = 1.0 + contrast * (0.5 * d * fine + 0.6 * broad);
    float roughness = mix(look.w, 0.15, g * fine);
    return vec2(clamp(factor, 0.15, 1.9), roughness);
}

void main()
{
    vec3 normal = normalize(gl_FrontFacing ? nor : -nor);
    vec3 view_dir = normalize(cameraPosition - pos);
    float footprint = max(length(dFdx(pos)), length(dFdy(pos)));
    float dist = length(cameraPosition - pos);
    float haze = min(0.35, 1.0 - exp(-dist * hazeDensity));

#ifdef WATER
    float depth = col.a * 32.0;
    float deep = 1.0 - exp(-depth / 9.0);
    vec3 body = mix(col.rgb * 1.25, col.rgb * 0.22, deep);
    float alpha = mix(0.28, 0.93, 1.0 - exp(-depth / 3.5));
    // A thin light line where the water meets the shore.
    float shore = 1.0 - smoothstep(0.0, 0.45, depth);
    body = mix(body, vec3(0.75, 0.8, 0.82), 0.45 * shore);
    alpha = max(alpha, 0.55 * shore);
    vec3 color = body;
    if (realtimeLight > 0.5) {
        float ndv = max(dot(normal, view_dir), 0.0);
        float fresnel = 0.02 + 0.98 * pow(1.0 - ndv, 5.0);
        vec3 hemi = mix(groundAmbient, skyAmbient, 0.5 + 0.5 * normal.y);
        color = calculate_lighting(cameraPosition, body, pos, normal, 0.0, 0.12, 1.0) + hemi * body;
        color = mix(color, skyReflection, 0.85 * fresnel);
        alpha = max(alpha, fresnel);
    }
    outColor.rgb = color_mapping(tone_mapping(color));
    outColor.rgb = mix(outColor.rgb, hazeColor, haze);
    outColor.a = alpha;
#else
    vec3 tri = pow(abs(normal), vec3(4.0));
    tri /= max(tri.x + tri.y + tri.z, 1e-4);
    vec2 detail;
    vec3 w = mat_w / max(mat_w.x + mat_w.y + mat_w.z, 1e-4);
    if (abs(mat_ids.x - mat_ids.y) < 0.5 && abs(mat_ids.x - mat_ids.z) < 0.5) {
        detail = material_detail(mat_ids.x, tri, footprint);
    } else {
        detail = w.x * material_detail(mat_ids.x, tri, footprint)
            + w.y * material_detail(mat_ids.y, tri, footprint)
            + w.z * material_detail(mat_ids.z, tri, footprint);
    }
    vec3 albedo = col.rgb * detail.x;
    vec3 color = albedo;
    if (realtimeLight > 0.5) {
        vec3 hemi = mix(groundAmbient, skyAmbient, 0.5 + 0.5 * normal.y);
        color = calculate_lighting(cameraPosition, albedo, pos, normal, 0.0, detail.y, 1.0)
            + hemi * albedo;
    }
    outColor.rgb = color_mapping(tone_mapping(color));
    outColor.rgb = mix(outColor.rgb, hazeColor, haze);
    outColor.a = 1.0;
#endif
}
