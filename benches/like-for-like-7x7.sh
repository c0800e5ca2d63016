#!/bin/bash
# 7×7 like for like: hexproof's `solve --openings all` (one thread; it searches one opening
# of each 180° pair and shares its table across them) beside Benzene's DFPN (through mohex,
# one thread) on the same 25 openings, one process per opening, the two chains started
# together so both see the same load.
#
#   benches/like-for-like-7x7.sh
#
# Output: OUT/hp.time (hexproof: user, system, wall seconds, max RSS KB), OUT/hp.json (its
# per-opening counters), OUT/bz.time (Benzene, one line per opening), OUT/bz-M.out/.err,
# OUT/load.txt; the last lines printed are Benzene's CPU sum and hexproof's time line.
# Environment: HP (default target/release/hexproof), BZ (default
# /tmp/benzene/build/src/mohex/mohex; build it as ../shared/BENZENE.md says, outside the
# repository), OUT (default /tmp/like-for-like-7x7). Used for BENCHMARKS.md's quiet 7×7
# rows (sessions 34 and 36).
set -euo pipefail
HP=${HP:-$(pwd)/target/release/hexproof}
BZ=${BZ:-/tmp/benzene/build/src/mohex/mohex}
OUT=${OUT:-/tmp/like-for-like-7x7}
for bin in "$HP" "$BZ"; do
  [ -x "$bin" ] || { echo "like-for-like-7x7: no executable $bin" >&2; exit 2; }
done
mkdir -p "$OUT"
rm -f "$OUT/bz.time"
uptime > "$OUT/load.txt"
# The openings `solve --board 7x7 --openings all` searches (the others are their images).
openings="a4 g2 a2 c2 b2 b4 g1 g3 a3 e2 f3 d2 a1 b1 b3 c1 c3 d3 c4 f2 f1 d1 e1 d4 e3"
( /usr/bin/time -f "hp %U %S %e %M" -o "$OUT/hp.time" \
    "$HP" solve --board 7x7 --openings all --threads 1 --json > "$OUT/hp.json" ) &
(
  for m in $openings; do
    printf 'boardsize 7 7\nparam_dfpn threads 1\nparam_dfpn timelimit 600\ndfpn-clear-tt\nplay b %s\ndfpn-solve-state white\nquit\n' "$m" |
      /usr/bin/time -f "$m %U %S %e %M" -a -o "$OUT/bz.time" "$BZ" --use-logfile=false \
        > "$OUT/bz-$m.out" 2> "$OUT/bz-$m.err"
  done
) &
wait
uptime >> "$OUT/load.txt"
awk '{u += $2; s += $3} END {print "benzene cpu", u + s}' "$OUT/bz.time"
cat "$OUT/hp.time"
