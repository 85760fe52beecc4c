//! Second pass: per analysed subflow, delay samples and losses in capture order, by the
//! method the plan chose ([`Method`]). State per subflow is bounded by its window (the
//! segments or TSvals awaiting their ACK), never by the capture's length.

use crate::packet::{Segment, ACK};
use crate::plan::{Method, Plan};
use crate::survey::{FxMap, Key};
use std::collections::VecDeque;

/// Where samples go (the detector, or a test).
pub trait Sink {
    fn owd(&mut self, flow: usize, now_ns: u64, owd_ns: i64);
    fn rtt(&mut self, flow: usize, now_ns: u64, rtt_ns: u64);
    fn loss(&mut self, flow: usize, now_ns: u64);
    /// A packet thinned out by the sample spacing (counted by the detector, not sampled).
    fn unsampled(&mut self, flow: usize, now_ns: u64);
}

/// Segments or TSvals awaiting an ACK, per subflow: beyond this many the oldest are dropped
/// (their samples lost), which bounds memory whatever the window.
const PENDING: usize = 1 << 16;

/// MPTCP-SBD's MP_TIMESTAMP counts µs modulo 2^31 ([S0]; the simulator's `mptcp::options`).
const SBD_MODULUS: u64 = 1 << 31;

#[derive(Clone, Debug, Default)]
pub struct Counts {
    pub samples: u64,
    pub losses: u64,
    pub unsampled: u64,
}

#[derive(Clone, Debug)]
struct State {
    method: Method,
    tick_ns: f64,
    drift: f64,
    conn_start: u64,
    next_slot: u64,
    /// First (capture ns, unwrapped TSval) of the one-way-delay reference.
    base: Option<(u64, u64)>,
    ts_last: Option<u64>,
    /// Highest sequence end seen (unwrapped), for retransmissions.
    seq_high: Option<u64>,
    /// TsEcho: (TSval, first capture ns); SeqAck: (segment end, capture ns, retransmitted).
    echo: VecDeque<(u64, u64)>,
    segs: VecDeque<(u64, u64, bool)>,
    ack_high: u64,
}

/// Extends a 32-bit value to the 64-bit value nearest `reference`.
#[inline]
fn near(reference: u64, v: u32) -> u64 {
    let d = v.wrapping_sub(reference as u32) as i32 as i64;
    (reference as i64 + d).max(0) as u64
}

pub struct Sampler {
    index: FxMap<Key, (u32, bool)>,
    states: Vec<State>,
    pub counts: Vec<Counts>,
    origin_ns: u64,
    spacing_ns: u64,
    /// The detector's clock: never decreasing even where the capture's times do.
    now_ns: u64,
    last: Option<(Key, (u32, bool))>,
}

impl Sampler {
    pub fn new(plan: &Plan, spacing_ns: u64) -> Sampler {
        let mut index = FxMap::default();
        let mut states = Vec::new();
        for (i, f) in plan.subflows.iter().enumerate() {
            index.insert(f.key, (i as u32, true));
            index.insert(f.key.reverse(), (i as u32, false));
            states.push(State {
                method: f.method,
                tick_ns: f.tick_ns,
                drift: f.drift,
                conn_start: plan.conn_start_ns[i],
                next_slot: 0,
                base: None,
                ts_last: None,
                seq_high: None,
                echo: VecDeque::new(),
                segs: VecDeque::new(),
                ack_high: 0,
            });
        }
        let n = states.len();
        Sampler { index, states, counts: vec![Counts::default(); n], origin_ns: plan.origin_ns, spacing_ns, now_ns: 0, last: None }
    }

