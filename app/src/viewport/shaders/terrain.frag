// Terrain and water shading: the vertex colour (material blend, times the baked light when shown)
// times each material's procedural detail, lit by the sun (with its shadow map), a fill light and a
// sky/ground hemisphere, with a light haze toward the sky colour at distance. Water (WATER defined)
// darkens and turns opaque with the depth to the ground carried in the vertex alpha, and reflects
// the sky at grazing angles. Prepended: three-d's light functions (calculate_lighting), tone and
// colour mapping. The light is high dynamic range (baked light near emitters exceeds 1): it is
// multiplied by the exposure and bent by the tone curve the material picks (exposure.rs).
//
// The detail comes from the pattern maps (pattern_maps.rs: one layer per pattern, R tint, G joint,
// B glint, REPEAT pattern units per layer), projected on the three axis planes (triplanar, so
// cliffs are not smeared); mipmaps average it away with distance instead of letting it shimmer.
//
// Materials with a texture (tints[id].a >= 0: its layer of albedoMaps, sRGB) show it instead of
// their colour, tiled triplanar once per look scale in voxels; the vertex colour then only carries
// the baked light (its ratio to the material's own colour). Emissive materials add their glow
// (glows[id], linear) after lighting, so they show in the dark.
//
// FADE (defined for meshes in a level-of-detail cross-fade, fade.rs): `fade` is (1, p) fading in,
// showing the pixels whose dither threshold is below p, or (-1, p) fading out, showing the others.
// Ground does not drop the pixels it does not show: it pushes them back by FADE_BACK of their
// distance, so the other level's surface, shown there and within that distance, covers them, and
// where the other level has no surface (its silhouette ends sooner) they still cover the sky. The
// two levels' silhouettes then blend without sky between them. Water, blended, drops them.
//
// FAST (defined for ground on the fast path, Preferences ▸ Viewport quality): one pattern lookup on
// the plane the surface faces most instead of a blend of up to three; the haze and the sun's
// shadow-map visibility come from the vertex shader (one tap per vertex, not four per pixel); and,
// with FAST_LIGHTS (the sun and the fill are lights 0 and 1), the sun and fill are diffuse light
// only, without three-d's highlights. On software GL every pixel runs this on the CPU.

uniform sampler2DArray patternMaps;
uniform float patternRepeat;
uniform float cracksLayer;
uniform vec4 looks[64];
uniform sampler2DArray albedoMaps;
uniform vec4 tints[64];
uniform vec3 glows[64];
uniform vec3 cameraPosition;
uniform float realtimeLight;
uniform vec3 skyAmbient;
uniform vec3 groundAmbient;
uniform vec3 skyReflection;
uniform vec3 hazeColor;
uniform float hazeDensity;
// Exposure (2^stops) the light is multiplied by before the tone curve (exposure.rs).
uniform float exposureScale;

in vec3 pos;
in vec3 nor;
in vec4 col;
in vec3 mat_ids;
in vec3 mat_w;

layout (location = 0) out vec4 outColor;

#ifdef FADE
uniform vec2 fade;
// Near and far clip distances of the view.
uniform vec2 depthRange;
// How far back, as a share of its distance, a pixel the fade does not show is pushed.
const float FADE_BACK = 0.05;

// A per-pixel threshold in [0, 1), evenly spread over small neighbourhoods (interleaved gradient
// noise), the same for every mesh so a fade-in and a fade-out started together are complements.
float dither_threshold()
{
    return fract(52.9829189 * fract(dot(gl_FragCoord.xy, vec2(0.06711056, 0.00583715))));
}
#endif

// Tint, joint and glint of pattern `layer` at `uv` pattern units.
vec3 pattern_map(float layer, vec2 uv)
{
    return texture(patternMaps, vec3(uv / patternRepeat, layer)).rgb;
}

