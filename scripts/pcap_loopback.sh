#!/bin/sh
# A real loopback capture with every frame twice and real losses (docs/pcap.md, "Copies"):
# a network namespace of its own whose lo (MTU 1500) is a RATE bottleneck with a 30 kB
# buffer (tbf: it drops what overflows), one TCP transfer of BYTES captured by
# scripts/pcap_loopback.py, then `pathpool detect --pcap`.
# Run as root: sh scripts/pcap_loopback.sh [PATHPOOL] [OUT] [RATE] [BYTES]
set -eu
P=${1:-target/release/pathpool}
OUT=${2:-out/pcap-loopback}
RATE=${3:-50mbit}
BYTES=${4:-30000000}
NS=pp-pcap-loopback-$$
mkdir -p "$OUT"
ip netns add "$NS"
trap 'ip netns del "$NS"' EXIT
ip netns exec "$NS" ip link set lo mtu 1500 up
ip netns exec "$NS" tc qdisc add dev lo root tbf rate "$RATE" burst 20kb limit 30kb
ip netns exec "$NS" python3 "$(dirname "$0")/pcap_loopback.py" "$OUT/lo.pcap" "$BYTES"
"$P" detect --pcap "$OUT/lo.pcap" --out "$OUT/detect"
