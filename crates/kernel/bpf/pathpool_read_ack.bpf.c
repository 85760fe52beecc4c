// SPDX-License-Identifier: GPL-2.0
/* The receiver fix's `read-ack` mode (docs/kernel.md, "The receiver fix"): an MPTCP subflow's
 * receiver acknowledges a lone pushed segment as Linux's TCP receiver does when the
 * application reads it, whatever the rest of the connection holds.
 *
 * Why: tcp_cleanup_rbuf() (net/ipv4/tcp.c) sends that ACK when a read empties the socket's
 * receive memory (ICSK_ACK_PUSHED/PUSHED2); for a subflow mptcp_cleanup_rbuf()
 * (net/mptcp/protocol.c) lets it go only when the whole connection's memory, out-of-order
 * queue included, is empty, which with two subflows it seldom is. No sock_ops callback comes
 * after a segment is queued, and sock_ops cannot send an ACK. A congestion control can: with
 * TCP_CONG_NEEDS_ECN, __tcp_ecn_check_ce() (net/ipv4/tcp_input.c) calls its cwnd_event with
 * CA_EVENT_ECN_NO_CE for every ECT data segment, from tcp_event_data_recv(), after the
 * segment is queued and rcv_nxt advanced and before __tcp_ack_snd_check() decides; and
 * bpf_tcp_send_ack() sends the ACK (as Linux's bpf_dctcp does from the same event).
 *
 * So: three congestion controls, pp_ra_cubic, pp_ra_reno and pp_ra_bbr, that are the
 * kernel's CUBIC, Reno and BBR (their kfuncs) for whatever the receiving host sends and send the read-time ACK in the
 * ECN event; and a sock_ops program, attached to the root of the cgroup v2 hierarchy, that
 * moves each MPTCP subflow established in an enabled network namespace from cubic, reno or
 * bbr to its pp_ra_ twin, when its sender negotiated ECN (the events need ECT segments). A subflow
 * on another congestion control (one chosen for sending from this host) is left on it and
 * counted. TCP sockets are left alone: they keep Linux's receiver.
 *
 * The ACK goes at the segment's arrival rather than at the read a moment later: the fix
 * assumes an application that reads at once, as the simulator's "linux-proposed" receiver
 * does. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

#define SOL_TCP 6
#define TCP_CONGESTION 13
/* include/net/tcp.h and inet_connection_sock.h (macros, so not in vmlinux.h). */
#define PP_TCP_CONG_NEEDS_ECN 0x2
#define PP_TCP_ECN_OK 1
#define PP_TCP_PINGPONG_THRESH 1
#define PP_ICSK_ACK_SCHED 1
#define PP_ICSK_ACK_PUSHED 4
#define PP_ICSK_ACK_PUSHED2 8

extern void cubictcp_init(struct sock *sk) __ksym;
extern __u32 cubictcp_recalc_ssthresh(struct sock *sk) __ksym;
extern void cubictcp_cong_avoid(struct sock *sk, __u32 ack, __u32 acked) __ksym;
extern void cubictcp_state(struct sock *sk, __u8 new_state) __ksym;
extern void cubictcp_cwnd_event(struct sock *sk, enum tcp_ca_event event) __ksym;
extern void cubictcp_acked(struct sock *sk, const struct ack_sample *sample) __ksym;
extern __u32 tcp_reno_undo_cwnd(struct sock *sk) __ksym;
extern void bbr_init(struct sock *sk) __ksym;
extern void bbr_main(struct sock *sk, __u32 ack, int flag, const struct rate_sample *rs) __ksym;
extern __u32 bbr_sndbuf_expand(struct sock *sk) __ksym;
extern __u32 bbr_undo_cwnd(struct sock *sk) __ksym;
extern void bbr_cwnd_event(struct sock *sk, enum tcp_ca_event event) __ksym;
extern __u32 bbr_ssthresh(struct sock *sk) __ksym;
extern __u32 bbr_min_tso_segs(struct sock *sk) __ksym;
extern void bbr_set_state(struct sock *sk, __u8 new_state) __ksym;
extern __u32 tcp_reno_ssthresh(struct sock *sk) __ksym;
extern void tcp_reno_cong_avoid(struct sock *sk, __u32 ack, __u32 acked) __ksym;

