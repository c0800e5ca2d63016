#!/usr/bin/env python3
"""Writes the proof of a one-stone opening's 180-degree image from the opening's own proof.

    python3 tools/rot180_proof.py proofs/solver/7x7-f2.hexp > proofs/solver/7x7-b6.hexp

The input must be a `hexproof solve --emit-proof` file for a Black-winning opening: no setup
stones, the tree starting `black M { ... }`. The output plays the image M' of M and ends in
`black M' goto P0 under rot180`, where the shared position `P0 black [M]` holds the original
tree unchanged (docs/SEMANTICS.md, "Shared positions": the checker verifies P0 once and that
the position after M' is P0 turned by 180 degrees; a 180-degree turn maps every play of Hex
onto one with the same winner). `hexproof check` decides the result; this script proves
nothing. A White-winning opening is written with its stone in the setup, so it has no such
image this way; for it (or any proof without `under`/`at` placements) use

    python3 tools/rot180_proof.py --turn proofs/solver/7x7-c1.hexp > proofs/solver/7x7-e7.hexp

or, for either kind, a few lines that name the opening's file instead of copying it:

    python3 tools/rot180_proof.py --image proofs/solver/7x7-c7.hexp > proofs/solver/7x7-e1.hexp

writes `use "7x7-c7.hexp"` and `image "7x7-c7.hexp" under rot180` (a White win: the setup
stones turned) or `black M' image "7x7-e3.hexp" under rot180` (a Black win); the checker
checks the used file and that this position is its position turned by 180 degrees
(docs/LANGUAGE.md, "Images of another file's strategy"). The image file must stay in the same
folder as the file it names. `--turn` instead
writes the whole file turned by 180 degrees: every cell name c -> its image, the
borders t <-> b and l <-> r (comment lines are kept as they are, with one added in front).
The result is a complete proof of its own, checked in full by `hexproof check` like any other;
this script proves nothing.
"""
import re
import sys


def image(cell, cols, rows):
    m = re.fullmatch(r"([a-z])(\d+)", cell)
    if not m:
        sys.exit(f"not a cell: {cell}")
    x = ord(m.group(1)) - ord("a")
    y = int(m.group(2)) - 1
    return f"{chr(ord('a') + cols - 1 - x)}{rows - y}"


def read_board(path):
    """The file's lines, its `board` line and its columns and rows."""
    lines = open(path).read().split("\n")
    board = next((l for l in lines if l.startswith("board ")), None)
    m = board and re.fullmatch(r"board (\d+)x(\d+) notation letters", board)
    if not m:
        sys.exit("no `board CxR notation letters` line")
    cols, rows = int(m.group(1)), int(m.group(2))
    return lines, board, cols, rows


def turn(path):
    lines, board, cols, rows = read_board(path)
    if any(re.search(r"\b(under|at)\b", l) for l in lines if not l.lstrip().startswith("//")):
        sys.exit("the proof places a lemma with `under`/`at`: not turned by this script")
    border = {"t": "b", "b": "t", "l": "r", "r": "l"}
    cell = re.compile(r"\b([a-z])(\d+)\b|\b([tblr])\b")

    def sub(mt):
        if mt.group(3):
            return border[mt.group(3)]
        return image(mt.group(1) + mt.group(2), cols, rows)

    out = [
        f"// The 180-degree turn of {path.split('/')[-1]}, written by tools/rot180_proof.py "
        "--turn: every cell mapped to its image, the borders t/b and l/r exchanged."
    ]
    for l in lines:
        if l.lstrip().startswith("//") or l.startswith("board "):
            out.append(l)
        elif l.strip().startswith("strategy ") or l.strip().startswith("use "):
            out.append(l)
        else:
            out.append(cell.sub(sub, l))
    sys.stdout.write("\n".join(out))


def image_file(path):
    lines, board, cols, rows = read_board(path)
    name = path.split("/")[-1]
    setup = [l for l in lines if l.startswith(("black ", "white "))]
    turned = []
    for l in setup:
        colour, cells = l.split(" ", 1)
        if not re.fullmatch(r"[a-z]\d+(, [a-z]\d+)*", cells.strip()):
            sys.exit(f"a setup line this script does not read: {l}")
        turned.append(colour + " " + ", ".join(image(c, cols, rows) for c in cells.strip().split(", ")))
    try:
        i = lines.index('strategy solved "Black, to move, wins" {')
    except ValueError:
        sys.exit("no `strategy solved` block")
    if setup:
        body = f'  image "{name}" under rot180'
        what = "setup " + "; ".join(turned)
    else:
        root = re.fullmatch(r" +black ([a-z]\d+) (\{|goto .*)", lines[i + 1])
        if not root:
            sys.exit("the strategy does not start with `black M`")
        img = image(root.group(1), cols, rows)
        body = f'  black {img} image "{name}" under rot180'
        what = f"opening {img}"
    out = [
        f"// The 180-degree image of {name} ({what}), written by tools/rot180_proof.py --image:",
        f"// `hexproof check` checks {name} and that this position is its position turned by 180",
        "// degrees (docs/LANGUAGE.md, \"Images of another file's strategy\").",
        "",
        board,
    ]
    out += turned
    out += [f'use "{name}"', "", 'strategy solved "Black, to move, wins" {', body, "}", ""]
    sys.stdout.write("\n".join(out))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--turn":
        return turn(sys.argv[2])
    if len(sys.argv) == 3 and sys.argv[1] == "--image":
        return image_file(sys.argv[2])
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    lines, board, cols, rows = read_board(sys.argv[1])
    if any(l.startswith(("black ", "white ")) for l in lines):
        sys.exit("the proof has setup stones: only a Black-winning opening has this image")
    try:
        i = lines.index('strategy solved "Black, to move, wins" {')
    except ValueError:
        sys.exit("no `strategy solved` block")
    root = re.fullmatch(r"  black ([a-z]\d+) \{", lines[i + 1])
    if not root:
        sys.exit("the strategy does not start with `black M {`")
    mv = root.group(1)
    img = image(mv, cols, rows)
    out = [
        f"// The 180-degree image of {sys.argv[1].split('/')[-1]} (opening {mv}): Black opens "
        f"{img}, and the position after it is P0 (Black {mv}) turned by 180 degrees; P0 holds "
        "that proof's tree unchanged. Written by tools/rot180_proof.py."
    ]
    out += lines[: i + 1]
    out.append(f"  black {img} goto P0 under rot180")
    out.append(f"  position P0 black [{mv}] {{")
    out += lines[i + 2 :]
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main()
