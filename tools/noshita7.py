#!/usr/bin/env python3
"""Generates proofs/noshita-7x7.hexp and proofs/noshita-7x7-lemmas.hexp (issue 5).

    python3 tools/noshita7.py lemmas > proofs/noshita-7x7-lemmas.hexp
    python3 tools/noshita7.py        > proofs/noshita-7x7.hexp

The carriers below were found with `hexproof minimize` (see docs/noshita.md). The tree's
upper-right half is the lower-left half turned by 180 degrees (rot()), so the two halves
cannot drift apart. Not used by the build or the tests.
"""
import re
import sys

def diag(black, white, carrier, marks={}, n=7, indent="    "):
    black=set(black.split()); white=set(white.split()); carrier=set(carrier.split())
    rows=[]
    for j in range(1,n+1):
        s=[]
        for i in range(1,n+1):
            c=f"{i}{j}"
            if c in marks: s.append(marks[c])
            elif c in black: s.append('x')
            elif c in white: s.append('o')
            elif c in carrier: s.append('*')
            else: s.append('.')
        rows.append(indent + " "*(j-1) + " ".join(s))
    return "\n".join(rows)


def cs(s):
    return set(s.split()) if isinstance(s, str) else set(s)
def L(*sets):
    u = set()
    for s in sets: u |= cs(s)
    return "[" + ", ".join(sorted(u, key=lambda c: (c[1], c[0]))) + "]"

def rot(text):
    """rot180 of a text: cells ij -> (8-i)(8-j), borders t <-> b."""
    def cell(m):
        i, j = int(m.group(0)[0]), int(m.group(0)[1])
        return f"{8-i}{8-j}"
    text = re.sub(r"\b[1-7][1-7]\b", cell, text)
    text = re.sub(r"\bt\b", "\0", text)
    text = re.sub(r"\bb\b", "t", text)
    return text.replace("\0", "b")

U1 = "21 31 41 51 61 71 22 32 42 52 62 23 33 43 53 24 34 25 35 16 26 17"
U1P = "31 41 51 61 71 32 42 52 62 23 33 24 34 25 35 16 26 17"
U1S = "21 31 41 51 61 22 32 42 52 62 23 33 43 53 34"
U2 = "21 31 41 51 61 71 22 32 42 52 62 23 33 43 53 24 34 15 25 16 26 17"
U2P = "31 41 51 61 71 32 42 52 62 23 33 24 34 15 25 16 26 17"
U4 = "21 31 41 51 61 71 22 32 42 52 62 23 33 43 53 24 34 25"
ST = "35 45 55 36 46 56 27 37 47 57"
T55 = "65 46 56 66 37 47 57 67"

def lemma(name, title, comment, black, white, carrier, claim, marks={}):
    out = [f"// {line}" if line else "//" for line in comment.strip().split("\n")]
    out.append(f'lemma {name} "{title}" {{')
    out.append("  diagram {")
    out.append(diag(black, white, carrier, marks))
    out.append("  }")
    out.append(f"  claim {claim}")
    out.append("}")
    return "\n".join(out) + "\n"
U3 = "21 31 41 51 61 71 22 32 42 52 62 23 33 43 53 24 34 15 25 16 26 36 17 27"
U3P = "31 41 51 61 71 32 42 52 62 23 33 24 34 15 25 16 26 36 17 27"
F18 = "63 54 64 55 65 75 46 56 66 76 37 47 57 67 77"
T53 = "41 51 61 71 42 52 62 43"      # t - 53 (the T-lemma turned to the top)
T45 = "55 36 46 56 27 37 47 57"      # 45 - b (the T-lemma shifted left)
T33 = "21 31 41 51 22 32 42 23"      # placeholder, checked below
STDOWN54 = ST                        # {44,54} - b
STDOWN34 = "25 35 45 26 36 46 17 27 37 47"   # {34,44} - b (left shift)
STUP54 = rot(STDOWN34)               # t - {44,54}
STUP34 = rot(ST)                     # t - {34,44}

def chain_leaf(u, s, z, ind):
    """Noshita's pattern: u = (claim 't - x | t - b' style with pair a-b, carrier, lemma),
    s = x - y (carrier, lemma), z = y - b (carrier, lemma)."""
    pass

