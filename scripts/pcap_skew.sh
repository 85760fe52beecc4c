#!/bin/sh
# docs/pcap.md, "Clock skew": a synthetic relative clock skew injected into the testbed's
# captures of S0's SB-2 and NSB-2 (the senders' TSvals drift; crates/pcap/examples/inject_skew.rs),
# and the share of decisions after 20 s that match the truth with and without the drift removal.
#   sh scripts/pcap_skew.sh SB2_DIR NSB2_DIR [BIN]     (DIRs: `testbed run --capture` outputs)
set -e
SB=$1; NSB=$2; BIN=${3:-target/release/pathpool}; T=${TMPDIR:-/tmp}/pathpool-pcap-skew
mkdir -p "$T"
cargo run -q --release -p pathpool-pcap --example inject_skew -- "$SB/capture/down.pcap" "$T/sb-a.pcap" 200 10.0.0.12
cargo run -q --release -p pathpool-pcap --example inject_skew -- "$T/sb-a.pcap" "$T/sb.pcap" -200 10.0.0.13
for f in 0 1; do
  cargo run -q --release -p pathpool-pcap --example inject_skew -- "$NSB/capture/down$f.pcap" "$T/nsb-both$f.pcap" 100 10.0.0.22 10.0.0.23
  cargo run -q --release -p pathpool-pcap --example inject_skew -- "$NSB/capture/down$f.pcap" "$T/nsb-one$f.pcap" 300 10.0.0.22
done
share() { python3 -m scripts.pcap_accuracy "$T/out/decisions.csv" --truth "$1" | sed 's/.*(//;s/)//'; }
run() { truth=$1; shift; "$BIN" detect "$@" --out "$T/out" > /dev/null; share "$truth"; }
echo "| detector | drift removal | SB-2 | SB-2, senders ±200 ppm | NSB-2 | NSB-2, both +100 ppm | NSB-2, sf0 +300 ppm |"
echo "|---|---|---|---|---|---|---|"
for det in pathpool mptcp-sbd rfc8382; do
  for mode in on off; do
    flag=""; [ $mode = off ] && flag=--no-skew-correction
    a=$(run shared --pcap "$SB/capture/down.pcap" --detector $det $flag)
    b=$(run shared --pcap "$T/sb.pcap" --detector $det $flag)
    c=$(run separate --pcap "$NSB/capture/down0.pcap" --pcap "$NSB/capture/down1.pcap" --detector $det $flag)
    d=$(run separate --pcap "$T/nsb-both0.pcap" --pcap "$T/nsb-both1.pcap" --detector $det $flag)
    e=$(run separate --pcap "$T/nsb-one0.pcap" --pcap "$T/nsb-one1.pcap" --detector $det $flag)
    echo "| $det | $mode | $a | $b | $c | $d | $e |"
  done
done
