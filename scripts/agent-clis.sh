#!/usr/bin/env bash
# Installs the agent CLIs that evalflow's live tests drive, once, into a cache outside the clone:
# ${EVALFLOW_CACHE_DIR:-$HOME/.cache/evalflow}/agents/<name>, one `npm install --prefix` each, at
# pinned versions (the ones the adapters' stream parsers were checked against). Idempotent: a
# directory whose marker names the pinned package is left alone.
# Prints "<name> <executable>" per CLI on stdout; progress goes to stderr.
# Usage: scripts/agent-clis.sh [--check] [name...]   (default: all)
#   --check  installs nothing: prints a "missing: …" line per CLI not installed and exits 1 if any.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/cache.sh"

AGENTS_DIR="$EVALFLOW_CACHE/agents"

# name | npm packages (space separated) | executable inside the prefix
CLIS=(
  "claude|@anthropic-ai/claude-code@2.1.332 @anthropic-ai/claude-code-linux-x64@2.1.332|node_modules/.bin/claude"
  "qwen|@qwen-code/qwen-code@0.24.4|node_modules/.bin/qwen"
  "opencode|opencode-ai@1.18.33 opencode-linux-x64@1.18.33|node_modules/.bin/opencode"
  "codebuddy|@tencent-ai/agent-sdk@0.3.201|node_modules/@tencent-ai/agent-sdk/cli/bin/codebuddy"
  "gemini|@google/gemini-cli@0.61.0|node_modules/.bin/gemini"
  "codex|@openai/codex@0.171.0 @openai/codex-linux-x64@npm:@openai/codex@0.171.0-linux-x64|node_modules/.bin/codex"
)

CHECK=false; [ "${1:-}" = "--check" ] && { CHECK=true; shift; }
wanted=("$@")
selected() {
  [ ${#wanted[@]} -eq 0 ] && return 0
  local w; for w in "${wanted[@]}"; do [ "$w" = "$1" ] && return 0; done
  return 1
}
installed() { # prefix packages executable
  local marker="$1/.evalflow-installed" written=""
  [ -f "$marker" ] && read -r written <"$marker" || true
  [ "$written" = "$2" ] && [ -x "$1/$3" ]
}

missing=0 locked=false
for entry in "${CLIS[@]}"; do
  IFS='|' read -r name packages executable <<<"$entry"
  selected "$name" || continue
  prefix="$AGENTS_DIR/$name"
  if $CHECK; then
    installed "$prefix" "$packages" "$executable" || { echo "missing: agent CLI $name ($packages in $prefix)"; missing=1; }
    continue
  fi
  if ! installed "$prefix" "$packages" "$executable" && ! $locked; then
    cache_lock agents "installing agent CLIs into $AGENTS_DIR"
    locked=true
  fi
  if installed "$prefix" "$packages" "$executable"; then
    echo "evalflow: $name already installed ($packages)" >&2
  else
    echo "evalflow: installing $name ($packages) into $prefix (about a minute)" >&2
    rm -rf "$prefix"
    mkdir -p "$prefix"
    started=$(date +%s)
    # shellcheck disable=SC2086 # the package list is meant to split
    run_logged "installing $name" "$EVALFLOW_CACHE/logs/agent-$name.log" \
      npm install --prefix "$prefix" --no-audit --no-fund --no-save --loglevel=error $packages || exit 1
    chmod -R u+x "$prefix/node_modules/.bin" 2>/dev/null || true
    if [ ! -x "$prefix/$executable" ]; then
      echo "evalflow: $name installed but $prefix/$executable is not executable" >&2
      exit 1
    fi
    echo "$packages" >"$prefix/.evalflow-installed"
    echo "evalflow: $name installed in $(( $(date +%s) - started ))s, $(du -sh "$prefix" | cut -f1)" >&2
  fi
  echo "$name $prefix/$executable"
done
exit $missing
