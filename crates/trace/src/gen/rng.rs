//! The generator's random streams: `pathpool_rng::Rng` (shared with the simulator), one per
//! component (queue, flow) seeded with `Rng::for_component(seed, component id)`, so adding a
//! flow does not change the numbers another one sees.

pub use pathpool_rng::Rng;
