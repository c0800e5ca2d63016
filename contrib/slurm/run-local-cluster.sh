#!/bin/bash
# Starts a real single-node Slurm cluster (slurmctld + slurmd + munged from the distribution's
# packages, everything under a temporary folder), runs `hexproof solve --openings all` as an
# array job of small shards (contrib/slurm/hexproof-openings.sbatch), combines the results with
# `hexproof solve --combine`, optionally compares the table with the one-process answer, and
# stops every daemon it started (also on error or Ctrl-C). docs/cluster.md.
#
#   contrib/slurm/run-local-cluster.sh [--board 7x7] [--shards 13] [--cpus 2] \
#       [--bin target/release/hexproof] [--compare] [--install] [--keep DIR] [--templates ROW] \
#       [--postgres] [--faults]
#
# --install: apt-get install -y slurm-wlm munge first (Debian/Ubuntu, as root).
# --compare: also run the one-process `solve --openings all` and diff the two tables.
# --cpus N:  CPUs the node offers (array tasks run N at a time, one CPU each).
# --templates ROW: then also the two-stone template enumeration of row ROW (default region) as
#            an array of --shards tasks (contrib/slurm/hexproof-templates.sbatch), merged with
#            `hexproof templates merge`; with --compare the merged file is compared byte for byte
#            with the one-process `templates generate`.
# --postgres: also start a local PostgreSQL server (initdb under the temporary folder, the
#            `postgres` user, trust authentication on 127.0.0.1) and give every openings task
#            `--db postgres://…`: the tasks share one store of solved positions. Afterwards a
#            second array over the warm store must give the same table. Needs a hexproof built
#            with `--features postgres` and the postgresql package.
# --faults:  inject faults and check that the answer is unchanged and nothing is lost:
#            openings task 1 is cancelled (scancel) once it has written its first result file
#            and re-run afterwards; a duplicate of task 2 runs beside the array; the PostgreSQL
#            server (with --postgres) is restarted while tasks run; a result file is corrupted
#            (the combiner must reject it) and its task re-run (it must replace the file); with
#            --templates also a duplicate template task and a corrupted template shard (the
#            merge must reject it; its task is re-run).
# Needs root (SlurmUser/SlurmdUser root; proctrack/linuxproc, no cgroups).
set -euo pipefail

BOARD=7x7 SHARDS=13 CPUS=$(nproc) BIN=target/release/hexproof COMPARE=0 INSTALL=0 KEEP="" TROW=""
PG=0 FAULTS=0
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
        --postgres) PG=1; shift ;;
        --faults) FAULTS=1; shift ;;
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
PGBIN=
if [ "$PG" = 1 ]; then
    PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
    [ -n "$PGBIN" ] || { echo "run-local-cluster.sh: postgresql not installed (apt-get install -y postgresql)" >&2; exit 2; }