// Detail factor (x) and roughness (y) of material `id` at this fragment; `weights` are the
// triplanar weights of the X, Y (top) and Z planes (planes under 15 % are skipped: a lookup costs
// more than the blend is worth on software GL).
vec2 material_detail(float id, vec3 weights)
{
    vec4 look = looks[int(id + 0.5)];
    float kind = floor(look.x + 0.5);
    float scale = max(look.y, 0.25);
    vec3 t = vec3(0.0);
    float sum = 0.0;
    if (weights.x > 0.15) {
        t += weights.x * pattern_map(kind, pos.zy / scale);
        sum += weights.x;
    }
    if (weights.y > 0.15) {
        // Strata bands only make sense on walls; from above they show their cracks.
        t += weights.y * pattern_map(kind == 2.0 ? cracksLayer : kind, pos.xz / scale);
        sum += weights.y;
    }
    if (weights.z > 0.15) {
        t += weights.z * pattern_map(kind, pos.xy / scale);
        sum += weights.z;
    }
    t /= max(sum, 1e-4);
    float tint = t.r * 2.0 - 1.0;
    float d = tint - 1.6 * t.g;
    float factor = 1.0 + look.z * d;
    float roughness = mix(look.w, 0.12, t.b);
    return vec2(clamp(factor, 0.15, 1.9), roughness);
}

// The texture of layer `layer` on the three axis planes at this fragment, linear RGB.
vec3 albedo_map(float layer, float scale, vec3 weights)
{
    vec3 t = vec3(0.0);
    float sum = 0.0;
    if (weights.x > 0.15) {
        t += weights.x * texture(albedoMaps, vec3(pos.zy / scale, layer)).rgb;
        sum += weights.x;
    }
    if (weights.y > 0.15) {
        t += weights.y * texture(albedoMaps, vec3(pos.xz / scale, layer)).rgb;
        sum += weights.y;
    }
    if (weights.z > 0.15) {
        t += weights.z * texture(albedoMaps, vec3(pos.xy / scale, layer)).rgb;
        sum += weights.z;
    }
    return pow(t / max(sum, 1e-4), vec3(2.2));
}

#ifdef FAST
// From the vertex shader: the haze, and 1 where the sun reaches the vertex (0 in its shadow).
in float vertex_haze;
in float sun_visible;

// The pattern coordinates of this fragment on the axis plane `normal` faces most; `top` is true on
// the horizontal plane.
vec2 facing_plane(vec3 normal, out bool top)
{
    vec3 a = abs(normal);
    top = a.y >= a.x && a.y >= a.z;
    return top ? pos.xz : (a.x >= a.z ? pos.zy : pos.xy);
}

#ifdef FAST_LIGHTS
// The sun (where it reaches) and the fill as diffuse light on `albedo` (three-d's diffuse term:
// (1 - F0) albedo / PI times the light and N.L).
vec3 fast_lighting(vec3 albedo, vec3 normal)
{
    float sun = max(dot(normal, -direction0), 0.0) * sun_visible;
    vec3 direct = color0 * sun + color1 * max(dot(normal, -direction1), 0.0);
    return albedo * direct * (0.96 / PI);
}
#endif
#endif