/* Per enabled network namespace (its cookie), read by `pathpool kernel receiver status`
 * (read_ack.rs, ReadAckStats: the same order). A namespace is enabled while its key exists. */
struct pp_ra_stats {
	__u64 subflows;    /* MPTCP subflows moved to a pp_ra_ twin */
	__u64 no_ecn;      /* ... left alone: their sender did not negotiate ECN */
	__u64 other_cc;    /* ... left alone: on a congestion control other than cubic */
	__u64 refused;     /* ... where bpf_setsockopt(TCP_CONGESTION) failed */
	__u64 others;      /* TCP sockets established, left alone */
	__u64 segments;    /* data segments seen by them (ECN events) */
	__u64 acks;        /* read-time ACKs it sent */
	__u64 moved_off;   /* data segments on subflows an application moved to another one */
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u64);
	__type(value, struct pp_ra_stats);
} pp_ra_netns SEC(".maps");

static __always_inline struct pp_ra_stats *stats_of(struct sock *sk)
{
	__u64 cookie = sk->__sk_common.skc_net.net->net_cookie;
	return bpf_map_lookup_elem(&pp_ra_netns, &cookie);
}

/* tcp_cleanup_rbuf()'s rule for a read that empties the queue, taken at the segment's
 * arrival: an ACK is due, the segment was pushed (PUSHED2, or PUSHED outside ping-pong), and
 * no more than one segment is unacknowledged (with more, __tcp_ack_snd_check sends it
 * anyway). With out-of-order data the kernel's own rule ACKs at once (RFC 5681 §4.2), and
 * after this event tcp_data_queue may still drain that queue and advance rcv_nxt, so the
 * segment is left to it. */
static __always_inline void read_time_ack(struct sock *sk)
{
	struct tcp_sock *tp = (struct tcp_sock *)sk;
	struct inet_connection_sock *icsk = (struct inet_connection_sock *)sk;
	struct pp_ra_stats *st = stats_of(sk);

	if (st)
		__sync_fetch_and_add(&st->segments, 1);
	if (!tp->is_mptcp || tp->out_of_order_queue.rb_node)
		return;
	__u8 pending = icsk->icsk_ack.pending;
	if (!(pending & PP_ICSK_ACK_SCHED))
		return;
	if (!(pending & PP_ICSK_ACK_PUSHED2) &&
	    !((pending & PP_ICSK_ACK_PUSHED) && icsk->icsk_ack.pingpong < PP_TCP_PINGPONG_THRESH))
		return;
	if (tp->rcv_nxt - tp->rcv_wup > icsk->icsk_ack.rcv_mss)
		return;
	bpf_tcp_send_ack(tp, tp->rcv_nxt);
	if (st)
		__sync_fetch_and_add(&st->acks, 1);
}

/* A twin of each of the kernel's own congestion controls a host's default can be, so that a
 * subflow keeps what it had for what this host sends: pp_ra_cubic is CUBIC, pp_ra_reno Reno
 * and pp_ra_bbr BBR (through their kfuncs), each with the read-time ACK. */
SEC("struct_ops")
void BPF_PROG(pp_ra_cubic_init, struct sock *sk) { cubictcp_init(sk); }

SEC("struct_ops")
__u32 BPF_PROG(pp_ra_cubic_ssthresh, struct sock *sk) { return cubictcp_recalc_ssthresh(sk); }

SEC("struct_ops")
void BPF_PROG(pp_ra_cubic_cong_avoid, struct sock *sk, __u32 ack, __u32 acked)
{
	cubictcp_cong_avoid(sk, ack, acked);
}

SEC("struct_ops")
void BPF_PROG(pp_ra_cubic_set_state, struct sock *sk, __u8 state) { cubictcp_state(sk, state); }

