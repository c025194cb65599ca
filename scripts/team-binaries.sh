#!/usr/bin/env bash
# Finds or builds what `evalflow server --persistence postgres` runs: the Temporal server and its
# SQL schema tool (go.temporal.io/server v1.29.1, the server the pinned CLI embeds) and the Web UI
# server (ui-server v2.42.1). Each is built once into the cache; the Go module cache keeps the
# schema files. Prints four lines on stdout: server, sql tool, ui server, schema directory.
set -euo pipefail

SERVER_VERSION="v1.29.1"
UI_VERSION="v2.42.1"
CACHE="${EVALFLOW_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/evalflow}"
SERVER_BIN="$CACHE/server-bin"
UI_BIN="$CACHE/ui-bin" # its binary is also called `server`: a folder of its own

if ! command -v go >/dev/null 2>&1; then
  echo "evalflow: team mode builds the Temporal server from source and needs Go >= 1.25 (https://go.dev/dl/); install it and run again, or run docker-compose.yml instead" >&2
  exit 1
fi
build() { # dir name package...
  local dir=$1 label=$2; shift 2
  echo "evalflow: building $label with $(go version | cut -d' ' -f3) into $dir (a few minutes the first time)..." >&2
  local start; start=$(date +%s)
  mkdir -p "$dir"
  CGO_ENABLED=0 GOBIN="$dir" go install -trimpath -ldflags="-s -w" "$@" >&2
  echo "evalflow: built $label in $(( $(date +%s) - start ))s" >&2
}
if [ ! -x "$SERVER_BIN/server" ] || [ ! -x "$SERVER_BIN/sql" ]; then
  build "$SERVER_BIN" "the Temporal server $SERVER_VERSION and its SQL tool" "go.temporal.io/server/cmd/server@$SERVER_VERSION" "go.temporal.io/server/cmd/tools/sql@$SERVER_VERSION"
fi
if [ ! -x "$UI_BIN/server" ]; then
  build "$UI_BIN" "the Temporal Web UI server $UI_VERSION" "github.com/temporalio/ui-server/v2/cmd/server@$UI_VERSION"
fi
MODULE="$(go env GOMODCACHE)/go.temporal.io/server@$SERVER_VERSION"
if [ ! -d "$MODULE/schema/postgresql/v12" ]; then
  go mod download "go.temporal.io/server@$SERVER_VERSION" >&2
fi
echo "$SERVER_BIN/server"
echo "$SERVER_BIN/sql"
echo "$UI_BIN/server"
echo "$MODULE/schema/postgresql/v12"
