#!/usr/bin/env python3
"""Time genmove on positions: timegen.py BIN TIME [extra gtp opts...]; positions from POS file lines 'moves' (alternating from b)."""
import subprocess, sys, time, os
binary, t = sys.argv[1], sys.argv[2]
extra = sys.argv[3:]
params = ["param_player ab_incremental 1", "param_player ab_semi_limit 2", "param_player depth 10",
          "param_player ab_kept_plies 2", "param_player library_seeds 1", "param_player ab_edge_semi_limit 0"]
positions = [l.strip() for l in open(os.environ.get("POS", "/tmp/pl39/positions.txt")) if l.strip() and not l.startswith("#")]
p = subprocess.Popen([binary, "gtp", "--player", "alphabeta", "--no-solver-thread", "--time", t, "--verbose"] + extra,
                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
import threading, queue
errq = queue.Queue()
def rd():
    for l in p.stderr: errq.put(l.rstrip())
threading.Thread(target=rd, daemon=True).start()
def cmd(c):
    p.stdin.write(c + "\n"); p.stdin.flush()
    out = []
    while True:
        l = p.stdout.readline()
        if l == "\n" and out: break
        if l.strip(): out.append(l.strip())
    return " ".join(out)
cmd("boardsize 11")
for c in params: cmd(c)
time.sleep(1.0)
for pos in positions:
    cmd("clear_board")
    mv = pos.split()
    for i, m in enumerate(mv):
        cmd(f"play {'b' if i % 2 == 0 else 'w'} {m}")
    col = 'b' if len(mv) % 2 == 0 else 'w'
    # warm-up none; time
    def cpu():
        f = open(f"/proc/{p.pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(f[11]) + int(f[12])) * 10
    c0 = cpu(); t0 = time.time(); r = cmd(f"genmove {col}"); dt = (time.time() - t0) * 1000; dc = cpu() - c0
    time.sleep(0.2)
    info = []
    while not errq.empty(): info.append(errq.get())
    print(f"{dt:7.0f} ms {dc:5d} cpu-ms {col} {r:10s} | {len(mv)} moves | {' / '.join(info)[-200:]}", flush=True)
    cmd(f"undo")
cmd("quit")