def leaf_union_bridge_edge(ucl, ucar, ulem, x, y, scar, slem, zcar, zlem, extra=""):
    """u: t - x | σ by U; s: x - y by S; z: y - b by T/S'; then rule2, rule2, rule1."""
    s1 = L(ucar, scar)
    s2 = L(ucar, scar, zcar)
    return f"""u: {ucl} on {L(ucar)} by {ulem}
s: {x} - {y} on {L(scar)} by {slem}
z: {y} - b on {L(zcar)} by {zlem}
uy: {ucl.replace('t - ' + x, 't - ' + y, 1)} on {s1} by rule2 u s
ub: {ucl.replace('t - ' + x, 't - b', 1).replace('t - ' + y, 't - b')} on {s2} by rule2 uy z
"""


def ind(text, n):
    return "\n".join((" " * n + l) if l.strip() else l for l in text.strip("\n").split("\n")) + "\n"

# ---- leaves, written for the lower-left half; rot() gives the upper-right twin ----
def leaf_ab():   # W27 or W36, B55
    return f"""// Fig. 11: t - x | t - b by U1, x - 55 by S, 55 - b by T.
u: t - x | t - b on {L(U1)} by U1
s: x - 55 on [45, 54] by S
z: 55 - b on {L(T55)} by T
r1: t - 55 | t - b on {L(U1, '45 54')} by rule2 u s
r2: t - b | t - b on {L(U1, '45 54', T55)} by rule2 r1 z
t - b on {L(U1, '45 54', T55)} by rule1 r2
"""
def leaf_cd():   # W47 or W46, B36
    return f"""// Fig. 12: t - x | t - 36 | t - b (U2 here; the paper says U3), x - 36 by S, 36 - b by S'.
u: t - x | t - 36 | t - b on {L(U2)} by U2
s: x - 36 on [35, 45] by S
z: 36 - b on [27, 37] by Sp
r1: t - 36 | t - 36 | t - b on {L(U2, '35 45')} by rule2 u s
r2: t - 36 | t - b on {L(U2, '35 45')} by rule1 r1
r3: t - b | t - b on {L(U2, '35 45 27 37')} by rule2 r2 z
t - b on {L(U2, '35 45 27 37')} by rule1 r3
"""

EW = "35 45 55 36 46 56 47 57"
def leaf_e():    # W37, B26
    return f"""// Fig. 13: t - x | t - 26 by U4, 26 - b by S', x - 26 | x - b in the asterisk set
// (W35 B45 W36 B56). Rule (2) with the union w as its second premise (S1[ab σ],
// S2[b c1 | b c2] give [a c1 | a c2 | σ]) combines the two unions into t - 26 | t - b.
u: t - x | t - 26 on {L(U4)} by U4
w: x - 26 | x - b on {L(EW)} by search
v: t - 26 | t - b on {L(U4, EW)} by rule2 u w
z: 26 - b on [17, 27] by Sp
r: t - b | t - b on {L(U4, EW, '17 27')} by rule2 v z
t - b on {L(U4, EW, '17 27')} by rule1 r
"""

