// SPDX-License-Identifier: GPL-2.0
/* pathpool's coupled congestion controls as BPF struct_ops for upstream Linux MPTCP:
 * pp_lia (RFC 6356), pp_olia (OLIA-05), pp_balia (BALIA-04) and pp_mptcp_sbd (MPTCP-SBD: OLIA
 * coupled only within the groups the SBD daemon writes into pp_groups; S0 §III-B).
 *
 * Upstream MPTCP runs one TCP socket per subflow, each with its own congestion control and no
 * coupling. From a subflow's callback we reach its connection read-only (bpf_rdonly_cast of
 * icsk_ulp_data to mptcp_subflow_context, then conn to mptcp_sock) and walk conn_list, at most
 * PP_MAX_SUBFLOWS entries, reading every sibling's window and smoothed RTT without its lock
 * (a stale sample at worst). What must be shared across subflows (LIA's alpha cache, the
 * subflow count for `pathpool kernel status`) lives in pp_conns keyed by the MPTCP token;
 * the parent itself cannot be written (docs/kernel.md). The arithmetic is pathpool_cc_math.h,
 * the same header the differential test compiles on the host. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "pathpool_cc_math.h"

char _license[] SEC("license") = "GPL";

extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym;
extern __u32 tcp_slow_start(struct tcp_sock *tp, __u32 acked) __ksym;
extern __u32 tcp_reno_undo_cwnd(struct sock *sk) __ksym;

#define SOL_TCP 6
#define TCP_NOTSENT_LOWAT 25

enum { PP_LIA = 0, PP_OLIA = 1, PP_BALIA = 2, PP_SBD = 3 };
#define Q30 (1ULL << 30)

/* Per connection, keyed by the MPTCP token (0 for a plain TCP socket is never stored). */
struct pp_conn {
	__u32 subflows;  /* subflows of this connection running a pathpool controller */
	__u32 algo;
	__u64 lia_alpha; /* LIA's alpha cache (RFC 6356 §4.1), Q30 */
	__u64 lia_over;  /* ... over this set of subflow ids (bit mask) */
	__u32 lia_stale;
	__u32 pad;
};

struct pp_sf_key {
	__u32 token;
	__u32 subflow_id;
};

/* A subflow's RTT sample for the SBD daemon. */
struct pp_rtt_sample {
	__u64 ts_ns;
	__u32 token;
	__u32 subflow_id;
	__u32 rtt_us;
	__u32 lost;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, struct pp_conn);
} pp_conns SEC(".maps");

/* Written by the SBD daemon (or a test): the group of each subflow; subflows couple with the
 * siblings of their group. Group 0 (not bottlenecked, and no partner found) runs uncoupled, as
 * S0 §III-B.5 has it ("shares with no one => Reno"; algorithms.md §7.1 step 5). A subflow
 * without an entry (no decision yet, or joined since) couples with every subflow not in group
 * 0, so a connection without entries is coupled as one group (S0: MPTCP-SBD couples until
 * the first decision). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 32768);
	__type(key, struct pp_sf_key);
	__type(value, __u32);
} pp_groups SEC(".maps");

/* Options set by the loader (`pathpool kernel load --pacing --linux-queues`): bit 0 turns on
 * Linux's internal pacing for subflows that start (PP_OPT_PACING); bit 1 leaves the subflows'
 * send queues as Linux sizes them, without pp_lowat's bound (PP_OPT_LINUX_QUEUES). */
#define PP_OPT_PACING 1u
#define PP_OPT_LINUX_QUEUES 2u
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} pp_opts SEC(".maps");

/* Guards against impossible inputs, counted for `pathpool kernel status` (docs/kernel.md,
 * "A window of 1.5 billion segments"): [0] cong_avoid calls with `acked` above PP_ACKED_MAX,
 * [1] increases capped at one segment per acknowledged segment, [2] cong_avoid entered with
 * snd_cwnd above PP_CWND_MAX (set outside this controller), [3] the largest `acked` seen,
 * [4] the largest snd_cwnd seen on entry; and, to see how often Linux's cwnd-limited rule
 * skips an increase (OLIA's negative alpha_r is applied only when its subflow is limited),
 * [5] cong_avoid calls skipped as not cwnd-limited, [6] calls that went on; [7] subflow send
 * queue bounds set (pp_lowat), [8] ... that the kernel refused. */
