#!/usr/bin/env python3
"""Move-choice test set for the player (issue 29, session 35).

Two modes, both speaking GTP to external engines (no part of the build or the tests):

  label  SGF... --engine CMD --time T --player NAME --out FILE.jsonl
         For every move that the player NAME made in each game (the opening, the game's
         first move, is skipped), ask the oracle engine (MoHex: `reg_genmove`, one thread)
         for its move in the position before it, and record MoHex's `Score` (its win
         estimate for the side to move) and its endgame notes ("Winning SC.", "Opponent has
         won", "Mustplay is singleton!"). A game stops being labelled after two positions in
         a row that the oracle counts as lost (score <= 0.05 or "Opponent has won").

  ask    FILE.jsonl --engine CMD [--gtp CMD ...] --key NAME --out FILE.jsonl
         Ask another engine (hexproof, Wolve) for its move in every labelled position
         (`clear_board`, the moves, `genmove`), and add it under NAME.

  report FILE.jsonl KEY...
         Agreement of each key's move with the oracle's, over the positions that the oracle
         does not count as decided; and where each game was lost.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile


def parse_sgf(path):
    text = open(path).read()
    size = int(re.search(r"SZ\[(\d+)\]", text).group(1))
    pb = re.search(r"PB\[([^\]]*)\]", text).group(1)
    pw = re.search(r"PW\[([^\]]*)\]", text).group(1)
    res = re.search(r"RE\[([^\]]*)\]", text)
    moves = re.findall(r";([BW])\[([a-z]+\d+)\]", text)
    return size, pb, pw, res.group(1) if res else "", moves


class Gtp:
    def __init__(self, cmd):
        self.err = tempfile.NamedTemporaryFile(prefix="gtp-err-", delete=False)
        self.proc = subprocess.Popen(
            cmd, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=self.err, text=True, bufsize=1)
        self.err_pos = 0

    def cmd(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        out = []
        while True:
            l = self.proc.stdout.readline()
            if l == "":
                raise RuntimeError("engine closed its output on: " + line)
            l = l.rstrip("\n")
            if l == "" and out:
                break
            if l == "" and not out:
                continue
            out.append(l)
        resp = "\n".join(out)
        if not resp.startswith("="):
            raise RuntimeError("engine error on %r: %s" % (line, resp))
        return resp[1:].strip()

    def new_stderr(self):
        with open(self.err.name, "rb") as f:
            f.seek(self.err_pos)
            data = f.read()
        self.err_pos += len(data)
        return data.decode("utf-8", "replace")

    def close(self):
        try:
            self.proc.stdin.write("quit\n")
            self.proc.stdin.flush()
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()
        os.unlink(self.err.name)


def colour(c):
    return "b" if c == "B" else "w"


def label(args):
    out = open(args.out, "a")
    done = set()
    if os.path.exists(args.out):
        for l in open(args.out):
            if l.strip():
                r = json.loads(l)
                done.add((r["game"], r["ply"]))
    for path in args.sgf:
        size, pb, pw, res, moves = parse_sgf(path)
        me = "B" if pb == args.player else "W"
        eng = Gtp(args.engine)
        eng.cmd("boardsize %d %d" % (size, size))
        for g in args.gtp:
            eng.cmd(g)
        lost_run = 0
        for ply in range(1, len(moves)):
            c, mv = moves[ply]
            if c != me:
                continue
            game = os.path.basename(path)
            if (game, ply) in done:
                continue
            eng.cmd("clear_board")
            for c2, m2 in moves[:ply]:
                eng.cmd("play %s %s" % (colour(c2), m2))
            eng.new_stderr()
            best = eng.cmd("reg_genmove %s" % colour(c)).lower()
            err = eng.new_stderr()
            scores = re.findall(r"^Score\s+([0-9.]+)", err, re.M)
            score = float(scores[-1]) if scores else None
            note = ""
            if "Winning SC." in err:
                note, score = "won", 1.0
            elif "Opponent has won" in err:
                note, score = "lost", 0.0
            elif "Mustplay is singleton" in err:
                note = "singleton"
            rec = {"source": args.source, "game": game, "ply": ply, "colour": colour(c),
                   "size": size, "moves": [colour(a) + " " + b for a, b in moves[:ply]],
                   "played": mv, "result": res, "oracle": best, "oracle_score": score,
                   "oracle_note": note}
            out.write(json.dumps(rec) + "\n")
            out.flush()
            print("%s ply %d %s played %s oracle %s score %s %s" %
                  (game, ply, c, mv, best, score, note), file=sys.stderr)
            if score is not None and score <= 0.05:
                lost_run += 1
            else:
                lost_run = 0
            if lost_run >= 2:
                break
        eng.close()


def ask(args):
    recs = [json.loads(l) for l in open(args.file) if l.strip()]
    eng = Gtp(args.engine)
    size = recs[0]["size"]
    try:
        eng.cmd("boardsize %d %d" % (size, size))
    except RuntimeError:
        eng.cmd("boardsize %d" % size)
    for g in args.gtp:
        eng.cmd(g)
    for r in recs:
        if args.key in r:
            continue
        eng.cmd("clear_board")
        for m in r["moves"]:
            eng.cmd("play " + m)
        eng.new_stderr()
        mv = eng.cmd("genmove " + r["colour"]).lower()
        r[args.key] = mv
        eng.cmd("name")  # the engine may log its move's details after answering
        info = [l for l in eng.new_stderr().splitlines() if l.startswith("hexproof:")]
        if info:
            r[args.key + "_info"] = info[-1]
        print("%s ply %d %s: %s (oracle %s)" % (r["game"], r["ply"], args.key, mv, r["oracle"]),
              file=sys.stderr)
    eng.close()
    with open(args.out, "w") as f:
        for r in recs:
            f.write(json.dumps(r) + "\n")


def report(args):
    recs = [json.loads(l) for l in open(args.file) if l.strip()]
    undecided = [r for r in recs if r["oracle_note"] not in ("won", "lost")
                 and r["oracle_score"] is not None and 0.05 < r["oracle_score"] < 0.95]
    print("positions: %d labelled, %d undecided by the oracle (0.05 < score < 0.95, not solved)"
          % (len(recs), len(undecided)))
    for k in args.keys:
        have = [r for r in undecided if k in r]
        agree = sum(1 for r in have if r[k] == r["oracle"])
        print("%-12s agrees with the oracle in %d of %d (%.0f%%)" %
              (k, agree, len(have), 100.0 * agree / max(1, len(have))))
    print("where each game was lost (first position with score <= 0.30, the move before it):")
    games = {}
    for r in recs:
        games.setdefault(r["game"], []).append(r)
    for g, rs in sorted(games.items()):
        rs.sort(key=lambda r: r["ply"])
        prev = None
        lost_at = None
        for r in rs:
            s = r["oracle_score"]
            if s is not None and s <= 0.30 and prev is not None:
                lost_at = (prev, r)
                break
            if s is not None:
                prev = r
        line = " ".join("%d:%s/%s(%.2f)" % (r["ply"], r["played"], r["oracle"],
                                             r["oracle_score"] if r["oracle_score"] is not None else -1)
                        for r in rs)
        if lost_at:
            print("  %s: lost after ply %d (%s played, oracle %s, %.2f -> %.2f)" %
                  (g, lost_at[0]["ply"], lost_at[0]["played"], lost_at[0]["oracle"],
                   lost_at[0]["oracle_score"] or 0, lost_at[1]["oracle_score"] or 0))
        else:
            print("  %s: never below 0.30 before the end of the labelled moves" % g)
        print("    " + line)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="mode", required=True)
    a = sub.add_parser("label")
    a.add_argument("sgf", nargs="+")
    a.add_argument("--engine", required=True)
    a.add_argument("--gtp", action="append", default=[])
    a.add_argument("--player", default="hexproof")
    a.add_argument("--source", default="")
    a.add_argument("--out", required=True)
    b = sub.add_parser("ask")
    b.add_argument("file")
    b.add_argument("--engine", required=True)
    b.add_argument("--gtp", action="append", default=[])
    b.add_argument("--key", required=True)
    b.add_argument("--out", required=True)
    c = sub.add_parser("report")
    c.add_argument("file")
    c.add_argument("keys", nargs="*")
    args = p.parse_args()
    {"label": label, "ask": ask, "report": report}[args.mode](args)


if __name__ == "__main__":
    main()
