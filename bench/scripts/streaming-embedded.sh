#!/usr/bin/env bash
# Runs the streaming step load on the embedded cluster once per streaming policy and prints each
# run's event log, for `bin/elasticam simulate --streaming --eventlog` to turn into the same figures
# the simulator reports. The load is the simulator benchmark's step (x3, then /3) compressed in time
# so that three runs fit in about 15 minutes: 1 s batches, the step up at 60 s and down at 180 s.
#   bench/scripts/streaming-embedded.sh [policies...]     (default: rounds ratio model)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
RATE="step:20@0,60@60s,20@180s"
policies=("$@")
[[ ${#policies[@]} -gt 0 ]] || policies=(rounds ratio model)
for p in "${policies[@]}"; do
  out="$("$ROOT/bin/elasticam" run streaming --batch-ms 1000 --batches 240 --rate "$RATE" \
      --work-per-record-us 80000 \
      --conf elasticam.streaming.dynamicAllocation.enabled=true \
      --conf elasticam.streaming.dynamicAllocation.policy="$p" \
      --conf elasticam.streaming.dynamicAllocation.maxExecutors=7 \
      --conf elasticam.streaming.dynamicAllocation.scalingInterval=30s \
      --conf elasticam.executor.instances=2 --conf elasticam.executor.memory=256m 2>&1)"
  log="$(sed -n 's/^  event log *//p' <<<"$out")"
  echo "$p $log $(sed -n 's/^  executor-secs *//p' <<<"$out")"
done