#define PP_ACKED_MAX 65535u
#define PP_CWND_MAX 65535u
enum { PP_ST_ACKED = 0, PP_ST_CAPPED = 1, PP_ST_CWND = 2, PP_ST_ACKED_TOP = 3, PP_ST_CWND_TOP = 4, PP_ST_SKIPPED = 5, PP_ST_LIMITED = 6, PP_ST_LOWAT = 7, PP_ST_LOWAT_REFUSED = 8, PP_ST_N = 9 };
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, PP_ST_N);
	__type(key, __u32);
	__type(value, __u64);
} pp_stats SEC(".maps");

/* The guards run in global functions, verified once each: inlined, they pushed the
 * verifier past its 1M-instruction budget on cong_avoid. */
__noinline int pp_g_count(__u32 which)
{
	__u64 *v = bpf_map_lookup_elem(&pp_stats, &which);
	if (v)
		__sync_fetch_and_add(v, 1);
	return 0;
}

static __always_inline void pp_top(__u32 which, __u64 x)
{
	__u64 *v = bpf_map_lookup_elem(&pp_stats, &which);
	if (v && x > *v)
		*v = x; /* racy across CPUs: a diagnostic maximum */
}

/* On entry to cong_avoid: the largest acked and window, a window beyond the formulas' range. */
__noinline int pp_g_entry(__u64 acked, __u64 cwnd)
{
	pp_top(PP_ST_ACKED_TOP, acked);
	pp_top(PP_ST_CWND_TOP, cwnd);
	if (cwnd > PP_CWND_MAX)
		pp_g_count(PP_ST_CWND);
	if (acked > PP_ACKED_MAX)
		pp_g_count(PP_ST_ACKED);
	return 0;
}

/* inc * acked (Q30 segments), at most one segment per acknowledged segment: in congestion
 * avoidance cwnd >= ssthresh >= 2, where every formula here adds less (at most 1/w +
 * alpha/w); more is a bad input, counted. acked <= PP_ACKED_MAX and inc is cut to 2^32 first
 * so that the product stays below 2^63. */
__noinline __s64 pp_g_bound(__s64 inc, __u64 acked)
{
	if (acked > PP_ACKED_MAX)
		acked = PP_ACKED_MAX;
	if (inc > (1LL << 32))
		inc = 1LL << 32;
	__s64 cap = (__s64)(acked << 30);
	__s64 delta = inc * (__s64)acked;
	if (delta > cap) {
		pp_g_count(PP_ST_CAPPED);
		delta = cap;
	}
	return delta;
}

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 18);
} pp_rtt SEC(".maps");

/* The controller's private area (icsk_ca_priv, 104 bytes). */
struct pp_ca {
	__u64 frac;  /* fraction of cwnd, Q30: snd_cwnd is whole segments */
	__u64 l1, l2; /* OLIA inter-loss distances, segments */
	__u32 token; /* 0 until the connection is known */
	__u32 subflow_id;
	__u32 lowat; /* TCP_NOTSENT_LOWAT last set by pp_lowat, bytes; 0 = never set */
	/* Where a hook last saw the socket (pp_seen): which hook, its congestion state and window. */
	__u32 seen_hook, seen_state, seen_cwnd, seen_ssthresh;
};

static __always_inline struct pp_ca *ca_of(struct sock *sk)
{
	return (struct pp_ca *)((struct inet_connection_sock *)sk)->icsk_ca_priv;
}