fi

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
    if [ -s "$T/pg/data/postmaster.pid" ]; then
        runuser -u postgres -- "$PGBIN/pg_ctl" -D "$T/pg/data" -m immediate stop >/dev/null 2>&1 || true
    fi
    sleep 1
    for f in "$T/slurmd.pid" "$T/slurmctld.pid" "$T/munge/munged.pid"; do
        if [ -s "$f" ]; then kill -9 "$(cat "$f")" 2>/dev/null || true; fi
    done
    if [ -n "$KEEP" ]; then mkdir -p "$KEEP" && cp -r "$T"/results "$T"/results-warm "$T"/tshards "$T"/out "$T"/*.log "$T"/*.txt "$T"/slurm.conf "$KEEP"/ 2>/dev/null || true; fi
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
# Keep finished tasks' records (state, exit code) for the whole run (default 300 s).
MinJobAge=3600
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

secs() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$1" "$2"; }

# The shared store: a PostgreSQL server of our own, under $T/pg.
URL=
if [ "$PG" = 1 ]; then
    chmod 755 "$T"
    mkdir -p "$T/pg/data" "$T/pg/sock" && chown postgres "$T/pg/data" "$T/pg/sock"
    runuser -u postgres -- "$PGBIN/initdb" -D "$T/pg/data" --auth=trust -U postgres >/dev/null
    PGPORT=$(port)
    pg() { runuser -u postgres -- "$PGBIN/pg_ctl" -D "$T/pg/data" -l "$T/pg/sock/pg.log" -w \
        -o "-p $PGPORT -k $T/pg/sock -c listen_addresses=127.0.0.1" "$@" >/dev/null; }
    pg start
    URL="postgres://postgres@127.0.0.1:$PGPORT/postgres"
    echo "postgres: $("$PGBIN/postgres" --version), $URL"
    if ! "$BIN" solve --board 3x3 --openings all --db "$URL" >/dev/null 2>"$T/pgcheck.err"; then
        echo "run-local-cluster.sh: $BIN cannot use the store: $(head -1 "$T/pgcheck.err") (cargo build --release --features postgres)" >&2
        exit 2
    fi
fi
# Records of this board in the store, and records that fail their checksum are counted by
# the jobs themselves (a warning in their output).
records() {
    local c=${BOARD%x*} r=${BOARD#*x}
    psql -h 127.0.0.1 -p "$PGPORT" -U postgres -tAc \
        "select count(*) from hexproof_solved_v2 where get_byte(key, 0) = $c and get_byte(key, 1) = $r" postgres
}
# Every record of the store, one line each: the key (hex) and the MD5 of its value, sorted.
dump() {
    psql -h 127.0.0.1 -p "$PGPORT" -U postgres -tAc \
        "select encode(key, 'hex') || ' ' || md5(value) from hexproof_solved_v2 order by 1" postgres
}
# nothing_lost BEFORE AFTER WHEN: every record of BEFORE is in AFTER with the same value.
nothing_lost() {
    local lost
    lost=$(comm -23 "$1" "$2" | wc -l)
    if [ "$lost" = 0 ]; then
        echo "store: all $(wc -l <"$1") records dumped $3 are still there, each value unchanged (key and MD5 compared record by record; $(wc -l <"$2") records now)"
    else
        echo "store: $lost of $(wc -l <"$1") records dumped $3 are MISSING or CHANGED:"; comm -23 "$1" "$2" | head -5
        RC=1
    fi
}

# submit NAME ARRAY SCRIPT EXPORTS: submits an array job, sets JOB to its id.
# A loaded controller can time out a client call: three tries.
submit() {
    local try
    for try in 1 2 3; do
        if JOB=$(sbatch --parsable --array="$2" --chdir="$T/out" --output="$T/out/$1-%a.out" \
            --export="$4" "$HERE/$3"); then
            JOB=${JOB%%;*}
            return 0
        fi
        echo "sbatch failed (try $try of 3)" >&2
        sleep 2
    done
    return 1
}
# active JOB…: true while one of the jobs has a task pending, running or completing.
# A failed squeue (a loaded controller timing out) counts as still active, up to 30 in a row.
SQFAIL=0
active() {
    local out
    if ! out=$(squeue -h -j "$(IFS=,; echo "$*")" -t PD,R,CG,CF -o %i 2>/dev/null); then
        SQFAIL=$((SQFAIL + 1))
        [ "$SQFAIL" -le 30 ] && return 0
        echo "squeue failed 30 times in a row: taking the jobs $* as ended" >&2
        return 1
    fi
    SQFAIL=0
    [ -n "$out" ]
}
# wait_jobs JOB…: waits for the jobs to end; prints each task's state and exit code.
wait_jobs() {
    while active "$@"; do sleep 0.2; done
    for j in "$@"; do
        { scontrol -o show job "$j" 2>/dev/null || echo "ArrayTaskId=0 JobState=UNKNOWN ExitCode=? (scontrol failed)"; } \
            | sed -n 's/.*ArrayTaskId=\([0-9]*\) .*JobState=\([A-Z_]*\) .*ExitCode=\([0-9:?]*\).*/\1 \2 \3/p'
    done
}
# states: a summary of wait_jobs' lines ("12 COMPLETED 0:0, 1 CANCELLED 0:15").
states() { awk '{print $2" "$3}' | sort | uniq -c | awk '{printf "%s%s %s %s", (NR>1?", ":""), $1, $2, $3}'; }
# task_out NAME I: the output of the last run of task I (a re-run overwrites it).
task_out() { grep -h "^shard \\|^row \\|hexproof: " "$T/out/$1-$2.out" 2>/dev/null || true; }

