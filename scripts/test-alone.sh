#!/usr/bin/env bash
# The `alone` test files one at a time and, next to them, the `beside` files one at a time (they
# start servers too but mostly wait on clocks; see test/support/suiteGroups.ts). Fails when
# either group fails. Extra arguments go to both vitest runs.
set -u
cd "$(dirname "$0")/.."
npx vitest run --project beside --passWithNoTests "$@" &
beside=$!
npx vitest run --project alone "$@"
alone_status=$?
wait "$beside"
beside_status=$?
echo "evalflow: alone group exit $alone_status, beside group exit $beside_status"
[ "$alone_status" -eq 0 ] && [ "$beside_status" -eq 0 ]