static __always_inline struct mptcp_sock *msk_of(struct sock *sk, __u32 *subflow_id)
{
	struct tcp_sock *tp = (struct tcp_sock *)sk;
	if (!tp->is_mptcp)
		return 0;
	struct inet_connection_sock *icsk = (struct inet_connection_sock *)sk;
	struct mptcp_subflow_context *sf =
		bpf_rdonly_cast(icsk->icsk_ulp_data, bpf_core_type_id_kernel(struct mptcp_subflow_context));
	if (!sf)
		return 0;
	*subflow_id = sf->subflow_id;
	return bpf_rdonly_cast(sf->conn, bpf_core_type_id_kernel(struct mptcp_sock));
}

/* The first window above PP_CWND_MAX that any hook met (docs/kernel.md, "A window of 1.5
 * billion segments"): nothing in these controllers writes one, so it comes from one of
 * Linux's window updates between two hooks. The socket's recovery state then, and where a
 * hook last saw a sane window, tell which update it was; `pathpool kernel status` prints it. */
enum { PP_HOOK_INIT = 1, PP_HOOK_SSTHRESH = 2, PP_HOOK_SSTHRESH_DONE = 3, PP_HOOK_CONG_AVOID = 4,
       PP_HOOK_CONG_AVOID_DONE = 5, PP_HOOK_SET_STATE = 6, PP_HOOK_UNDO = 7, PP_HOOK_UNDO_DONE = 8,
       PP_HOOK_PKTS_ACKED = 9 };
struct pp_absurd {
	__u32 seen; /* 1 once filled */
	__u32 hook, state, cwnd, ssthresh, prior_cwnd, prior_ssthresh;
	__u32 packets_out, sacked_out, lost_out, retrans_out, prr_delivered, prr_out, undo_marker;
	__u32 last_hook, last_state, last_cwnd, last_ssthresh;
};
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct pp_absurd);
} pp_absurd SEC(".maps");

/* Called at every hook's entry (and at the exit of those that move the window), with `cwnd`
 * the window the socket has or is about to get. */
static __always_inline void pp_seen(struct sock *sk, __u32 hook, __u32 cwnd)
{
	struct tcp_sock *tp = (struct tcp_sock *)sk;
	struct pp_ca *ca = ca_of(sk);
	__u32 state = ((struct inet_connection_sock *)sk)->icsk_ca_state;
	if (cwnd > PP_CWND_MAX) {
		__u32 zero = 0;
		struct pp_absurd *a = bpf_map_lookup_elem(&pp_absurd, &zero);
		if (a && !a->seen) {
			a->seen = 1;
			a->hook = hook;
			a->state = state;
			a->cwnd = cwnd;
			a->ssthresh = tp->snd_ssthresh;
			a->prior_cwnd = tp->prior_cwnd;
			a->prior_ssthresh = tp->prior_ssthresh;
			a->packets_out = tp->packets_out;
			a->sacked_out = tp->sacked_out;
			a->lost_out = tp->lost_out;
			a->retrans_out = tp->retrans_out;
			a->prr_delivered = tp->prr_delivered;
			a->prr_out = tp->prr_out;
			a->undo_marker = tp->undo_marker;
			a->last_hook = ca->seen_hook;
			a->last_state = ca->seen_state;
			a->last_cwnd = ca->seen_cwnd;
			a->last_ssthresh = ca->seen_ssthresh;
		}
	}
	ca->seen_hook = hook;
	ca->seen_state = state;
	ca->seen_cwnd = cwnd;
	ca->seen_ssthresh = tp->snd_ssthresh;
}

/* Registers the subflow with its connection's entry once the token is known. */
static __always_inline void pp_attach(struct sock *sk, __u32 algo)
{
	struct pp_ca *ca = ca_of(sk);
	if (ca->token)
		return;
	__u32 id = 0;
	struct mptcp_sock *msk = msk_of(sk, &id);
	if (!msk)
		return;
	__u32 token = msk->token;
	if (!token)
		return;
	struct pp_conn fresh = { .algo = algo, .lia_stale = 1 };
	bpf_map_update_elem(&pp_conns, &token, &fresh, BPF_NOEXIST);
	struct pp_conn *c = bpf_map_lookup_elem(&pp_conns, &token);
	if (!c)
		return;
	__sync_fetch_and_add(&c->subflows, 1);
	ca->token = token;
	ca->subflow_id = id;
}

