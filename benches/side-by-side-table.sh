#!/bin/bash
# The markdown table of a `benches/side-by-side.sh` run: per opening, both winners, hexproof's
# positions (its `--json` "nodes") against Benzene's VC builds and MID calls (from mohex's
# stderr), both CPU seconds (user + system) and their ratio; a total line at the end.
#
#   benches/side-by-side-table.sh [OUT]        (OUT: the run's folder, default /tmp/side-by-side)
#
# An opening missing from either time file (still running, or killed) is left out. A winner
# is "?" when that solver did not decide the opening within the run's LIMIT.
set -euo pipefail
OUT=${1:-/tmp/side-by-side}
[ -f "$OUT/hp.time" ] && [ -f "$OUT/bz.time" ] || {
  echo "side-by-side-table: no hp.time / bz.time in $OUT" >&2
  exit 2
}
echo "| opening | winner (hexproof / Benzene) | positions / Benzene VC builds (MID calls) | CPU-s hexproof / Benzene | ratio |"
echo "| --- | --- | --- | --- | --- |"
# Board size from the result files' names (hp-SIZE-M.json).
awk 'NR == FNR { bz[$1] = $2 + $3; next } ($1 in bz) { print $1, $2 + $3, bz[$1] }' \
  "$OUT/bz.time" "$OUT/hp.time" |
  while read -r m hp bz; do
    json=$(ls "$OUT"/hp-*-"$m".json 2>/dev/null | head -1)
    err=$(ls "$OUT"/bz-*-"$m".err 2>/dev/null | head -1)
    out=$(ls "$OUT"/bz-*-"$m".out 2>/dev/null | head -1)
    hw=$(grep -o '"winner": *"[a-z]*"' "$json" 2>/dev/null | tail -1 | grep -o '[a-z]*"$' | tr -d '"' || true)
    nodes=$(grep -o '"nodes": *[0-9]*' "$json" 2>/dev/null | head -1 | grep -o '[0-9]*$' || true)
    bw=$(grep -o '^= [a-z]\+' "$out" 2>/dev/null | tail -1 | cut -c3- || true)
    builds=$(grep 'VC builds' "$err" 2>/dev/null | tail -1 | awk '{print $3}' || true)
    mids=$(grep 'MID calls' "$err" 2>/dev/null | tail -1 | awk '{print $3}' || true)
    ratio=$(awk -v a="$hp" -v b="$bz" 'BEGIN { if (b > 0) printf "%.2f×", a / b; else print "—" }')
    echo "| $m | ${hw:-?} / ${bw:-?} | ${nodes:-?} / ${builds:-?} (${mids:-?}) | $hp / $bz | $ratio |"
  done
awk 'NR == FNR { bz[$1] = $2 + $3; next } ($1 in bz) { h += $2 + $3; b += bz[$1]; n++ }
  END { if (n) printf "| all %d | | | %.2f / %.2f | %.2f× |\n", n, h, b, h / b }' \
  "$OUT/bz.time" "$OUT/hp.time"
