#!/usr/bin/env bash
# Times gridsight and nonogrid 0.7.3 side by side on the same nonograms, in the same run, and
# prints the ratio per puzzle. Both are timed as whole processes (start-up included), each run
# REPEAT times, the fastest taken (load from other work only ever adds time); both are asked for up to two solutions (a uniqueness verdict).
#
#   cargo install nonogrid --version 0.7.3 --root target/nonogrid   # once
#   bash benches/compare-nonogrid.sh [FILE.non ...]                 # default: ../shared wolter set + GCHQ
#
# nonogrid reads its own TOML clue format and knows nothing of given cells, so GCHQ is compared
# from its clues alone (4 solutions: both stop at the second).
set -euo pipefail
cd "$(dirname "$0")/.."
repeat=${REPEAT:-7}
nonogrid=${NONOGRID:-target/nonogrid/bin/nonogrid}
[ -x "$nonogrid" ] || { echo "nonogrid not found at $nonogrid (see the header of this script)" >&2; exit 2; }
cargo build --release --quiet
gridsight=target/release/gridsight
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ $# -eq 0 ]; then
    set -- ../shared/nonogram/wolter/*.non ../shared/seeds/gchq.non
fi

# .non -> nonogrid TOML (clues only), and .non without its `given` line for gridsight.
to_toml() {
    python3 - "$1" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()
def section(key):
    i = next(i for i, l in enumerate(lines) if l.split()[:1] == [key])
    body = []
    for l in lines[i + 1:]:
        if l.strip() and not l.strip()[0].isdigit():
            break
        body.append(l.strip())
    while body and not body[-1]:
        body.pop()
    size = int(next(l.split()[1] for l in lines if l.split()[:1] == ["height" if key == "rows" else "width"]))
    while len(body) > size and not body[0]:
        body.pop(0)
    return [" ".join(c for c in l.replace(",", " ").split() if c != "0") for l in body]
print('[clues]\nrows = """\n' + "\n".join(section("rows")) + '\n"""\ncolumns = """\n' + "\n".join(section("columns")) + '\n"""')
PY
}

fastest_ms() { # command...
    local times=()
    for _ in $(seq "$repeat"); do
        local start end
        start=$(date +%s%N)
        "$@" > /dev/null 2>&1 || true
        end=$(date +%s%N)
        times+=($(( (end - start) / 1000 )))
    done
    printf '%s\n' "${times[@]}" | sort -n | head -1 | awk '{printf "%.2f", $1 / 1000}'
}

printf '%-32s %12s %12s %8s\n' puzzle nonogrid_ms gridsight_ms nonogrid/gridsight
for file in "$@"; do
    name=$(basename "$file" .non)
    to_toml "$file" > "$work/$name.toml"
    grep -v '^given' "$file" > "$work/$name.non"
    theirs=$(fastest_ms "$nonogrid" --max-solutions 2 "$work/$name.toml")
    ours=$(fastest_ms "$gridsight" solve "$work/$name.non")
    awk -v n="$name" -v t="$theirs" -v o="$ours" 'BEGIN {printf "%-32s %12.2f %12.2f %7.1fx\n", n, t, o, t / o}'
done