static __always_inline void pp_release(struct sock *sk)
{
	struct pp_ca *ca = ca_of(sk);
	__u32 token = ca->token;
	if (!token)
		return;
	struct pp_sf_key k = { .token = token, .subflow_id = ca->subflow_id };
	bpf_map_delete_elem(&pp_groups, &k);
	struct pp_conn *c = bpf_map_lookup_elem(&pp_conns, &token);
	if (c && __sync_fetch_and_add(&c->subflows, -1) == 1)
		bpf_map_delete_elem(&pp_conns, &token);
	ca->token = 0;
}

static __always_inline void pp_invalidate(struct sock *sk)
{
	__u32 token = ca_of(sk)->token;
	if (!token)
		return;
	struct pp_conn *c = bpf_map_lookup_elem(&pp_conns, &token);
	if (c)
		c->lia_stale = 1;
}

/* pp_group's answer for a subflow without an entry in pp_groups. */
#define PP_GROUP_NONE 0xffffffffu

static __always_inline __u32 pp_group(__u32 token, __u32 id)
{
	struct pp_sf_key k = { .token = token, .subflow_id = id };
	__u32 *g = bpf_map_lookup_elem(&pp_groups, &k);
	return g ? *g : PP_GROUP_NONE;
}

/* One subflow as the formulas see it: window (ssthresh in recovery, Linux
 * mptcp_get_crt_cwnd), its fraction when the sibling runs one of ours, RTT in us. */
static __always_inline void pp_fill(struct pp_path *p, struct tcp_sock *t, int ours)
{
	__u64 cwnd = t->snd_cwnd, frac = 0;
	if (t->inet_conn.icsk_ca_state >= TCP_CA_CWR) {
		cwnd = t->snd_ssthresh;
	} else if (ours) {
		frac = t->inet_conn.icsk_ca_priv[0] & (Q30 - 1);
	}
	p->fine = (cwnd << 30) | frac;
	p->w = p->fine >> (PP_ISHIFT - PP_WSHIFT);
	p->rtt = (__u64)(t->srtt_us >> 3);
	p->l = 0;
	if (ours) {
		__u64 l1 = t->inet_conn.icsk_ca_priv[1], l2 = t->inet_conn.icsk_ca_priv[2];
		p->l = l1 > l2 ? l1 : l2;
	}
	pp_clamp(p);
}

/* The coupling set of `sk`: itself first, then every established sibling with an RTT sample
 * (in `sbd` mode only those of its group). Returns the count; p[0] is `sk`; *mask gets the
 * subflow ids (bits) of the set. */
static __always_inline unsigned pp_collect(struct sock *sk, struct pp_path *p, int sbd, __u64 *mask)
{
	struct tcp_sock *me = (struct tcp_sock *)sk;
	struct inet_connection_sock *icsk = (struct inet_connection_sock *)sk;
	pp_fill(&p[0], me, 1);
	*mask = 0;
	__u32 my_id = 0;
	struct mptcp_sock *msk = msk_of(sk, &my_id);
	*mask = 1ULL << (my_id & 63);
	if (!msk || !me->srtt_us)
		return 1;
	__u32 token = msk->token;
	__u32 my_group = sbd ? pp_group(token, my_id) : PP_GROUP_NONE;
	if (my_group == 0)
		return 1;
	struct list_head *head = &msk->conn_list;
	struct list_head *pos = msk->conn_list.next;
	unsigned n = 1;
	for (int i = 0; i < PP_MAX_SUBFLOWS; i++) {
		if (!pos || pos == head)
			break;
		/* node is the first member of mptcp_subflow_context */
		struct mptcp_subflow_context *c =
			bpf_rdonly_cast(pos, bpf_core_type_id_kernel(struct mptcp_subflow_context));
		pos = c->node.next;
		struct sock *ssk = c->tcp_sock;
		if (!ssk || ssk == sk)
			continue;
		struct tcp_sock *t = bpf_rdonly_cast(ssk, bpf_core_type_id_kernel(struct tcp_sock));
		if (!t->srtt_us || t->inet_conn.icsk_inet.sk.__sk_common.skc_state != TCP_ESTABLISHED)
			continue;
		__u32 id = c->subflow_id;
		/* Group 0 runs alone (S0 §III-B.5, not MPTCP-SBD's code, which couples it with
		 * every group: algorithms.md §11 item 21; docs/kernel.md, "The SBD daemon", says
		 * why). A subflow without an entry couples with all others, as in S0's code. */
		__u32 g = sbd ? pp_group(token, id) : PP_GROUP_NONE;
		if (g == 0 || (my_group != PP_GROUP_NONE && g != PP_GROUP_NONE && g != my_group))
			continue;
		if (n >= PP_MAX_SUBFLOWS)
			break;
		int ours = t->inet_conn.icsk_ca_ops == icsk->icsk_ca_ops;
		pp_fill(&p[n & (PP_MAX_SUBFLOWS - 1)], t, ours);
		*mask |= 1ULL << (id & 63);
		n++;
	}
	return n;
}

