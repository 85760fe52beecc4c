/* The arithmetic of pathpool's coupled congestion controls, in integers, shared by the BPF
 * struct_ops programs (pathpool_cc.bpf.c) and a host build used by the differential test
 * against pathpool-cc (crates/kernel/tests/differential.rs, docs/kernel.md).
 *
 * Pure functions only: no kernel or libc calls, unsigned division only (clang 14 cannot emit
 * signed division for BPF), loops bounded by PP_MAX_SUBFLOWS (Linux MPTCP's subflow limit).
 *
 * Units:
 *   windows    Q20 segments (w = cwnd * 2^20), below 2^36 (cwnd < 65536 segments);
 *              `fine` is the same window in Q30, used only to decide ties exactly;
 *   RTT        whole microseconds, 1 .. 2^24;
 *   increases  Q30 segments per acknowledged segment;
 *   OLIA's l   segments acknowledged between losses, below 2^31.
 * Every formula is the f64 one of pathpool-cc's file for the algorithm (crates/cc/src/lia.rs,
 * olia.rs, balia.rs), rearranged as RFC 6356 §4.2 eq. 4 does so that only RTT ratios appear. */
#ifndef PATHPOOL_CC_MATH_H
#define PATHPOOL_CC_MATH_H

#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif

typedef unsigned long long pp_u64;
typedef long long pp_s64;

#define PP_MAX_SUBFLOWS 8
#define PP_WSHIFT 20
#define PP_ISHIFT 30
#define PP_W_MAX ((1ULL << 36) - 1)
#define PP_RTT_MAX (1ULL << 24)
#define PP_L_MAX ((1ULL << 31) - 1)

/* One member of a coupling set as the formulas see it. */
struct pp_path {
	pp_u64 w;    /* effective window (ssthresh in recovery), Q20 segments */
	pp_u64 fine; /* the same window, Q30, for exact ties (OLIA's max-window set) */
	pp_u64 rtt;  /* smoothed RTT, microseconds */
	pp_u64 l;    /* OLIA: max(l1, l2), segments */
};

static __always_inline pp_u64 pp_min(pp_u64 a, pp_u64 b) { return a < b ? a : b; }
static __always_inline pp_u64 pp_max(pp_u64 a, pp_u64 b) { return a > b ? a : b; }

/* Clamps a path to the ranges above so that no product below overflows 64 bits. */
static __always_inline void pp_clamp(struct pp_path *p)
{
	p->w = p->w < 1 ? 1 : pp_min(p->w, PP_W_MAX);
	p->rtt = p->rtt < 1 ? 1 : pp_min(p->rtt, PP_RTT_MAX);
	p->l = pp_min(p->l, PP_L_MAX);
}

/* Reno's increase 1/w per acknowledged segment (RFC 5681 eq. 3), Q30. */
static __always_inline pp_u64 pp_reno_inc(pp_u64 w)
{
	return (1ULL << (PP_ISHIFT + PP_WSHIFT)) / (w ? w : 1);
}

/* a / b in Q30 for 0 <= a <= 8 b: both are shifted right alike until a << 30 fits. */
static __always_inline pp_u64 pp_div_q30(pp_u64 a, pp_u64 b)
{
	for (unsigned k = 0; k < 40 && a >= (1ULL << 33); k++) {
		a >>= 1;
		b >>= 1;
	}
	return b ? (a << PP_ISHIFT) / b : 0;
}

/* sum_p w_p * rtt_ref / rtt_p, Q20: the set's rate in segments per rtt_ref (RFC 6356 eq. 4). */
static __always_inline pp_u64 pp_rate_sum(const struct pp_path *p, unsigned n, unsigned ref)
{
	pp_u64 d = 0;
	for (unsigned i = 0; i < PP_MAX_SUBFLOWS && i < n; i++)
		d += p[i].w * p[ref].rtt / p[i].rtt;
	return d;
}

/* (w_ref / rtt_ref^2) / (sum_p w_p / rtt_p)^2 = w_ref / D^2 with D = pp_rate_sum(ref), Q30.
 * This is OLIA's first term (OLIA-05 §3) and, its maximum times the total window, LIA's alpha. */
