# Sourced by the scripts that fill evalflow's cache: where the cache is, the lock that keeps two
# processes from building the same thing at once, and the runner for the long downloads and builds.

EVALFLOW_CACHE="${EVALFLOW_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/evalflow}"

# Holds the cache lock NAME until the script exits (fd 9); says so when another process has it.
# Callers check again after taking it: the other process may have built the thing meanwhile.
# Without flock (macOS) two first runs may build twice at once, which is only slower.
cache_lock() { # name what-the-holder-is-doing
  command -v flock >/dev/null 2>&1 || return 0
  mkdir -p "$EVALFLOW_CACHE"
  exec 9>"$EVALFLOW_CACHE/.$1.lock"
  if ! flock -n 9; then
    echo "evalflow: another process is $2; waiting for it" >&2
    flock 9
  fi
}

# Runs a long download-and-build command with its output in LOG, a line on stderr each minute,
# and on failure one line saying why: the network when the log says so, else the log's last line.
run_logged() { # label log command...
  local label=$1 log=$2; shift 2
  mkdir -p "$(dirname "$log")"
  # The ticker's sleep holds no pipe, so killing the ticker never leaves a reader waiting.
  ( minutes=0; while sleep 60 </dev/null >/dev/null 2>&1; do minutes=$((minutes + 1)); echo "evalflow: still $label ($minutes min so far)" >&2; done ) 9>&- &
  local ticker=$! status=0
  "$@" >"$log" 2>&1 9>&- || status=$?
  kill "$ticker" 2>/dev/null || true
  wait "$ticker" 2>/dev/null || true
  [ "$status" -eq 0 ] && return 0
  local network
  network=$(grep -m 1 -E 'dial tcp|no such host|i/o timeout|TLS handshake timeout|connection refused|network is unreachable|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|Temporary failure resolving|Could not resolve|Unable to connect' "$log" || true)
  if [ -n "$network" ]; then
    echo "evalflow: $label failed: the network is unreachable ($network); connect and run again (log: $log)" >&2
  else
    echo "evalflow: $label failed: $(tail -n 1 "$log") (log: $log)" >&2
  fi
  return 1
}
