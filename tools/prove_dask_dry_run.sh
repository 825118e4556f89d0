#!/usr/bin/env bash
# A dry run of a 4x4 proof on a local Dask cluster: a scheduler and two single-threaded workers started from
# the command line (as on many machines), the proof run against it with a checkpoint, one worker killed with
# SIGKILL mid-run (its nanny restarts it, Dask retries its tasks), the proof itself stopped with SIGTERM, then
# resumed from the checkpoint and stopped again. It checks that no task was recorded twice (a resumed run
# skips what the checkpoint holds; results equal to a straight run are tests/test_prove.py's). The classes are those of the real 4x4 proof (the default scheme); the common
# tier keeps each class cheap, and --tasks cuts the proof fine, so a few hundred classes run in minutes.
#   bash tools/prove_dask_dry_run.sh [SECONDS_PER_PHASE] [CHECKPOINT]   (in the repository's venv)
# Environment: LEXICON (en-common), THRESHOLD (1154, optimize's 10-second best, seed 1), TASKS (300000),
# PORT (8799), BOGGLE_I18N_HOME / BOGGLE_I18N_CACHE as for any command.
set -euo pipefail
PHASE="${1:-150}"
CKPT="${2:-$(mktemp -d)/dry-run.ckpt}"
LEXICON="${LEXICON:-en-common}"
THRESHOLD="${THRESHOLD:-1154}"
TASKS="${TASKS:-300000}"
PORT="${PORT:-8799}"
LOGS="$(mktemp -d)"
ADDRESS="tcp://127.0.0.1:$PORT"

nice -n 5 dask scheduler --host 127.0.0.1 --port "$PORT" --no-dashboard >"$LOGS/scheduler.log" 2>&1 &
SCHEDULER=$!
sleep 3
nice -n 5 dask worker "$ADDRESS" --nworkers 2 --nthreads 1 --no-dashboard >"$LOGS/workers.log" 2>&1 &
WORKERS=$!
cleanup() { kill "$WORKERS" 2>/dev/null || true; sleep 2; kill "$SCHEDULER" 2>/dev/null || true; wait 2>/dev/null || true; }
trap cleanup EXIT
sleep 8

PROVE=(boggle-i18n prove --lexicon "$LEXICON" --size 4x4 --threshold "$THRESHOLD" --tasks "$TASKS"
  --cluster "$ADDRESS" --checkpoint "$CKPT")
count() { tail -n +2 "$CKPT" | grep -c '"task"' || true; }
classes() { python - "$CKPT" <<'EOF'
import json, sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()[1:]
tasks = [json.loads(line) for line in lines if line.strip()]
numbers = [t["task"] for t in tasks]
assert len(numbers) == len(set(numbers)), "a task was recorded twice"
print(f"{len(numbers)} tasks, {sum(t['classes'] for t in tasks)} classes, "
      f"{sum(t['cpu_seconds'] for t in tasks):.1f} CPU s, slowest class {max(t['slowest_class'] for t in tasks):.2f} s")
EOF
}

echo "phase 1: run for $PHASE s, then SIGTERM (checkpoint $CKPT)"
set +e
timeout -s TERM "$PHASE" nice -n 5 "${PROVE[@]}" 2>"$LOGS/phase1.err"
echo "  exit $? ; $(classes)"
tail -n 1 "$LOGS/phase1.err"

echo "phase 2: --resume; one worker process killed with SIGKILL after $((PHASE / 2)) s; SIGTERM at $PHASE s"
timeout -s TERM "$PHASE" nice -n 5 "${PROVE[@]}" --resume 2>"$LOGS/phase2.err" &
RUN=$!
sleep $((PHASE / 2))
VICTIM="$(pgrep -P "$WORKERS" -f 'spawn_main|forkserver' | head -n 1)"
echo "  killing worker process $VICTIM"
kill -9 "$VICTIM"
wait "$RUN"
echo "  exit $? ; $(classes)"
tail -n 1 "$LOGS/phase2.err"
set -e
grep -c -i "restart\|died\|closing\|lost" "$LOGS/workers.log" "$LOGS/scheduler.log" | sed 's/^/  log lines on the lost worker: /'
echo "logs in $LOGS; resume with: ${PROVE[*]} --resume"
