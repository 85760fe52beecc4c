//! A plan brought up: the namespaces with their sysctls, addresses, routes and queues, the
//! TUN devices of every link and the delay element between them. Dropping it takes it all
//! down again (the element first, then the devices, then the namespaces).

use crate::capture::Capture;
use crate::delay::{DelayElement, Direction};
use crate::netns::{self, Namespaces};
use crate::plan::Plan;
use crate::{in_namespace, Result};
use pathpool_experiment::schema::DirectionSpec;
use std::fs::File;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

pub struct Network {
    // Fields drop in this order: the element stops before its devices close, and the
    // devices before their namespaces go (the last two are held only to be dropped).
    pub delay: DelayElement,
    _ends: Vec<(Arc<File>, Arc<File>)>,
    _namespaces: Namespaces,
    /// Namespace of each node of the plan (`plan.nodes` order).
    pub names: Vec<String>,
}

impl Network {
    /// Builds `plan`'s network; `seed` seeds each direction's loss draws; `capture`: a folder
    /// for one pcap per link direction (`LINK.pcap`, `LINK.reverse.pcap`).
    pub fn build<S>(plan: &Plan<S>, seed: u64, capture: Option<&Path>) -> Result<Network> {
        netns::catch_interrupts();
        let mut namespaces = Namespaces::new();
        for i in 0..plan.nodes.len() {
            namespaces.create(i)?;
        }
        let names: Vec<String> = namespaces.names().to_vec();
        for (i, ns) in names.iter().enumerate() {
            let lines = plan.sysctls[i].clone();
            in_namespace(ns, move || {
                for (key, value) in &lines {
                    let path = format!("/proc/sys/net/{key}");
                    std::fs::write(&path, value).map_err(|e| crate::NetlabError(format!("writing {value} to {path}: {e}")))?;
                }
                Ok(())
            })?;
        }
        // Both ends of every link, opened by a thread inside the end's namespace.
        let mut ends: Vec<(Arc<File>, Arc<File>)> = Vec::new();
        let mut up: Vec<Vec<String>> = vec![Vec::new(); plan.nodes.len()];
        for link in &plan.links {
            let open = |node: usize| -> Result<Arc<File>> {
                let dev = link.device.clone();
                in_namespace(&names[node], move || crate::tun::open(&dev).map(Arc::new))
            };
            ends.push((open(link.from)?, open(link.to)?));
            for node in [link.from, link.to] {
                up[node].push(format!("link set {} mtu {} up", link.device, link.mtu));
            }
        }
        for (i, ns) in names.iter().enumerate() {
            let mut lines = up[i].clone();
            lines.extend(plan.ip_lines[i].iter().cloned());
            netns::batch("ip", ns, &lines)?;
            netns::batch("tc", ns, &plan.tc_lines[i])?;
        }
        let mut directions = Vec::new();
        for (k, (link, (from, to))) in plan.links.iter().zip(&ends).enumerate() {
            let dir = |input: &Arc<File>, output: &Arc<File>, spec: Option<&DirectionSpec>, j: u64| -> Result<Direction> {
                let name = if j == 0 { link.name.clone() } else { format!("{}.reverse", link.name) };
                let capture = match (capture, spec) {
                    (Some(folder), Some(_)) => Some(Capture::create(&folder.join(format!("{name}.pcap")))?),
                    _ => None,
                };
                Ok(Direction {
                    input: input.clone(),
                    output: spec.map(|_| output.clone()),
                    delay: Duration::from_nanos(spec.map_or(0, |d| d.delay / 1000)),
                    loss: spec.map_or(0.0, |d| d.loss),
                    seed: seed ^ (2 * k as u64 + j).wrapping_mul(0x9e37_79b9_7f4a_7c15),
                    capture,
                })
            };
            directions.push(dir(from, to, Some(&link.forward), 0)?);
            directions.push(dir(to, from, link.reverse.as_ref(), 1)?);
        }
        let delay = DelayElement::start(directions);
        Ok(Network { delay, _ends: ends, _namespaces: namespaces, names })
    }

    /// Stops the delay element; returns the packets it dropped per direction (the loss
    /// draws), in `plan.links` order: forward, reverse.
    pub fn stop(&mut self) -> Vec<u64> {
        self.delay.stop();
        self.delay.counters.iter().map(|c| c.lost.load(Ordering::Relaxed)).collect()
    }
}