void main()
{
#ifdef FADE
    bool hidden = (fade.x > 0.0) == (dither_threshold() >= fade.y);
#ifdef WATER
    if (hidden) {
        discard;
    }
#else
    // The window depth of this pixel, pushed back along the view when hidden (perspective depth:
    // linear distance d maps to (f + n - 2 n f / d) / (f - n) in NDC).
    float n = depthRange.x;
    float f = depthRange.y;
    float ndc = gl_FragCoord.z * 2.0 - 1.0;
    float d = 2.0 * n * f / (f + n - ndc * (f - n));
    float back = hidden ? d * (1.0 + FADE_BACK) : d;
    gl_FragDepth = clamp(0.5 * ((f + n - 2.0 * n * f / back) / (f - n)) + 0.5, 0.0, 1.0);
#endif
#endif
    vec3 normal = normalize(gl_FrontFacing ? nor : -nor);
    vec3 view_dir = normalize(cameraPosition - pos);
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
    outColor.rgb = color_mapping(tone_mapping(color * exposureScale));
    outColor.rgb = mix(outColor.rgb, hazeColor, haze);
    outColor.a = alpha;
#elif defined(FAST)
    float id = mat_ids.x;
    if (mat_w.y > mat_w.x && mat_w.y >= mat_w.z) {
        id = mat_ids.y;
    } else if (mat_w.z > mat_w.x && mat_w.z > mat_w.y) {
        id = mat_ids.z;
    }
    int mat = int(id + 0.5);
    vec4 look = looks[mat];
    float kind = floor(look.x + 0.5);
    float scale = max(look.y, 0.25);
    bool top;
    vec2 plane = facing_plane(normal, top) / scale;
    vec3 t = pattern_map(top && kind == 2.0 ? cracksLayer : kind, plane);
    float factor = clamp(1.0 + look.z * (t.r * 2.0 - 1.0 - 1.6 * t.g), 0.15, 1.9);
    vec3 albedo = col.rgb * factor;
    vec4 tint = tints[mat];
    if (tint.a >= 0.0) {
        const vec3 luma = vec3(0.2126, 0.7152, 0.0722);
        float light = clamp(dot(col.rgb, luma) / max(dot(tint.rgb, luma), 0.01), 0.0, 64.0);
        albedo = pow(texture(albedoMaps, vec3(plane, tint.a)).rgb, vec3(2.2)) * light;
    }
    vec3 color = albedo;
    if (realtimeLight > 0.5) {
        vec3 hemi = mix(groundAmbient, skyAmbient, 0.5 + 0.5 * normal.y);
#ifdef FAST_LIGHTS
        color = fast_lighting(albedo, normal) + hemi * albedo;
#else
        color = calculate_lighting(cameraPosition, albedo, pos, normal, 0.0, look.w, 1.0)
            + hemi * albedo;
#endif
    }
    color += glows[mat] * factor;
    outColor.rgb = color_mapping(tone_mapping(color * exposureScale));
    outColor.rgb = mix(outColor.rgb, hazeColor, vertex_haze);
    outColor.a = 1.0;
#else
    vec3 tri = pow(abs(normal), vec3(6.0));
    tri /= max(tri.x + tri.y + tri.z, 1e-4);
    // The pattern of the triangle corner nearest to this fragment (the colour itself blends
    // smoothly through the vertex colours); one pattern per fragment keeps the cost flat.
    float id = mat_ids.x;
    if (mat_w.y > mat_w.x && mat_w.y >= mat_w.z) {
        id = mat_ids.y;
    } else if (mat_w.z > mat_w.x && mat_w.z > mat_w.y) {
        id = mat_ids.z;
    }
    int mat = int(id + 0.5);
    vec4 tint = tints[mat];
    vec2 detail = material_detail(id, tri);
    vec3 albedo = col.rgb * detail.x;
    if (tint.a >= 0.0) {
        const vec3 luma = vec3(0.2126, 0.7152, 0.0722);
        float light = clamp(dot(col.rgb, luma) / max(dot(tint.rgb, luma), 0.01), 0.0, 64.0);
        albedo = albedo_map(tint.a, max(looks[mat].y, 0.25), tri) * light;
    }
    vec3 color = albedo;
    if (realtimeLight > 0.5) {
        vec3 hemi = mix(groundAmbient, skyAmbient, 0.5 + 0.5 * normal.y);
        color = calculate_lighting(cameraPosition, albedo, pos, normal, 0.0, detail.y, 1.0)
            + hemi * albedo;
    }
    // The glow follows the material's pattern (lava's crust darker than its cracks), so an emitter
    // is not one flat colour.
    color += glows[mat] * detail.x;
    outColor.rgb = color_mapping(tone_mapping(color * exposureScale));
    outColor.rgb = mix(outColor.rgb, hazeColor, haze);
    outColor.a = 1.0;
#endif
}
