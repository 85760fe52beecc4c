#!/bin/sh
# Capture reading speed (BENCHMARKS.md, "Packet captures"): `detect --pcap` over the receiving
# host's capture of B1 with 100 flows (300 s; 5.0 M packets, 340 MB), from the page cache.
# Prints each run's packets per CPU second (user + system: one core, both passes, detector
# included) and per wall second, then the medians.
#   sh scripts/pcap_bench.sh [BIN] [OUT] [RUNS]
set -e
BIN=${1:-target/release/pathpool}; OUT=${2:-out/pcap-bench}; RUNS=${3:-5}
F=$OUT/pcap/right.pcap
[ -f "$F" ] || "$BIN" run scenarios/bench/b1-n100.toml --set simulation.duration=300s --out "$OUT/run" --pcap "$OUT/pcap" > /dev/null
cat "$F" > /dev/null
for i in $(seq "$RUNS"); do
  t=$( { /usr/bin/time -f "%U %S %e" "$BIN" detect --pcap "$F" --detector mptcp-sbd --out "$OUT/detect" > /dev/null; } 2>&1 | tail -1)
  n=$(python3 -c "import json; print(json.load(open('$OUT/detect/summary.json'))['records'])")
  echo "$n $t" | awk '{ printf "%d packets: %.2f M/s per CPU second (%.2f s CPU), %.2f M/s wall (%.2f s)\n", $1, $1/($2+$3)/1e6, $2+$3, $1/$4/1e6, $4 }'
done | tee "$OUT/runs.txt"
python3 - "$OUT/runs.txt" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
cpu = [float(r[2]) for r in rows]
wall = [float(r[10]) for r in rows]
print(f"median of {len(rows)} runs: {statistics.median(cpu):.2f} M packets per CPU second [{min(cpu):.2f}, {max(cpu):.2f}], {statistics.median(wall):.2f} M per wall second [{min(wall):.2f}, {max(wall):.2f}]")
PY