/* The formulas run in global functions: the verifier checks each once, on unknown inputs,
 * instead of once per path through the caller (which exceeds its 1M-instruction budget). */
struct pp_set {
	struct pp_path p[PP_MAX_SUBFLOWS];
	__u32 n;
	__u32 pad;
};

static __always_inline unsigned pp_n(const struct pp_set *s)
{
	unsigned n = s->n;
	return n < 1 ? 1 : (n > PP_MAX_SUBFLOWS ? PP_MAX_SUBFLOWS : n);
}

__noinline __u64 pp_g_lia_alpha(const struct pp_set *s)
{
	return s ? pp_lia_alpha(s->p, pp_n(s)) : Q30;
}

__noinline __s64 pp_g_olia_inc(const struct pp_set *s)
{
	return s ? pp_olia_inc(s->p, pp_n(s), 0) : 0;
}

__noinline __u64 pp_g_balia_inc(const struct pp_set *s)
{
	return s ? pp_balia_inc(s->p, pp_n(s), 0) : 0;
}

__noinline __u64 pp_g_balia_ssthresh(const struct pp_set *s, __u64 flight, __u64 min)
{
	return s ? pp_balia_ssthresh(s->p, pp_n(s), 0, flight, min) : min;
}

/* Linux tcp_is_cwnd_limited (include/net/tcp.h). */
static __always_inline int pp_cwnd_limited(struct tcp_sock *tp)
{
	if (tp->snd_cwnd < tp->snd_ssthresh)
		return tp->snd_cwnd < 2 * tp->max_packets_out;
	return tp->is_cwnd_limited;
}

/* Adds `delta` (Q30 segments, signed) to snd_cwnd + frac, at least one segment. */
static __always_inline void pp_apply(struct sock *sk, pp_s64 delta)
{
	struct tcp_sock *tp = (struct tcp_sock *)sk;
	struct pp_ca *ca = ca_of(sk);
	__u64 cur = ((__u64)tp->snd_cwnd << 30) | (ca->frac & (Q30 - 1));
	__u64 next;
	if (delta >= 0) {
		next = cur + (__u64)delta;
	} else {
		__u64 d = (__u64)-delta;
		next = cur > d + Q30 ? cur - d : Q30;
	}
	__u64 whole = next >> 30;
	if (whole > tp->snd_cwnd_clamp)
		whole = tp->snd_cwnd_clamp;
	if (whole != tp->snd_cwnd)
		pp_invalidate(sk); /* a floor(cwnd) change: LIA recomputes alpha */
	tp->snd_cwnd = whole;
	ca->frac = next & (Q30 - 1);
}

static __always_inline int pp_opt(__u32 bit)
{
	__u32 zero = 0, *opts = bpf_map_lookup_elem(&pp_opts, &zero);
	return opts && (*opts & bit);
}

