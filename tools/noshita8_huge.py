#!/usr/bin/env python3
"""The huge lemma (Noshita 2005, §4, Fig. 33) as a lemma tree, found by the whole-board solver.

Claim: x - b | y - b | t - b with x = B54, y = B43 on a carrier C (docs/noshita.md, "The huge
lemma"). The exact local search does not settle it (40 million nodes undecided), but the claim
is a plain Hex game in disguise, which `hexproof solve` (DFPN over the VC engine) settles in
a few hundred nodes:

- every cell outside C is filled: Black on 53 52 51 (a chain joining x and y to the top edge),
  and Black on any other outside cell all of whose neighbours in C already touch x, y or the
  top (so such a stone joins nothing new); White on the rest; at most one harmless outside cell
  is left empty (dead: it touches no cell of C that is not already next to the goal) so that the
  stone counts fit "White to move";
- then Black joins top and bottom in this position iff in the sub-game on C (White first) Black
  joins x, y or the top to the bottom: the only Black stones touching C are x, y and stones
  whose C-neighbours already touch x, y or the top, and the top edge is joined to x and y.

`--emit-proof` writes Black's winning strategy for the encoded position; this script turns it
into the body of `lemma Huge`: White's cases and precluding analyses are kept (cells renamed to
Noshita's digits), each `t - b on [S] by search` becomes `x - b | y - b | t - b on [S ∩ C] by
search`, and White moves outside C (the dead cell) are dropped. Nothing here is trusted: the
checker re-checks the lemma tree in the original sub-game (docs/SEMANTICS.md "Lemma trees").

Usage: tools/noshita8_huge.py --carrier "CELLS" [--probe] [--hexproof PATH] > lemma.hexp
  --probe: only print the solver's verdict (White's winning first move when the claim fails).
"""
import argparse
import re
import subprocess
import sys
import tempfile

X, Y = "54", "43"
CHAIN = ["53", "52", "51"]


def nb(c):
    i, j = int(c[0]), int(c[1])
    out = [(i - 1, j), (i + 1, j), (i, j - 1), (i + 1, j - 1), (i - 1, j + 1), (i, j + 1)]
    return [f"{a}{b}" for a, b in out if 1 <= a <= 8 and 1 <= b <= 8]


def letters(c):
    return "abcdefgh"[int(c[0]) - 1] + c[1:]


def digits(c):
    return f"{'abcdefgh'.index(c[0]) + 1}{c[1:]}"


def encode(carrier):
    """The moves (letters, alternating from Black, White to move after them) and the cell left
    empty (or None)."""
    cells = [f"{i}{j}" for j in range(1, 9) for i in range(1, 9)]
    near_goal = lambda n: n[1] == "1" or X in nb(n) or Y in nb(n)
    # (a Black stone on the bottom row would join its neighbours to b: never harmless)
    harmless = lambda c: c[1] != "8" and all(near_goal(n) for n in nb(c) if n in carrier)
    for c in CHAIN:
        if c in carrier or not harmless(c):
            sys.exit(f"cell {c} of the chain to the top is in the carrier or touches it")
    black = [X, Y] + CHAIN
    rest = [c for c in cells if c not in carrier and c not in black]
    safe = [c for c in rest if harmless(c)]
    white = [c for c in rest if c not in safe]
    for empty in (0, 1):
        k2 = 1 + len(white) + len(safe) - empty - len(black)
        if k2 % 2 == 0 and 0 <= k2 // 2 <= len(safe) - empty:
            k = k2 // 2
            left = safe[len(safe) - 1] if empty else None
            white += safe[k:len(safe) - empty]
            black += safe[:k]
            break
    else:
        sys.exit("no harmless outside cell to balance the stones")
    moves = []
    for i, w in enumerate(white):
        moves += [black[i], w]
    moves.append(black[-1])
    return [letters(m) for m in moves], left


