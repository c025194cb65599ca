#!/usr/bin/env bash
# Provisions what `npm test` needs, each piece only when it is missing (it is the `pretest` step,
# so CI and a fresh clone run the same): the Debian packages the tests drive (chromium, bubblewrap,
# and ripgrep, which opencode downloads at run time without), the pinned agent CLIs, the Temporal
# CLI and the team-mode binaries (Go builds). Everything that needs the user (a package to install
# without root, Go, PostgreSQL) is reported before any long build starts. Silent when all is present.
# Usage: scripts/provision.sh [--check]
#   --check  installs nothing: prints a "missing: …" line per missing piece and exits 1 if any.
set -euo pipefail
HERE="$(dirname "${BASH_SOURCE[0]}")"
source "$HERE/lib/cache.sh"
CHECK=false; [ "${1:-}" = "--check" ] && CHECK=true

# The Debian packages, each found where the tests look for it.
PACKAGES=(chromium bubblewrap ripgrep)
package_present() {
  case $1 in
    chromium) [ -x "${EVALFLOW_CHROMIUM:-/usr/bin/chromium}" ] ;;
    bubblewrap) command -v bwrap >/dev/null 2>&1 ;;
    ripgrep) command -v rg >/dev/null 2>&1 ;;
  esac
}
missing_packages=()
for package in "${PACKAGES[@]}"; do package_present "$package" || missing_packages+=("$package"); done

# The tests' PostgreSQL: TEST_DATABASE_URL's host and port, else 127.0.0.1:5432. A URL without
# a TCP host (a Unix socket) is taken on trust.
pg_host=127.0.0.1 pg_port=5432
if [[ "${TEST_DATABASE_URL:-}" =~ ^postgres(ql)?://([^@/]*@)?([^:/?]+)(:([0-9]+))? ]]; then
  pg_host=${BASH_REMATCH[3]} pg_port=${BASH_REMATCH[5]:-5432}
elif [ -n "${TEST_DATABASE_URL:-}" ]; then
  pg_host=""
fi
postgres_up() { [ -z "$pg_host" ] || (exec 3<>"/dev/tcp/$pg_host/$pg_port") 2>/dev/null; }

agents=$(bash "$HERE/agent-clis.sh" --check) || true
temporal=$(bash "$HERE/temporal-binary.sh" --check) || true
team=$(bash "$HERE/team-binaries.sh" --check) || true

if $CHECK; then
  report=()
  [ ${#missing_packages[@]} -eq 0 ] || report+=("missing: Debian packages ${missing_packages[*]} (apt-get install -y --no-install-recommends ${missing_packages[*]})")
  postgres_up || report+=("missing: PostgreSQL on $pg_host:$pg_port (the tests' database; TEST_DATABASE_URL sets another)")
  for lines in "$agents" "$temporal" "$team"; do [ -z "$lines" ] || report+=("$lines"); done
  [ ${#report[@]} -eq 0 ] && exit 0
  printf '%s\n' "${report[@]}"
  exit 1
fi

# What needs the user stops the run at once, with the command to run.
stop=()
if [ ${#missing_packages[@]} -gt 0 ] && { [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; }; then
  if command -v apt-get >/dev/null 2>&1; then
    stop+=("evalflow: npm test needs Debian packages that are missing; install them, then run npm test again: sudo apt-get install -y --no-install-recommends ${missing_packages[*]}")
  else
    stop+=("evalflow: npm test needs packages that are missing (${missing_packages[*]}); install them with your package manager, then run npm test again")
  fi
fi
if ! postgres_up; then
  stop+=("evalflow: npm test needs PostgreSQL on $pg_host:$pg_port and nothing answers there; start it (on Debian: pg_ctlcluster --skip-systemctl-redirect <version> main start) or set TEST_DATABASE_URL, then run npm test again")
fi
if [[ -n "$temporal$team" ]] && ! command -v go >/dev/null 2>&1; then
  stop+=("evalflow: npm test needs the Temporal CLI and the team-mode server, built once with Go >= 1.25, and Go is not installed: install it (https://go.dev/dl/), then run npm test again")
fi
if [ ${#stop[@]} -gt 0 ]; then printf '%s\n' "${stop[@]}" >&2; exit 1; fi

[ ${#missing_packages[@]} -eq 0 ] && [ -z "$agents$temporal$team" ] && exit 0

started=$(date +%s)
plan=()
[ ${#missing_packages[@]} -eq 0 ] || plan+=("Debian packages ${missing_packages[*]} (a minute)")
[ -z "$agents" ] || plan+=("$(grep -c . <<<"$agents") agent CLIs (about 5 minutes)")
[ -z "$temporal" ] || plan+=("the Temporal CLI (3-6 minutes with Go)")
[ -z "$team" ] || plan+=("the team-mode server binaries (15-30 minutes with Go)")
summary=$(printf '%s, ' "${plan[@]}")
echo "evalflow: npm test provisions what it needs, once: ${summary%, }" >&2

apt_install() { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@"; }
if [ ${#missing_packages[@]} -gt 0 ]; then
  cache_lock apt "installing Debian packages"
  still=() # another run may have installed some while this one waited
  for package in "${missing_packages[@]}"; do package_present "$package" || still+=("$package"); done
  if [ ${#still[@]} -gt 0 ]; then
    echo "evalflow: installing ${still[*]} with apt-get" >&2
    run_logged "installing ${still[*]} with apt-get" "$EVALFLOW_CACHE/logs/apt-get.log" \
      apt_install "${still[@]}" || exit 1
  fi
  exec 9>&- # the apt lock
fi
[ -z "$agents" ] || bash "$HERE/agent-clis.sh" >/dev/null
[ -z "$temporal" ] || bash "$HERE/temporal-binary.sh" >/dev/null
[ -z "$team" ] || bash "$HERE/team-binaries.sh" >/dev/null
echo "evalflow: provisioned in $(( $(date +%s) - started ))s" >&2
