#!/usr/bin/env bash
# Rebuilds the Lighting pictures of the user guide: a small hand-built scene (a field with two towers,
# a roofed room with a hole, an overhang and a hill with a tunnel), imported, baked with one setting
# changed at a time, and drawn top-down with `strata render`. Usage: make.sh [path/to/strata]
set -euo pipefail
STRATA=${1:-strata}
HERE="$(cd "$(dirname "$0")" && pwd)"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
python3 - "$WORK/scene.raw" <<'PY'
import sys
X, Y, Z = 96, 40, 96
v = bytearray(2 * X * Y * Z)
def fill(x0, y0, z0, x1, y1, z1, m):
    for z in range(z0, z1):
        for y in range(y0, y1):
            for x in range(x0, x1):
                i = 2 * ((z * Y + y) * X + x)
                v[i] = m
                v[i + 1] = 255 if m else 0
fill(0, 0, 0, X, 4, Z, 2)            # grass field
fill(20, 4, 20, 26, 30, 26, 7)       # tall rock tower
fill(60, 4, 30, 64, 20, 34, 7)       # short tower
fill(50, 4, 55, 70, 14, 75, 18)      # brick room ...
fill(52, 4, 57, 68, 12, 73, 0)       # ... hollow ...
fill(60, 12, 65, 61, 14, 66, 0)      # ... with one hole in the roof
fill(12, 4, 60, 15, 16, 80, 7)       # overhang: a wall ...
fill(12, 13, 60, 34, 16, 80, 7)      # ... and a shelf reaching east
fill(74, 4, 6, 94, 22, 30, 7)        # rock hill ...
fill(74, 4, 16, 90, 8, 20, 0)        # ... with a tunnel from its west side
open(sys.argv[1], "wb").write(v)
PY
"$STRATA" import "$WORK/scene.raw" "$WORK/scene.strata" --format raw --size 96,40,96 2>/dev/null
shot() {
    local name=$1
    shift
    "$STRATA" bake "$WORK/scene.strata" -o "$WORK/$name.strata" "$@" 2>/dev/null
    "$STRATA" render "$WORK/$name.strata" "$HERE/$name.png" --size 160,160 2>/dev/null
}
"$STRATA" render "$WORK/scene.strata" "$HERE/unlit.png" --size 160,160 2>/dev/null
shot default
shot sun-low --sun-dir 1,0.3,0.2
shot sun-high --sun-dir 0.2,1,0.1
shot bias-0 --sun-bias 0
shot bias-2 --sun-bias 2
shot steps-12 --steps 12
shot particles-4 --particles 4
shot step-length-2 --step-length 2
shot colors --sun-color 1.5,0.8,0.45 --sky-color 0.7,1.2,3