def inline_gotos(lines):
    """The strategy's lines with every `black M goto P` replaced by `black M { P's body }`
    (lemma trees have no shared positions; the checker re-checks each copy in place), and
    the shared positions themselves removed."""
    shared, keep, k = {}, [], 0
    while k < len(lines):
        m = re.match(r"\s*position (\w+) ", lines[k])
        if not m:
            keep.append(lines[k])
            k += 1
            continue
        depth, body = lines[k].count("{") - lines[k].count("}"), []
        k += 1
        while depth > 0:
            depth += lines[k].count("{") - lines[k].count("}")
            if depth > 0:
                body.append(lines[k])
            k += 1
        shared[m.group(1)] = body

    def expand(ls):
        out = []
        for l in ls:
            m = re.match(r"(.*=> black [a-h][1-8]) goto (\w+)\s*$", l)
            if m:
                if "under" in l:
                    sys.exit("a rotated goto: not handled")
                out.append(m.group(1) + " {")
                out += expand(shared[m.group(2)])
                out.append("}")
            else:
                out.append(l)
        return out

    return expand(keep)


def translate(text, carrier, claim):
    """The emitted strategy's White node (below its root Black move) as a lemma-tree body."""
    lines = inline_gotos(text.splitlines())
    i = next(n for n, l in enumerate(lines) if l.strip().startswith("black ") and l.strip().endswith("{"))
    j = len(lines) - 1 - lines[::-1].index("}")  # the strategy's closing brace
    body = lines[i + 1:j - 1]  # inside the root Black move's braces
    out = []
    skip = 0
    cellre = re.compile(r"\b([a-h][1-8])\b")
    for l in body:
        s = l.strip()
        if skip:
            skip += s.count("{") - s.count("}")
            continue
        m = re.match(r"case ([a-h][1-8](?: \| [a-h][1-8])*)(?: \| \*)? => ", s)
        if m:
            ws = [digits(w) for w in m.group(1).split(" | ")]
            keep = [w for w in ws if w in carrier]
            if not keep:
                skip = s.count("{") - s.count("}")
                continue
            l = l.replace(m.group(1), " | ".join(letters(w) for w in keep), 1)
        if "t - b on [" in l:
            a = l.index("[")
            b = l.index("]", a)
            cs = [digits(c.strip()) for c in l[a + 1:b].split(",") if c.strip()]
            cs = [c for c in cs if c in carrier]
            l = l[:a] + "[" + ", ".join(letters(c) for c in cs) + "]" + l[b + 1:]
            l = l.replace("t - b on [", claim + " on [", 1)
        l = cellre.sub(lambda mm: digits(mm.group(1)), l)
        out.append("  " + l)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--carrier", required=True)
    ap.add_argument("--probe", action="store_true")
    ap.add_argument("--nodes", default="5000000")
    ap.add_argument("--hexproof", default="target/release/hexproof")
    ap.add_argument("--name", default="Huge")
    a = ap.parse_args()
    carrier = set(a.carrier.split())
    moves, left = encode(carrier)
    with tempfile.NamedTemporaryFile(suffix=".hexp") as f:
        cmd = [a.hexproof, "solve", "--board", "8x8", "--moves", " ".join(moves),
               "--nodes", a.nodes, "--json"]
        if not a.probe:
            cmd += ["--emit-proof", f.name]
        p = subprocess.run(cmd, capture_output=True, text=True)
        print(f"solve: {p.stdout.strip()[:600]} (empty outside cell: {left})", file=sys.stderr)
        import json
        r = json.loads(p.stdout)
        if a.probe or r.get("winner") != "black":
            return
        text = open(f.name).read()
    claim = "x - b | y - b | t - b"
    order = sorted(carrier, key=lambda c: (int(c[1]), int(c[0])))
    print(f'lemma {a.name} "the huge lemma (Fig. 33)" {{')
    print(f"  black {X} as x, {Y} as y")
    print(f"  carrier [{' '.join(order)}]")
    print(f"  claim {claim}")
    print("  proof {")
    depth = 2  # re-indent by braces (the inlined positions come with their own indentation)
    for l in translate(text, carrier, claim):
        s = l.strip()
        depth -= s.startswith("}")
        print("  " * depth + s)
        depth += s.count("{") - s.count("}") + s.startswith("}")
    print("  }")
    print("}")


if __name__ == "__main__":
    main()