/* A subflow's send queue bounded by its window: its not-sent low-water mark is one window of
 * bytes (at least 2 segments). Linux MPTCP's scheduler stops feeding a subflow that is not
 * sk_stream_memory_free (mptcp_subflow_get_send, __subflow_push_pending); without a bound it
 * hands a subflow whose window is a few segments tens of kB, and the connection's data
 * sequence waits seconds behind them while the other subflow idles (docs/kernel.md, "The
 * subflows' send queues"). The window arithmetic is untouched. */
static __always_inline void pp_lowat(struct sock *sk, __u32 segments)
{
	struct tcp_sock *tp = (struct tcp_sock *)sk;
	if (!tp->is_mptcp || pp_opt(PP_OPT_LINUX_QUEUES))
		return;
	/* A window beyond the formulas' range is not the controller's (pp_seen): the bound stays
	 * at the last window that was, rather than following it (and wrapping the int). */
	if (segments > PP_CWND_MAX)
		return;
	struct pp_ca *ca = ca_of(sk);
	int want = (int)((segments < 2 ? 2 : segments) * (tp->mss_cache ? tp->mss_cache : 1448));
	if ((__u32)want == ca->lowat)
		return;
	ca->lowat = want;
	pp_g_count(bpf_setsockopt(sk, SOL_TCP, TCP_NOTSENT_LOWAT, &want, sizeof(want)) ? PP_ST_LOWAT_REFUSED : PP_ST_LOWAT);
}

static __always_inline void pp_cong_avoid(struct sock *sk, __u32 acked, __u32 algo)
{
	struct tcp_sock *tp = (struct tcp_sock *)sk;
	pp_attach(sk, algo);
	pp_g_entry(acked, tp->snd_cwnd);
	/* Before the cwnd-limited test: a subflow whose queue bound lagged its window would not
	 * be cwnd-limited, and its window would then never move the bound. */
	pp_lowat(sk, tp->snd_cwnd);
	if (acked > PP_ACKED_MAX)
		acked = PP_ACKED_MAX;
	if (!pp_cwnd_limited(tp)) {
		pp_g_count(PP_ST_SKIPPED);
		return;
	}
	pp_g_count(PP_ST_LIMITED);
	if (tp->snd_cwnd < tp->snd_ssthresh) {
		acked = tcp_slow_start(tp, acked);
		if (!acked)
			return;
	}
	struct pp_set set = {};
	struct pp_path *p = set.p;
	__u64 mask = 0;
	unsigned n = pp_collect(sk, p, algo == PP_SBD, &mask);
	set.n = n;
	pp_s64 inc;
	if (n <= 1) {
		inc = (pp_s64)pp_reno_inc(p[0].w);
	} else if (algo == PP_LIA) {
		__u32 token = ca_of(sk)->token;
		struct pp_conn *c = token ? bpf_map_lookup_elem(&pp_conns, &token) : 0;
		__u64 alpha;
		if (c && !c->lia_stale && c->lia_over == mask) {
			alpha = c->lia_alpha;
		} else {
			alpha = pp_g_lia_alpha(&set);
			if (c) {
				c->lia_alpha = alpha;
				c->lia_over = mask;
				c->lia_stale = 0;
			}
		}
		__u64 total = 0;
		for (unsigned i = 0; i < PP_MAX_SUBFLOWS && i < n; i++)
			total += p[i].w;
		inc = (pp_s64)pp_lia_inc(alpha, total, p[0].w);
	} else if (algo == PP_BALIA) {
		inc = (pp_s64)pp_g_balia_inc(&set);
	} else {
		inc = pp_g_olia_inc(&set);
	}
	pp_apply(sk, pp_g_bound(inc, acked));
	pp_lowat(sk, tp->snd_cwnd);
}

