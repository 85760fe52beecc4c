#!/bin/sh
# Peak memory of `pathpool run` on the extreme inputs of docs/robustness.md, each under a
# 4 GB address-space limit and a wall-time cap (a run still going at the cap is killed and
# shown with exit code 124): prints the markdown table docs/robustness.md carries.
# Usage: scripts/robustness_memory.sh [BIN] [SECONDS]   (from the repository root)
BIN=${1:-target/release/pathpool}
CAP=${2:-20}
BASE=scenarios/robustness/base.toml
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
echo "| overrides | exit code | wall s | peak RSS MB | first line of stderr |"
echo "|---|---|---|---|---|"
while IFS= read -r sets; do
  [ -z "$sets" ] && continue
  args=""
  for s in $sets; do args="$args --set $s"; done
  # shellcheck disable=SC2086
  res=$( (ulimit -v 4000000; /usr/bin/time -f "TIME %e %M" timeout "$CAP" "$BIN" run "$BASE" --out "$OUT/run" $args) 2>&1 >/dev/null)
  code=$(printf '%s\n' "$res" | sed -n 's/^Command exited with non-zero status \([0-9]*\)$/\1/p')
  time_line=$(printf '%s\n' "$res" | grep '^TIME' | tail -1)
  wall=$(echo "$time_line" | cut -d' ' -f2)
  mb=$(echo "$time_line" | awk '{printf "%.0f", $3 / 1024}')
  msg=$(printf '%s\n' "$res" | grep '^pathpool:' | head -1 | cut -c1-120 | sed 's/|/\\|/g')
  echo "| \`$sets\` | ${code:-0} | $wall | $mb | $msg |"
done <<'CASES'
simulation.probe_interval="1ps"
simulation.duration="1000000s" simulation.probe_interval="1000s"
links.bn.buffer=1000000000
links.bn.buffer="1000GB"
links.bn.rate="1Tbps"
flows.tcp.packet_size="1B" links.bn.rate="10Gbps"
flows.tcp.packet_size="1B"
flows.udp.packet_size="1B" flows.udp.rate="1Tbps"
flows.udp.packet_size="40B" flows.udp.rate="1Gbps" links.bn.buffer=4000000
flows.udp.packet_size="40B" flows.udp.rate="1Gbps" links.bn.buffer=2400000
flows.tcp.count=99000
flows.tcp.count=99000 simulation.probe_interval="1s"
flows.tcp.initial_window=1000000
flows.tcp.count=9 flows.tcp.initial_window=1000000
flows.mp.receive_buffer=1099511627776
flows.mp.sbd_sample_spacing="0s"
flows.mp.sbd_sample_spacing="1000000s"
CASES
