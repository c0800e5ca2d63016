#!/usr/bin/env python3
"""Compares the solver's evaluation (examples/vc_compare.rs) with Benzene's `vc-build` on
random 7x7 positions after the opening a3 (issue 25 diagnosis; docs/journal/benchmarks-history.md,
"Published seeds, 2026-11-28").

Usage: cargo build --release --example vc_compare
       BENZENE_MOHEX=/path/to/mohex python3 examples/vc_compare_benzene.py N [SEED]
Prints the (Benzene, hexproof) verdict pairs (W: the player to move wins by connections, L:
loses, O: open), the mean number of moves each would search where both are open, and the mean
number of cells each fills in.
"""
import os
import random, subprocess, sys
random.seed(int(sys.argv[2]) if len(sys.argv)>2 else 1)
N=int(sys.argv[1])
cells=[c+str(r) for c in "abcdefg" for r in range(1,8)]
pos=[]
for i in range(N):
    k=random.randint(3,14)
    ms=["a3"]+random.sample([c for c in cells if c!="a3"],k)
    tm="b" if len(ms)%2==0 else "w"
    pos.append((tm,ms))
# ours
inp="\n".join(tm+" "+" ".join(ms) for tm,ms in pos)+"\n"
ours=subprocess.run([os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "target", "release", "examples", "vc_compare")],env=dict(os.environ, FILLS="1"),input=inp,capture_output=True,text=True).stdout.split("\n")
# benzene
g=["boardsize 7 7"]
for tm,ms in pos:
    col="black" if tm=="b" else "white"; opp="white" if tm=="b" else "black"
    e={"black":"north south","white":"west east"}
    g+=["clear_board"]+["play %s %s"%("b" if j%2==0 else "w",m) for j,m in enumerate(ms)]
    g+=["vc-build "+col, "vc-between-cells-full %s %s"%(col,e[col]), "vc-between-cells-semi %s %s"%(col,e[col]), "vc-between-cells-full %s %s"%(opp,e[opp])]
g.append("quit")
out=subprocess.run([os.environ.get("BENZENE_MOHEX", "/tmp/benzene/build/src/mohex/mohex"),"--use-logfile=false"],input="\n".join(g)+"\n",capture_output=True,text=True).stdout
resp=[r.strip() for r in out.split("\n\n")]
resp=[r for r in resp if r.startswith("=") or r.startswith("?")]
# per position: clear + plays + 4
idx=1
from collections import Counter
fills=[]; cnt=Counter(); rows=[]; detail={}
for n,(tm,ms) in enumerate(pos):
    idx+=1+len(ms)
    build,ownf,owns,oppf=resp[idx:idx+4]; idx+=4
    if any(r.startswith("?") for r in (build,ownf,owns,oppf)): cnt["err"]+=1; continue
    toks=build[1:].split()
    pairs=list(zip(toks[0::2],toks[1::2]))
    xs=sum(1 for c,a in pairs if a=="x")
    empty=49-len(ms)
    has=lambda r: len(r[1:].strip())>0
    if has(ownf) or has(owns): bz="W"
    elif has(oppf): bz="L"
    else: bz="O %d"%(empty-len(pairs)); detail[n]=" ".join(c+":"+a for c,a in pairs if a!="x")+" | considered: "+" ".join(sorted(set(c for c in cells if c not in ms)-set(c for c,a in pairs)))
    fo=int(ours[n].split()[1]); o=" ".join(ours[n].split()[2:]); fb=sum(1 for c,a in pairs if a in ("fb","fw")); fills.append((fb,fo))
    key=(bz.split()[0],o.split()[0]); cnt[key]+=1
    rows.append((tm," ".join(ms),bz,o,detail.get(n,"")))
print(cnt)
ob=[int(r[2].split()[1]) for r in rows if r[2].startswith("O") and r[3].startswith("O")]
oo=[int(r[3].split()[1]) for r in rows if r[2].startswith("O") and r[3].startswith("O")]
if ob: print("both open: n=%d mean moves benzene %.2f ours %.2f"%(len(ob),sum(ob)/len(ob),sum(oo)/len(oo)))
with open(os.environ.get("ROWS", "/dev/null"),"w") as f:
    for r in rows: f.write("\t".join(r)+"\n")

print("fills benzene %.2f ours %.2f; benzene more in %d, ours more in %d of %d"%(sum(a for a,b in fills)/len(fills),sum(b for a,b in fills)/len(fills),sum(1 for a,b in fills if a>b),sum(1 for a,b in fills if a<b),len(fills)))
