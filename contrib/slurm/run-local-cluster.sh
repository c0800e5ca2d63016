#!/bin/bash
# Starts a real single-node Slurm cluster (slurmctld + slurmd + munged from the distribution's
# packages, everything under a temporary folder), runs `hexproof solve --openings all` as an
# array job of small shards (contrib/slurm/hexproof-openings.sbatch), combines the results with
# `hexproof solve --combine`, optionally compares the table with the one-process answer, and
# stops every daemon it started (also on error or Ctrl-C). docs/cluster.md.
#
#   contrib/slurm/run-local-cluster.sh [--board 7x7] [--shards 13] [--cpus 2] \
#       [--bin target/release/hexproof] [--compare] [--install] [--keep DIR] [--templates ROW]
#
# --install: apt-get install -y slurm-wlm munge first (Debian/Ubuntu, as root).
# --compare: also run the one-process `solve --openings all` and diff the two tables.
# --cpus N:  CPUs the node offers (array tasks run N at a time, one CPU each).
# --templates ROW: then also the two-stone template enumeration of row ROW (default region) as
#            an array of --shards tasks (contrib/slurm/hexproof-templates.sbatch), merged with
#            `hexproof templates merge`; with --compare the merged file is compared byte for byte
#            with the one-process `templates generate`.
# Needs root (SlurmUser/SlurmdUser root; proctrack/linuxproc, no cgroups).
set -euo pipefail

BOARD=7x7 SHARDS=13 CPUS=$(nproc) BIN=target/release/hexproof COMPARE=0 INSTALL=0 KEEP="" TROW=""
NICE=${NICE:-10}
while [ $# -gt 0 ]; do
    case "$1" in
        --board) BOARD=$2; shift 2 ;;
        --shards) SHARDS=$2; shift 2 ;;
        --cpus) CPUS=$2; shift 2 ;;
        --bin) BIN=$2; shift 2 ;;
        --compare) COMPARE=1; shift ;;
        --install) INSTALL=1; shift ;;
        --keep) KEEP=$2; shift 2 ;;
        --templates) TROW=$2; shift 2 ;;
        *) echo "run-local-cluster.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