# open_export DIR: the environment of an openings task writing to DIR.
open_export() {
    echo "ALL,HEXPROOF=$BIN,BOARD=$BOARD,SHARDS=$SHARDS,OUT=$1,NICE=$NICE${URL:+,HEXPROOF_FLAGS=--db $URL}"
}
OPEN_EXPORT=$(open_export "$T/results")
RC=0
START=$(date +%s.%N)
submit openings "1-$SHARDS" hexproof-openings.sbatch "$OPEN_EXPORT"
ARRAY=$JOB
echo "Submitted batch job $ARRAY (array 1-$SHARDS)"
JOBS=("$ARRAY")
if [ "$FAULTS" = 1 ]; then
    # A duplicate of task 2, submitted beside the array: the same shard twice, same folder.
    submit duplicate 2 hexproof-openings.sbatch "$OPEN_EXPORT"
    DUP=$JOB
    JOBS+=("$DUP")
    echo "fault: duplicate of task 2 submitted as job $DUP"
    # Task 1 cancelled once it has written its first result file (mid-run: it has more).
    killed=0
    while active "$ARRAY"; do
        if grep -lq "\"shard\": \"1/$SHARDS\"" "$T"/results/opening-*.json 2>/dev/null; then
            scancel "${ARRAY}_1" && killed=1
            break
        fi
        sleep 0.05
    done
    if [ "$killed" = 1 ]; then
        echo "fault: task 1 cancelled (scancel ${ARRAY}_1) after $(grep -l "\"shard\": \"1/$SHARDS\"" "$T"/results/opening-*.json | wc -l) of its result files"
    else
        echo "fault: task 1 could not be cancelled mid-run (the array ended first)"
    fi
    if [ -n "$URL" ]; then
        sleep 1
        RUNNING=$(squeue -h -j "$(IFS=,; echo "${JOBS[*]}")" -t R -o %i 2>/dev/null | wc -l)
        dump >"$T/store-before-restart.txt" || true
        pg restart -m fast
        echo "fault: PostgreSQL restarted (pg_ctl restart -m fast) while $RUNNING task(s) ran"
    fi
