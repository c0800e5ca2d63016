#!/bin/sh
# Emits and checks 7x7 opening proofs (issue 7): one markdown row per opening for
# BENCHMARKS.md "Exported proofs", the proofs written to $OUT/7x7-OPENING.hexp (OUT defaults
# to proofs/solver; most 7x7 files are 40-70 MB, too large to commit: OUT=/tmp/x).
#
#   sh tools/export7.sh [LEAF_MAX] [OPENING...]
#
# Default: leaf size 30 (the largest connection left to the checker's search when the
# explainer finds no AND/OR derivation, even after fill-in; derived ones have any size; at 22
# without fill-in the d4 tree passed 200 000 nodes; with fill-in, 40 leaves 17 search leaves
# of 31-39 cells in d4 and 30 none, for 8 % more nodes; BENCHMARKS.md "Exported proofs") and
# the openings the
# solver needs fewest nodes for (a connection is written `by search` only if the checker's
# own search proves it within the emitter's LEAF_NODES, src/solver/emit.rs, else it is split:
# the check then costs minutes, not hours): d4 (the centre), f2, e3, c4, b3 (Black wins) and e1, f1, d1
# (White wins, written colour-swapped on the transposed board). A Black-winning opening's
# 180-degree image is written from its proof by tools/rot180_proof.py (`goto P0 under
# rot180`) and checked too (IMAGES=0 to skip). Solver flags: the defaults (every pruning
# feature on). Each proof is checked with `hexproof check --no-search` (rule steps decided by
# their rules, `by search` leaves by the exact search; no confirming search per node). Run it
# under `nice`; not used by the build or the tests.
set -u
H=${HEXPROOF:-target/release/hexproof}
LM=${1:-30}
[ $# -gt 0 ] && shift
OPENINGS=${*:-"d4 f2 e3 c4 e1 f1 d1 b3"}
IMAGES=${IMAGES:-1}
OUT=${OUT:-proofs/solver}
echo "| position | --emit-leaf-max | nodes written | shared / gotos | derived / by search | file size | emit CPU | check CPU | verdict |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
check_row() { # FILE LABEL EMIT_CPU
  T=$(mktemp)
  /usr/bin/time -f "%U" -o "$T" "$H" check --no-search --time 3600 "$1" > "$T.out" 2>&1
  c=$(tail -1 "$T")
  v=$(tail -1 "$T.out" | sed 's/.*— //')
  steps=$(tail -1 "$T.out" | grep -o '[0-9]* step(s)' | head -1)
  n=$(grep -o '^// [0-9]* nodes' "$1" | grep -o '[0-9]*')
  sh=$(grep -o '[0-9]* shared position(s), [0-9]* goto(s)' "$1" | sed 's/ shared position(s), / \/ /; s/ goto(s)//')
  dv=$(grep -o '[0-9]* connection(s) written as AND/OR derivations, [0-9]* left' "$1" | sed 's/ connection(s) written as AND\/OR derivations, / \/ /; s/ left//')
  sz=$(wc -c < "$1")
  rm -f "$T" "$T.out"
  echo "| 7×7 $2 | $LM | $n | $sh | $dv | $sz B | $3 | $c s | $v ($steps) |"
}
for m in $OPENINGS; do
  f=$OUT/7x7-$m.hexp
  T=$(mktemp)
  /usr/bin/time -f "%U" -o "$T" "$H" solve --board 7x7 --moves "$m" --emit-leaf-max "$LM" \
    --emit-proof "$f" >/dev/null 2>&1
  e="$(tail -1 "$T") s"
  rm -f "$T"
  if [ ! -s "$f" ]; then
    echo "| 7×7 $m | $LM | no proof written | — | — | — | $e | — | — |"
    continue
  fi
  check_row "$f" "$m" "$e"
  if [ "$IMAGES" = 1 ] && ! grep -q '^white ' "$f" && [ "$m" != d4 ]; then
    img=$(python3 tools/rot180_proof.py "$f" | grep -o '^  black [a-g][0-9] goto' | awk '{print $2}')
    python3 tools/rot180_proof.py "$f" > "$OUT/7x7-$img.hexp"
    check_row "$OUT/7x7-$img.hexp" "$img (image of $m)" "—"
  fi
done
