#!/usr/bin/env bash
# Rebuilds the torch-lit cave and the lava field of the user guide's Lighting section with the command
# line: a world, a dug tunnel, warm point lights or glowing lava, a final bake with a low sun and dim
# sky, and an editor screenshot from a set camera. Needs an X server (run it under
# `xvfb-run -a -s "-screen 0 1280x800x24"`). Usage: make-scenes.sh [path/to/strata]
set -euo pipefail
STRATA=${1:-strata}
HERE="$(cd "$(dirname "$0")" && pwd)"
OUT="$HERE/.."
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
DUSK=(--sun-dir 1,0.12,0.3 --sun-color 0.2,0.16,0.14 --sky-color 0.2,0.24,0.32)

shoot() { # world, eye, target, out.png
    echo "[{\"eye\": [$2], \"target\": [$3]}]" > "$WORK/camera.json"
    rm -rf "$WORK/shots"
    "$STRATA" open "$1" --camera-path "$WORK/camera.json" --screenshots "$WORK/shots" \
        --window-size 1280,800 --light-view baked
    # The status bar is cut off: it names the temporary folder.
    convert "$WORK/shots/000-settled.png" -crop 1280x774+0+0 +repage -resize 960x -colors 256 "PNG8:$4"
}

# A torch-lit cave: a block of rock on a flat field, a tunnel dug through it, two warm lights inside.
C="$WORK/cave.strata"
"$STRATA" new "$C" --preset flat --size 96,48,96 --seed 1
"$STRATA" sculpt "$C" --tool add --shape cube --at 52,20,48 --radius 16 --material Rock
for x in 24 30 36 42 48 54 60 66 72 78; do
    "$STRATA" sculpt "$C" --tool subtract --at "$x,14,48" --radius 6
done
"$STRATA" lights "$C" --add-point 39,15,48 --color 1,0.55,0.22 --intensity 60 --range 20
"$STRATA" lights "$C" --add-point 56,15,49 --color 1,0.5,0.2 --intensity 60 --range 20
"$STRATA" bake "$C" --quality final "${DUSK[@]}"
shoot "$C" "14,20,30" "40,14,48" "$OUT/torch-cave.png"

# A lava field: the lavascape biome, its CrackedLava glowing, baked at dusk.
L="$WORK/lava.strata"
"$STRATA" new "$L" --biomes lavascape --size 128,64,128 --seed 3
"$STRATA" materials "$L" --set CrackedLava --emission 255,110,30 --emission-strength 1.5
"$STRATA" bake "$L" --quality final "${DUSK[@]}"
shoot "$L" "10,60,10" "70,20,70" "$OUT/lava-field.png"