static __always_inline pp_u64 pp_coupled_term(const struct pp_path *p, unsigned n, unsigned ref)
{
	pp_u64 d = pp_rate_sum(p, n, ref);
	if (!d)
		return 0;
	pp_u64 t = pp_div_q30(p[ref].w, d); /* w_ref / D, Q30; D >= w_ref */
	return (t << PP_WSHIFT) / d;
}

/* LIA's alpha (RFC 6356 eq. 2) in Q30: w_total * max_i(w_i/rtt_i^2) / (sum_i w_i/rtt_i)^2.
 * The maximum of w_i/rtt_i^2 is the maximum of pp_coupled_term (same denominator). */
static __always_inline pp_u64 pp_lia_alpha(const struct pp_path *p, unsigned n)
{
	if (n <= 1)
		return 1ULL << PP_ISHIFT; /* a single subflow is Reno */
	unsigned best = 0;
	pp_u64 best_term = 0, total = 0;
	for (unsigned i = 0; i < PP_MAX_SUBFLOWS && i < n; i++) {
		pp_u64 t = pp_coupled_term(p, n, i);
		if (t > best_term) {
			best_term = t;
			best = i;
		}
		total += p[i].w;
	}
	pp_u64 d = pp_rate_sum(p, n, best);
	if (!d)
		return 1ULL << PP_ISHIFT;
	pp_u64 total_over_d = (total << 20) / d;            /* Q20 */
	pp_u64 wb_over_d = pp_div_q30(p[best].w, d);       /* Q30, <= 1 */
	return (total_over_d * wb_over_d) >> 20;
}

/* LIA per acknowledged segment (RFC 6356 §3): min(alpha / w_total, 1 / w_me), Q30. */
static __always_inline pp_u64 pp_lia_inc(pp_u64 alpha, pp_u64 total, pp_u64 w_me)
{
	pp_u64 coupled = (alpha << PP_WSHIFT) / (total ? total : 1);
	return pp_min(coupled, pp_reno_inc(w_me));
}

/* RTTs shifted right until the largest is below 2^16, so that l * rtt^2 fits 64 bits. */
static __always_inline unsigned pp_rtt_shift(const struct pp_path *p, unsigned n)
{
	pp_u64 m = 0;
	for (unsigned i = 0; i < PP_MAX_SUBFLOWS && i < n; i++)
		m = pp_max(m, p[i].rtt);
	unsigned s = 0;
	for (unsigned k = 0; k < 24 && (m >> s) >= (1ULL << 16); k++)
		s++;
	return s;
}

/* OLIA's best-path metric comparison: l_a / rtt_a^2 against l_b / rtt_b^2 (Linux
 * mptcp_olia.c; algorithms.md §11 item 7). Returns -1, 0, 1. */
static __always_inline int pp_olia_cmp(const struct pp_path *a, const struct pp_path *b, unsigned s)
{
	pp_u64 ra = pp_max(a->rtt >> s, 1), rb = pp_max(b->rtt >> s, 1);
	pp_u64 x = a->l * rb * rb, y = b->l * ra * ra;
	return x > y ? 1 : (x < y ? -1 : 0);
}

/* OLIA per acknowledged segment (OLIA-05 §3): w_r/rtt_r^2 / (sum_p w_p/rtt_p)^2 + alpha_r/w_r,
 * Q30, signed (negative for a max-window path while better paths exist). alpha_r is
 * 1/(n|C|) on C = best paths outside M, -1/(n|M|) on M = max-window paths when C is not
 * empty, else 0; n = the set's size (algorithms.md §11 item 8). */
static __always_inline pp_s64 pp_olia_inc(const struct pp_path *p, unsigned n, unsigned me)
{
	if (n <= 1)
		return (pp_s64)pp_reno_inc(p[me].w);
	unsigned s = pp_rtt_shift(p, n);
	pp_u64 wmax = 0;
	unsigned best = 0;
	for (unsigned i = 0; i < PP_MAX_SUBFLOWS && i < n; i++) {
		wmax = pp_max(wmax, p[i].fine);
		if (pp_olia_cmp(&p[i], &p[best], s) > 0)
			best = i;
	}
	unsigned in_m = 0, in_c = 0, me_m = 0, me_c = 0;
	for (unsigned i = 0; i < PP_MAX_SUBFLOWS && i < n; i++) {
		int is_m = p[i].fine == wmax;
		int is_b = pp_olia_cmp(&p[i], &p[best], s) == 0;
		in_m += is_m;
		in_c += is_b && !is_m;
		if (i == me) {
			me_m = is_m;
			me_c = is_b && !is_m;
		}
	}
	pp_s64 inc = (pp_s64)pp_coupled_term(p, n, me);
	pp_u64 w = p[me].w ? p[me].w : 1;
	if (me_c)
		inc += (pp_s64)((1ULL << (PP_ISHIFT + PP_WSHIFT)) / ((pp_u64)n * in_c * w));
	else if (me_m && in_c)
		inc -= (pp_s64)((1ULL << (PP_ISHIFT + PP_WSHIFT)) / ((pp_u64)n * in_m * w));
	return inc;
}

