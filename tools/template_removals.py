#!/usr/bin/env python3
"""Decides a one-stone edge template and its one-cell removals with the whole-board solver.

A one-stone edge template (stone S on row K, carrier C, Black's edge, White first) is a plain
Hex game once every cell outside C is filled (the same idea as tools/noshita8_huge.py):

- the template's edge is the board's top edge (template row r = board row r, template column
  c = board column c + OFFSET; `[r, c]` neighbours `[r+1, c-1]` and `[r+1, c]`, as on the board);
- Black's stone S is joined to the bottom edge by a Black chain outside C: the cell above the
  stone that is not in C, then the filler rows below the template, all Black except the
  filler cells next to a carrier cell that is not next to S (a Black stone there would give S
  a neighbour it does not have) and a few White cells to balance the stone counts;
- every other cell outside C is White; when the parity needs it one filler cell whose
  neighbours are all Black stays empty (a dead cell: playing it is a pass, and a pass never
  helps in Hex).

Then Black joins top and bottom with White to move iff in the sub-game on C (White first)
Black joins S to the edge: Black's only stones next to C are S's group, whose carrier
neighbours are exactly S's, and no Black stone outside C touches the top edge. `hexproof
solve` (exact DFPN, every answer proved) decides it; "White wins" is an exact refutation.

Usage: tools/template_removals.py --file templates/row4-5x14.json --name IV1c
           [--only full|removals] [--cells "r,c r,c"] [--nodes N] [--hexproof PATH] [--jsonl OUT]
Prints one line per question: the removed cell (or "full"), the winner, solver nodes, CPU s.
"""
import argparse
import json
import subprocess
import sys
import time


def nb(r, c):
    return [(r, c - 1), (r, c + 1), (r - 1, c), (r - 1, c + 1), (r + 1, c - 1), (r + 1, c)]


def encode(stone, carrier):
    """(width, height, lo, blacks, whites, empty) of the encoded position, White to move."""
    rt = max(r for r, _ in carrier | {stone})
    cols = [c for _, c in carrier | {stone}]
    lo, hi = min(cols), max(cols)
    width = hi - lo + 1
    above = [p for p in nb(*stone) if p[0] == stone[0] + 1 and p not in carrier]
    if not above:
        sys.exit("both cells above the stone are in the carrier: no chain to the far edge")
    stone_nb = {p for p in nb(*stone) if p in carrier}
    harmless = lambda p: all(q in stone_nb for q in nb(*p) if q in carrier)
    start = next((p for p in above if harmless(p)), above[0])
    for h in range(max(rt, start[0]) + 1, 20):
        if width * h > 81:
            break
        chain = [(r, start[1]) for r in range(start[0], h + 1)]
        if any(p in carrier or not harmless(p) for p in chain):
            sys.exit("the chain from the stone to the far edge meets the carrier")
        cells = [(r, c) for r in range(1, h + 1) for c in range(lo, hi + 1)]
        blacks, whites, free = [stone] + chain, [], []
        for p in cells:
            if p in carrier or p in blacks:
                continue
            if p[0] > rt and harmless(p):
                free.append(p)
            else:
                whites.append(p)
        empty = None
        if (len(blacks) + len(whites) + len(free)) % 2 == 0:
            # a dead cell: on the last row, touching no carrier cell, every neighbour Black
            for p in reversed(free):
                if p[0] == h and not any(q in carrier for q in nb(*p)) and all(
                        q in free or q in chain or q[1] < lo or q[1] > hi or q[0] > h for q in nb(*p)):
                    empty = p
                    break
            if empty is None:
                continue
            free.remove(empty)
        keep = {q for q in nb(*empty)} if empty else set()
        n = len(blacks) + len(whites) + len(free)
        k = len(blacks) + len(free) - (n + 1) // 2  # free cells to turn White
        turn = [p for p in free if p not in keep]
        if k < 0 or len(turn) < k:
            continue
        turn = turn[:k]
        blacks += [p for p in free if p not in turn]
        whites += turn
        assert len(blacks) == len(whites) + 1
        return (width, h, lo, blacks, whites, empty)
    sys.exit("no encoding fits in 81 cells")


def name(p, lo):
    r, c = p
    return "abcdefghijklmnopqrs"[c - lo] + str(r)


def solve(stone, carrier, nodes, exe):
    width, h, lo, blacks, whites, empty = encode(stone, carrier)
    moves = []
    for i, w in enumerate(whites):
        moves += [name(blacks[i], lo), name(w, lo)]
    moves.append(name(blacks[-1], lo))
    cmd = [exe, "solve", "--board", f"{width}x{h}", "--moves", " ".join(moves),
           "--nodes", str(nodes), "--json"]
    t = time.process_time()
    p = subprocess.run(cmd, capture_output=True, text=True)
    try:
        r = json.loads(p.stdout)
    except json.JSONDecodeError:
        return {"winner": None, "error": (p.stderr or p.stdout).strip()[:300], "board": f"{width}x{h}",
                "moves": " ".join(moves)}
    r.pop("profile", None)
    r.pop("proof", None)
    return r


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--file", required=True)
    ap.add_argument("--name", required=True)
    ap.add_argument("--only", choices=["full", "removals"])
    ap.add_argument("--cells", help="only these removals, e.g. '1,-5 3,2'")
    ap.add_argument("--nodes", default=5_000_000, type=int)
    ap.add_argument("--hexproof", default="target/release/hexproof")
    ap.add_argument("--jsonl", help="append one JSON line per question")
    a = ap.parse_args()
    rec = next(r for r in json.load(open(a.file))["templates"] if r["name"] == a.name)
    stone = tuple(rec["stones"][0])
    carrier = {tuple(p) for p in rec["carrier"]}
    qs = []
    if a.only != "removals":
        qs.append(None)
    if a.only != "full":
        cells = sorted(carrier)
        if a.cells:
            cells = [tuple(int(x) for x in s.split(",")) for s in a.cells.split()]
        qs += cells
    for q in qs:
        c = carrier if q is None else carrier - {q}
        t0 = time.time()
        r = solve(stone, c, a.nodes, a.hexproof)
        line = {"template": a.name, "removed": None if q is None else list(q),
                "winner": r.get("winner"), "nodes": r.get("nodes"),
                "seconds": r.get("seconds"), "wall": round(time.time() - t0, 1),
                "board": r.get("board"), "moves": r.get("moves"), "error": r.get("error")}
        print(json.dumps(line), flush=True)
        if a.jsonl:
            with open(a.jsonl, "a") as f:
                f.write(json.dumps(line) + "\n")


if __name__ == "__main__":
    main()
