//! Random drop in the last slots of the buffer, to break the phase effects of plain
//! drop-tail (S1 §5.2 uses the last three slots with drop probability 1/3): an arrival that
//! would occupy one of the last `slots` places of the buffer is dropped with probability
//! `prob`; a full buffer drops every arrival.

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RandomTailParams {
    pub slots: u32,
    pub prob: f64,
}

impl Default for RandomTailParams {
    fn default() -> Self {
        RandomTailParams { slots: 3, prob: 1.0 / 3.0 }
    }
}

impl RandomTailParams {
    pub fn validate(&self) -> Result<(), String> {
        if !(0.0..=1.0).contains(&self.prob) {
            return Err(format!("random tail drop prob must be in [0, 1], got {}", self.prob));
        }
        Ok(())
    }

    /// True if an arrival of `size` bytes lands in the random-drop zone. `used`/`capacity`
    /// are in packets (packet buffers) or bytes (byte buffers, where a slot is the size of
    /// the arriving packet).
    pub fn in_drop_zone(&self, used: u64, capacity: u64, size: u64, byte_buffer: bool) -> bool {
        let slot = if byte_buffer { size } else { 1 };
        used + slot > capacity.saturating_sub(self.slots as u64 * slot)
    }
}