/* BALIA's max_k x_k in units of rtt_me: max_k w_k * rtt_me / rtt_k, Q20. */
static __always_inline pp_u64 pp_balia_max_rate(const struct pp_path *p, unsigned n, unsigned me)
{
	pp_u64 m = 0;
	for (unsigned i = 0; i < PP_MAX_SUBFLOWS && i < n; i++)
		m = pp_max(m, p[i].w * p[me].rtt / p[i].rtt);
	return m;
}

/* BALIA per acknowledged segment (BALIA-04 §2):
 * x_r / (rtt_r (sum x)^2) * (1 + a)/2 * (4 + a)/5 with a = max x / x_r, rewritten with
 * D = pp_rate_sum(me), m = pp_balia_max_rate(me) as (w+m)(4w+m) / (10 w D^2), Q30. */
static __always_inline pp_u64 pp_balia_inc(const struct pp_path *p, unsigned n, unsigned me)
{
	if (n <= 1)
		return pp_reno_inc(p[me].w);
	pp_u64 w = p[me].w ? p[me].w : 1;
	pp_u64 m = pp_balia_max_rate(p, n, me), d = pp_rate_sum(p, n, me);
	pp_u64 ws = w, ms = m;
	/* (w + m) << 30 must fit: scale the three alike (only their ratios are used). */
	for (unsigned k = 0; k < 40 && d >= (1ULL << 32); k++) {
		ws >>= 1;
		ms >>= 1;
		d >>= 1;
	}
	if (!d)
		return pp_reno_inc(w);
	pp_u64 a = ((ws + ms) << PP_ISHIFT) / d;  /* (w+m)/D, Q30, <= 2^31 */
	pp_u64 b = ((4 * ws + ms) << 24) / d;     /* (4w+m)/D, Q24, <= 5 * 2^24 */
	return ((a * b) / (10 * w)) >> 4;         /* Q30 + Q24 - Q20 (w) = Q34 */
}

/* The kernel controllers' ssthresh floor, segments: Linux's tcp_reno_ssthresh, which the
 * out-of-tree mptcp_olia and mptcp_coupled modules used. OLIA-05 §3 and S0 allow 1 segment
 * with >= 2 subflows (pathpool-cc's default), but on upstream MPTCP a 1-segment subflow holds
 * the data sequence back (docs/kernel.md, "Why the floor is 2 segments"). The differential
 * test runs pathpool-cc with MinSsthresh::Fixed(2.0) to match. */
#define PP_MIN_SSTHRESH 2ULL

/* ssthresh after a loss (RFC 5681 eq. 4): max(flight / 2, min), windows Q20. */
static __always_inline pp_u64 pp_ssthresh(pp_u64 flight, pp_u64 min)
{
	return pp_max(flight / 2, min);
}

/* BALIA's decrease (BALIA-04 §2): flight - flight/2 * min(a, 1.5), a = max x / x_me;
 * Q20 windows; Reno's rule when alone in the set. */
static __always_inline pp_u64 pp_balia_ssthresh(const struct pp_path *p, unsigned n, unsigned me,
						pp_u64 flight, pp_u64 min)
{
	if (n <= 1)
		return pp_ssthresh(flight, min);
	pp_u64 w = p[me].w ? p[me].w : 1;
	pp_u64 m = pp_balia_max_rate(p, n, me);
	/* a = m / w in Q24, capped at 1.5 (an m that would overflow the shift is >= 1.5 w). */
	pp_u64 a = m >= (1ULL << 39) ? 3ULL << 23 : pp_min((m << 24) / w, 3ULL << 23);
	pp_u64 cut = ((flight >> 1) * a) >> 24;
	pp_u64 left = flight > cut ? flight - cut : 0;
	return pp_max(left, min);
}

#endif
