#!/bin/sh
# Emits and checks 7x7 opening proofs (issue 7): one markdown row per opening for
# BENCHMARKS.md "Exported proofs", the proofs written to proofs/solver/7x7-OPENING.hexp.
#
#   sh tools/export7.sh [LEAF_MAX] [OPENING...]
#
# Default: leaf size 22 (the largest connection left to the checker's search when the
# explainer finds no AND/OR derivation; derived ones have any size) and the Black-winning
# openings c2 f2 b3 c3 e3 c4 d4 (the centre) with their 180-degree images. Run it on a quiet
# machine: the centre alone ran over 19 CPU-minutes without finishing at hand-off (the explainer's
# failed attempts dominate). Not used by the build or the tests.
set -u
H=${HEXPROOF:-target/release/hexproof}
LM=${1:-22}
[ $# -gt 0 ] && shift
OPENINGS=${*:-"d4 c2 e6 f2 b6 b3 f5 c3 e5 e3 c5 c4 e4"}
echo "| position | --emit-leaf-max | nodes written | emit CPU | check CPU | verdict |"
echo "| --- | --- | --- | --- | --- | --- |"
for m in $OPENINGS; do
  f=proofs/solver/7x7-$m.hexp
  T=$(mktemp)
  /usr/bin/time -f "%U" -o "$T" "$H" solve --board 7x7 --moves "$m" --emit-leaf-max "$LM" \
    --emit-proof "$f" >/dev/null 2>&1
  e=$(tail -1 "$T")
  if [ ! -s "$f" ]; then
    echo "| 7×7 $m | $LM | no proof written | $e s | — | — |"
    continue
  fi
  n=$(grep -o '^// [0-9]* nodes' "$f" | grep -o '[0-9]*')
  /usr/bin/time -f "%U" -o "$T" "$H" check --no-search --time 3600 "$f" > "$T.out" 2>&1
  c=$(tail -1 "$T")
  v=$(tail -1 "$T.out" | sed 's/.*— //')
  rm -f "$T" "$T.out"
  echo "| 7×7 $m | $LM | $n | $e s | $c s | $v |"
done
