// SPDX-License-Identifier: GPL-2.0
/* The receiver fix's `delack-max` mode (docs/kernel.md, "The receiver fix"): a sock_ops
 * program, attached to the root of the cgroup v2 hierarchy, that caps the delayed-ACK timer
 * of every MPTCP subflow established in one network namespace (the receiving host's) at the
 * smallest value the kernel takes, and leaves every other socket alone (TCP keeps Linux's
 * receiver). TCP_BPF_DELACK_MAX sets icsk_delack_max, which tcp_send_delayed_ack()
 * (net/ipv4/tcp_output.c) applies after its own choice of timeout; bpf_sol_tcp_setsockopt()
 * (net/core/filter.c) refuses a value under TCP_TIMEOUT_MIN, 2 jiffies, so the program tries
 * the values just above 1 jiffy of each common HZ in rising order and keeps the first taken.
 * It shortens the subflows' held ACKs; it cannot make them fewer (the read-time ACK is
 * decided in mptcp_cleanup_rbuf, which no sock_ops callback reaches).
 *
 * It also records what the per-segment callback could do: for subflows it asks for
 * BPF_SOCK_OPS_PARSE_ALL_HDR_OPT_CB_FLAG (a call for every incoming segment, before its data
 * is queued) and counts the calls, and it records what bpf_setsockopt(TCP_QUICKACK) answers,
 * the one socket option that would send an ACK (pp_rx_stats). */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#define SOL_TCP 6
#define TCP_QUICKACK 12

/* pp_rx_stats, read by `pathpool kernel receiver status` (receiver_bpf.rs, RxStat). */
enum {
	RX_SUBFLOWS,      /* MPTCP subflows established in the namespace */
	RX_CAPPED,        /* ... whose delayed-ACK timer was capped */
	RX_REFUSED,       /* ... where every value was refused */
	RX_DELACK_US,     /* the value (µs) the kernel took, the last time */
	RX_QUICKACK_RC,   /* -(return code) of bpf_setsockopt(TCP_QUICKACK), +1 (0: never tried) */
	RX_SEGMENTS,      /* per-segment callbacks on subflows */
	RX_OTHERS,        /* other TCP sockets established in the namespace, left alone */
	RX_NSTATS,
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, RX_NSTATS);
	__type(key, __u32);
	__type(value, __u64);
} pp_rx_stats SEC(".maps");

/* [0]: the network namespace's cookie (0: act nowhere), written by the loader. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} pp_rx_netns SEC(".maps");

static void stat_add(__u32 i, __u64 v)
{
	__u64 *s = bpf_map_lookup_elem(&pp_rx_stats, &i);
	if (s)
		__sync_fetch_and_add(s, v);
}

static void stat_set(__u32 i, __u64 v)
{
	__u64 *s = bpf_map_lookup_elem(&pp_rx_stats, &i);
	if (s)
		*s = v;
}

/* Values just above one jiffy at HZ 1000, 300, 250 and 100: usecs_to_jiffies() rounds up,
 * so the first the kernel takes is 2 jiffies on this kernel. */
static const int delack_us[] = { 1001, 3334, 4001, 10001 };

static int is_subflow(struct bpf_sock_ops *skops)
{
	struct bpf_sock *sk = skops->sk;
	if (!sk)
		return 0;
	struct tcp_sock *tp = bpf_skc_to_tcp_sock(sk);
	return tp && tp->is_mptcp;
}

SEC("sockops")
int pathpool_delack(struct bpf_sock_ops *skops)
{
	__u32 zero = 0;
	__u64 *want = bpf_map_lookup_elem(&pp_rx_netns, &zero);
	if (!want || !*want || bpf_get_netns_cookie(skops) != *want)
		return 1;
	switch (skops->op) {
	case BPF_SOCK_OPS_ACTIVE_ESTABLISHED_CB:
	case BPF_SOCK_OPS_PASSIVE_ESTABLISHED_CB:
		break;
	case BPF_SOCK_OPS_PARSE_HDR_OPT_CB:
		stat_add(RX_SEGMENTS, 1);
		return 1;
	default:
		return 1;
	}
	if (!is_subflow(skops)) {
		stat_add(RX_OTHERS, 1);
		return 1;
	}
	stat_add(RX_SUBFLOWS, 1);
	int capped = 0;
	for (int i = 0; i < 4; i++) {
		int v = delack_us[i];
		if (bpf_setsockopt(skops, SOL_TCP, TCP_BPF_DELACK_MAX, &v, sizeof(v)) == 0) {
			stat_set(RX_DELACK_US, v);
			capped = 1;
			break;
		}
	}
	stat_add(capped ? RX_CAPPED : RX_REFUSED, 1);
	int one = 1;
	long rc = bpf_setsockopt(skops, SOL_TCP, TCP_QUICKACK, &one, sizeof(one));
	stat_set(RX_QUICKACK_RC, (__u64)(-rc) + 1);
	bpf_sock_ops_cb_flags_set(skops, skops->bpf_sock_ops_cb_flags | BPF_SOCK_OPS_PARSE_ALL_HDR_OPT_CB_FLAG);
	return 1;
}

char LICENSE[] SEC("license") = "GPL";
