#!/bin/bash
# Side-by-side solver measurement: hexproof's `solve` and Benzene's DFPN (through mohex),
# one thread each, started together on the same machine, so both see the same load.
#
#   benches/side-by-side.sh SIZE OPENING...        e.g.  benches/side-by-side.sh 8 g2 a1 c5
#
# Per opening both solvers start at once (Benzene: transposition table cleared, the
# opening played as Black, then `dfpn-solve-state white`); the next opening starts when
# both have finished. CPU seconds (user, system), wall seconds and max RSS (KB) go to
# OUT/hp.time and OUT/bz.time, one line per opening; each solver's full output beside them
# (hexproof's `--json` carries its node and build counters; Benzene's stderr its statistics).
#
# Environment: HP (hexproof binary, default target/release/hexproof), BZ (mohex, default
# /tmp/benzene/build/src/mohex/mohex; build it as ../shared/BENZENE.md says, outside the
# repository), OUT (default /tmp/side-by-side), LIMIT (seconds per opening, default 500).
# Used for the BENCHMARKS.md rows "quiet side by side" (sessions 25–27).
set -euo pipefail
if [ $# -lt 2 ]; then
  sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
size=$1
shift
HP=${HP:-$(pwd)/target/release/hexproof}
BZ=${BZ:-/tmp/benzene/build/src/mohex/mohex}
OUT=${OUT:-/tmp/side-by-side}
LIMIT=${LIMIT:-500}
for bin in "$HP" "$BZ"; do
  [ -x "$bin" ] || { echo "side-by-side: no executable $bin" >&2; exit 2; }
done
mkdir -p "$OUT"
for m in "$@"; do
  uptime >> "$OUT/load.txt"
  /usr/bin/time -f "$m %U %S %e %M" -a -o "$OUT/hp.time" \
    "$HP" solve --board "${size}x${size}" --moves "$m" --threads 1 --time "$LIMIT" --json \
    > "$OUT/hp-$size-$m.json" &
  printf 'boardsize %s %s\nparam_dfpn threads 1\nparam_dfpn timelimit %s\ndfpn-clear-tt\nplay b %s\ndfpn-solve-state white\nquit\n' \
    "$size" "$size" "$LIMIT" "$m" |
    /usr/bin/time -f "$m %U %S %e %M" -a -o "$OUT/bz.time" \
      "$BZ" --use-logfile=false > "$OUT/bz-$size-$m.out" 2> "$OUT/bz-$size-$m.err" &
  wait
  hw=$(grep -o '"winner": *"[a-z]*"' "$OUT/hp-$size-$m.json" | grep -o '[a-z]*"$' | tr -d '"' || true)
  bw=$(grep -o '^= [a-z]\+' "$OUT/bz-$size-$m.out" | tail -1 | cut -c3- || true)
  echo "$m hexproof ${hw:-?} Benzene ${bw:-?}" | tee -a "$OUT/winners.txt"
done
uptime >> "$OUT/load.txt"
echo "hexproof:"; cat "$OUT/hp.time"
echo "Benzene:"; cat "$OUT/bz.time"
