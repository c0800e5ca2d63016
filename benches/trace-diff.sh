#!/bin/bash
# Where two solver settings' trees part: compare two `HEXPROOF_TRACE_PLY=N` traces of the
# same position and re-evaluate the positions one tree left as leaves and the other searched.
#
#   benches/trace-diff.sh BOARD MOVES A.err B.err [TOP] [-- FLAGS-A -- FLAGS-B]
#   e.g. benches/trace-diff.sh 8x8 c5 def.err same.err 25 -- -- --vc-edge-semi-limit same
#
# A.err, B.err: stderr of `HEXPROOF_TRACE_PLY=60 hexproof solve --board BOARD --moves MOVES
# ... FLAGS` under the two settings. Prints the traced nodes whose subtree sizes differ most,
# then, for the TOP (default 20) largest subtrees that one setting searched and the other
# evaluated once and never expanded, the verdict of each setting's evaluation alone
# (`solve --nodes 1`): "open" under both means the other tree merely never chose that
# position (search shape); a winner under one means its connections decided it at once.
# Environment: HP (default target/release/hexproof). Used in docs/journal/vc-session31.md.
set -euo pipefail
if [ $# -lt 4 ]; then
  sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
board=$1 moves=$2 a=$3 b=$4
shift 4
top=20
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
  top=$1
  shift
fi
flags_a=() flags_b=()
if [ $# -gt 0 ] && [ "$1" = "--" ]; then
  shift
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do flags_a+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  flags_b=("$@")
fi
HP=${HP:-$(pwd)/target/release/hexproof}
[ -x "$HP" ] || { echo "trace-diff: no executable $HP" >&2; exit 2; }
for f in "$a" "$b"; do
  grep -q '^ply-node ' "$f" || { echo "trace-diff: no ply-node lines in $f" >&2; exit 2; }
done
# path <TAB> evaluated <TAB> expanded(0/1), per file.
table() {
  sed -n 's/^ply-node \[\(.*\)\] visits [0-9]* evaluated \([0-9]*\) first: \(.*\)$/\1\t\2\t\3/p' "$1" |
    awk -F'\t' '{ print $1 "\t" $2 "\t" ($3 == "-" ? 0 : 1) }' | sort -t$'\t' -k1,1
}
ta=$(mktemp) tb=$(mktemp)
trap 'rm -f "$ta" "$tb"' EXIT
table "$a" > "$ta"
table "$b" > "$tb"
echo "== nodes whose subtrees differ most (path: A positions / B positions)"
join -t$'\t' -a1 -a2 -e0 -o 0,1.2,2.2 "$ta" "$tb" |
  awk -F'\t' '{ d = $2 - $3; if (d < 0) d = -d; print d "\t[" $1 "]: " $2 " / " $3 }' |
  sort -t$'\t' -k1,1nr | awk -v n="$top" 'NR <= n' | cut -f2
verdict() {
  local out
  out=$("$HP" solve --board "$board" --moves "$moves $1" --threads 1 --nodes 1 --time 60 --json "${@:2}" 2> /dev/null || true)
  if echo "$out" | grep -q '"winner": "black"'; then
    echo black
  elif echo "$out" | grep -q '"winner": "white"'; then
    echo white
  else
    echo open
  fi
}
leaves() { # leaves of $1 that $2 expanded: size-in-$2 <TAB> path
  join -t$'\t' -o 0,1.2,1.3,2.2,2.3 "$1" "$2" |
    awk -F'\t' '$2 == 1 && $3 == 0 && $5 == 1 { print $4 "\t" $1 }' | sort -t$'\t' -k1,1nr | awk -v n="$top" 'NR <= n'
}
for side in A B; do
  if [ $side = A ]; then
    echo "== leaves of A searched by B (B positions below; verdict of A's and B's evaluation)"
    list=$(leaves "$ta" "$tb")
  else
    echo "== leaves of B searched by A (A positions below; verdict of A's and B's evaluation)"
    list=$(leaves "$tb" "$ta")
  fi
  while IFS=$'\t' read -r size path; do
    [ -n "$path" ] || continue
    echo "$size [$path] A: $(verdict "$path" "${flags_a[@]}") B: $(verdict "$path" "${flags_b[@]}")"
  done <<< "$list"
done
