//! The packet pool: packets are recycled through a free list, so the steady state of a run
//! allocates nothing per packet.

use crate::packet::{Packet, PacketId};

pub struct PacketPool {
    packets: Vec<Packet>,
    free: Vec<PacketId>,
}

impl Default for PacketPool {
    fn default() -> Self {
        Self::new()
    }
}

impl PacketPool {
    pub fn new() -> Self {
        PacketPool { packets: Vec::with_capacity(4096), free: Vec::with_capacity(4096) }
    }

    /// A packet initialised to `p`.
    #[inline]
    pub fn alloc(&mut self, p: Packet) -> PacketId {
        match self.free.pop() {
            Some(id) => {
                self.packets[id as usize] = p;
                id
            }
            None => {
                self.packets.push(p);
                (self.packets.len() - 1) as PacketId
            }
        }
    }

    #[inline]
    pub fn free(&mut self, id: PacketId) {
        self.free.push(id);
    }

    /// Hints the CPU to load packet `id` into cache.
    #[inline(always)]
    pub fn prefetch(&self, id: PacketId) {
        if let Some(p) = self.packets.get(id as usize) {
            prefetch(p as *const Packet as *const u8);
        }
    }

    #[inline(always)]
    pub fn get(&self, id: PacketId) -> &Packet {
        &self.packets[id as usize]
    }

    #[inline(always)]
    pub fn get_mut(&mut self, id: PacketId) -> &mut Packet {
        &mut self.packets[id as usize]
    }

    /// Packets currently in use (allocated and not freed).
    pub fn in_use(&self) -> usize {
        self.packets.len() - self.free.len()
    }

    /// The most packets ever in use at once.
    pub fn high_water(&self) -> usize {
        self.packets.len()
    }
}

/// A read prefetch of the cache line at `ptr` (no effect on other architectures).
#[inline(always)]
pub fn prefetch(ptr: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching is a hint; it never faults, whatever the address.
    unsafe {
        core::arch::x86_64::_mm_prefetch(ptr as *const i8, core::arch::x86_64::_MM_HINT_T0);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = ptr;
}
