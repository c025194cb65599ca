#!/usr/bin/env bash
# Finds or builds the Temporal CLI (dev server + Web UI) that evalflow runs.
# Order: $EVALFLOW_TEMPORAL_BIN, `temporal` on PATH, the cache, else build with Go into the cache.
# Prints the binary's path as the last line of stdout; progress goes to stderr.
# Usage: scripts/temporal-binary.sh [--check]
#   --check  builds nothing: prints a "missing: …" line and exits 1 when there is no binary.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/cache.sh"

VERSION="v1.5.1" # the newest tag installable with `go install` (later tags carry a replace line)
CACHE_DIR="$EVALFLOW_CACHE/bin"
CACHED="$CACHE_DIR/temporal"
CHECK=false; [ "${1:-}" = "--check" ] && CHECK=true

if [ -n "${EVALFLOW_TEMPORAL_BIN:-}" ]; then
  if [ -x "$EVALFLOW_TEMPORAL_BIN" ]; then $CHECK || echo "$EVALFLOW_TEMPORAL_BIN"; exit 0; fi
  if $CHECK; then echo "missing: the Temporal CLI at EVALFLOW_TEMPORAL_BIN=$EVALFLOW_TEMPORAL_BIN (not an executable file)"; exit 1; fi
  echo "evalflow: EVALFLOW_TEMPORAL_BIN=$EVALFLOW_TEMPORAL_BIN is not an executable file" >&2
  exit 1
fi
if command -v temporal >/dev/null 2>&1; then $CHECK || command -v temporal; exit 0; fi
if [ -x "$CACHED" ]; then $CHECK || echo "$CACHED"; exit 0; fi
if $CHECK; then
  echo "missing: the Temporal CLI $VERSION ($CACHED; built with Go, 3-6 minutes once)"
  exit 1
fi

if ! command -v go >/dev/null 2>&1; then
  cat >&2 <<MSG
evalflow: the Temporal CLI was not found and Go is not installed to build it.
Get the binary in one of these ways, then run evalflow again:
  1. install Go >= 1.25 and re-run this script (it builds github.com/temporalio/cli/cmd/temporal@$VERSION into $CACHE_DIR);
  2. install the Temporal CLI from https://docs.temporal.io/cli#install and put \`temporal\` on PATH;
  3. set EVALFLOW_TEMPORAL_BIN to the path of an existing \`temporal\` binary;
  4. or use an existing cluster: set TEMPORAL_ADDRESS (and TEMPORAL_NAMESPACE).
MSG
  exit 1
fi

cache_lock temporal "building the Temporal CLI into $CACHE_DIR"
if [ ! -x "$CACHED" ]; then
  mkdir -p "$CACHE_DIR"
  echo "evalflow: building the Temporal CLI $VERSION with $(go version | cut -d' ' -f3) into $CACHE_DIR (3-6 minutes, once)..." >&2
  start=$(date +%s)
  CGO_ENABLED=0 GOBIN="$CACHE_DIR" run_logged "building the Temporal CLI" "$EVALFLOW_CACHE/logs/temporal-cli.log" \
    go install -trimpath -ldflags="-s -w" "github.com/temporalio/cli/cmd/temporal@$VERSION" || exit 1
  echo "evalflow: built $("$CACHED" --version) in $(( $(date +%s) - start ))s" >&2
fi
echo "$CACHED"
