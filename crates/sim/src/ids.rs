//! The numbers that name an element of the simulated network and a flow.

/// An element of the simulated network (index into the arena).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ElementId(pub u32);

/// A flow (TCP or UDP), numbered in creation order from 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FlowId(pub u32);
