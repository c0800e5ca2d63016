#!/usr/bin/env python3
"""Finds two disjoint areas for Noshita's Fig. 36 (ICGA J. 28(1), 2005, §4) with the solver.

Position: B54 (x) W37 B46 (y) W63 and the fictitious B53, White to move. Noshita: "t-x | t-y |
t-b in the left area, and x-b | y-b | t-b in the right area. Hence we have t-b, since x-y."

A union "g1 - E | g2 - E | S - E" (goal stones g_i, side S = t or b, far edge E) on a carrier C
is a plain Hex game once the goal stones are chained to the side S through cells outside C
that touch no cell of C not already next to a goal stone or to S (such "harmless" cells are
Black, other outside cells White, one harmless cell may stay empty for the stone counts):
Black joins top and bottom there iff the union holds on C (tools/noshita8_huge.py does the same
for the huge lemma). `hexproof solve` decides these positions in a few nodes.

The search: start from a left area that holds, drop cells from it (rightmost first) while the
left claim still holds; the rest of the board (minus the bridge 45 55 of x - y) is the right
area. Prints the areas and the solver's verdicts; `hexproof verify` then proves each claim
(the lemmas Fig36L and Fig36R of proofs/noshita-8x8-lemmas.hexp). Nothing here is trusted.

Usage: tools/noshita8_areas.py [--hexproof PATH]
"""
import json
import subprocess
import sys

HX = "target/release/hexproof"
def nb(c):
    i, j = int(c[0]), int(c[1])
    out = [(i-1,j),(i+1,j),(i,j-1),(i+1,j-1),(i-1,j+1),(i,j+1)]
    return [f"{a}{b}" for a,b in out if 1<=a<=8 and 1<=b<=8]
L = lambda c: "abcdefgh"[int(c[0])-1] + c[1]
ALL = [f"{i}{j}" for j in range(1,9) for i in range(1,9)]
def group(black, s):
    seen, todo = set(s), list(s)
    while todo:
        c = todo.pop()
        for n in nb(c):
            if n in black and n not in seen: seen.add(n); todo.append(n)
    return seen
def encode(black, white, goals, side, C):
    black, white, C = set(black), set(white), set(C)
    srow = "1" if side == "t" else "8"
    G = set().union(*[group(black, [g]) for g in goals])
    near = lambda n: n[1] == srow or any(m in G for m in nb(n))
    harmless = lambda c: all(near(n) for n in nb(c) if n in C)
    free = [c for c in ALL if c not in C and c not in black and c not in white]
    erow = "8" if side == "t" else "1"
    ok = {c for c in free if harmless(c) and c[1] != erow}
    # every goal group must reach the side through ok cells (or black stones)
    for g in goals:
        seen = group(black, [g]); todo = list(seen); hit = any(c[1] == srow for c in seen)
        while todo and not hit:
            c = todo.pop()
            for n in nb(c):
                if n not in seen and (n in ok or n in black):
                    seen.add(n); todo.append(n); hit = hit or n[1] == srow
        if not hit: return None, f"no chain from {g}"
    chain = set()
    for g in goals:
        start = group(black, [g]); prev = {c: None for c in start}; todo = list(start); end = None
        for c in start:
            if c[1] == srow: end = c
        while todo and end is None:
            c = todo.pop(0)
            for n in nb(c):
                if n not in prev and (n in ok or n in black):
                    prev[n] = c; todo.append(n)
                    if n[1] == srow: end = n; break
        while end is not None:
            if end in ok: chain.add(end)
            end = prev[end]
    rest_ok = sorted(ok - chain)
    nW0 = len(white) + len(set(free) - ok)
    nB0 = len(black) + len(chain)
    for e in (0, 1):
        # nB0 + k = nW0 + (len(rest_ok) - k - e) + 1
        k2 = nW0 + len(rest_ok) - e + 1 - nB0
        if k2 % 2 == 0 and 0 <= k2 // 2 <= len(rest_ok) - e:
            k = k2 // 2
            B = black | chain | set(rest_ok[:k])
            W = white | (set(free) - ok) | set(rest_ok[k:len(rest_ok) - e])
            return (sorted(B), sorted(W), rest_ok[-1] if e else None), None
    return None, "parity"
def moves(B, W):
    out = []
    for i in range(len(W)): out += [L(B[i]), L(W[i])]
    out.append(L(B[-1]))
    return " ".join(out)
def solve(black, white, goals, side, C, nodes=2000000):
    r, err = encode(black, white, goals, side, C)
    if err: return err
    B, W, e = r
    # check chains still exist after parity moves (re-check reachability)
    for g in goals:
        gg = group(set(B), [g]); 
        srow = "1" if side == "t" else "8"
        if not any(c[1] == srow for c in gg): return f"chain of {g} broken by parity"
    p = subprocess.run([HX,"solve","--board","8x8","--moves",moves(B,W),"--nodes",str(nodes),"--json"],capture_output=True,text=True)
    try: j = json.loads(p.stdout)
    except Exception: return p.stderr.strip()[:200]
    return f"{j['winner']} {j.get('winning_move')} {j['nodes']} nodes (empty {e})"


def main():
    global HX
    if "--hexproof" in sys.argv:
        HX = sys.argv[sys.argv.index("--hexproof") + 1]
    black, white = {"54", "46", "53"}, {"37", "63"}
    bridge = {"45", "55"}
    start = set("11 21 31 41 51 61 12 22 32 42 52 62 13 23 33 43 14 24 34 44 15 25 35 16 26 36 "
                "17 27 18 28".split())
    empty = [c for c in ALL if c not in black | white]
    print("left start:", solve(black, white, ["54", "46"], "b", start))
    left = set(start)
    for c in sorted(start, key=lambda c: (-int(c[0]), -int(c[1]))):
        r = solve(black, white, ["54", "46"], "b", left - {c}, nodes=300000)
        if r.startswith("black"):
            left -= {c}
        print(f"drop {c}: {r}", file=sys.stderr, flush=True)
    right = set(empty) - left - bridge
    rows = lambda s: " ".join(sorted(s, key=lambda c: (int(c[1]), int(c[0]))))
    print("left:", rows(left), "->", solve(black, white, ["54", "46"], "b", left))
    print("right:", rows(right), "->", solve(black, white, ["54", "46"], "t", right))


if __name__ == "__main__":
    main()
