#!/usr/bin/env bash
# Serve the dashboard to a class: N Streamlit workers behind nginx, supervised by supervisord.
#
#   bash deploy/serve.sh --workers N --port P
#
# Runs in the foreground; Ctrl-C or SIGTERM stops every process it started. Installs nothing:
# it needs nginx, supervisord and, for class mode across workers, redis-server (Debian:
# apt-get install -y nginx supervisor redis-server) and the app's
# Python packages (python -m pip install -r requirements.txt), and says so when one is missing.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

usage() {
  cat <<'USAGE'
Usage: bash deploy/serve.sh [--workers N] [--port P] [options] [-- streamlit options]

  --workers N            Streamlit worker processes (default: the number of cores)
  --port P               port nginx listens on (default: 8080)
  --address A            address nginx listens on (default: 127.0.0.1; 0.0.0.0 for a class)
  --first-worker-port Q  workers listen on 127.0.0.1:Q ... Q+N-1 (default: P+1)
  --run-dir DIR          where configs and logs go (default: a temporary directory that is
                         removed on exit; a given DIR is kept)
  -- ...                 anything after -- is passed to every `streamlit run`

Class mode's store: redis-server on 127.0.0.1:Q+N, supervised with the workers (unless
ATTENTION_CLASS_STORE already names a redis:// URL).

Learners open http://A:P/ ; nginx keeps each browser on one worker by a cookie it sets, and
supervisord restarts a worker that dies. Ctrl-C (or SIGTERM) stops everything.
USAGE
}

WORKERS="$(nproc 2>/dev/null || echo 2)"
PORT=8080
ADDRESS=127.0.0.1
FIRST_WORKER_PORT=""
RUN_DIR=""
EXTRA=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --workers) WORKERS="${2:?--workers needs a number}"; shift 2 ;;
    --port) PORT="${2:?--port needs a number}"; shift 2 ;;
    --address) ADDRESS="${2:?--address needs an address}"; shift 2 ;;
    --first-worker-port) FIRST_WORKER_PORT="${2:?--first-worker-port needs a number}"; shift 2 ;;
    --run-dir) RUN_DIR="${2:?--run-dir needs a directory}"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    --) shift; EXTRA=("$@"); break ;;
    *) echo "serve.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
  esac
done
for value in "$WORKERS" "$PORT" ${FIRST_WORKER_PORT:+"$FIRST_WORKER_PORT"}; do
  [[ "$value" =~ ^[0-9]+$ ]] || { echo "serve.sh: '$value' is not a number" >&2; exit 2; }
done
FIRST_WORKER_PORT="${FIRST_WORKER_PORT:-$((PORT + 1))}"

say() { printf 'serve.sh: %s\n' "$*"; }

# --- What must be installed first (nothing is installed here) -------------------------------
find_tool() {  # nginx lives in /usr/sbin, which is not on every user's PATH
  command -v "$1" 2>/dev/null || { [[ -x "/usr/sbin/$1" ]] && echo "/usr/sbin/$1"; } || true
}
NGINX="$(find_tool nginx)"
SUPERVISORD="$(find_tool supervisord)"
# Class mode's shared store: Redis, run here unless ATTENTION_CLASS_STORE names one already.
REDIS_SERVER=""
if [[ -z "${ATTENTION_CLASS_STORE:-}" ]]; then
  REDIS_SERVER="$(find_tool redis-server)"
  if [[ -z "$REDIS_SERVER" && "$WORKERS" -gt 1 ]]; then
    say "missing: redis-server (the workers share their classes through it). Install first:"
    say "  apt-get install -y redis-server   (or set ATTENTION_CLASS_STORE=redis://host:port/0)"
    exit 1
  fi