FWTX = "31 41 61 71 32 42 52 33 43 53"
def f_node():
    P52 = L('51 61 43 53', T45)
    return f"""white {{
  // Fig. 14 (analysis 1): a fictitious B52 gives t - x and x - b (T-lemma from 45).
  preclude by 52 {{
    (t, [51, 61], 52) VC by Sp
    (52, [43, 53], x) VC by S
    (t, [43, 51, 53, 61], x) VC by AND (t, [51, 61], 52) (52, [43, 53], x)
    (t, [43, 51, 53, 61], 45) VC by AND (t, [43, 51, 53, 61], x) (x, [], 45)
    (45, {L(T45)}, b) VC by T
    (t, {P52}, b) VC by AND (t, [43, 51, 53, 61], 45) (45, {L(T45)}, b)
  }}
  // Fig. 15 (analysis 2): a fictitious B36 joins x; U2 (its y = 36 now part of x) and S'.
  // The checker matches lemma ends literally, so U2 with y joined to x is searched here.
  preclude by 36 {{
    u: t - x | t - b on {L(U2)} by search
    z: (x, [27, 37], b) VC by search
    r: t - b | t - b on {L(U2, '27 37')} by rule2 u z
    t - b on {L(U2, '27 37')} by rule1 r
  }}
  // Fig. 16: White's fourth moves p - w survive.
  case 37 => black 56 {{       // f.p, Fig. 17
    u: t - x | t - b on {L(U3)} by U3
    s0: (45, [46, 55], 56) VC by S
    s: (x, [46, 55], 56) VC by AND (x, [], 45) (45, [46, 55], 56)
    z: 56 - b on [47, 57] by Sp
    r1: t - 56 | t - b on {L(U3, '46 55')} by rule2 u s
    r2: t - b | t - b on {L(U3, '46 55 47 57')} by rule2 r1 z
    t - b on {L(U3, '46 55 47 57')} by rule1 r2
  }}
  case 27 | 36 => black 53 {{  // f.q, f.r, Fig. 18
    (t, {L(T53)}, 53) VC by T
    (t, {L(T53)}, x) VC by AND (t, {L(T53)}, 53) (53, [], x)
    (x, {L(F18)}, b) VC by search
    (t, {L(T53, F18)}, b) VC by AND (t, {L(T53)}, x) (x, {L(F18)}, b)
  }}
  case 43 => black 53 {{       // f.s, Fig. 19
    u: t - x | t - b on {L(U3P)} by U3p
    z: (x, {L(F18)}, b) VC by search
    r: t - b | t - b on {L(U3P, F18)} by rule2 u z
    t - b on {L(U3P, F18)} by rule1 r
  }}
  case 53 | 52 | 61 => black 33 {{   // f.t, f.u, f.v, Fig. 20
    (t, [21, 22, 23, 31, 32, 41, 42, 51], 33) VC by T
    (33, [34, 43], x) VC by S
    (t, [21, 22, 23, 31, 32, 34, 41, 42, 43, 51], x) VC by AND (t, [21, 22, 23, 31, 32, 41, 42, 51], 33) (33, [34, 43], x)
    (t, [21, 22, 23, 31, 32, 34, 41, 42, 43, 51], 45) VC by AND (t, [21, 22, 23, 31, 32, 34, 41, 42, 43, 51], x) (x, [], 45)
    (45, {L(T45)}, b) VC by T
    (t, {L('21 22 23 31 32 34 41 42 43 51', T45)}, b) VC by AND (t, [21, 22, 23, 31, 32, 34, 41, 42, 43, 51], 45) (45, {L(T45)}, b)
  }}
  case 51 => black 62 {{       // f.w, Fig. 21
    (t, {L(FWTX)}, x) VC by search      // W53 B43 W52 B32
    (t, {L(FWTX)}, 45) VC by AND (t, {L(FWTX)}, x) (x, [], 45)
    (45, {L(T45)}, b) VC by T
    (t, {L(FWTX, T45)}, b) VC by AND (t, {L(FWTX)}, 45) (45, {L(T45)}, b)
  }}
}}
"""

