//! Trace rows (in any order) turned into the time-ordered event stream a detector replays
//! (`pathpool_sbd::replay`): receive times for one-way delays, ACK times for RTTs, relative to
//! the earliest event.

use crate::rows::{OwdRow, RttRow};
use pathpool_sbd::replay::Event;

/// The receiver-side events of one-way-delay rows, ordered by receive time (ties keep row
/// order). Times are relative to the earliest event; the returned origin is that event's
/// receiver-clock time in µs. A lost packet has no receive time: it is placed at its send time
/// plus the relative OWD of the flow's nearest earlier delivered packet (in send order), or the
/// nearest later one. A flow with no delivered packet contributes nothing.
pub fn owd_events(rows: &[OwdRow], n_flows: usize) -> (Vec<Event>, i64) {
    let mut by_flow: Vec<Vec<usize>> = vec![Vec::new(); n_flows];
    for (i, r) in rows.iter().enumerate() {
        by_flow[r.flow].push(i);
    }
    // (receiver-clock µs, row index, event with a relative time filled in below)
    let mut timed: Vec<(i64, usize, Event)> = Vec::with_capacity(rows.len());
    for (flow, idx) in by_flow.iter_mut().enumerate() {
        idx.sort_by_key(|&i| (rows[i].send_us, i));
        let Some(first) = idx.iter().find(|&&i| !rows[i].lost) else {
            continue;
        };
        let base_owd = rows[*first].recv_us - rows[*first].send_us;
        let mut offset = base_owd;
        for &i in idx.iter() {
            let r = &rows[i];
            if r.lost {
                timed.push((r.send_us.saturating_add(offset), i, Event::Loss { flow, now_ns: 0 }));
            } else {
                offset = r.recv_us.saturating_sub(r.send_us);
                let owd_ns = offset.saturating_sub(base_owd).saturating_mul(1000);
                timed.push((r.recv_us, i, Event::Owd { flow, now_ns: 0, owd_ns }));
            }
        }
    }
    finish(timed)
}

/// Sender-side events of RTT rows, ordered by ACK time. Times saturate rather than wrap, so a
/// wild timestamp shows up as a huge span (which callers should refuse), never as a panic.
pub fn rtt_events(rows: &[RttRow]) -> (Vec<Event>, i64) {
    let timed = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            (r.ack_us, i, Event::Rtt { flow: r.flow, now_ns: 0, rtt_ns: (r.rtt_us.max(0) as u64).saturating_mul(1000) })
        })
        .collect();
    finish(timed)
}

fn finish(mut timed: Vec<(i64, usize, Event)>) -> (Vec<Event>, i64) {
    timed.sort_by_key(|&(t, i, _)| (t, i));
    let origin = timed.first().map_or(0, |e| e.0);
    let events = timed
        .into_iter()
        .map(|(t, _, e)| {
            let now_ns = (t as i128 - origin as i128).clamp(0, u64::MAX as i128 / 1000) as u64 * 1000;
            match e {
                Event::Owd { flow, owd_ns, .. } => Event::Owd { flow, now_ns, owd_ns },
                Event::Loss { flow, .. } => Event::Loss { flow, now_ns },
                Event::Rtt { flow, rtt_ns, .. } => Event::Rtt { flow, now_ns, rtt_ns },
            }
        })
        .collect();
    (events, origin)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_time_ordered_relative_and_losses_take_the_flow_offset() {
        let rows = [
            OwdRow { flow: 1, send_us: 100, recv_us: 5_150, lost: false },
            OwdRow { flow: 0, send_us: 110, recv_us: 5_140, lost: false },
            OwdRow { flow: 0, send_us: 120, recv_us: 0, lost: true },
            OwdRow { flow: 0, send_us: 130, recv_us: 5_170, lost: false },
        ];
        let (ev, origin) = owd_events(&rows, 2);
        assert_eq!(origin, 5_140);
        assert_eq!(
            ev,
            [
                Event::Owd { flow: 0, now_ns: 0, owd_ns: 0 },
                Event::Owd { flow: 1, now_ns: 10_000, owd_ns: 0 },
                Event::Loss { flow: 0, now_ns: 10_000 },
                Event::Owd { flow: 0, now_ns: 30_000, owd_ns: 10_000 },
            ]
        );
    }
}
