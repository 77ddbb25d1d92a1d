// The ground grid, drawn procedurally on one quad under the world: lines every `minorStep` voxels
// (chunk borders) and every `majorStep`, each about a pixel and a half wide whatever the distance,
// anti-aliased from the screen-space rate of change of the position, and faded out where its cells
// get smaller than a dozen pixels, so distant lines never break up into dots or moiré.
// Prepended: three-d's colour mapping.

uniform vec4 lineColor;
uniform float minorStep;
uniform float majorStep;

in vec3 pos;

layout (location = 0) out vec4 outColor;

// Coverage of the lines every `step` voxels at this fragment.
float grid_lines(float step)
{
    vec2 coord = pos.xz / step;
    vec2 rate = max(fwidth(coord), vec2(1e-6));
    // Distance to the nearest line, in pixels.
    vec2 px = abs(fract(coord - 0.5) - 0.5) / rate;
    float line = 1.0 - clamp(min(px.x, px.y) - 0.25, 0.0, 1.0);
    float cell_px = 1.0 / max(rate.x, rate.y);
    return line * smoothstep(12.0, 24.0, cell_px);
}

void main()
{
    float a = max(grid_lines(minorStep), grid_lines(majorStep));
    if (a <= 0.003) {
        discard;
    }
    outColor = vec4(color_mapping(lineColor.rgb), lineColor.a * a);
}
