#!/bin/sh
# Drift removal on simulator captures (docs/pcap.md, "Clock skew", significance): for S0's
# SB-2 and NSB-2 with --cc mptcp-sbd, seeds 1-5, every host's capture is read and each
# one-way-delay subflow's drift line printed (the simulator's clocks have no skew: none should
# be removed); then SB-2's TCP receiver capture (td0) with its sender's TSvals skewed by
# +20, +50 and +200 ppm (crates/pcap/examples/inject_skew.rs).
# sh scripts/pcap_drift.sh [PATHPOOL] [INJECT_SKEW] [OUT]
set -eu
P=${1:-target/release/pathpool}
IS=${2:-target/release/examples/inject_skew}
OUT=${3:-out/pcap-drift}
mkdir -p "$OUT"
for c in sb-2 nsb-2; do
  for s in 1 2 3 4 5; do
    [ -d "$OUT/$c-$s/pcap" ] || "$P" run "scenarios/papers/ferlin2016/$c.toml" --cc mptcp-sbd --seed "$s" --pcap "$OUT/$c-$s/pcap" --out "$OUT/$c-$s/run" >/dev/null
    for f in "$OUT/$c-$s"/pcap/*.pcap; do
      "$P" detect --pcap "$f" --out "$OUT/det" 2>/dev/null | grep -o "drift[^;]*ppm[^;]*" | sed "s|^|$c seed $s $(basename "$f"): |" || true
    done
  done
done > "$OUT/skew-free.txt"
echo "skew-free subflows: $(wc -l < "$OUT/skew-free.txt"), drift removed in: $(grep -vc 'none removed' "$OUT/skew-free.txt" || true)"
for ppm in 20 50 200; do
  for s in 1 2 3 4 5; do
    # td0's sender is t0; its address is the one sending data in td0.pcap's TCP flow.
    src=$("$P" detect --pcap "$OUT/sb-2-$s/pcap/td0.pcap" --out "$OUT/det" | sed -n 's/^  tcp-1 \([0-9.]*\):.*/\1/p')
    "$IS" "$OUT/sb-2-$s/pcap/td0.pcap" "$OUT/skewed.pcap" "$ppm" "$src" >/dev/null
    "$P" detect --pcap "$OUT/skewed.pcap" --out "$OUT/det" | grep -o "drift[^;]*ppm[^;]*" | sed "s/^/+$ppm ppm, seed $s: /"
  done
done