static __always_inline __u32 pp_ssthresh_of(struct sock *sk, __u32 algo)
{
	struct tcp_sock *tp = (struct tcp_sock *)sk;
	struct pp_ca *ca = ca_of(sk);
	pp_attach(sk, algo);
	if (ca->l2) { /* OLIA-05 §3: l1 = l2, l2 = 0 per loss */
		ca->l1 = ca->l2;
		ca->l2 = 0;
	}
	ca->frac = 0;
	pp_invalidate(sk);
	struct pp_set set = {};
	__u64 mask = 0;
	unsigned n = pp_collect(sk, set.p, algo == PP_SBD, &mask);
	set.n = n;
	/* Linux's Reno uses the window for the flight size at this point (tcp_reno_ssthresh).
	 * A window beyond the formulas' range is not one (pp_seen): RFC 5681 eq. 4's own
	 * FlightSize, the packets in flight (tcp_packets_in_flight), stands in for it, so that
	 * the threshold does not inherit it. */
	__u32 window = tp->snd_cwnd;
	if (window > PP_CWND_MAX) {
		window = tp->packets_out - (tp->sacked_out + tp->lost_out) + tp->retrans_out;
		window = window > PP_CWND_MAX ? PP_CWND_MAX : window;
	}
	__u64 flight = (__u64)window << PP_WSHIFT;
	__u64 min = PP_MIN_SSTHRESH << PP_WSHIFT;
	__u64 ss = algo == PP_BALIA ? pp_g_balia_ssthresh(&set, flight, min) : pp_ssthresh(flight, min);
	ss >>= PP_WSHIFT;
	ss = ss < 1 ? 1 : ss;
	pp_lowat(sk, (__u32)ss);
	return (__u32)ss;
}

static __always_inline void pp_pkts_acked(struct sock *sk, const struct ack_sample *s, __u32 algo)
{
	struct pp_ca *ca = ca_of(sk);
	if (s->pkts_acked > 0)
		ca->l2 += s->pkts_acked;
	if (algo != PP_SBD || s->rtt_us <= 0 || !ca->token)
		return;
	struct pp_rtt_sample *e = bpf_ringbuf_reserve(&pp_rtt, sizeof(*e), 0);
	if (!e)
		return; /* no reader keeps up: the sample is dropped */
	e->ts_ns = bpf_ktime_get_ns();
	e->token = ca->token;
	e->subflow_id = ca->subflow_id;
	e->rtt_us = (__u32)s->rtt_us;
	e->lost = 0;
	bpf_ringbuf_submit(e, 0);
}

static __always_inline void pp_init(struct sock *sk, __u32 algo)
{
	struct pp_ca *ca = ca_of(sk);
	ca->frac = 0;
	ca->l1 = ca->l2 = 0;
	ca->token = 0;
	ca->subflow_id = 0;
	ca->lowat = 0;
	/* Pacing (optional): with SK_PACING_NEEDED and no fq qdisc, TCP paces the subflow itself
	 * at tcp_update_pacing_rate's cwnd/srtt (x2 in slow start, x1.2 after), as BBR asks for in
	 * its init; the window arithmetic is unchanged. An fq qdisc's SK_PACING_FQ is left alone. */
	if (pp_opt(PP_OPT_PACING) && sk->sk_pacing_status == SK_PACING_NONE)
		sk->sk_pacing_status = SK_PACING_NEEDED;
	pp_attach(sk, algo);
	pp_lowat(sk, ((struct tcp_sock *)sk)->snd_cwnd);
}

static __always_inline void pp_set_state(struct sock *sk, __u8 state)
{
	pp_invalidate(sk); /* entering or leaving recovery changes the effective window */
	if (state == TCP_CA_Loss)
		ca_of(sk)->frac = 0;
}

/* Selectable as any network namespace's default and by unprivileged sockets, as cubic and reno
 * are (tcp_set_default_congestion_control refuses a restricted one outside the initial
 * namespace). TCP_CONG_NON_RESTRICTED, include/net/tcp.h. */
#define PP_TCP_CONG_NON_RESTRICTED 0x1