SEC("struct_ops")
void BPF_PROG(pp_ra_cubic_cwnd_event, struct sock *sk, enum tcp_ca_event ev)
{
	if (ev == CA_EVENT_ECN_NO_CE)
		read_time_ack(sk);
	else if (ev != CA_EVENT_ECN_IS_CE)
		cubictcp_cwnd_event(sk, ev);
}

SEC("struct_ops")
void BPF_PROG(pp_ra_cubic_pkts_acked, struct sock *sk, const struct ack_sample *s)
{
	cubictcp_acked(sk, s);
}

SEC("struct_ops")
__u32 BPF_PROG(pp_ra_undo_cwnd, struct sock *sk) { return tcp_reno_undo_cwnd(sk); }

SEC(".struct_ops.link")
struct tcp_congestion_ops pp_ra_cubic = {
	.init = (void *)pp_ra_cubic_init,
	.ssthresh = (void *)pp_ra_cubic_ssthresh,
	.cong_avoid = (void *)pp_ra_cubic_cong_avoid,
	.set_state = (void *)pp_ra_cubic_set_state,
	.cwnd_event = (void *)pp_ra_cubic_cwnd_event,
	.pkts_acked = (void *)pp_ra_cubic_pkts_acked,
	.undo_cwnd = (void *)pp_ra_undo_cwnd,
	.flags = PP_TCP_CONG_NEEDS_ECN,
	.name = "pp_ra_cubic",
};

SEC("struct_ops")
__u32 BPF_PROG(pp_ra_reno_ssthresh, struct sock *sk) { return tcp_reno_ssthresh(sk); }

SEC("struct_ops")
void BPF_PROG(pp_ra_reno_cong_avoid, struct sock *sk, __u32 ack, __u32 acked)
{
	tcp_reno_cong_avoid(sk, ack, acked);
}

SEC("struct_ops")
void BPF_PROG(pp_ra_reno_cwnd_event, struct sock *sk, enum tcp_ca_event ev)
{
	if (ev == CA_EVENT_ECN_NO_CE)
		read_time_ack(sk);
}

SEC(".struct_ops.link")
struct tcp_congestion_ops pp_ra_reno = {
	.ssthresh = (void *)pp_ra_reno_ssthresh,
	.cong_avoid = (void *)pp_ra_reno_cong_avoid,
	.cwnd_event = (void *)pp_ra_reno_cwnd_event,
	.undo_cwnd = (void *)pp_ra_undo_cwnd,
	.flags = PP_TCP_CONG_NEEDS_ECN,
	.name = "pp_ra_reno",
};

