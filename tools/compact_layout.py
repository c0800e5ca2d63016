#!/usr/bin/env python3
"""Rewrites a .hexp proof with a smaller layout: the same text, fewer bytes.

    python3 tools/compact_layout.py 7x7-e5.hexp > proofs/solver/7x7-e5.hexp
    python3 tools/compact_layout.py --collapse 22 7x7-a2.hexp > proofs/solver/7x7-a2.hexp

Only whitespace changes: every line's indentation is halved (the emitter writes two spaces a
level; this writes one), and inside cell lists `[e1, f1, d3]` becomes `[e1,f1,d3]`
(docs/LANGUAGE.md, section 2: whitespace and line breaks are insignificant outside diagrams,
which emitted proofs do not have). Comment lines keep their words; strings (`"Black, to move,
wins"`) are not touched. On an emitted 7×7 proof the indentation and the list spaces are
about 40 % of the file's bytes (docs/journal/prove-session29.md). A comment line is added in
front saying so. `hexproof check` decides the result; this script proves nothing.

`--flat` writes no indentation at all (every line starts at its first word; on a committed 7×7
proof, already compacted, the leading spaces are 13–24 % of the bytes). The nesting is still
the braces' (`hexproof render` or any brace-aware editor re-indents it); only the eye loses it.

`--collapse K` first rewrites an emitted file's derivations as `hexproof solve --emit-collapse K`
would have written them (for K at least the file's own collapse): a fact derived by AND or OR
on at most K cells becomes `VC by search`, the facts only it needed are left out, and a leaf
whose goal is such a fact becomes one line `t - b on [...] by search` (src/prove/emit.rs,
`write_leaf`). This changes what the checker must search (a larger `by search` step), not
the tree; a file from an old export need not be emitted again to compare the two.
"""
import re
import sys

LIST = re.compile(r"\[[^\]\"]*\]")
FACT = re.compile(r"^( *)s_(\d+): \((\w+), \[([^\]]*)\], (\w+)\) (VC|VSC) by (.*)$")
REF = re.compile(r"\bs_(\d+)\b")


def collapse_block(block, k):
    """One leaf's derivation (consecutive `s_N:` lines, the goal last), rewritten with
    collapse `k` as the emitter's `write_leaf` does."""
    facts = [FACT.match(l) for l in block]
    size = [len([c for c in m.group(4).split(",") if c.strip()]) for m in facts]
    derived = [m.group(7).startswith(("AND ", "OR ")) for m in facts]
    collapsed = [d and n <= k for d, n in zip(derived, size)]
    last = len(block) - 1
    if collapsed[last]:
        pad = facts[last].group(1)
        return [f"{pad}t - b on [{facts[last].group(4)}] by search"]
    index = {m.group(2): i for i, m in enumerate(facts)}
    needed = [False] * len(block)
    needed[last] = True
    for i in range(last, -1, -1):
        if not needed[i] or collapsed[i] or not derived[i]:
            continue
        for r in REF.findall(facts[i].group(7)):
            if r not in index:
                sys.exit(f"a premise s_{r} outside its derivation: {block[i].strip()}")
            needed[index[r]] = True
    out = []
    for i, m in enumerate(facts):
        if not needed[i]:
            continue
        if collapsed[i]:
            out.append(block[i][: m.start(7)] + "search")
        else:
            out.append(block[i])
    return out


def collapse(lines, k):
    out, block = [], []
    for l in lines + [""]:
        if FACT.match(l):
            block.append(l)
            continue
        if block:
            out += collapse_block(block, k)
            block = []
        out.append(l)
    return out[:-1]


def compact_line(line, flat=False):
    body = line.lstrip(" ")
    indent = 0 if flat else (len(line) - len(body)) // 2
    if not body.startswith("//"):
        body = LIST.sub(lambda m: m.group(0).replace(", ", ","), body)
    return " " * indent + body


def main():
    args = sys.argv[1:]
    k = None
    flat = bool(args) and args[0] == "--flat"
    if flat:
        args = args[1:]
    if len(args) == 3 and args[0] == "--collapse" and args[1].isdigit():
        k = int(args[1])
        args = args[2:]
    if len(args) != 1:
        sys.exit(
            "usage: compact_layout.py [--flat] [--collapse K] FILE.hexp  (writes the compacted file on stdout)"
        )
    name = args[0]
    with open(name, encoding="utf-8") as f:
        text = f.read()
    if "\t" in text:
        sys.exit("the file has tabs: not written by the emitter")
    lines = text.split("\n")
    note = "the proof is unchanged"
    if k is not None:
        lines = collapse(lines, k)
        note = f"derived facts on at most {k} cells written `by search`, as `--emit-collapse {k}`"
    indent = "no indentation" if flat else "one space of indentation a level"
    out = [
        f"// Layout compacted by tools/compact_layout.py from {name.split('/')[-1]} "
        f"({indent}, cell lists without spaces); {note}."
    ]
    out += [compact_line(l, flat) for l in lines]
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main()
