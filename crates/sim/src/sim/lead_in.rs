//! Which pipes at the start of routes are folded into the queue after them (crate::lead_in),
//! decided once before the first event, and the check that keeps routes added later from
//! breaking what that decision relied on.

use std::collections::{BTreeMap, BTreeSet};

use super::Simulation;
use crate::element::Element;
use crate::error::ConfigError;
use crate::lead_in::LeadIn;
use crate::pipe::Pipe;

impl Simulation {
    /// Folds every pipe that may be folded (crate::lead_in): an empty pipe that is the first
    /// element of every route it is on, followed there by a queue (not RED) whose every
    /// input is such a pipe, all of them of one constant delay or only this one; or, where
    /// the inputs differ, a queue followed on every route by a pipe of its own (sim/merge.rs:
    /// the queue decides each arrival once the present has passed it, and the pipe's delay
    /// leaves time for that).
    pub(super) fn fold_lead_ins(&mut self) {
        self.lead_ins_decided = true;
        if !self.fold_lead_ins {
            return;
        }
        let routes: Vec<Vec<u32>> = self.routes.routes().map(<[u32]>::to_vec).collect();
        let mut pipe_ok: Vec<bool> = self.elements.iter().map(|e| matches!(e, Element::Pipe(p) if p.is_empty())).collect();
        let mut queue_ok: Vec<bool> = self.elements.iter().map(|e| matches!(e, Element::Queue(q) if !q.is_red())).collect();
        let pipe = |e: u32| match &self.elements[e as usize] {
            Element::Pipe(p) => p,
            _ => unreachable!("element {e} is not a pipe"),
        };
        let mut merged = BTreeSet::new();
        loop {
            let mut changed = false;
            merged.clear();
            let mut inputs: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
            for r in &routes {
                let second = r.get(1).copied();
                for (i, &e) in r.iter().enumerate() {
                    let placed = if pipe_ok[e as usize] {
                        i == 0 && second.is_some_and(|q| queue_ok[q as usize])
                    } else if queue_ok[e as usize] {
                        i == 1 && pipe_ok[r[0] as usize]
                    } else {
                        true
                    };
                    if !placed {
                        pipe_ok[e as usize] = false;
                        queue_ok[e as usize] = false;
                        changed = true;
                    }
                }
                if let (Some(q), true) = (second, pipe_ok[r[0] as usize]) {
                    inputs.entry(q).or_default().insert(r[0]);
                }
            }
            for (q, pipes) in inputs {
                let first = pipe(*pipes.first().expect("a queue with inputs"));
                let one_delay = pipes.iter().all(|&p| !pipe(p).has_jitter() && pipe(p).delay() == first.delay());
                if queue_ok[q as usize] && pipes.len() > 1 && !one_delay {
                    if self.own_pipe_after(q, &routes).is_some() {
                        merged.insert(q);
                    } else {
                        queue_ok[q as usize] = false;
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        for r in &routes {
            if pipe_ok[r[0] as usize] {
                self.lead_ins.insert((r[0], r[1]));
            }
        }
        for &(p, q) in &self.lead_ins {
            if let Element::Pipe(_) = &self.elements[p as usize] {
                let Element::Pipe(pipe) = std::mem::replace(&mut self.elements[p as usize], Element::Pipe(Pipe::new(0))) else { unreachable!() };
                self.elements[p as usize] = Element::LeadIn(LeadIn::from_pipe(pipe));
            }
            if let Element::Queue(queue) = &mut self.elements[q as usize] {
                if queue.is_fed_ahead() {
                    continue;
                }
                if merged.contains(&q) {
                    queue.merge_inputs();
                } else {
                    queue.feed_ahead();
                }
            }
        }
        for &q in &merged {
            let (pipe, delay) = self.own_pipe_after(q, &routes).expect("checked above");
            self.merge.add_queue(q, pipe, delay);
        }
    }

    /// The pipe that follows queue `q` on every route through it and its delay, if there is
    /// one pipe that does, of a delay above zero and without jitter, and it is on no route
    /// other than right after `q`: then an arrival at `q` decided up to that delay after its
    /// time still leaves the queue and reaches the pipe's far end in the future, and nothing
    /// else enters the pipe meanwhile (sim/merge.rs).
    fn own_pipe_after(&self, q: u32, routes: &[Vec<u32>]) -> Option<(u32, crate::time::Time)> {
        let mut after = None;
        for r in routes {
            for (i, &e) in r.iter().enumerate() {
                if e == q {
                    let next = *r.get(i + 1)?;
                    if after.is_some_and(|a| a != next) {
                        return None;
                    }
                    after = Some(next);
                }
            }
        }
        let pipe = after?;
        let Element::Pipe(p) = &self.elements[pipe as usize] else { return None };
        if p.delay() == 0 || p.has_jitter() {
            return None;
        }
        let only_after_q = routes.iter().all(|r| r.iter().enumerate().all(|(i, &e)| e != pipe || (i > 0 && r[i - 1] == q)));
        only_after_q.then(|| (pipe, p.delay()))
    }

    /// A route added after the fold (`route`, without its endpoint) may reach a folded pipe or
    /// its queue only as the routes before it did: as their first two elements.
    pub(super) fn check_folded(&self, what: &str, hops: &[u32]) -> Result<(), ConfigError> {
        for (i, &e) in hops.iter().enumerate() {
            let folded = match &self.elements[e as usize] {
                Element::LeadIn(_) => true,
                Element::Queue(q) => q.is_fed_ahead(),
                Element::Pipe(_) => self.merge.pipe_after_queue(e).is_some(),
                _ => false,
            };
            let as_before = match self.merge.pipe_after_queue(e) {
                // A merged queue's own pipe: only right after that queue, reached as before.
                Some(q) => i == 2 && hops[1] == q && self.lead_ins.contains(&(hops[0], hops[1])),
                None => i < 2 && hops.len() >= 2 && self.lead_ins.contains(&(hops[0], hops[1])),
            };
            if folded && !as_before {
                return Err(ConfigError(format!(
                    "{what}: element {e} is a host's delay folded into the queue after it, that queue, or a merged queue's own pipe, since the run began (docs/simulator.md, \"Host delays without events\"); a route added later may pass it only as a route added before the run did (its first two elements, and a merged queue's pipe right after them)"
                )));
            }
        }
        Ok(())
    }
}
