#!/usr/bin/env bash
# Finds or builds what `evalflow server --persistence postgres` runs: the Temporal server and its
# SQL schema tool (go.temporal.io/server v1.29.1, the server the pinned CLI embeds) and the Web UI
# server (ui-server v2.42.1). Each is built once into the cache; the Go module cache keeps the
# schema files. Prints four lines on stdout: server, sql tool, ui server, schema directory.
# Usage: scripts/team-binaries.sh [--check]
#   --check  builds nothing: prints a "missing: …" line per missing piece and exits 1 if any.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/cache.sh"

SERVER_VERSION="v1.29.1"
UI_VERSION="v2.42.1"
SERVER_BIN="$EVALFLOW_CACHE/server-bin"
UI_BIN="$EVALFLOW_CACHE/ui-bin" # its binary is also called `server`: a folder of its own
CHECK=false; [ "${1:-}" = "--check" ] && CHECK=true

if ! command -v go >/dev/null 2>&1; then
  if $CHECK; then echo "missing: Go >= 1.25 (team mode builds the Temporal server from source and reads its schema files from Go's module cache)"; exit 1; fi
  echo "evalflow: team mode builds the Temporal server from source and needs Go >= 1.25 (https://go.dev/dl/); install it and run again, or run docker-compose.yml instead" >&2
  exit 1
fi
server_built() { [ -x "$SERVER_BIN/server" ] && [ -x "$SERVER_BIN/sql" ]; }
ui_built() { [ -x "$UI_BIN/server" ]; }
# `go env` costs a tenth of a second: the default module cache is tried first.
module_dir() {
  local default="${GOMODCACHE:-${GOPATH:-$HOME/go}/pkg/mod}/go.temporal.io/server@$SERVER_VERSION"
  if [ -d "$default/schema/postgresql/v12" ]; then echo "$default"; else echo "$(go env GOMODCACHE)/go.temporal.io/server@$SERVER_VERSION"; fi
}
MODULE=$(module_dir)

if $CHECK; then
  missing=0
  server_built || { echo "missing: the Temporal server $SERVER_VERSION and its SQL tool ($SERVER_BIN; built with Go, 10-25 minutes once)"; missing=1; }
  ui_built || { echo "missing: the Temporal Web UI server $UI_VERSION ($UI_BIN; built with Go, about 3 minutes once)"; missing=1; }
  [ -d "$MODULE/schema/postgresql/v12" ] || { echo "missing: the Temporal server's SQL schemas ($MODULE; go mod download)"; missing=1; }
  exit $missing
fi

build() { # dir label how-long package...
  local dir=$1 label=$2 estimate=$3; shift 3
  echo "evalflow: building $label with $(go version | cut -d' ' -f3) into $dir ($estimate, once)..." >&2
  local start; start=$(date +%s)
  mkdir -p "$dir"
  CGO_ENABLED=0 GOBIN="$dir" run_logged "building $label" "$EVALFLOW_CACHE/logs/$(basename "$dir").log" \
    go install -trimpath -ldflags="-s -w" "$@" || exit 1
  echo "evalflow: built $label in $(( $(date +%s) - start ))s" >&2
}
if ! server_built || ! ui_built; then
  cache_lock team "building the team-mode binaries into $EVALFLOW_CACHE"
  server_built || build "$SERVER_BIN" "the Temporal server $SERVER_VERSION and its SQL tool" "10-25 minutes on 2 cores" "go.temporal.io/server/cmd/server@$SERVER_VERSION" "go.temporal.io/server/cmd/tools/sql@$SERVER_VERSION"
  ui_built || build "$UI_BIN" "the Temporal Web UI server $UI_VERSION" "about 3 minutes" "github.com/temporalio/ui-server/v2/cmd/server@$UI_VERSION"
fi
if [ ! -d "$MODULE/schema/postgresql/v12" ]; then
  run_logged "downloading the Temporal server's SQL schemas" "$EVALFLOW_CACHE/logs/server-module.log" go mod download "go.temporal.io/server@$SERVER_VERSION" || exit 1
fi
echo "$SERVER_BIN/server"
echo "$SERVER_BIN/sql"
echo "$UI_BIN/server"
echo "$MODULE/schema/postgresql/v12"
