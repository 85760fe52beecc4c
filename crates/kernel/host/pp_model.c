/* Host build of the BPF controllers' arithmetic for the differential test
 * (crates/kernel/tests/differential.rs): one connection whose event handling mirrors
 * pathpool-cc's Connection (crates/cc/src/connection.rs: initial window 10, `cwnd < ssthresh`
 * slow start, increases per acknowledged segment, and the kernel's ssthresh floor of 2
 * segments, MinSsthresh::Fixed(2.0) there), and whose every window computation is the one in
 * pathpool_cc_math.h that the BPF programs run. Windows are Q30 segments here; the kernel keeps
 * the integer part in snd_cwnd and the fraction in the controller's private area. */
#include <stdlib.h>
#include "../bpf/pathpool_cc_math.h"

enum { PP_LIA = 0, PP_OLIA = 1, PP_BALIA = 2 };
#define Q30 (1ULL << 30)

struct pp_sub {
	pp_u64 cwnd, ssthresh; /* Q30 */
	pp_u64 srtt;           /* us, 0 = no sample yet */
	pp_u64 l1, l2;         /* OLIA inter-loss distances, segments */
	int in_recovery, timeout_streak;
	pp_u64 coupling;       /* bit mask of the subflows this one couples with */
};

struct pp_model {
	int algo;
	unsigned n;
	struct pp_sub s[PP_MAX_SUBFLOWS];
	pp_u64 lia_alpha, lia_over; /* LIA's alpha cache (RFC 6356 §4.1) */
	int lia_stale;
};

struct pp_model *pp_model_new(int algo, unsigned n)
{
	if (n < 1 || n > PP_MAX_SUBFLOWS || algo < PP_LIA || algo > PP_BALIA)
		return NULL;
	struct pp_model *m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->algo = algo;
	m->n = n;
	m->lia_stale = 1;
	for (unsigned i = 0; i < n; i++) {
		m->s[i].cwnd = 10 * Q30;
		m->s[i].ssthresh = ~0ULL;
		m->s[i].coupling = (1ULL << n) - 1;
	}
	return m;
}

void pp_model_free(struct pp_model *m) { free(m); }

static pp_u64 eff_q30(const struct pp_sub *s) { return s->in_recovery ? s->ssthresh : s->cwnd; }

/* The members of `mask` usable for coupling (an RTT sample), always `me` (connection.rs
 * coupling_set); fills `p` in index order and returns the count, `*pos` = me's position. */
static unsigned coupling_set(const struct pp_model *m, unsigned me, pp_u64 mask, struct pp_path *p,
			     unsigned *pos, pp_u64 *set)
{
	unsigned k = 0;
	*set = 0;
	for (unsigned i = 0; i < m->n; i++) {
		const struct pp_sub *s = &m->s[i];
		int in = i == me || (m->s[me].srtt && (mask >> i & 1) && s->srtt);
		if (!in)
			continue;
		if (i == me)
			*pos = k;
		p[k].fine = eff_q30(s);
		p[k].w = p[k].fine >> (PP_ISHIFT - PP_WSHIFT);
		p[k].rtt = s->srtt;
		p[k].l = s->l1 > s->l2 ? s->l1 : s->l2;
		pp_clamp(&p[k]);
		*set |= 1ULL << i;
		k++;
	}
	return k;
}

/* units (Q30 segments) times an increase (Q30 per segment), Q30. */
static pp_u64 scale(pp_u64 units, pp_u64 inc) { return ((units >> 10) * inc) >> 20; }