fi
wait_jobs "${JOBS[@]}" >"$T/states.txt"
LAST=$(stat -c %.9Y "$T"/results/opening-*.json 2>/dev/null | sort -n | tail -1)
echo "array of $SHARDS tasks on $BOARD: wall $(secs "$START" "${LAST:-$START}") s from submission to the last result file; task states: $(states <"$T/states.txt")"
[ "$(awk '$2 != "COMPLETED"' "$T/states.txt" | wc -l)" = 0 ] || echo "note: some task did not complete (3: an opening undecided; CANCELLED: the injected kill)"
if [ "$FAULTS" = 1 ]; then
    echo "duplicate task 2: $(task_out duplicate 2)"
    echo "original task 2:  $(task_out openings 2)"
    set +e
    "$BIN" solve --board "$BOARD" --combine "$T/results" >/dev/null 2>"$T/combine-before.err"
    echo "combine before the re-run: exit $? ($(head -c 300 "$T/combine-before.err"))"
    set -e
    submit rerun 1 hexproof-openings.sbatch "$OPEN_EXPORT"
    wait_jobs "$JOB" >/dev/null
    echo "re-run of the killed task 1: $(task_out rerun 1)"
    # A corrupted result file: the winner flipped in the last file written.
    VICTIM=$(ls -t "$T"/results/opening-*.json | head -1)
    VSHARD=$(sed -n 's/.*"shard": "\([0-9]*\)\/.*/\1/p' "$VICTIM")
    cp "$VICTIM" "$T/victim.json"
    if grep -q '"winner": "white"' "$VICTIM"; then
        sed -i 's/"winner": "white"/"winner": "black"/' "$VICTIM"
    else
        sed -i 's/"winner": "black"/"winner": "white"/' "$VICTIM"
    fi
    set +e
    "$BIN" solve --board "$BOARD" --combine "$T/results" >/dev/null 2>"$T/combine-corrupt.err"
    CRC=$?
    set -e
    echo "fault: winner flipped in $(basename "$VICTIM") (task $VSHARD); combine: exit $CRC: $(cat "$T/combine-corrupt.err")"
    [ "$CRC" = 2 ] && grep -q "bad checksum" "$T/combine-corrupt.err" || { echo "CORRUPTED FILE NOT REJECTED"; RC=1; }
    submit repair "$VSHARD" hexproof-openings.sbatch "$OPEN_EXPORT"
    wait_jobs "$JOB" >/dev/null
    echo "re-run of task $VSHARD: $(grep -h "replaced" "$T/out/repair-$VSHARD.out" | head -1)"
    echo "                  $(task_out repair "$VSHARD" | grep '^shard')"
    answer() { grep -E '"(opening|winner|winning_move)"' "$1" | tr -d ' \n'; }
    if [ "$(answer "$VICTIM")" = "$(answer "$T/victim.json")" ]; then
        echo "the new file has the original's answer: $(answer "$VICTIM")"
    else
        echo "THE NEW FILE'S ANSWER DIFFERS: $(answer "$VICTIM") against $(answer "$T/victim.json")"; RC=1
    fi
