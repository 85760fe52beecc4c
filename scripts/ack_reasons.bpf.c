// SPDX-License-Identifier: GPL-2.0
/* Why a Linux receiver sent each pure ACK (docs/fidelity-notes.md, "Drift"): a sock_ops program
 * that, for every TCP socket passively opened on PORT (an MPTCP subflow is one), looks at
 * the receiver's delayed-ACK state as each pure ACK's header is built, before
 * tcp_event_ack_sent() clears it (net/ipv4/tcp_output.c, __tcp_transmit_skb), and counts
 * the ACK by flow, second, segments newly acknowledged and that state.
 * Loaded and read by scripts/ack_reasons.sh; summarised by scripts/ack_reasons.py. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#ifndef PORT
#define PORT 5001
#endif

struct ack_key {
	__u32 remote_port;   /* the data sender's port, host order */
	__u32 second;        /* CLOCK_MONOTONIC seconds */
	__u32 segments;      /* (rcv_nxt - rcv_wup) / rcv_mss, at most 4 */
	__u32 quick;         /* icsk_ack.quick: quick-ACKs left (tcp_in_quickack_mode) */
	__u32 pingpong;      /* icsk_ack.pingpong */
	__u32 pending;       /* icsk_ack.pending: ICSK_ACK_SCHED 1, TIMER 2, PUSHED 4, PUSHED2 8, NOW 16, NOMEM 32 */
	__u32 out_of_order;  /* the out-of-order queue holds data (the ACK carries SACK blocks) */
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 262144);
	__type(key, struct ack_key);
	__type(value, __u64);
} acks SEC(".maps");

SEC("sockops")
int ack_reasons(struct bpf_sock_ops *skops)
{
	if (skops->op == BPF_SOCK_OPS_PASSIVE_ESTABLISHED_CB) {
		if (skops->local_port == PORT)
			bpf_sock_ops_cb_flags_set(skops, skops->bpf_sock_ops_cb_flags |
							 BPF_SOCK_OPS_WRITE_HDR_OPT_CB_FLAG);
		return 1;
	}
	/* The option-length callback runs once per outgoing segment, before the ACK state is
	 * cleared; a segment with a payload is not a pure ACK. */
	if (skops->op != BPF_SOCK_OPS_HDR_OPT_LEN_CB || skops->skb_len > 120)
		return 1;
	struct bpf_sock *sk = skops->sk;
	if (!sk)
		return 1;
	struct tcp_sock *tp = bpf_skc_to_tcp_sock(sk);
	if (!tp)
		return 1;
	__u32 mss = tp->inet_conn.icsk_ack.rcv_mss;
	__u32 segments = (tp->rcv_nxt - tp->rcv_wup) / (mss ? mss : 1);
	/* remote_port holds the port in network order in its upper 16 bits. */
	__u32 port = bpf_ntohl(skops->remote_port);
	struct ack_key key = {
		.remote_port = port > 0xffff ? port >> 16 : port,
		.second = bpf_ktime_get_ns() / 1000000000ULL,
		.segments = segments > 4 ? 4 : segments,
		.quick = tp->inet_conn.icsk_ack.quick,
		.pingpong = tp->inet_conn.icsk_ack.pingpong,
		.pending = tp->inet_conn.icsk_ack.pending,
		.out_of_order = tp->out_of_order_queue.rb_node != 0,
	};
	__u64 one = 1, *count = bpf_map_lookup_elem(&acks, &key);
	if (count)
		__sync_fetch_and_add(count, 1);
	else
		bpf_map_update_elem(&acks, &key, &one, BPF_NOEXIST);
	return 1;
}

char LICENSE[] SEC("license") = "GPL";
