#!/bin/sh
# A minimal reproducer of Linux MPTCP's held subflow ACKs (docs/kernel.md, "For the kernel's
# maintainers"), with nothing of pathpool: network namespaces, tc, iperf3 and mptcpize.
#
#   sudo sh scripts/mptcp_held_ack_repro.sh [RUNS] [SECONDS]
#
# One sender host with two addresses, a router, one receiver. The router's link to the
# receiver is a 20 Mb/s tbf bottleneck with a 64 kB queue. Over it run a two-subflow MPTCP
# transfer (iperf3 under mptcpize, Reno on both subflows, no coupling) and one TCP transfer
# (iperf3, Reno), side by side. Two uncoupled Reno subflows should take about twice what one
# Reno flow takes (MPTCP / TCP about 2). Each run is made twice: with the receiver as Linux
# has it, and with `quickack 1` on the receiver's routes (one ACK per segment, TCP and
# subflows alike). It prints MPTCP / TCP per run and the receiver's MPTcpExtOFOQueue
# (connection-level out-of-order arrivals, which keep a subflow's read-time ACK back).
# Everything it makes is deleted on exit, also on failure or Ctrl-C.
set -eu
RUNS=${1:-3}
SECS=${2:-30}
P=mprepro$$
S=${P}s; R=${P}r; D=${P}d

cleanup() {
    for ns in $S $R $D; do
        for pid in $(ip netns pids $ns 2>/dev/null); do kill -KILL $pid 2>/dev/null || true; done
        ip netns del $ns 2>/dev/null || true
    done
}
trap cleanup EXIT INT TERM

for ns in $S $R $D; do ip netns add $ns; ip -n $ns link set lo up; done
ip link add s1 netns $S type veth peer name r1 netns $R
ip link add s2 netns $S type veth peer name r2 netns $R
ip link add r3 netns $R type veth peer name d3 netns $D
ip -n $S addr add 10.10.1.1/24 dev s1; ip -n $R addr add 10.10.1.2/24 dev r1
ip -n $S addr add 10.10.2.1/24 dev s2; ip -n $R addr add 10.10.2.2/24 dev r2
ip -n $R addr add 10.10.3.1/24 dev r3; ip -n $D addr add 10.10.3.2/24 dev d3
for l in "$S s1" "$S s2" "$R r1" "$R r2" "$R r3" "$D d3"; do set -- $l; ip -n $1 link set $2 up; done
ip netns exec $R sysctl -qw net.ipv4.ip_forward=1
ip -n $S route add 10.10.3.0/24 via 10.10.1.2 dev s1
ip -n $S rule add from 10.10.2.1 table 102
ip -n $S route add 10.10.3.0/24 via 10.10.2.2 dev s2 table 102
ip -n $D route add default via 10.10.3.1 dev d3
# The bottleneck: the router towards the receiver.
ip netns exec $R tc qdisc add dev r3 root tbf rate 20mbit burst 3000 limit 64000
# MPTCP: a second subflow from the sender's second address.
ip -n $S mptcp endpoint add 10.10.2.1 dev s2 subflow

ratio() {
    ip netns exec $D mptcpize run iperf3 -s -1 -p 5201 >/dev/null 2>&1 &
    ip netns exec $D iperf3 -s -1 -p 5202 >/dev/null 2>&1 &
    sleep 0.5
    ip netns exec $D nstat -n
    ip netns exec $S mptcpize run iperf3 -c 10.10.3.2 -p 5201 -C reno -t $SECS -J > /tmp/$P.mp.json &
    ip netns exec $S iperf3 -c 10.10.3.2 -p 5202 -C reno -t $SECS -J > /tmp/$P.tcp.json
    wait
    ofo=$(ip netns exec $D nstat -z MPTcpExtOFOQueue | awk '/OFOQueue/{print $2}')
    python3 - /tmp/$P.mp.json /tmp/$P.tcp.json "$ofo" <<'EOF'
import json, sys
mp, tcp = (json.load(open(p))["end"]["sum_received"]["bits_per_second"] / 1e6 for p in sys.argv[1:3])
print(f"MPTCP {mp:.2f} Mb/s, TCP {tcp:.2f} Mb/s, MPTCP / TCP {mp / tcp:.2f}, MPTcpExtOFOQueue {sys.argv[3]}")
EOF
    rm -f /tmp/$P.mp.json /tmp/$P.tcp.json
}

quickack() {
    ip -n $D -o route show | sed 's/ quickack [01]//' | while read -r route; do
        ip -n $D route change $route quickack $1
    done
}

for k in $(seq 1 "$RUNS"); do
    quickack 0
    printf 'run %s, receiver as Linux has it:   ' "$k"; ratio
    quickack 1
    printf 'run %s, receiver with quickack 1:   ' "$k"; ratio
done