static void increase(struct pp_model *m, unsigned me, pp_u64 units)
{
	struct pp_path p[PP_MAX_SUBFLOWS];
	unsigned pos = 0;
	pp_u64 set;
	unsigned n = coupling_set(m, me, m->s[me].coupling, p, &pos, &set);
	struct pp_sub *s = &m->s[me];
	if (n <= 1) {
		s->cwnd += scale(units, pp_reno_inc(s->cwnd >> (PP_ISHIFT - PP_WSHIFT)));
		return;
	}
	if (m->algo == PP_LIA) {
		if (m->lia_stale || m->lia_over != set) {
			m->lia_alpha = pp_lia_alpha(p, n);
			m->lia_over = set;
			m->lia_stale = 0;
		}
		pp_u64 total = 0;
		for (unsigned i = 0; i < n; i++)
			total += p[i].w;
		s->cwnd += scale(units, pp_lia_inc(m->lia_alpha, total, s->cwnd >> (PP_ISHIFT - PP_WSHIFT)));
	} else if (m->algo == PP_OLIA) {
		pp_s64 inc = pp_olia_inc(p, n, pos);
		if (inc >= 0) {
			s->cwnd += scale(units, (pp_u64)inc);
		} else {
			pp_u64 d = scale(units, (pp_u64)-inc);
			s->cwnd = s->cwnd > d + Q30 ? s->cwnd - d : Q30;
		}
	} else {
		s->cwnd += scale(units, pp_balia_inc(p, n, pos));
	}
}

void pp_model_ack(struct pp_model *m, unsigned me, unsigned acked, pp_u64 rtt_us, int cwnd_limited)
{
	struct pp_sub *s = &m->s[me];
	if (rtt_us)
		s->srtt = s->srtt ? (7 * s->srtt + rtt_us) / 8 : rtt_us;
	if (acked) {
		s->timeout_streak = 0;
		s->l2 += acked;
	}
	if (s->in_recovery || !acked || !cwnd_limited)
		return;
	pp_u64 floor_before = s->cwnd >> 30, rest = (pp_u64)acked << 30;
	if (s->cwnd < s->ssthresh) {
		pp_u64 grow = pp_min(rest, s->ssthresh - s->cwnd);
		s->cwnd += grow;
		rest -= grow;
	}
	if (rest)
		increase(m, me, rest);
	if (s->cwnd >> 30 != floor_before)
		m->lia_stale = 1;
}

/* Bookkeeping common to every congestion signal; the new ssthresh, Q30. */
static pp_u64 congestion_event(struct pp_model *m, unsigned me, pp_u64 flight_w, pp_u64 mask)
{
	struct pp_path p[PP_MAX_SUBFLOWS];
	unsigned pos = 0;
	pp_u64 set;
	unsigned n = coupling_set(m, me, mask, p, &pos, &set);
	pp_u64 min = PP_MIN_SSTHRESH << PP_WSHIFT;
	m->lia_stale = 1;
	if (m->algo == PP_OLIA && m->s[me].l2) {
		m->s[me].l1 = m->s[me].l2;
		m->s[me].l2 = 0;
	}
	pp_u64 ss = m->algo == PP_BALIA ? pp_balia_ssthresh(p, n, pos, flight_w, min)
					: pp_ssthresh(flight_w, min);
	return ss << (PP_ISHIFT - PP_WSHIFT);
}

void pp_model_loss(struct pp_model *m, unsigned me, pp_u64 flight_w)
{
	struct pp_sub *s = &m->s[me];
	if (s->in_recovery)
		return;
	pp_u64 ss = congestion_event(m, me, flight_w, s->coupling);
	s->ssthresh = s->cwnd = ss;
	s->in_recovery = 1;
}

void pp_model_timeout(struct pp_model *m, unsigned me, pp_u64 flight_w)
{
	struct pp_sub *s = &m->s[me];
	if (!s->timeout_streak)
		s->ssthresh = congestion_event(m, me, flight_w, (1ULL << m->n) - 1);
	s->cwnd = Q30;
	s->in_recovery = 0;
	s->timeout_streak = 1;
}

void pp_model_recovery_exit(struct pp_model *m, unsigned me)
{
	if (m->s[me].in_recovery) {
		m->s[me].in_recovery = 0;
		m->lia_stale = 1;
	}
}

void pp_model_set_coupling(struct pp_model *m, unsigned me, pp_u64 mask) { m->s[me].coupling = mask; }

pp_u64 pp_model_cwnd_q30(const struct pp_model *m, unsigned me) { return m->s[me].cwnd; }