HERE=$(cd "$(dirname "$0")" && pwd)
BIN=$(realpath "$BIN")
[ -x "$BIN" ] || { echo "run-local-cluster.sh: no hexproof binary at $BIN (cargo build --release)" >&2; exit 2; }
if [ "$INSTALL" = 1 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y slurm-wlm munge >/dev/null
fi
for b in slurmctld slurmd munged mungekey sbatch sinfo scontrol; do
    command -v "$b" >/dev/null || { echo "run-local-cluster.sh: $b not installed (apt-get install -y slurm-wlm munge, or --install)" >&2; exit 2; }
done

T=$(mktemp -d /tmp/hexproof-slurm.XXXXXX)
HOST=$(hostname -s)
SB=
cleanup() {
    # Stop what this script started: cancel our jobs (their slurmstepd exits with them), then
    # the daemons, by pid. Every client call is bounded: the controller may be gone already.
    if [ -n "${SB:-}" ]; then kill "$SB" 2>/dev/null || true; fi
    if [ -s "$T/slurmctld.pid" ]; then
        timeout 10 scancel --partition=local >/dev/null 2>&1 || true
        for _ in $(seq 20); do
            [ -z "$(timeout 5 squeue -h 2>/dev/null)" ] && break
            sleep 0.5
        done
        timeout 10 scontrol shutdown >/dev/null 2>&1 || true
    fi
    for f in "$T/slurmd.pid" "$T/slurmctld.pid" "$T/munge/munged.pid"; do
        if [ -s "$f" ]; then kill "$(cat "$f")" 2>/dev/null || true; fi
    done
    sleep 1
    for f in "$T/slurmd.pid" "$T/slurmctld.pid" "$T/munge/munged.pid"; do
        if [ -s "$f" ]; then kill -9 "$(cat "$f")" 2>/dev/null || true; fi
    done
    if [ -n "$KEEP" ]; then mkdir -p "$KEEP" && cp -r "$T"/results "$T"/tshards "$T"/*.log "$T"/slurm.conf "$KEEP"/ 2>/dev/null || true; fi
    rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# munge: a key of its own and a socket under $T.
mkdir -p "$T/munge" "$T/state" "$T/spool" "$T/results" "$T/out" "$T/tshards"
chmod 700 "$T/munge"
mungekey --create --keyfile="$T/munge/munge.key" --force >/dev/null 2>&1 \
    || dd if=/dev/urandom of="$T/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$T/munge/munge.key"
munged --force --key-file="$T/munge/munge.key" --socket="$T/munge/munge.socket" \
    --pid-file="$T/munge/munged.pid" --log-file="$T/munge/munged.log" \
    --seed-file="$T/munge/munged.seed"

# Free ports for the two daemons.
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
CTLD_PORT=$(port) SLURMD_PORT=$(port)
cat >"$T/slurm.conf" <<EOF
ClusterName=hexproof
SlurmctldHost=$HOST(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge/munge.socket
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
MailProg=/bin/true
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$CPUS State=UNKNOWN
PartitionName=local Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$T/slurm.conf
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 60); do
    if sinfo -h -o '%T' 2>/dev/null | grep -qx idle; then break; fi
    sleep 1
done
sinfo -h -o '%T' | grep -qx idle || { echo "run-local-cluster.sh: the node did not come up:" >&2; tail -5 "$T"/slurmctld.log "$T"/slurmd.log >&2; exit 1; }
echo "slurm: $(sinfo -h -o '%P %D %c %T') (node $HOST, $CPUS CPUs)"

START=$(date +%s.%N)
sbatch --wait --array="1-$SHARDS" --chdir="$T/out" --output="$T/out/task-%a.out" \
    --export="ALL,HEXPROOF=$BIN,BOARD=$BOARD,SHARDS=$SHARDS,OUT=$T/results,NICE=$NICE" \
    "$HERE/hexproof-openings.sbatch" &
SB=$!   # in the background, so that a signal reaches the trap at once
wait "$SB" || echo "sbatch: some task did not exit 0 (3: undecided)"
SB=
END=$(date +%s.%N)
# sbatch --wait polls the controller every few seconds, so its end is coarse; the last result
# file's time is when the array's work ended.
LAST=$(stat -c %.9Y "$T"/results/opening-*.json 2>/dev/null | sort -n | tail -1)
echo "array of $SHARDS tasks on $BOARD: wall $(python3 -c "print(f'{$END-$START:.1f}')") s (sbatch --wait), $(python3 -c "print(f'{${LAST:-$START}-$START:.1f}')") s from submission to the last result file"
set +e
"$BIN" solve --board "$BOARD" --combine "$T/results" | tee "$T/combined.txt"
RC=${PIPESTATUS[0]}
set -e
echo "combine exit code: $RC"
if [ "$COMPARE" = 1 ]; then
    ROWS=${BOARD#*x}
    nice -n "$NICE" "$BIN" solve --board "$BOARD" --openings all 2>/dev/null | tee "$T/one.txt" | tail -1
    if diff <(head -n $((ROWS + 2)) "$T/one.txt") <(head -n $((ROWS + 2)) "$T/combined.txt"); then
        echo "compare: the Slurm table equals the one-process table"
    else
        echo "compare: TABLES DIFFER"; RC=1
    fi
fi
if [ -n "$TROW" ]; then
    START=$(date +%s.%N)
    sbatch --wait --array="1-$SHARDS" --chdir="$T/out" --output="$T/out/templates-%a.out" \
        --export="ALL,HEXPROOF=$BIN,ROW=$TROW,SHARDS=$SHARDS,OUT=$T/tshards,NICE=$NICE" \
        "$HERE/hexproof-templates.sbatch" &
    SB=$!
    wait "$SB" || { echo "sbatch: some template task did not exit 0"; RC=1; }
    SB=
    END=$(date +%s.%N)
    echo "array of $SHARDS template tasks, row $TROW, two stones: wall $(python3 -c "print(f'{$END-$START:.1f}')") s (sbatch --wait)"
    set +e
    "$BIN" templates merge "$T/tshards" --dir "$T/merged" >"$T/merged.txt" 2>&1
    TRC=$?
    grep -v '^  ' "$T/merged.txt" | tail -n 5   # the summary, not the list of templates
    set -e
    echo "templates merge exit code: $TRC"
    [ "$TRC" = 0 ] || RC=$TRC
    if [ "$COMPARE" = 1 ] && [ "$TRC" = 0 ]; then
        nice -n "$NICE" "$BIN" templates generate --row "$TROW" --stones 2 --quiet --dir "$T/one" >/dev/null
        ONE=$(ls "$T"/one/*.json) MERGED=$(ls "$T"/merged/*.json)
        if cmp "$ONE" "$MERGED"; then
            echo "compare: the merged $(basename "$MERGED") equals the one-process file byte for byte ($(wc -c <"$MERGED") bytes)"
        else
            echo "compare: TEMPLATE FILES DIFFER"; RC=1
        fi
    fi
fi
exit "$RC"