D1 = "21 31 41 51 61 71 22 32 42 52 62 23 33 43 53 24 34 25"      # Fig. 22 dots: t - x
A2UP = "63 53 43 62 52 42 71 61 51 41"                           # t - {44,54} (ST turned)
A2DN = "55 26 36 46 17 27 37 47"                                 # x - b after B54
G3T = "11 21 31 41 51 61 12 22 32 42 52 13 23 33 43 14 24 34 15" # Fig. 24 dots: t - x after B25
G3B = "16 26 36 17 27 37"                                        # Fig. 24 pluses
RU1P = rot(U1P)
RU2P = rot(U2P)
T33 = "21 22 23 31 32 41 42 51"
GTTX = "31 41 61 71 32 42 52 62 23 33 43 24 34 25"
GUXB = "63 54 64 55 65 26 36 46 56 17 27 37 47 57"
GVU = "71 62 72 53 63 54 64 55 65 16 26 36 46 56 17 37 47 57"
def g_node():
    return f"""white {{
  // Fig. 22 (analysis 1): t - x on the dotted set (as in U4); a fictitious B26 or B36
  // then gives x - b.
  preclude by 26 {{
    (t, {L(D1)}, x) VC by search
    (x, [17, 27], b) VC by search
    (t, {L(D1, '17 27')}, b) VC by AND (t, {L(D1)}, x) (x, [17, 27], b)
  }}
  preclude by 36 {{
    (t, {L(D1)}, x) VC by search
    (x, [27, 37], b) VC by search
    (t, {L(D1, '27 37')}, b) VC by AND (t, {L(D1)}, x) (x, [27, 37], b)
  }}
  // Fig. 23 (analysis 2): B54 gives t - x (ST-lemma turned) and x - b (by B26 or B46).
  preclude by 54 {{
    (t, {L(A2UP)}, 54) VC by ST
    (t, {L(A2UP)}, x) VC by AND (t, {L(A2UP)}, 54) (54, [], x)
    (x, {L(A2DN)}, b) VC by search
    (t, {L(A2UP, A2DN)}, b) VC by AND (t, {L(A2UP)}, x) (x, {L(A2DN)}, b)
  }}
  // Fig. 24 (analysis 3): B25 gives t - x (as in U1) and x - b.
  preclude by 25 {{
    (t, {L(G3T)}, x) VC by search
    (x, {L(G3B)}, b) VC by search
    (t, {L(G3T, G3B)}, b) VC by AND (t, {L(G3T)}, x) (x, {L(G3B)}, b)
  }}
  // Fig. 25: White's fourth moves p - v survive.
  case 61 | 52 => black 33 {{     // g.p, g.q, Fig. 26
    u: x - b | t - b on {L(RU1P)} by U1p
    s: x - 33 on [34, 43] by S
    z: 33 - t on {L(T33)} by T
    r1: 33 - b | t - b on {L(RU1P, '34 43')} by rule2 u s
    r2: t - b | t - b on {L(RU1P, '34 43', T33)} by rule2 r1 z
    t - b on {L(RU1P, '34 43', T33)} by rule1 r2
  }}
  case 41 | 42 => black 52 {{     // g.r, g.s, Fig. 27
    // x - b | 52 - b | t - b by U2+ (turned), x - 52 by S, t - 52 by S'.
    u: x - b | 52 - b | t - b on {L(RU2P)} by U2p
    s: x - 52 on [43, 53] by S
    z: 52 - t on [51, 61] by Sp
    r1: 52 - b | 52 - b | t - b on {L(RU2P, '43 53')} by rule2 u s
    r2: 52 - b | t - b on {L(RU2P, '43 53')} by rule1 r1
    r3: t - b | t - b on {L(RU2P, '43 53 51 61')} by rule2 r2 z
    t - b on {L(RU2P, '43 53 51 61')} by rule1 r3
  }}
  case 51 => black 53 {{           // g.t, Fig. 27 — our reply, not the paper's B52 (see below)
    // Noshita answers B52: x - 52 by S, t - 52 (B52 W61 B32 W42 B24), x - b | 52 - b | t - b
    // by U2+. That argument uses x - 52 for two pairs of a union at once, which rules (1)
    // and (2) cannot express, and the whole-leaf search is over budget. B53 (as in g.u)
    // gives a two-connection leaf: t - x on the upper left and x - b as in g.u.
    (t, {L(GTTX)}, x) VC by search
    (x, {L(GUXB)}, b) VC by search
    (t, {L(GTTX, GUXB)}, b) VC by AND (t, {L(GTTX)}, x) (x, {L(GUXB)}, b)
  }}
  case 43 => black 53 {{           // g.u, Fig. 28
    (x, {L(GUXB)}, b) VC by search
    (t, {L(rot(GUXB))}, x) VC by search
    (t, {L(GUXB, rot(GUXB))}, b) VC by AND (t, {L(rot(GUXB))}, x) (x, {L(GUXB)}, b)
  }}
  case 27 => black 25 {{           // g.v, Fig. 29
    u: x - b | t - b on {L(GVU)} by search
    z: (t, {L(G3T)}, x) VC by search
    r: t - b | t - b on {L(GVU, G3T)} by rule2 u z
    t - b on {L(GVU, G3T)} by rule1 r
  }}
}}
"""

def rot_code(text):
    out = []
    for line in text.split("\n"):
        if "//" in line:
            code, com = line.split("//", 1)
            out.append(rot(code) + "//" + com)
        else:
            out.append(rot(line))
    return "\n".join(out)

def case(whites, reply, body, comment):
    return f"case {whites} => black {reply} {{  // {comment}\n{ind(body, 2)}}}\n"

def root_cases():
    cs_ = [
        ("27 | 36", "55", leaf_ab(), "a, b (Fig. 11)"),
        ("47 | 46", "36", leaf_cd(), "c, d (Fig. 12)"),
        ("37", "26", leaf_e(), "e (Fig. 13)"),
        ("35", "45", f_node(), "f (Figs. 14-21)"),
        ("45", "35", g_node(), "g (Figs. 22-29)"),
    ]
    low = "".join(case(*c) for c in cs_)
    high = "".join(rot_code(case(*c[:3], c[3] + ", turned by 180 degrees")) for c in cs_)
    return low, high