/* NAME##_ops_*: the hooks' names stay clear of the arithmetic's pp_<algorithm>_* helpers. */
#define PP_CC(NAME, ALGO)                                                               \
	SEC("struct_ops")                                                               \
	void BPF_PROG(NAME##_ops_init, struct sock *sk)                                 \
	{                                                                               \
		pp_init(sk, ALGO);                                                      \
		pp_seen(sk, PP_HOOK_INIT, ((struct tcp_sock *)sk)->snd_cwnd);           \
	}                                                                               \
	SEC("struct_ops")                                                               \
	void BPF_PROG(NAME##_ops_release, struct sock *sk) { pp_release(sk); }          \
	SEC("struct_ops")                                                               \
	__u32 BPF_PROG(NAME##_ops_ssthresh, struct sock *sk)                            \
	{                                                                               \
		pp_seen(sk, PP_HOOK_SSTHRESH, ((struct tcp_sock *)sk)->snd_cwnd);       \
		__u32 ss = pp_ssthresh_of(sk, ALGO);                                    \
		pp_seen(sk, PP_HOOK_SSTHRESH_DONE, ((struct tcp_sock *)sk)->snd_cwnd);  \
		return ss;                                                              \
	}                                                                               \
	SEC("struct_ops")                                                               \
	void BPF_PROG(NAME##_ops_cong_avoid, struct sock *sk, __u32 ack, __u32 acked)   \
	{                                                                               \
		pp_seen(sk, PP_HOOK_CONG_AVOID, ((struct tcp_sock *)sk)->snd_cwnd);     \
		pp_cong_avoid(sk, acked, ALGO);                                         \
		pp_seen(sk, PP_HOOK_CONG_AVOID_DONE, ((struct tcp_sock *)sk)->snd_cwnd); \
	}                                                                               \
	SEC("struct_ops")                                                               \
	void BPF_PROG(NAME##_ops_set_state, struct sock *sk, __u8 state)                \
	{                                                                               \
		pp_seen(sk, PP_HOOK_SET_STATE, ((struct tcp_sock *)sk)->snd_cwnd);      \
		pp_set_state(sk, state);                                                \
	}                                                                               \
	SEC("struct_ops")                                                               \
	__u32 BPF_PROG(NAME##_ops_undo_cwnd, struct sock *sk)                           \
	{                                                                               \
		pp_seen(sk, PP_HOOK_UNDO, ((struct tcp_sock *)sk)->snd_cwnd);           \
		__u32 cwnd = tcp_reno_undo_cwnd(sk); /* Linux sets the window to it */  \
		pp_seen(sk, PP_HOOK_UNDO_DONE, cwnd);                                   \
		return cwnd;                                                            \
	}                                                                               \
	SEC("struct_ops")                                                               \
	void BPF_PROG(NAME##_ops_pkts_acked, struct sock *sk, const struct ack_sample *s)   \
	{                                                                               \
		pp_seen(sk, PP_HOOK_PKTS_ACKED, ((struct tcp_sock *)sk)->snd_cwnd);     \
		pp_pkts_acked(sk, s, ALGO);                                             \
	}                                                                               \
	SEC(".struct_ops.link")                                                         \
	struct tcp_congestion_ops NAME = {                                              \
		.init = (void *)NAME##_ops_init,                                        \
		.release = (void *)NAME##_ops_release,                                  \
		.ssthresh = (void *)NAME##_ops_ssthresh,                                \
		.cong_avoid = (void *)NAME##_ops_cong_avoid,                            \
		.set_state = (void *)NAME##_ops_set_state,                              \
		.undo_cwnd = (void *)NAME##_ops_undo_cwnd,                              \
		.pkts_acked = (void *)NAME##_ops_pkts_acked,                            \
		.flags = PP_TCP_CONG_NON_RESTRICTED,                                    \
		.name = #NAME,                                                          \
	};

/* The names are the schemes' (pathpool_cc::Scheme) with "pp_" in front and '-' as '_', in the
 * order of the algorithm numbers (src/names.rs derives them and its test compares). */
PP_CC(pp_lia, PP_LIA)
PP_CC(pp_olia, PP_OLIA)
PP_CC(pp_balia, PP_BALIA)
PP_CC(pp_mptcp_sbd, PP_SBD)
