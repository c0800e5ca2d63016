#!/bin/bash
# Tree sizes of hexproof's `solve` and Benzene's DFPN on positions given by moves (Black
# first, alternating; the side to move follows from the count), one after the other, for a
# level-by-level comparison down a line (session 42). Prints per position hexproof's
# positions, winner and winning move, and Benzene's VC builds, winner and principal variation.
#
#   benches/position-vs-benzene.sh SIZE "MOVES"...   e.g.  benches/position-vs-benzene.sh 8 "c4 c5" "c4 c5 e4"
#
# Counts only (both are deterministic); for CPU use benches/side-by-side.sh. hexproof's count
# includes the confirmation of a winning move when the root is decided by its evaluation
# (`confirmed_move`: a root won by connections reports the positions it tried, Benzene 1).
# Environment: HP (hexproof binary, default target/release/hexproof), BZ (mohex, default
# /tmp/benzene/build/src/mohex/mohex; built outside the repository as ../shared/BENZENE.md
# says), LIMIT (seconds per position, default 600), BZ_EXTRA (more GTP lines for Benzene,
# e.g. 'param_solver_ice find_reversible 0\n').
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
size=$1; shift
: "${HP:=$(pwd)/target/release/hexproof}" "${BZ:=/tmp/benzene/build/src/mohex/mohex}" "${LIMIT:=600}"
[ -x "$HP" ] && [ -x "$BZ" ] || { echo "position-vs-benzene: no executable $HP or $BZ" >&2; exit 2; }
for moves in "$@"; do
  n=$(echo "$moves" | wc -w)
  if [ $((n % 2)) = 0 ]; then colour=black; else colour=white; fi
  plays=""
  c=b
  for m in $moves; do
    plays="${plays}play $c $m\n"
    if [ $c = b ]; then c=w; else c=b; fi
  done
  hp=$("$HP" solve --board "${size}x${size}" --moves "$moves" --threads 1 --time "$LIMIT" \
    --json 2> /dev/null |
    grep -o '"nodes": [0-9]*\|"winner": "[a-z]*"\|"winning_move": "[a-z0-9]*"' |
    tr -d '"' | tr '\n' ' ' || true)
  bz=$(printf "boardsize %s %s\n${BZ_EXTRA:-}param_dfpn threads 1\nparam_dfpn timelimit %s\ndfpn-clear-tt\n${plays}dfpn-solve-state %s\nquit\n" \
    "$size" "$size" "$LIMIT" "$colour" |
    (cd "$(dirname "$BZ")" && "$BZ" --use-logfile=false 2>&1 > /dev/null) |
    grep '^VC builds\|^Winner\|^PV' | tr -s ' ' | tr '\n' ' ' || true)
  echo "[$moves] ($colour to move) hexproof: $hp| Benzene: $bz"
done
