#!/usr/bin/env python3
"""Turns a search certificate into a lemma tree (for proofs/noshita-8x8-lemmas.hexp).

When `hexproof verify --certificate FILE` decides a union claim that is too big to be searched
again cheaply (U8 after W37 B46 needs millions of nodes), its certificate is Black's strategy
as an AND/OR DAG (src/kernel.rs): an or-node answers White's move w by any option (reply r,
next) with w outside {r} and next's carrier; an and-node splits the carrier into disjoint
parts. This script reads the strategy's top levels as a lemma tree (docs/LANGUAGE.md §6) that
the checker can re-check with small searches:

- a White node's *state* is the set of certificate nodes in force (their carriers are
  disjoint and empty; the claim holds on their union U);
- if the claim on U is settled by a small search, the node is a leaf;
- otherwise every option (r, next) of an active or-node gives a precluding analysis
  `preclude by r { claim on U' by search }` (U' = U with the node replaced by `next`) when
  that small search holds: it answers every White move outside {r} ∪ U';
- every White move that no analysis answers gets a case `case w => black r { … }` with the
  option that answers w, one level deeper.

Nothing here is trusted: the checker re-checks every step; the certificate only proposes
Black's answers (it is what the search found, so every step holds).

Usage: tools/noshita8_cert.py CERT.json --black "54 72 46" --white 37 --carrier "..." \
         --claim "x - b | y - b" --names "x=54 y=72" [--leaf-nodes N] > body.hexp
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import noshita8 as n8  # noqa: E402

STATS = {"searches": 0, "checker_nodes": 0, "leaves": 0, "precludes": 0, "cases": 0}


class Cert:
    def __init__(self, path):
        with open(path) as f:
            c = json.load(f)
        self.nodes = {n["id"]: n for n in c["nodes"]}
        self.root = c["root"]

    def expand(self, nid):
        """The or-nodes a node stands for (and-nodes split, joined nodes need nothing)."""
        n = self.nodes[nid]
        if "and" in n:
            return [m for k in n["and"] for m in self.expand(k)]
        if "or" in n:
            return [nid]
        return []

    def carrier(self, state):
        return set().union(*[set(self.nodes[a]["carrier"]) for a in state]) if state else set()


class Builder:
    def __init__(self, cert, claim, vclaim, region, leaf_nodes, log):
        self.cert = cert
        self.claim = claim
        self.vclaim = vclaim
        self.region = region  # the lemma's carrier (White's moves range over its empty cells)
        self.leaf_nodes = leaf_nodes
        self.log = log

    def holds(self, black, white, carrier):
        r = n8.verify(self.vclaim, black, white, carrier, self.leaf_nodes)
        STATS["searches"] += 1
        if r["verdict"] == "holds":
            STATS["checker_nodes"] += r.get("nodes", 0)
            return True
        return False

    def node(self, black, white, state, depth):
        ind = "  " * (depth + 3)
        u = self.cert.carrier(state)
        if self.holds(black, white, u):
            STATS["leaves"] += 1
            return [f"{ind}{self.claim} on {n8.clist(u)} by search"]
        empty = self.region - black - white
        out = [f"{ind}white {{"]
        survivors = set(empty)
        options = []  # (a, reply, next state, precluded?)
        for a in state:
            for opt in self.cert.nodes[a]["or"]:
                r = opt["reply"]
                st = [b for b in state if b != a] + self.cert.expand(opt["next"])
                u2 = self.cert.carrier(st)
                ok = self.holds(black | {r}, white, u2)
                options.append((a, r, st, u2, ok))
        # The verified analyses, fewest first (greedy set cover of the moves they answer).
        cover = {i: empty - o[3] - {o[1]} for i, o in enumerate(options) if o[4]}
        todo = set().union(*cover.values()) if cover else set()
        while todo:
            i = max(cover, key=lambda k: (len(cover[k] & todo), -k))
            _, r, _, u2, _ = options[i]
            STATS["precludes"] += 1
            out.append(f"{ind}  preclude by {r} {{ {self.claim} on {n8.clist(u2)} by search }}")
            survivors &= u2 | {r}
            todo -= cover.pop(i)
        for w in n8.order(survivors):
            fits = [o for o in options if w not in o[3] and w != o[1]]
            if not fits:
                # w lies in no active carrier's answer: any option answers it.
                sys.exit(f"no option answers W{w} at {sorted(black)} / {sorted(white)}")
            a, r, st, u2, _ = min(fits, key=lambda o: len(o[3]))
            self.log(f"{'  ' * depth}W{w} B{r} ({len(u2)} cells)")
            STATS["cases"] += 1
            out.append(f"{ind}  case {w} => black {r} {{")
            out += self.node(black | {r}, white | {w}, st, depth + 1)
            out.append(f"{ind}  }}")
        out.append(f"{ind}}}")
        return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("cert")
    ap.add_argument("--black", required=True)
    ap.add_argument("--white", default="")
    ap.add_argument("--carrier", required=True)
    ap.add_argument("--claim", required=True, help="as written in the file, e.g. 'x - b | y - b'")
    ap.add_argument("--names", default="", help="name=cell pairs for --claim, e.g. 'x=54 y=72'")
    ap.add_argument("--leaf-nodes", type=int, default=100000)
    ap.add_argument("--hexproof", default=n8.HX)
    a = ap.parse_args()
    n8.HX = a.hexproof
    names = dict(p.split("=") for p in a.names.split())
    vclaim = " ".join(names.get(t, t) for t in a.claim.split())
    cert = Cert(a.cert)
    log = lambda s: print(s, file=sys.stderr, flush=True)
    b = Builder(cert, a.claim, vclaim, set(a.carrier.split()), a.leaf_nodes, log)
    body = b.node(set(a.black.split()), set(a.white.split()), cert.expand(cert.root), 0)
    print("\n".join(body))
    log(json.dumps(STATS))


if __name__ == "__main__":
    main()