fi
PYTHON="${PYTHON:-$(command -v python3 || command -v python || true)}"
missing=()
[[ -n "$NGINX" ]] || missing+=(nginx)
[[ -n "$SUPERVISORD" ]] || missing+=(supervisor)
if ((${#missing[@]})); then
  say "missing: ${missing[*]}. Install first (Debian/Ubuntu, as root):"
  say "  apt-get install -y ${missing[*]}"
  exit 1
fi
if [[ -z "$PYTHON" ]] || ! "$PYTHON" -c "import streamlit" 2>/dev/null; then
  say "this Python cannot import streamlit: ${PYTHON:-no python3 on PATH}. Install first:"
  say "  python -m pip install -r requirements.txt   (or set PYTHON=/path/to/python)"
  exit 1
fi
PYTHON="$("$PYTHON" -c 'import sys; print(sys.executable)')"

# --- Ports: nginx on ADDRESS:PORT, workers on loopback ---------------------------------------
port_taken() {  # prints the first port of "$@" that cannot be bound on its address
  "$PYTHON" - "$@" <<'PY'
import socket, sys
for spec in sys.argv[1:]:
    address, port = spec.rsplit(":", 1)
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    with socket.socket(family) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((address, int(port)))
        except OSError:
            print(spec)
            break
PY
}
specs=("$ADDRESS:$PORT")
for ((i = 0; i < WORKERS; i++)); do specs+=("127.0.0.1:$((FIRST_WORKER_PORT + i))"); done
REDIS_PORT="$((FIRST_WORKER_PORT + WORKERS))"  # Redis on the port after the workers'
[[ -z "$REDIS_SERVER" ]] || specs+=("127.0.0.1:$REDIS_PORT")
taken="$(port_taken "${specs[@]}")"
if [[ -n "$taken" ]]; then
  say "$taken is already in use; choose another --port (or --first-worker-port)"
  exit 1
fi

# --- Render the configs into the run directory ------------------------------------------------
KEEP_RUN_DIR=1
if [[ -z "$RUN_DIR" ]]; then
  RUN_DIR="$(mktemp -d "${TMPDIR:-/tmp}/attention-serve.XXXXXX")"
  KEEP_RUN_DIR=0
fi
mkdir -p "$RUN_DIR"
RUN_DIR="$(cd "$RUN_DIR" && pwd)"
# Stop everything this script started on the way out, whatever the way.
SUPERVISOR_PID=""
CHECK_PID=""
# shellcheck disable=SC2317  # called from the traps below
stop_all() {
  trap - INT TERM HUP EXIT
  [[ -z "$CHECK_PID" ]] || kill -TERM "$CHECK_PID" 2>/dev/null || true
  if [[ -n "$SUPERVISOR_PID" ]] && kill -0 "$SUPERVISOR_PID" 2>/dev/null; then
    say "stopping nginx and the workers ..."
    kill -TERM "$SUPERVISOR_PID" 2>/dev/null || true
    wait "$SUPERVISOR_PID" 2>/dev/null || true
  fi
  if ((KEEP_RUN_DIR)); then
    say "configs and logs kept in $RUN_DIR"
  else
    rm -rf "$RUN_DIR"
  fi
}
trap 'stop_all; exit 130' INT
trap 'stop_all; exit 143' TERM
trap 'stop_all; exit 129' HUP
trap 'stop_all' EXIT

# With setpriv (util-linux), every process gets SIGTERM from the kernel when its parent dies
# (--pdeathsig): even if this script or supervisord is killed outright (SIGKILL), nothing of
# it is left running.
SETPRIV=""
if command -v setpriv >/dev/null 2>&1 && setpriv --pdeathsig TERM true 2>/dev/null; then
  SETPRIV="$(command -v setpriv)"
fi
"$PYTHON" "$HERE/render_configs.py" --run-dir "$RUN_DIR" --workers "$WORKERS" --port "$PORT" \
  --address "$ADDRESS" --first-worker-port "$FIRST_WORKER_PORT" --nginx "$NGINX" \
  --python "$PYTHON" ${SETPRIV:+--setpriv "$SETPRIV"} \
  ${REDIS_SERVER:+--redis-server "$REDIS_SERVER" --redis-port "$REDIS_PORT"} \
  -- ${EXTRA[@]+"${EXTRA[@]}"}
if ! "$NGINX" -t -q -p "$RUN_DIR/nginx/" -c "$RUN_DIR/nginx/nginx.conf" -e stderr; then
  say "nginx rejected the generated configuration ($RUN_DIR/nginx/nginx.conf)"
  KEEP_RUN_DIR=1
  exit 1
fi

# Every worker signs Streamlit's cookies (XSRF) with the same secret, so a learner moved to
# another worker (failover) keeps working. Passed in the environment, not on a command line.
if [[ -z "${STREAMLIT_SERVER_COOKIE_SECRET:-}" ]]; then
  STREAMLIT_SERVER_COOKIE_SECRET="$("$PYTHON" -c 'import secrets; print(secrets.token_hex(32))')"
  export STREAMLIT_SERVER_COOKIE_SECRET
fi

# --- Start ----------------------------------------------------------------------------------
${SETPRIV:+"$SETPRIV" --pdeathsig TERM} "$SUPERVISORD" --nodaemon \
  -c "$RUN_DIR/supervisord.conf" >>"$RUN_DIR/logs/supervisord.out" 2>&1 &
SUPERVISOR_PID=$!

say "starting $WORKERS worker(s) on 127.0.0.1:$FIRST_WORKER_PORT-$((FIRST_WORKER_PORT + WORKERS - 1)) behind nginx on $ADDRESS:$PORT ..."
# In the background, so that a signal stops the wait at once (bash runs traps between commands).
"$PYTHON" "$HERE/healthcheck.py" --run-dir "$RUN_DIR" --host "$ADDRESS" --port "$PORT" \
  --wait 180 --while-alive "$SUPERVISOR_PID" >/dev/null &
CHECK_PID=$!
healthy=0
wait "$CHECK_PID" && healthy=1
CHECK_PID=""
if ((!healthy)); then
  say "not every worker became healthy; last lines of the logs in $RUN_DIR/logs:"
  for log in "$RUN_DIR"/logs/*.log; do
    echo "--- $log"; tail -n 15 "$log" || true
  done
  KEEP_RUN_DIR=1
  exit 1
fi
host="$ADDRESS"
[[ "$host" == "0.0.0.0" ]] && host="$(hostname -I 2>/dev/null | awk '{print $1}')" && host="${host:-0.0.0.0}"
say "ready: http://$host:$PORT/  ($WORKERS worker(s); Ctrl-C stops everything)"
say "workers: supervisorctl -c $RUN_DIR/supervisord.conf status   logs: $RUN_DIR/logs/"
if [[ -n "$REDIS_SERVER" ]]; then
  say "classes: Redis on 127.0.0.1:$REDIS_PORT (supervised; classes end after 4 idle hours)"
else
  say "classes: ${ATTENTION_CLASS_STORE:-kept in memory by each worker}"
fi

# Wait for supervisord; a signal interrupts `wait` and runs the trap.
status=0
wait "$SUPERVISOR_PID" || status=$?
SUPERVISOR_PID=""
say "supervisord exited (status $status); see $RUN_DIR/logs/supervisord.log"
KEEP_RUN_DIR=1
exit 1
