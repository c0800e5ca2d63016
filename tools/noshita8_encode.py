#!/usr/bin/env python3
"""A Black sub-game of Noshita's 8x8 analyses as a whole-board Hex position, for `hexproof solve`.

The sub-game: Black stones and White stones on the 8x8 board (Noshita's digits, `54` = e4), a
carrier C (White moves first in it) and a claim "T - B": Black joins the set T to the set B,
where T is the top edge `t` or a set of Black stones (x's group), and B is the bottom edge `b`
with, optionally, a set of Black stones (e.g. `t - x | t - b` is T = t, B = b + {x's group}).
The encoding (as tools/noshita8_huge.py does for the huge lemma):

- the Black stones of T are joined to the top, and those of B to the bottom, by Black stones on
  outside cells (`--top-chain`, `--bottom-chain`) that are *harmless*: every carrier cell next
  to such a stone is already next to the same side (a stone of that side, or its edge row), and
  it touches no other Black stone; so the chains join nothing the sub-game does not;
- every other outside cell is White (outside cells are not Black's in the sub-game), except a
  few turned Black that touch no carrier cell, no edge row and no Black stone but harmless ones,
  and at most one such cell left empty, so that the stone counts fit "White to move".

Then Black (White to move) joins top and bottom in the encoded position iff Black wins the
sub-game: a Black path from the top to the bottom enters the carrier only from the top side and
leaves it only into the bottom side. `hexproof solve` decides the position; `--emit FILE` writes
the winner's strategy (for a White win, on the transposed board with the colours swapped), which
`hexproof check FILE` re-checks. Nothing here is trusted by the proof files.

Usage (docs/noshita.md, "Fig. 39"): after White's B = 47, t - x | t - b on every cell outside
Fig. 39's lower-right carrier, plus A = 46:
  tools/noshita8_encode.py --black "54 55 73" --white "71 47" --top "t" --bottom "b 54 55" \
      --bottom-chain "56 57 58" --carrier "11 21 31 41 51 61 81 12 22 32 42 52 62 72 82 13 23 \
      33 43 53 14 24 34 44 15 25 35 45 16 26 36 46 17 27 37 18 28"
prints `winner white, move c2` (32): White wins.
"""
import argparse
import json
import subprocess
import sys


def nb(c):
    i, j = int(c[0]), int(c[1])
    out = [(i - 1, j), (i + 1, j), (i, j - 1), (i + 1, j - 1), (i - 1, j + 1), (i, j + 1)]
    return [f"{a}{b}" for a, b in out if 1 <= a <= 8 and 1 <= b <= 8]


def letters(c):
    return "abcdefgh"[int(c[0]) - 1] + c[1:]


def encode(carrier, black, white, top, bottom, top_chain, bottom_chain):
    """The moves (letters, alternating from Black; White to move after them) and the cell left
    empty (or None)."""
    cells = [f"{i}{j}" for j in range(1, 9) for i in range(1, 9)]
    top_edge, bottom_edge = "t" in top, "b" in bottom
    top_st = {c for c in top if c != "t"}
    bot_st = {c for c in bottom if c != "b"}

    def near(n, stones, edge_row, edge):
        return (edge and n[1] == edge_row) or any(s in nb(n) for s in stones)

    others = set(black) - top_st - bot_st

    def harmless(c, stones, edge_row, edge):
        return all(
            near(n, stones, edge_row, edge) for n in nb(c) if n in carrier
        ) and not any(n in others for n in nb(c))

    for c in top_chain:
        if c in carrier or c in black or c in white or c[1] == "8" or not harmless(c, top_st, "1", top_edge):
            sys.exit(f"top chain cell {c} is not harmless")
    for c in bottom_chain:
        if c in carrier or c in black or c in white or c[1] == "1" or not harmless(c, bot_st, "8", bottom_edge):
            sys.exit(f"bottom chain cell {c} is not harmless")
    B = list(black) + list(top_chain) + list(bottom_chain)
    rest = [c for c in cells if c not in carrier and c not in B and c not in white]
    Bset = set(B)
    chains = set(top_chain) | set(bottom_chain)
    # Optional Black cells, each with a side: "t" or "b" when it is harmless for that side
    # (every carrier cell next to it is next to that side already, and it touches no other
    # Black stone), "-" when it touches no carrier cell, no edge row and no Black stone but
    # the chains'. No optional cell touches a stone, chain or optional cell of the other side,
    # so they join nothing new.
    side_of = {c: "t" for c in top_chain} | {c: "b" for c in bottom_chain}
    side_of |= {c: "t" for c in top_st} | {c: "b" for c in bot_st}
    opt = []
    for c in rest:
        if c[1] != "1" and c[1] != "8" and not any(n in carrier for n in nb(c)) and not any(
                n in others for n in nb(c)):
            side = "-"
        elif c[1] != "1" and harmless(c, bot_st, "8", bottom_edge):
            side = "b"
        elif c[1] != "8" and harmless(c, top_st, "1", top_edge):
            side = "t"
        else:
            continue
        sides = {side_of[n] for n in nb(c) if n in side_of} | ({side} - {"-"})
        sides.discard("-")
        if len(sides) > 1:
            continue
        side_of[c] = sides.pop() if sides else "-"
        opt.append(c)
    W = list(white) + [c for c in rest if c not in opt]
    need = len(W) + len(opt) + 1 - len(B)
    empty = None
    if need % 2:
        empty = opt.pop()
        need -= 1
    k = need // 2
    if not 0 <= k <= len(opt):
        sys.exit(f"cannot balance the stones: {len(B)} black, {len(W)} white, {len(opt)} free")
    B += opt[:k]
    W += opt[k:]
    assert len(B) == len(W) + 1
    moves = []
    for i, w in enumerate(W):
        moves += [B[i], w]
    moves.append(B[-1])
    return [letters(m) for m in moves], empty


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--carrier", required=True)
    ap.add_argument("--black", required=True)
    ap.add_argument("--white", default="")
    ap.add_argument("--top", default="t", help='"t" and/or Black stones')
    ap.add_argument("--bottom", default="b", help='"b" and/or Black stones')
    ap.add_argument("--top-chain", default="")
    ap.add_argument("--bottom-chain", default="")
    ap.add_argument("--nodes", default="5000000")
    ap.add_argument("--emit")
    ap.add_argument("--hexproof", default="target/release/hexproof")
    a = ap.parse_args()
    moves, empty = encode(set(a.carrier.split()), a.black.split(), a.white.split(), a.top.split(),
                          a.bottom.split(), a.top_chain.split(), a.bottom_chain.split())
    cmd = [a.hexproof, "solve", "--board", "8x8", "--moves", " ".join(moves), "--nodes", a.nodes,
           "--json"]
    if a.emit:
        cmd += ["--emit-proof", a.emit]
    p = subprocess.run(cmd, capture_output=True, text=True)
    print(f"moves: {' '.join(moves)} (empty outside cell: {empty})")
    try:
        r = json.loads(p.stdout)
    except ValueError:
        sys.exit(f"solve: {p.stdout[:300]} {p.stderr[:300]}")
    print(f"winner {r.get('winner')}, move {r.get('winning_move')}, {r.get('nodes')} nodes")


if __name__ == "__main__":
    main()
