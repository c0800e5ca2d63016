#!/usr/bin/env python3
"""The AB guarantee of Fig. 37's lower-right lemma (Noshita 2005, §4), played exactly.

x = B54, y = B37, claim x - y | x - b on the 21-cell carrier of `lemma Fig37R`
(proofs/noshita-8x8-lemmas.hexp). The checker's guarantee game (src/check/ab.rs) stops at 16
cells, so this script plays the same game outside it, with the same rules:

- guarantee: White moves first in the carrier; when White plays A while B is empty, Black's
  only move is B; otherwise Black may answer any empty cell; Black wins as soon as x is joined
  to y or to the bottom by Black cells (x, y and the cells it played); White wins when the
  carrier is full and nothing is joined;
- interface (`--interface`, "usable across two areas"): moreover White's A, once White holds
  B, gets no answer (White moves again).

Exact minimax with a memo on (Black cells, White cells); Black tries its moves in a fixed
order (the cells that answer most White moves first), which changes the time, not the value.

    python3 tools/noshita8_ab.py 46 36               # A = 46, B = 36: the guarantee
    python3 tools/noshita8_ab.py 46 36 --interface   # the interface game

Prints the value and the number of positions memoised. Nothing here is trusted by the checker:
the file states only what the checker verifies (docs/noshita.md, "Fig. 37 lower right").
"""
import sys

sys.setrecursionlimit(10000)
CARRIER = "36 45 46 47 48 55 56 57 58 64 65 66 67 68 75 76 77 78 86 87 88".split()
X, Y = "54", "37"
ORDER = "45 65 55 36 46 56 64 66 76 57 47 75 67 77 86 87 48 58 68 78 88".split()


def neighbours(c):
    """Noshita's cells `ij` (column i, row j) on 8x8: a cell touches (i±1, j), (i, j±1),
    (i+1, j-1) and (i-1, j+1)."""
    i, j = int(c[0]), int(c[1])
    for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)):
        a, b = i + di, j + dj
        if 1 <= a <= 8 and 1 <= b <= 8:
            yield f"{a}{b}"


def joined(mine):
    """x joined to y or to the bottom (row 8 touches b) by Black cells."""
    own = {X, Y} | {CARRIER[k] for k in range(len(CARRIER)) if mine >> k & 1}
    seen, stack = {X}, [X]
    while stack:
        c = stack.pop()
        if c == Y or c[1] == "8":
            return True
        for d in neighbours(c):
            if d in own and d not in seen:
                seen.add(d)
                stack.append(d)
    return False


def solve(a, b, interface):
    idx = {c: k for k, c in enumerate(CARRIER)}
    ia, ib, n = idx[a], idx[b], len(CARRIER)
    full, order, memo = (1 << n) - 1, [idx[c] for c in ORDER], {}

    def win(mine, theirs):
        """Black wins with White to move."""
        key = (mine, theirs)
        if key not in memo:
            memo[key] = inner(mine, theirs)
        return memo[key]

    def inner(mine, theirs):
        if joined(mine):
            return True
        free = full & ~(mine | theirs)
        if free == 0:
            return False
        for w in range(n):
            if not free >> w & 1:
                continue
            t2 = theirs | 1 << w
            if w == ia and free >> ib & 1:
                ok = win(mine | 1 << ib, t2)  # A is answered by B, and by nothing else
            elif interface and w == ia and theirs >> ib & 1:
                ok = win(mine, t2)  # after White's B, its A gets no answer here
            else:
                f2 = free & ~(1 << w)
                ok = joined(mine) if f2 == 0 else any(
                    f2 >> m & 1 and win(mine | 1 << m, t2) for m in order)
            if not ok:
                return False
        return True

    return win(0, 0), len(memo)


def main():
    a, b = sys.argv[1], sys.argv[2]
    interface = "--interface" in sys.argv
    value, positions = solve(a, b, interface)
    game = "interface" if interface else "guarantee"
    print(f"A = {a}, B = {b}: the {game} {'holds' if value else 'fails'} ({positions} positions)")


if __name__ == "__main__":
    main()
