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
    /// input is such a pipe, all of them of one constant delay or only this one.
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
        loop {
            let mut changed = false;
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
                    queue_ok[q as usize] = false;
                    changed = true;
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
                if !queue.is_fed_ahead() {
                    queue.feed_ahead();
                }
            }
        }
    }

    /// A route added after the fold (`route`, without its endpoint) may reach a folded pipe or
    /// its queue only as the routes before it did: as their first two elements.
    pub(super) fn check_folded(&self, what: &str, hops: &[u32]) -> Result<(), ConfigError> {
        for (i, &e) in hops.iter().enumerate() {
            let folded = match &self.elements[e as usize] {
                Element::LeadIn(_) => true,
                Element::Queue(q) => q.is_fed_ahead(),
                _ => false,
            };
            let as_before = i < 2 && hops.len() >= 2 && self.lead_ins.contains(&(hops[0], hops[1]));
            if folded && !as_before {
                return Err(ConfigError(format!(
                    "{what}: element {e} is a host's delay folded into the queue after it, or that queue, since the run began (docs/simulator.md, \"Host delays without events\"); a route added later may pass it only as the first two elements of a route added before the run"
                )));
            }
        }
        Ok(())
    }
}
