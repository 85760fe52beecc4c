#!/bin/sh
# Peak memory of `detect --pcap` on a capture of very many connections (BENCHMARKS.md,
# "Packet captures of many connections"): B1's receiving host with 100 Reno flows (20 s),
# given together with a SYN-flood-like capture over the same 20 s (N SYNs, each its own
# connection; scripts/synflood_pcap.py). Prints the markdown table BENCHMARKS.md carries.
#   sh scripts/pcap_flood_bench.sh [BIN] [OUT] [N]
set -e
BIN=${1:-target/release/pathpool}; OUT=${2:-out/pcap-flood}; N=${3:-10000000}
B1=$OUT/pcap/right.pcap
FLOOD=$OUT/flood-$N.pcap
[ -f "$B1" ] || "$BIN" run scenarios/bench/b1-n100.toml --set simulation.duration=20s --out "$OUT/run" --pcap "$OUT/pcap" > /dev/null
[ -f "$FLOOD" ] || python3 -m scripts.synflood_pcap "$N" "$FLOOD" --span 20
echo "| captures | packets | TCP flow directions | exit code | peak RSS MB | CPU s | wall s | directions without data forgotten |"
echo "|---|---|---|---|---|---|---|---|"
for caps in "$B1" "$B1 $FLOOD"; do
  args=""
  for c in $caps; do args="$args --pcap $c"; done
  # shellcheck disable=SC2086
  t=$( { /usr/bin/time -f "TIME %M %U %S %e" "$BIN" detect $args --out "$OUT/detect" > "$OUT/stdout.txt"; echo "EXIT $?"; } 2>&1 | grep -E '^(TIME|EXIT)' | tr '\n' ' ')
  python3 - "$OUT/detect/summary.json" "$caps" "$t" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
f = sys.argv[3].split()
mb, cpu, wall, code = int(f[1]) / 1024, float(f[2]) + float(f[3]), float(f[4]), f[6]
names = " + ".join(c.split("/")[-1] for c in sys.argv[2].split())
print(f"| {names} | {s['records']} | {s['flow_directions']} | {code} | {mb:.0f} | {cpu:.1f} | {wall:.1f} | {s['flow_directions_forgotten']} |")
PY
done