def root():
    low, high = root_cases()
    P54 = L(rot(STDOWN34), STDOWN54)
    P34 = L(rot(STDOWN54), STDOWN34)
    return f"""strategy noshita7 "Noshita's 7x7 tree (Fig. 8): Black opens 44" {{
  black 44 as x
  white {{
    // Fig. 10: a fictitious B54 or B34 gives t - b by two ST-lemmas (one turned by 180
    // degrees); White must play in the intersection: a - g below, and their 180-degree
    // images above.
    preclude by 54 {{
      (x, {L(STDOWN54)}, b) VC by ST
      (t, {L(rot(STDOWN34))}, 54) VC by ST
      (t, {L(rot(STDOWN34))}, x) VC by AND (t, {L(rot(STDOWN34))}, 54) (54, [], x)
      (t, {P54}, b) VC by AND (t, {L(rot(STDOWN34))}, x) (x, {L(STDOWN54)}, b)
    }}
    preclude by 34 {{
      (34, {L(STDOWN34)}, b) VC by ST
      (t, {L(rot(STDOWN54))}, x) VC by ST
      (t, {L(rot(STDOWN54))}, 34) VC by AND (t, {L(rot(STDOWN54))}, x) (x, [], 34)
      (t, {P34}, b) VC by AND (t, {L(rot(STDOWN54))}, 34) (34, {L(STDOWN34)}, b)
    }}
    // White's second moves a - g (Fig. 10, lower left)
{ind(low, 4)}
    // The upper-right twins: the position after B44 is symmetric under the 180-degree
    // turn, and Noshita treats these White moves "by top-bottom symmetry". The checker has
    // no symmetry rule yet, so each twin is written out, turned (cells ij -> (8-i)(8-j),
    // borders t <-> b).
{ind(high, 4)}  }}
}}
"""

HEADER = """// proofs/noshita-7x7.hexp — Noshita's winning strategy for 7x7 Hex (K. Noshita,
// "Union-connections and straightforward winning strategies in Hex", ICGA J. 28(1), 2005,
// §2-3, Figs. 1-29), machine-checked.
//
// Cells are Noshita's: `ij` is column i, row j (44 = d4); Black joins top `t` to bottom `b`.
// The paper's figures are lost in our copy: every carrier (here and in the lemma file) was
// reconstructed from the text with `hexproof minimize` (region: the part of the board the text
// talks about, minus the cells other connections of the same figure need).
// `hexproof check proofs/noshita-7x7.hexp` checks it; `--no-search` skips the (slow,
// confirmatory) searches of the rule steps and of every tree node; the lemmas and the
// `by search` steps are searched either way.
//
// Deviations from the paper, all forced by the checker or by what the search found:
// - The ST-lemma is drawn with two black stones (44 and 54): 44 alone does not reach b in
//   rows 4-7 (White refutes with 45, 36, 35 ..., exactly Noshita's "W45 B36 W35"), and with
//   54 black his continuation B55 works. Its left shift is the same lemma moved one column.
// - The twins of a - g above the centre (W53, W43, ...) are written out, turned by 180
//   degrees, where the paper says "top-bottom symmetry" (Black nodes: see docs/noshita.md).
// - Cases c and d use U2 (t - x | t - 36 | t - b), not U3: the paper's U3 needs cell 35,
//   which the S-lemma x - 36 uses. U3 as reconstructed (used in f.p) has B45 and W35.
// - Case g.t (W51) is answered B53, not the paper's B52: his argument uses x - 52 for two
//   pairs of a union at once, which rules (1) and (2) cannot express.
// - Leaf e uses rule (2) with a union as second premise (t - x | t - 26 and x - 26 | x - b
//   give t - 26 | t - b); rules (2) and (1) finish the leaf.
// - In analysis f.2 the U2-step is searched: 36 is then part of x, and the checker matches a
//   lemma's ends literally, not by chain.
// The tree, the lemmas and their reconstruction are described in docs/noshita.md.

board 7x7 notation digits
"""

