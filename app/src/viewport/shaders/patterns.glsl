// Procedural surface detail of the materials (no texture files). Each pattern is a function of a 2D
// coordinate in pattern units (world voxels / the material's scale) that returns a detail value d
// around 0 (about -1..1: joints and cracks negative) and a gloss value g (0..1, glints). The
// caller projects it triplanarly so cliffs are not smeared.
//
// Pattern indices follow strata_engine::voxel::Pattern::ALL:
// 0 Noise, 1 Grain, 2 Strata, 3 Cells, 4 Slabs, 5 Bricks, 6 Planks.

float hash12(vec2 p)
{
    vec3 p3 = fract(vec3(p.xyx) * 0.1031);
    p3 += dot(p3, p3.yzx + 33.33);
    return fract((p3.x + p3.y) * p3.z);
}

vec2 hash22(vec2 p)
{
    vec3 p3 = fract(vec3(p.xyx) * vec3(0.1031, 0.1030, 0.0973));
    p3 += dot(p3, p3.yzx + 33.33);
    return fract((p3.xx + p3.yz) * p3.zy);
}

float value_noise(vec2 p)
{
    vec2 i = floor(p);
    vec2 f = fract(p);
    vec2 u = f * f * (3.0 - 2.0 * f);
    float a = hash12(i);
    float b = hash12(i + vec2(1.0, 0.0));
    float c = hash12(i + vec2(0.0, 1.0));
    float d = hash12(i + vec2(1.0, 1.0));
    return mix(mix(a, b, u.x), mix(c, d, u.x), u.y);
}

// Three octaves, 0..1 with mean 0.5.
float fbm(vec2 p)
{
    return (0.5 * value_noise(p) + 0.25 * value_noise(p * 2.03 + 17.1)
        + 0.125 * value_noise(p * 4.07 + 31.7)) / 0.875;
}

// Distance to the nearest cell point (x), the gap to the second nearest (y), and the nearest
// cell's random value (z).
vec3 voronoi(vec2 p)
{
    vec2 cell = floor(p);
    vec2 f = fract(p);
    float d1 = 8.0;
    float d2 = 8.0;
    float id = 0.0;
    for (int j = -1; j <= 1; j++) {
        for (int i = -1; i <= 1; i++) {
            vec2 o = vec2(float(i), float(j));
            vec2 h = hash22(cell + o);
            vec2 r = o + 0.15 + 0.7 * h - f;
            float d = dot(r, r);
            if (d < d1) {
                d2 = d1;
                d1 = d;
                id = h.x;
            } else if (d < d2) {
                d2 = d;
            }
        }
    }
    d1 = sqrt(d1);
    d2 = sqrt(d2);
    return vec3(d1, d2 - d1, id);
}

// A joint of half width w (pattern units) at the integer lines of x: 1 on the joint, 0 away.
float joint(float x, float w, float blur)
{
    float e = abs(fract(x + 0.5) - 0.5);
    return 1.0 - smoothstep(w, w + blur, e);
}

// d and g of pattern `kind` at `uv`; `side` is 1 on walls (uv.y is world height), 0 on the top
// and bottom planes; `blur` widens joints at distance so they do not shimmer.
vec2 pattern(int kind, vec2 uv, float side, float blur)
{
    if (kind == 1) {
        // Grain: a random value per grain, a soft drift, rare glints.
        float grain = hash12(floor(uv * 2.0)) - 0.5;
        float drift = fbm(uv * 0.12) - 0.5;
        float glint = step(0.985, hash12(floor(uv * 2.0) + 7.3));
        return vec2(1.3 * grain + 1.0 * drift, glint);
    }
    if (kind == 2) {
        // Strata: on walls bands of height one (random shade each) with dark bedding cracks, wavy
        // along the wall; on top, fractured blocks.
        if (side > 0.5) {
            float y = uv.y + 0.35 * (fbm(vec2(uv.x * 0.25, uv.y * 0.1)) - 0.5);
            float band = hash12(vec2(floor(y), 3.0)) - 0.5;
            float crack = joint(y, 0.03, blur);
            float rough = fbm(uv * vec2(1.5, 4.0)) - 0.5;
            return vec2(1.2 * band + 0.8 * rough - 1.6 * crack, 0.0);
        }
        vec3 v = voronoi(uv * 0.8);
        float crack = 1.0 - smoothstep(0.02, 0.04 + blur, v.y);
        return vec2(0.9 * (v.z - 0.5) + 0.7 * (fbm(uv * 2.0) - 0.5) - 1.5 * crack, 0.0);
    }
    if (kind == 3) {
        // Cells: rounded stones (lit tops, shaded rims) in dark joints.
        vec3 v = voronoi(uv);
        float mortar = 1.0 - smoothstep(0.06, 0.14 + blur, v.y);
        float dome = 0.45 - v.x;
        return vec2(1.1 * (v.z - 0.5) + 0.9 * dome - 1.8 * mortar, 0.0);
    }
    if (kind == 4) {
        // Slabs: square slabs in rows offset by a third, straight thin joints, a shade per slab.
        float row = floor(uv.y);
        float x = uv.x + fract(row * 0.333);
        float id = hash12(vec2(floor(x), row));
        float j = max(joint(uv.y, 0.025, blur), joint(x, 0.025, blur));
        return vec2(0.8 * (id - 0.5) + 0.35 * (fbm(uv * 3.0) - 0.5) - 1.5 * j, 0.0);
    }
    if (kind == 5) {
        // Bricks: courses half a brick high, each offset by half a brick; light mortar.
        float row = floor(uv.y * 2.0);
        float x = uv.x + 0.5 * mod(row, 2.0);
        float id = hash12(vec2(floor(x), row));
        float j = max(joint(uv.y * 2.0, 0.05, blur), joint(x, 0.03, blur));
        return vec2(0.9 * (id - 0.5) + 0.3 * (fbm(uv * 6.0) - 0.5) + 1.2 * j, 0.0);
    }
    if (kind == 6) {
        // Planks: boards one unit wide and four long, grain lines along them.
        float row = floor(uv.y);
        float x = uv.x * 0.25 + hash12(vec2(row, 5.0));
        float id = hash12(vec2(floor(x), row));
        float j = max(joint(uv.y, 0.03, blur), joint(x, 0.008, blur * 0.25));
        float lines = sin(uv.y * 18.0 + 6.0 * fbm(vec2(uv.x * 0.5, uv.y * 3.0)));
        return vec2(0.9 * (id - 0.5) + 0.25 * lines - 1.5 * j, 0.0);
    }
    // Noise: soft blotches over finer mottling.
    return vec2(1.4 * (fbm(uv * 0.5) - 0.5) + 0.8 * (value_noise(uv * 2.5) - 0.5), 0.0);
}