static __always_inline int name_is(const char *a, const char *b, int n)
{
	for (int i = 0; i < n; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

/* Puts a subflow on its pp_ra_ twin when it is on cubic, reno or bbr; 1 when it is on
 * one of them afterwards, 0 when it stays on another (counted when `count`). */
static __always_inline int take(struct bpf_sock_ops *skops, struct pp_ra_stats *st, int count)
{
	char cc[16] = {};
	if (bpf_getsockopt(skops, SOL_TCP, TCP_CONGESTION, cc, sizeof(cc)))
		return 0;
	if (name_is(cc, "pp_ra_", 6))
		return 1;
	int rc;
	if (name_is(cc, "cubic", 6)) {
		char want[] = "pp_ra_cubic";
		rc = bpf_setsockopt(skops, SOL_TCP, TCP_CONGESTION, want, sizeof(want));
	} else if (name_is(cc, "reno", 5)) {
		char want[] = "pp_ra_reno";
		rc = bpf_setsockopt(skops, SOL_TCP, TCP_CONGESTION, want, sizeof(want));
	} else if (name_is(cc, "bbr", 4)) {
		char want[] = "pp_ra_bbr";
		rc = bpf_setsockopt(skops, SOL_TCP, TCP_CONGESTION, want, sizeof(want));
	} else {
		if (count)
			__sync_fetch_and_add(&st->other_cc, 1);
		return 0;
	}
	if (rc) {
		if (count)
			__sync_fetch_and_add(&st->refused, 1);
		return 0;
	}
	if (count)
		__sync_fetch_and_add(&st->subflows, 1);
	return 1;
}

SEC("struct_ops")
void BPF_PROG(pp_ra_bbr_init, struct sock *sk) { bbr_init(sk); }

SEC("struct_ops")
void BPF_PROG(pp_ra_bbr_main, struct sock *sk, __u32 ack, int flag, const struct rate_sample *rs)
{
	bbr_main(sk, ack, flag, rs);
}

SEC("struct_ops")
__u32 BPF_PROG(pp_ra_bbr_sndbuf_expand, struct sock *sk) { return bbr_sndbuf_expand(sk); }

SEC("struct_ops")
__u32 BPF_PROG(pp_ra_bbr_undo_cwnd, struct sock *sk) { return bbr_undo_cwnd(sk); }

SEC("struct_ops")
void BPF_PROG(pp_ra_bbr_cwnd_event, struct sock *sk, enum tcp_ca_event ev)
{
	if (ev == CA_EVENT_ECN_NO_CE)
		read_time_ack(sk);
	else if (ev != CA_EVENT_ECN_IS_CE)
		bbr_cwnd_event(sk, ev);
}

SEC("struct_ops")
__u32 BPF_PROG(pp_ra_bbr_ssthresh, struct sock *sk) { return bbr_ssthresh(sk); }

SEC("struct_ops")
__u32 BPF_PROG(pp_ra_bbr_min_tso_segs, struct sock *sk) { return bbr_min_tso_segs(sk); }

SEC("struct_ops")
void BPF_PROG(pp_ra_bbr_set_state, struct sock *sk, __u8 state) { bbr_set_state(sk, state); }

SEC(".struct_ops.link")
struct tcp_congestion_ops pp_ra_bbr = {
	.init = (void *)pp_ra_bbr_init,
	.cong_control = (void *)pp_ra_bbr_main,
	.sndbuf_expand = (void *)pp_ra_bbr_sndbuf_expand,
	.undo_cwnd = (void *)pp_ra_bbr_undo_cwnd,
	.cwnd_event = (void *)pp_ra_bbr_cwnd_event,
	.ssthresh = (void *)pp_ra_bbr_ssthresh,
	.min_tso_segs = (void *)pp_ra_bbr_min_tso_segs,
	.set_state = (void *)pp_ra_bbr_set_state,
	.flags = PP_TCP_CONG_NEEDS_ECN,
	.name = "pp_ra_bbr",
};

SEC("sockops")
int pathpool_read_ack_select(struct bpf_sock_ops *skops)
{
	int established = skops->op == BPF_SOCK_OPS_ACTIVE_ESTABLISHED_CB || skops->op == BPF_SOCK_OPS_PASSIVE_ESTABLISHED_CB;
	if (!established && skops->op != BPF_SOCK_OPS_PARSE_HDR_OPT_CB)
		return 1;
	__u64 cookie = bpf_get_netns_cookie(skops);
	struct pp_ra_stats *st = bpf_map_lookup_elem(&pp_ra_netns, &cookie);
	struct bpf_sock *sk = skops->sk;
	if (!st || !sk)
		return 1;
	struct tcp_sock *tp = bpf_skc_to_tcp_sock(sk);
	if (!established) {
		/* An application that sets its congestion control after the handshake (iperf3's
		 * server takes the client's -C) moved the subflow back: take it again, before
		 * this segment is queued. */
		if (tp && tp->is_mptcp && !take(skops, st, 0))
			__sync_fetch_and_add(&st->moved_off, 1);
		return 1;
	}
	if (!tp || !tp->is_mptcp) {
		__sync_fetch_and_add(&st->others, 1);
		return 1;
	}
	if (!(tp->ecn_flags & PP_TCP_ECN_OK)) {
		__sync_fetch_and_add(&st->no_ecn, 1);
		return 1;
	}
	if (take(skops, st, 1))
		bpf_sock_ops_cb_flags_set(skops, skops->bpf_sock_ops_cb_flags | BPF_SOCK_OPS_PARSE_ALL_HDR_OPT_CB_FLAG);
	return 1;
}