fi
set +e
"$BIN" solve --board "$BOARD" --combine "$T/results" | tee "$T/combined.txt"
CRC=${PIPESTATUS[0]}
set -e
echo "combine exit code: $CRC"
[ "$CRC" = 0 ] || RC=$CRC
if [ -n "$URL" ]; then
    echo "store: $(records) records of $BOARD in PostgreSQL"
    dump >"$T/store-after-pass1.txt"
    if [ -s "$T/store-before-restart.txt" ]; then
        nothing_lost "$T/store-before-restart.txt" "$T/store-after-pass1.txt" "just before the restart"
    fi
    if grep -l "hexproof: .*database" "$T"/out/*.out >/dev/null 2>&1; then
        echo "store errors reported by tasks:"; grep -h "hexproof: .*database" "$T"/out/*.out | sort | uniq -c
        RC=1
    else
        echo "store: no task reported a store error (a failed write is retried for 60 s, then reported)"
    fi
    # A task that started while the server was down waited for it (its first connection is
    # retried for 60 s too) and says so once in its log.
    WAITED=$( (grep -l "^store: the PostgreSQL server cannot be reached yet" "$T"/out/*.out 2>/dev/null || true) | xargs -r -n1 basename | tr '\n' ' ')
    if [ -n "$WAITED" ]; then
        echo "store: task(s) that started while the server was down and waited for it: $WAITED"
    fi
    # Every opening again over the warm store, into a fresh folder.
    START=$(date +%s.%N)
    submit warm "1-$SHARDS" hexproof-openings.sbatch "$(open_export "$T/results-warm")"
    wait_jobs "$JOB" >"$T/states-warm.txt"
    LAST=$(stat -c %.9Y "$T"/results-warm/opening-*.json 2>/dev/null | sort -n | tail -1)
    set +e
    "$BIN" solve --board "$BOARD" --combine "$T/results-warm" >"$T/combined-warm.txt"
    WRC=$?
    set -e
    echo "warm store: array of $SHARDS tasks, wall $(secs "$START" "${LAST:-$START}") s; $(tail -1 "$T/combined-warm.txt"); combine exit code $WRC"
    dump >"$T/store-end.txt"
    nothing_lost "$T/store-after-pass1.txt" "$T/store-end.txt" "after the first pass"
    [ "$WRC" = 0 ] || RC=$WRC
fi
if [ "$COMPARE" = 1 ]; then
    ROWS=${BOARD#*x}
    START=$(date +%s.%N)
    nice -n "$NICE" "$BIN" solve --board "$BOARD" --openings all 2>/dev/null | tee "$T/one.txt" | tail -1
    echo "one process: wall $(secs "$START" "$(date +%s.%N)") s"
    if diff <(head -n $((ROWS + 2)) "$T/one.txt") <(head -n $((ROWS + 2)) "$T/combined.txt"); then
        echo "compare: the Slurm table equals the one-process table"
    else
        echo "compare: TABLES DIFFER"; RC=1
    fi
    if [ -n "$URL" ]; then
        if diff <(head -n $((ROWS + 2)) "$T/one.txt") <(head -n $((ROWS + 2)) "$T/combined-warm.txt"); then
            echo "compare: the warm-store Slurm table equals the one-process table"
        else
            echo "compare: WARM-STORE TABLE DIFFERS"; RC=1
        fi
    fi
fi
if [ -n "$TROW" ]; then
    TEXPORT="ALL,HEXPROOF=$BIN,ROW=$TROW,SHARDS=$SHARDS,OUT=$T/tshards,NICE=$NICE"
    START=$(date +%s.%N)
    submit templates "1-$SHARDS" hexproof-templates.sbatch "$TEXPORT"
    JOBS=("$JOB")
    echo "Submitted batch job $JOB (template array 1-$SHARDS)"
    if [ "$FAULTS" = 1 ]; then
        submit tduplicate 1 hexproof-templates.sbatch "$TEXPORT"
        JOBS+=("$JOB")
        echo "fault: duplicate of template task 1 submitted as job $JOB"
    fi
    wait_jobs "${JOBS[@]}" >"$T/tstates.txt"
    END=$(date +%s.%N)
    echo "array of $SHARDS template tasks, row $TROW, two stones: wall $(secs "$START" "$END") s; task states: $(states <"$T/tstates.txt")"
    [ "$(awk '$2 != "COMPLETED"' "$T/tstates.txt" | wc -l)" = 0 ] || { echo "some template task did not complete"; RC=1; }
    if [ "$FAULTS" = 1 ]; then
        TVICTIM=$(ls "$T"/tshards/*.shard-2-of-*.json 2>/dev/null | head -1)
        if [ -n "$TVICTIM" ]; then
            cp "$TVICTIM" "$T/tvictim.json"
            # One byte of a template changed (the first "complete": true turned false).
            sed -i '0,/"complete": true/s//"complete": false/' "$TVICTIM"
            set +e
            "$BIN" templates merge "$T/tshards" --dir "$T/merged" >/dev/null 2>"$T/merge-corrupt.err"
            MRC=$?
            set -e
            echo "fault: $(basename "$TVICTIM") edited; templates merge: exit $MRC: $(cat "$T/merge-corrupt.err")"
            [ "$MRC" = 2 ] && grep -q "bad checksum" "$T/merge-corrupt.err" || { echo "CORRUPTED SHARD NOT REJECTED"; RC=1; }
            submit trepair 2 hexproof-templates.sbatch "$TEXPORT"
            wait_jobs "$JOB" >/dev/null
            echo "re-run of template task 2: $(task_out trepair 2 | head -1)"
        fi
    fi
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
