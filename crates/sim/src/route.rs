//! Interned routes. A route is the list of elements a packet visits, ending at the
//! receiving endpoint; a packet carries (route id, next hop index). Identical routes share
//! one entry. All routes live in one flat array, and a route's id is where it starts there,
//! so finding a packet's next element is one read.

use std::collections::BTreeMap;

pub struct RouteTable {
    hops: Vec<u32>,
    /// Build-time interning only; the hot path never looks here.
    index: BTreeMap<Vec<u32>, u32>,
}

impl Default for RouteTable {
    fn default() -> Self {
        Self::new()
    }
}

impl RouteTable {
    pub fn new() -> Self {
        RouteTable { hops: Vec::new(), index: BTreeMap::new() }
    }

    pub fn intern(&mut self, elements: &[u32]) -> u32 {
        if let Some(&id) = self.index.get(elements) {
            return id;
        }
        let id = self.hops.len() as u32;
        self.hops.extend_from_slice(elements);
        self.index.insert(elements.to_vec(), id);
        id
    }

    /// Every route, as its elements (build time only).
    pub fn routes(&self) -> impl Iterator<Item = &[u32]> + '_ {
        self.index.keys().map(Vec::as_slice)
    }

    /// Element at position `hop` of `route`. Routes end at an endpoint, which forwards
    /// nothing, so `hop` stays within the route.
    #[inline(always)]
    pub fn hop(&self, route: u32, hop: u16) -> u32 {
        self.hops[route as usize + hop as usize]
    }
}
