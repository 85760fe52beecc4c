//! A timer that is re-armed far more often than it fires (the RTO is pushed back on every
//! ACK). Re-arming to a later deadline schedules nothing: the pending event fires, sees the
//! deadline has moved and schedules itself again. So a flow costs about one timer event per
//! RTO interval instead of one per ACK.

use crate::ctx::Ctx;
use crate::event::EventKind;
use crate::time::Time;

#[derive(Clone, Debug)]
pub struct LazyTimer {
    kind: EventKind,
    deadline: Option<Time>,
    /// Time of the event this timer relies on (u64::MAX: none pending).
    scheduled: Time,
}

impl LazyTimer {
    pub fn new(kind: EventKind) -> Self {
        LazyTimer { kind, deadline: None, scheduled: Time::MAX }
    }

    pub fn is_armed(&self) -> bool {
        self.deadline.is_some()
    }

    #[inline]
    pub fn arm(&mut self, at: Time, ctx: &mut Ctx) {
        self.deadline = Some(at);
        if self.scheduled > at {
            ctx.schedule(at, self.kind);
            self.scheduled = at;
        }
    }

    #[inline]
    pub fn cancel(&mut self) {
        self.deadline = None;
    }

    /// Handles one of this timer's events; true if the timer expired (it is then disarmed).
    pub fn on_event(&mut self, ctx: &mut Ctx) -> bool {
        if ctx.now == self.scheduled {
            self.scheduled = Time::MAX;
        }
        match self.deadline {
            Some(d) if d <= ctx.now => {
                self.deadline = None;
                true
            }
            Some(d) => {
                if self.scheduled > d {
                    ctx.schedule(d, self.kind);
                    self.scheduled = d;
                }
                false
            }
            None => false,
        }
    }
}
