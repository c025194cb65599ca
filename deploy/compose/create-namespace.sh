#!/bin/sh
# One-shot: create the default namespace and register evalflow's search attributes
# (the same set as src/temporal/names.ts; evalflow and `evalflow server --persistence postgres` register missing ones themselves).
set -eu
ADDRESS="${TEMPORAL_ADDRESS:-temporal:7233}"
MAX_ATTEMPTS=60
attempt=0
until temporal operator cluster health --address "$ADDRESS" >/dev/null 2>&1; do
  attempt=$((attempt + 1))
  if [ "$attempt" -ge "$MAX_ATTEMPTS" ]; then echo "temporal at $ADDRESS not healthy after $MAX_ATTEMPTS attempts" >&2; exit 1; fi
  sleep 2
done
temporal operator namespace describe --address "$ADDRESS" -n default >/dev/null 2>&1 \
  || temporal operator namespace create --address "$ADDRESS" -n default --retention 720h
for attr in EvalCase:Keyword EvalCandidate:Keyword EvalBatch:Keyword EvalStage:Keyword EvalStatus:Keyword EvalResult:Keyword EvalWorkflowRev:Keyword EvalOverall:Double EvalArm:Keyword; do
  temporal operator search-attribute create --address "$ADDRESS" -n default --name "${attr%%:*}" --type "${attr##*:}" 2>/dev/null || true
done
echo "namespace default ready with evalflow search attributes"