def lemmas():
    out = []
    out.append(lemma("S", "S-lemma (Fig. 1, upper left): the skip", """
Fig. 1: x - y, the bridge. Placed in all six directions by the checker's symmetries.""",
        "44", "", "45 54", "x - A", marks={"55": "A"}))
    out.append(lemma("Sp", "S'-lemma (Fig. 1): t - z, the edge bridge", """
Fig. 1: t - z for a black z on the second row.""", "62", "", "61 71", "t - x"))
    out.append(lemma("T", "T-lemma (Fig. 1, lower right): the trapezoid", """
Fig. 1: u - b from the fifth row (the ziggurat, edge template IIIa).""",
        "55", "", T55, "x - b"))
    out.append(lemma("ST", "ST-lemma (Fig. 9): the supertrapezoid", """
Fig. 9: x - b for x = B44 with B54 beside it (see the header). Reconstructed: minimize
44 - b over rows 5-7; "W45 B36 W35 B55 leads to x - b" holds on it.""",
        "44 54", "", ST, "44 - b"))
    out.append(lemma("U1", "U1-lemma (Lemma 1, Fig. 2)", """
Lemma 1: t - x | t - b. Reconstructed: minimize over rows 1-3 and the left edge (the cells
of Noshita's proof: 51 61 52 43 53 33 62 32 42 24 34 25 35 17). The 22 cells found contain
every cell of his hardest line W43 B53 W61 B52 W51 B32 W42 B24 W34 B25 W35 B17.""",
        "44", "", U1, "t - x | t - b"))
    out.append(lemma("U1p", "U1+-lemma (Fig. 3)", """
Fig. 3: the position of U1's proof after W43 B53; t - x | t - b. Reconstructed: minimize
over U1's region.""", "44 53", "43", U1P, "t - 44 | t - b"))
    out.append(lemma("U1s", "U1*-lemma (Fig. 4)", """
Fig. 4: U1 with a black stone on 71 (our reading of "White blocking of B71"). The
minimiser finds that t - x alone holds on these 15 cells, so the union holds a fortiori.
Not used by the tree.""", "44 71", "", U1S, "t - 44 | t - b"))
    out.append(lemma("U2", "U2-lemma (Fig. 5)", """
Fig. 5: x = B44, y = B36: t - x | t - y | t - b. Reconstructed: minimize over rows 1-3 and
the left edge without 35, 27, 37 (used by x - y and y - b where U2 is applied).""",
        "44 36", "", U2, "t - 44 | t - 36 | t - b"))
    out.append(lemma("U2p", "U2+-lemma (Fig. 5, after W43 B53)", """
Fig. 5: U2 after W43 B53: t - x | t - y | t - b. Same region as U2.""",
        "44 53 36", "43", U2P, "t - 44 | t - 36 | t - b"))
    out.append(lemma("U3", "U3-lemma (Fig. 6)", """
Fig. 6: t - x | t - b; drawn here in the position of case f (B45 joined to x, W35), where
the tree uses it (f.p). Without 35 the union fails for a lone B44 (the search refutes it).
Reconstructed: minimize over rows 1-3, the left edge and 36, 27.""",
        "44 45", "35", U3, "t - 44 | t - b"))
    out.append(lemma("U3p", "U3+-lemma (Fig. 6, after W43 B53)", """
Fig. 6: U3 after W43 B53: t - x | t - b. Same region as U3.""",
        "44 45 53", "35 43", U3P, "t - 44 | t - b"))
    out.append(lemma("U4", "U4-lemma (Fig. 7)", """
Fig. 7: x = B44, y = B26: t - x | t - y. Reconstructed: minimize over rows 1-3, row 4
and 15, 25, 16 (35, 36, 45, 17, 27, 37 are used by the other connections of case e).""",
        "44 26", "", U4, "t - 44 | t - 26"))
    return "\n".join(out)

LEMMA_HEADER = """// proofs/noshita-7x7-lemmas.hexp — the lemmas of Noshita's 7x7 proof (K. Noshita,
// "Union-connections and straightforward winning strategies in Hex", ICGA J. 28(1), 2005,
// Figs. 1-7 and 9), used by proofs/noshita-7x7.hexp.
//
// Cells are Noshita's: `ij` is column i, row j (44 = d4); Black joins top `t` to bottom `b`.
// The figures are lost in our copy: each carrier was reconstructed from the text with
// `hexproof minimize` (the comment above each lemma says over which region) and is proved by
// exhaustive search. See docs/noshita.md.

board 7x7 notation digits
"""

if __name__ == "__main__":
    import sys
    if sys.argv[1:] == ["lemmas"]:
        print(LEMMA_HEADER + "\n" + lemmas(), end="")
    else:
        print(HEADER + 'use "noshita-7x7-lemmas.hexp"\n\n' + root(), end="")
