#!/bin/sh
# Compare the viewport frame time of two strata binaries on one world, alternating them so both see
# the same machine load: ROUNDS rounds of `strata frames` with each, under Xvfb (software GL unless
# the display has a GPU), one JSON line per run, then per round and overall the ratio of the medians.
#
#   tools/frames-compare.sh OLD NEW FILE [ROUNDS] [extra `strata frames` arguments...]
#   tools/frames-compare.sh target/cmp/strata-base target/release/strata target/default.strata 3
#
# NEW_ARGS (split on spaces) go to the new binary only, for flags the old one lacks, e.g.
# NEW_ARGS="--viewport-quality full".
#
# Both runs read the same preferences: STRATA_CONFIG_DIR defaults to a fresh folder under /tmp so a
# remembered choice on this machine does not steer either binary.
set -eu
if [ $# -lt 3 ]; then
    echo "usage: $0 OLD NEW FILE [ROUNDS] [frames args...]" >&2
    exit 2
fi
old=$1
new=$2
file=$3
rounds=${4:-3}
[ $# -ge 4 ] && shift 4 || shift 3
if [ -z "${STRATA_CONFIG_DIR:-}" ]; then
    STRATA_CONFIG_DIR=$(mktemp -d)
    trap 'rm -rf "$STRATA_CONFIG_DIR"' EXIT
fi
export STRATA_CONFIG_DIR
median() { sed -n 's/.*"median_ms":\([0-9.]*\).*/\1/p'; }
run() {
    bin=$1
    shift
    xvfb-run -a -s "-screen 0 1280x800x24" "$bin" frames "$file" --frames 40 \
        --window-size 1280,800 --msaa 0 "$@"
}
all=""
i=1
while [ "$i" -le "$rounds" ]; do
    echo "round $i: $(uptime | sed 's/.*load/load/')"
    o=$(run "$old" "$@" | tail -n 1)
    echo "  old $o"
    # shellcheck disable=SC2086 # NEW_ARGS is a list of flags
    n=$(run "$new" "$@" ${NEW_ARGS:-} | tail -n 1)
    echo "  new $n"
    om=$(echo "$o" | median)
    nm=$(echo "$n" | median)
    r=$(awk -v a="$nm" -v b="$om" 'BEGIN { printf "%.3f", a / b }')
    echo "  frames new/old median: $nm ms / $om ms = ${r}x"
    all="$all $r"
    i=$((i + 1))
done
echo "frames new/old ratio per round:$all"
