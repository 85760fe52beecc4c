#!/bin/sh
# S0's NSB-2 and SB-2 on real Linux MPTCP (the testbed, root), captured at the receiver and
# read back by `pathpool detect --pcap` (docs/pcap.md, "Real Linux captures"). Fails when the
# decisions after the first 20 s match the truth in less than 90 % of them.
#   sh scripts/pcap_testbed.sh [BIN] [OUT]
set -e
BIN=${1:-target/release/pathpool}
OUT=${2:-out/pcap-testbed}
status=0
for case in nsb-2:separate:down0.pcap,down1.pcap sb-2:shared:down.pcap; do
  name=${case%%:*}; rest=${case#*:}; truth=${rest%%:*}; files=${rest#*:}
  "$BIN" testbed run "scenarios/pcap/$name-testbed.toml" --out "$OUT/$name" --capture
  args=""
  for f in $(echo "$files" | tr ',' ' '); do args="$args --pcap $OUT/$name/capture/$f"; done
  # shellcheck disable=SC2086
  "$BIN" detect $args --out "$OUT/$name/detect"
  python3 -m scripts.pcap_accuracy "$OUT/$name/detect/decisions.csv" --truth "$truth" --min 0.9 || status=1
done
exit $status
