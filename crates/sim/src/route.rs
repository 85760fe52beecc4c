//! Interned routes. A route is the list of elements a packet visits, ending at the
//! receiving endpoint; a packet carries (route id, next hop index). Identical routes share
//! one entry. All routes live in one flat array.

use std::collections::BTreeMap;

pub struct RouteTable {
    hops: Vec<u32>,
    /// (offset into `hops`, length) per route.
    spans: Vec<(u32, u32)>,
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
        RouteTable { hops: Vec::new(), spans: Vec::new(), index: BTreeMap::new() }
    }

    pub fn intern(&mut self, elements: &[u32]) -> u32 {
        if let Some(&id) = self.index.get(elements) {
            return id;
        }
        let id = self.spans.len() as u32;
        self.spans.push((self.hops.len() as u32, elements.len() as u32));
        self.hops.extend_from_slice(elements);
        self.index.insert(elements.to_vec(), id);
        id
    }

    /// Element at position `hop` of `route`.
    #[inline(always)]
    pub fn hop(&self, route: u32, hop: u16) -> u32 {
        let (off, len) = self.spans[route as usize];
        debug_assert!((hop as u32) < len, "packet ran off the end of route {route}");
        self.hops[(off + hop as u32) as usize]
    }
}
