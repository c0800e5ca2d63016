#!/bin/bash
# A local PostgreSQL server (initdb under a temporary folder, stopped at the end) as the shared
# solved-position store of sharded `hexproof solve` jobs, with the server restarted while a job
# runs. Checks that the combined table equals the one-process table (no database), that the
# store holds checksummed records afterwards, that a second pass over the warm store gives
# the same table, and that a job started while the server is down waits for it (pass 3).
# docs/cluster.md.
#
#   contrib/postgres/run-local-postgres.sh [--board 6x6] [--restart-after 5] \
#       [--bin target/release/hexproof]      # a build with --features postgres
#
# Needs root (initdb and the server run as the `postgres` user) and the postgresql package.
set -euo pipefail
BOARD=5x5 AFTER=1 BIN=target/release/hexproof
while [ $# -gt 0 ]; do
    case "$1" in
        --board) BOARD=$2; shift 2 ;;
        --restart-after) AFTER=$2; shift 2 ;;
        --bin) BIN=$2; shift 2 ;;
        *) echo "run-local-postgres.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
BIN=$(realpath "$BIN")
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$PGBIN" ] || { echo "run-local-postgres.sh: postgresql not installed (apt-get install -y postgresql)" >&2; exit 2; }
T=$(mktemp -d /tmp/hexproof-pg.XXXXXX)
chmod 755 "$T"
as_pg() { runuser -u postgres -- "$@"; }
cleanup() {
    as_pg "$PGBIN/pg_ctl" -D "$T/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$T"
}
trap cleanup EXIT INT TERM
mkdir -p "$T/data" "$T/sock" && chown postgres "$T/data" "$T/sock"
as_pg "$PGBIN/initdb" -D "$T/data" --auth=trust -U postgres >/dev/null
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
start() { as_pg "$PGBIN/pg_ctl" -D "$T/data" -l "$T/sock/pg.log" -w -o "-p $PORT -k $T/sock -c listen_addresses=127.0.0.1" "$@" >/dev/null; }
start start
URL="postgres://postgres@127.0.0.1:$PORT/postgres"
echo "postgres: $("$PGBIN/postgres" --version), $URL"
ROWS=${BOARD#*x}
table() { head -n $((ROWS + 2)) "$1"; }

nice "$BIN" solve --board "$BOARD" --openings all >"$T/one.txt" 2>/dev/null
echo "one process, no database: $(tail -1 "$T/one.txt")"

# Pass 1: shard 1/2, then shard 2/2 with the server restarted while it runs.
nice "$BIN" solve --board "$BOARD" --openings all --shard 1/2 --out "$T/r1" --db "$URL" 2>/dev/null
nice "$BIN" solve --board "$BOARD" --openings all --shard 2/2 --out "$T/r1" --db "$URL" >"$T/job2.txt" 2>"$T/job2.err" &
JOB=$!
sleep "$AFTER"
if kill -0 "$JOB" 2>/dev/null; then RUNNING="while the job ran"; else RUNNING="after the job had ended (too fast; raise --board)"; fi
# Every record (key in hex, MD5 of the value), sorted: before the restart and at the end.
dump() { as_pg psql -h 127.0.0.1 -p "$PORT" -tAc "select encode(key, 'hex') || ' ' || md5(value) from hexproof_solved_v2 order by 1"; }
dump >"$T/before.txt"
start restart -m fast
echo "server restarted $RUNNING"
wait "$JOB" || true
cat "$T/job2.txt"
grep -i "database" "$T/job2.err" || true
"$BIN" solve --board "$BOARD" --combine "$T/r1" >"$T/c1.txt"
RECORDS=$(as_pg psql -h 127.0.0.1 -p "$PORT" -tAc "select count(*) from hexproof_solved_v2")
echo "pass 1 (cold store): $(tail -1 "$T/c1.txt"); store: $RECORDS records"
# Pass 2: every shard again over the warm store, into a fresh folder.
nice "$BIN" solve --board "$BOARD" --openings all --shard 1/1 --out "$T/r2" --db "$URL" 2>/dev/null | tail -1
"$BIN" solve --board "$BOARD" --combine "$T/r2" >"$T/c2.txt"
echo "pass 2 (warm store): $(tail -1 "$T/c2.txt")"
dump >"$T/after.txt"
RC=0
# Pass 3: a job started while the server is down (as a Slurm task can start inside a restart's
# window): its first connection is retried for 60 s, so it waits, says so once, and finishes.
start stop -m fast
nice "$BIN" solve --board "$BOARD" --openings all --shard 1/1 --out "$T/r3" --db "$URL" >/dev/null 2>"$T/job3.err" &
JOB=$!
sleep 2
start start
if wait "$JOB" && grep -q "^store: the PostgreSQL server cannot be reached yet" "$T/job3.err" \
    && "$BIN" solve --board "$BOARD" --combine "$T/r3" >"$T/c3.txt"; then
    echo "pass 3 (started while the server was down): waited for it and finished: $(tail -1 "$T/c3.txt")"
else
    echo "pass 3 (started while the server was down): FAILED: $(tail -2 "$T/job3.err" | tr '\n' ' ')"; RC=1
fi
LOST=$(comm -23 "$T/before.txt" "$T/after.txt" | wc -l)
if [ "$LOST" = 0 ]; then
    echo "store: all $(wc -l <"$T/before.txt") records dumped just before the restart are still there, each value unchanged (key and MD5 compared record by record; $(wc -l <"$T/after.txt") records at the end)"
else
    echo "store: $LOST of $(wc -l <"$T/before.txt") records dumped before the restart are MISSING or CHANGED"; RC=1
fi
for c in c1 c2 c3; do
    if diff <(table "$T/one.txt") <(table "$T/$c.txt") >/dev/null; then
        echo "compare $c: equals the one-process table"
    else
        echo "compare $c: TABLES DIFFER"; RC=1
    fi
done
[ "$RECORDS" -gt 0 ] || { echo "the store is empty"; RC=1; }
exit $RC
