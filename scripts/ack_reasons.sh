#!/bin/sh
# Why a Linux receiver sent each pure ACK, while COMMAND runs (docs/fidelity-notes.md, "Drift"):
# compiles scripts/ack_reasons.bpf.c against this kernel's BTF, attaches it as a sock_ops
# program to the root of the cgroup v2 hierarchy, runs COMMAND, writes the program's counts
# to OUT (JSON, as `bpftool map dump` writes it) and removes the program again, also when
# COMMAND fails or is interrupted. Root, clang and bpftool (`make deps`) are needed.
#
#   sh scripts/ack_reasons.sh OUT.json [PORT] -- COMMAND...
#   sh scripts/ack_reasons.sh out/acks.json -- target/release/pathpool testbed run \
#       scenarios/fidelity/mptcp-shared.toml --out out/ms
#   python3 -m scripts.ack_reasons out/acks.json
#
# PORT (5001, the testbed's) selects the receiving sockets: those passively opened on it.
set -eu
usage() { echo "usage: sh scripts/ack_reasons.sh OUT.json [PORT] -- COMMAND..." >&2; exit 2; }
[ $# -ge 3 ] || usage
out=$1; shift
port=5001
if [ "$1" != "--" ]; then port=$1; shift; fi
[ "${1:-}" = "--" ] || usage
shift
case $port in *[!0-9]*|'') echo "ack_reasons.sh: PORT '$port': expected a TCP port number" >&2; exit 2;; esac
[ "$(id -u)" = 0 ] || { echo "ack_reasons.sh: needs root (it loads a BPF program)" >&2; exit 2; }
for tool in clang bpftool; do
  command -v $tool >/dev/null || { echo "ack_reasons.sh: no '$tool' on PATH (\`make deps\` installs it)" >&2; exit 2; }
done
cgroup=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
[ -n "$cgroup" ] || { echo "ack_reasons.sh: no cgroup v2 hierarchy mounted (see /proc/mounts)" >&2; exit 2; }
src=$(cd "$(dirname "$0")" && pwd)/ack_reasons.bpf.c
work=$(mktemp -d)
pin=/sys/fs/bpf/pathpool_ack_reasons_$$
attached=""
# The counts are written whenever the program ran, also when COMMAND failed or was stopped.
cleanup() {
  if [ -n "$attached" ]; then
    bpftool cgroup detach "$cgroup" sock_ops pinned "$pin" 2>/dev/null || true
    map=$(bpftool prog show pinned "$pin" | sed -n 's/.*map_ids \([0-9]*\).*/\1/p')
    bpftool map dump id "$map" -j > "$out" && echo "ack_reasons.sh: wrote $out" >&2
  fi
  rm -f "$pin"
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
bpftool btf dump file /sys/kernel/btf/vmlinux format c > "$work/vmlinux.h"
clang -O2 -g -target bpf -DPORT="$port" -I"$work" -c "$src" -o "$work/ack_reasons.o"
bpftool prog load "$work/ack_reasons.o" "$pin" type sockops
bpftool cgroup attach "$cgroup" sock_ops pinned "$pin" multi
attached=yes
status=0
"$@" || status=$?
exit $status