    #[inline]
    pub fn segment(&mut self, t: u64, s: &Segment, sink: &mut impl Sink) {
        let key = Key::of(s);
        let (flow, data) = match self.last {
            Some((k, v)) if k == key => v,
            _ => {
                let Some(&v) = self.index.get(&key) else { return };
                self.last = Some((key, v));
                v
            }
        };
        let f = flow as usize;
        self.now_ns = self.now_ns.max(t.saturating_sub(self.origin_ns));
        let now = self.now_ns;
        let st = &mut self.states[f];
        if !data {
            if s.flags & ACK != 0 {
                Self::on_ack(st, self.spacing_ns, f, now, t, s, &mut self.counts[f], sink);
            }
            return;
        }
        if s.payload == 0 {
            return;
        }
        // Retransmission (or reordering): a loss, and no RTT sample from this segment.
        let seq = near(st.seq_high.unwrap_or(s.seq as u64 + (1 << 32)), s.seq);
        let end = seq + s.payload as u64;
        let high = st.seq_high.unwrap_or(0);
        let retransmitted = st.seq_high.is_some() && end <= high;
        if end > high {
            st.seq_high = Some(end);
        }
        if st.method == Method::MpTimestamp {
            // The sender signals its losses itself, one per segment ([S0] §III-B).
            if let Some((_, true)) = s.opts.sbd_ts {
                self.counts[f].losses += 1;
                sink.loss(f, now);
            }
        } else if retransmitted {
            self.counts[f].losses += 1;
            sink.loss(f, now);
        }
        match st.method {
            Method::MpTimestamp | Method::TsOwd => {
                let owd_ns = match (st.method, s.opts.sbd_ts, s.opts.ts) {
                    (Method::MpTimestamp, Some((time_us, _)), _) => {
                        let since_us = t.saturating_sub(st.conn_start) / 1000;
                        let owd_us = ((since_us % SBD_MODULUS) as u32).wrapping_sub(time_us) % SBD_MODULUS as u32;
                        owd_us as i64 * 1000
                    }
                    (Method::TsOwd, _, Some((tsval, _))) => {
                        let v = near(st.ts_last.unwrap_or(tsval as u64 + (1 << 32)), tsval);
                        st.ts_last = Some(st.ts_last.map_or(v, |l| l.max(v)));
                        let (t0, v0) = *st.base.get_or_insert((t, v));
                        let x = t as i64 - t0 as i64;
                        x - ((v as i64 - v0 as i64) as f64 * st.tick_ns + st.drift * x as f64).round() as i64
                    }
                    _ => return,
                };
                if !Self::take(st, self.spacing_ns, t) {
                    self.counts[f].unsampled += 1;
                    sink.unsampled(f, now);
                    return;
                }
                self.counts[f].samples += 1;
                sink.owd(f, now, owd_ns);
            }
            Method::TsEcho => {
                if let Some((tsval, _)) = s.opts.ts {
                    let v = near(st.ts_last.unwrap_or(tsval as u64 + (1 << 32)), tsval);
                    if st.ts_last.is_none_or(|l| v > l) {
                        st.ts_last = Some(v);
                        if st.echo.len() == PENDING {
                            st.echo.pop_front();
                        }
                        st.echo.push_back((v, t));
                    }
                }
            }
            Method::SeqAck => {
                if retransmitted {
                    for e in st.segs.iter_mut().filter(|e| e.0 > seq && e.0 <= end.max(seq + 1)) {
                        e.2 = true;
                    }
                } else {
                    if st.segs.len() == PENDING {
                        st.segs.pop_front();
                    }
                    st.segs.push_back((end, t, false));
                }
            }
        }
    }

    /// Thinning: the first packet of each `spacing` slot from the connection's start.
    #[inline]
    fn take(st: &mut State, spacing: u64, t: u64) -> bool {
        if spacing == 0 {
            return true;
        }
        let slot = t.saturating_sub(st.conn_start) / spacing;
        if slot < st.next_slot {
            return false;
        }
        st.next_slot = slot + 1;
        true
    }

    fn on_ack(st: &mut State, spacing: u64, f: usize, now: u64, t: u64, s: &Segment, c: &mut Counts, sink: &mut impl Sink) {
        let rtt = match st.method {
            Method::TsEcho => {
                let (Some((_, tsecr)), Some(last)) = (s.opts.ts, st.ts_last) else { return };
                let e = near(last, tsecr);
                let mut sample = None;
                while let Some(&(v, sent)) = st.echo.front() {
                    if v > e {
                        break;
                    }
                    st.echo.pop_front();
                    if v == e {
                        sample = Some(t.saturating_sub(sent));
                    }
                }
                sample
            }
            Method::SeqAck => {
                let Some(high) = st.seq_high else { return };
                let a = near(high, s.ack);
                if a <= st.ack_high {
                    return;
                }
                st.ack_high = a;
                let mut newest = None;
                while let Some(&(end, sent, retx)) = st.segs.front() {
                    if end > a {
                        break;
                    }
                    st.segs.pop_front();
                    newest = Some((sent, retx));
                }
                // Karn's rule: an ACK covering a retransmitted segment gives no sample.
                match newest {
                    Some((sent, false)) => Some(t.saturating_sub(sent)),
                    _ => None,
                }
            }
            _ => None,
        };
        let Some(rtt) = rtt else { return };
        // Thinned as the one-way delays are (the first of each slot): the detector's
        // statistics weigh samples alike whichever end the capture was taken at.
        if !Self::take(st, spacing, t) {
            c.unsampled += 1;
            sink.unsampled(f, now);
            return;
        }
        c.samples += 1;
        sink.rtt(f, now, rtt);
    }
}
