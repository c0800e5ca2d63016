#!/usr/bin/env bash
# Build and run one libFuzzer target on the stable toolchain, without cargo-fuzz.
#
#   fuzz/run.sh TARGET SECONDS [extra libFuzzer flags…]
#
# TARGET is one of: parse template_json sgf gtp db. The target is built in release mode with
# the coverage instrumentation cargo-fuzz uses (`--sanitizer none`), debug assertions and
# overflow checks, then run for SECONDS with the seeds in fuzz/corpus/TARGET (read-only) and a
# working corpus in fuzz/out/TARGET/corpus (ignored by git).
#
# Exit status: 0 the run ended without a crash; 1 a crash (the crashing input's path is
# printed, it lies under fuzz/artifacts/TARGET/); 77 libFuzzer could not be built on this
# machine (skipped: no C++ compiler, no crates registry, …); 2 bad usage. SECONDS 0 only builds.
set -uo pipefail

usage() { echo "usage: fuzz/run.sh TARGET SECONDS [libFuzzer flags…]  (TARGET: parse template_json sgf gtp db)" >&2; exit 2; }
[ $# -ge 2 ] || usage
target=$1; seconds=$2; shift 2
case "$target" in
  parse) max_len=200000 ;;
  template_json) max_len=65536 ;;
  sgf) max_len=16384 ;;
  gtp) max_len=16384 ;;
  db) max_len=4194304 ;;   # a fresh database file is 3.6 MB
  *) usage ;;
esac
case "$seconds" in ''|*[!0-9]*) usage ;; esac

here=$(cd "$(dirname "$0")" && pwd)
cd "$here"

host=$(rustc -vV 2>/dev/null | sed -n 's/^host: //p')
if [ -z "$host" ]; then
  echo "fuzz/run.sh: SKIPPED: no rustc on PATH" >&2; exit 77
fi

# The flags cargo-fuzz passes for `--sanitizer none` (sancov instrumentation feeding libFuzzer,
# `cfg(fuzzing)`), plus debug assertions and overflow checks. `--target` keeps them off build
# scripts and proc macros, as cargo-fuzz does.
export RUSTFLAGS="--cfg fuzzing -Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares -Cdebug-assertions -Coverflow-checks ${FUZZ_EXTRA_RUSTFLAGS:-}"
export CARGO_TARGET_DIR="$here/target"

log="$here/out/$target/build.log"
mkdir -p "$here/out/$target/corpus" "$here/artifacts/$target"
echo "fuzz/run.sh: building $target (log: $log)" >&2
if ! cargo build --release --target "$host" --bin "$target" ${FUZZ_BUILD_JOBS:+-j "$FUZZ_BUILD_JOBS"} >"$log" 2>&1; then
  tail -n 30 "$log" >&2
  # A compile error in the targets or the library is a failure; not being able to build
  # libFuzzer itself (no C++ compiler, no registry) is a skip.
  if grep -qE "error: failed to run custom build command for .libfuzzer-sys|failed to (download|get|load|fetch|select a version|query)|Unable to update|no matching package|[Cc]ould not resolve host|spurious network error" "$log"; then
    echo "fuzz/run.sh: SKIPPED: libFuzzer could not be built on this machine (see $log)" >&2
    exit 77
  fi
  echo "fuzz/run.sh: FAILED: the fuzz target $target does not build (see $log)" >&2
  exit 1
fi
bin="$CARGO_TARGET_DIR/$host/release/$target"
if [ "$seconds" -eq 0 ]; then
  echo "fuzz/run.sh: built $bin (SECONDS 0: not run)" >&2
  exit 0
fi

dict=()
[ -f "$here/dict/$target.dict" ] && dict=("-dict=$here/dict/$target.dict")
seeds=()
[ -d "$here/corpus/$target" ] && seeds=("$here/corpus/$target")
# The parser's seeds also include every proof file and the malformed fixtures, read in place.
[ "$target" = parse ] && seeds+=("$here/../proofs" "$here/../tests/fixtures")
# The database's seeds are real database files, written by the target itself (its `init`).
if [ "$target" = db ]; then
  mkdir -p "$here/out/db/seeds"
  HEXPROOF_FUZZ_DB_SEEDS="$here/out/db/seeds" "$bin" -runs=0 >/dev/null 2>&1 || true
  seeds+=("$here/out/db/seeds")
fi

echo "fuzz/run.sh: running $target for $seconds s" >&2
"$bin" "$here/out/$target/corpus" "${seeds[@]}" "${dict[@]}" \
  -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -max_len="$max_len" \
  -artifact_prefix="$here/artifacts/$target/" -print_final_stats=1 "$@" \
  2>&1 | tee "$here/out/$target/run.log"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
  crash=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$here/out/$target/run.log" | tail -n 1)
  echo "fuzz/run.sh: CRASH in $target (libFuzzer exit $status): ${crash:-no input written, see $here/out/$target/run.log}" >&2
  exit 1
fi
echo "fuzz/run.sh: $target: $seconds s, no crash" >&2
exit 0
