//! The receiver fix for Linux MPTCP's held ACKs (docs/kernel.md, "The receiver fix"). A
//! subflow's receiver acknowledges a lone pushed segment at the application's read only when
//! its whole connection holds no out-of-order data (`mptcp_subflow_could_cleanup`,
//! net/mptcp/protocol.c), which with two subflows it seldom does; the held ACK leaves with the
//! delayed-ACK timer or the next segment, and the burst it then releases takes the drop
//! (docs/fidelity-notes.md, "MPTCP against TCP"). A route's `quickack 1` attribute keeps every
//! socket routed through it in quick-ACK mode (`tcp_in_quickack_mode`, net/ipv4/tcp_input.c):
//! one ACK per segment, nothing held, for TCP and subflows alike. It needs no kernel change
//! and no BPF: `on` sets it on every route of this network namespace's main tables, `off`
//! restores exactly the routes `on` changed (a state file per namespace records them).

use std::path::PathBuf;
use std::process::Command;

const STATE_DIR: &str = "/run/pathpool";

/// Words `ip -o route show` prints that `ip route change` does not take back.
const DISPLAY_ONLY: &[&str] = &["linkdown", "dead", "offload", "trap", "rt_offload", "rt_trap", "rt_offload_failed"];

fn ip(args: &[&str]) -> Result<String, String> {
    let out = Command::new("ip").args(args).output().map_err(|e| format!("cannot run `ip` (iproute2): {e}"))?;
    if !out.status.success() {
        return Err(format!("`ip {}`: {}", args.join(" "), String::from_utf8_lossy(&out.stderr).trim()));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The routes of a family's main table, as `ip route change` takes them back.
fn routes(family: &str) -> Result<Vec<String>, String> {
    let text = ip(&[family, "-o", "route", "show", "table", "main"])?;
    Ok(text.lines().map(clean).filter(|l| !l.is_empty()).collect())
}

fn clean(line: &str) -> String {
    let mut words: Vec<&str> = line.split_whitespace().filter(|w| !DISPLAY_ONLY.contains(w)).collect();
    // IPv6 routes learnt from router advertisements print their remaining lifetime.
    if let Some(i) = words.iter().position(|w| *w == "expires") {
        words.drain(i..(i + 2).min(words.len()));
    }
    words.join(" ")
}

fn has_quickack(route: &str) -> bool {
    route.split_whitespace().collect::<Vec<_>>().windows(2).any(|w| w == ["quickack", "1"])
}

fn without_quickack(route: &str) -> String {
    let words: Vec<&str> = route.split_whitespace().collect();
    let mut out = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        if words[i] == "quickack" && i + 1 < words.len() {
            i += 2;
            continue;
        }
        out.push(words[i]);
        i += 1;
    }
    out.join(" ")
}

fn change(family: &str, route: &str) -> Result<(), String> {
    let mut args = vec![family, "route", "change"];
    args.extend(route.split_whitespace());
    ip(&args).map(|_| ())
}

/// The state file of this network namespace (its inode names it).
fn state_file() -> Result<PathBuf, String> {
    let ns = std::fs::read_link("/proc/self/ns/net").map_err(|e| format!("cannot read this process's network namespace: {e}"))?;
    let id: String = ns.to_string_lossy().chars().filter(char::is_ascii_digit).collect();
    Ok(PathBuf::from(STATE_DIR).join(format!("receiver-quickack-net{id}.routes")))
}

/// Routes `ip route change` cannot name alone: a destination listed more than once in its
/// family's table (IPv6's fe80::/64 on every interface), where `change` takes the first and
/// would move it onto another device.
fn ambiguous(routes: &[String]) -> Vec<bool> {
    let dest = |r: &String| r.split_whitespace().next().unwrap_or("").to_string();
    routes.iter().map(|r| routes.iter().filter(|o| dest(o) == dest(r)).count() > 1).collect()
}

/// Sets `quickack 1` on every route of this namespace's main tables that lacks it, except
/// routes `ip route change` cannot name alone (`ambiguous`), which are left as they are;
/// returns the routes it changed. On a failure the routes already changed are restored.
pub fn receiver_on() -> Result<Vec<String>, String> {
    let state = state_file()?;
    if is_on(&state)? {
        return Err(format!("the receiver fix is already on in this network namespace ({}); `pathpool kernel receiver off` first", state.display()));
    }
    let mut changed: Vec<(&str, String)> = Vec::new();
    for family in ["-4", "-6"] {
        let all = routes(family)?;
        let skip = ambiguous(&all);
        for route in all.into_iter().zip(skip).filter(|(r, s)| !s && !has_quickack(r)).map(|(r, _)| r) {
            if let Err(e) = change(family, &format!("{route} quickack 1")) {
                for (f, r) in &changed {
                    let _ = change(f, r);
                }
                return Err(format!("setting quickack on '{route}': {e} (every route changed before it was restored)"));
            }
            changed.push((family, route));
        }
    }
    std::fs::create_dir_all(STATE_DIR).map_err(|e| format!("{STATE_DIR}: {e}"))?;
    let text: String = changed.iter().map(|(f, r)| format!("{f} {r}\n")).collect();
    if let Err(e) = std::fs::write(&state, text) {
        for (f, r) in &changed {
            let _ = change(f, r);
        }
        return Err(format!("{}: {e} (the routes were restored)", state.display()));
    }
    Ok(changed.into_iter().map(|(_, r)| r).collect())
}

/// Takes `quickack 1` off the routes `receiver_on` changed in this namespace (routes that had
/// it before keep it); returns them. Nothing to do when the fix is not on.
pub fn receiver_off() -> Result<Vec<String>, String> {
    let state = state_file()?;
    let text = match std::fs::read_to_string(&state) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("{}: {e}", state.display())),
    };
    let mut restored = Vec::new();
    let mut failed = Vec::new();
    for line in text.lines() {
        let Some((family, route)) = line.split_once(' ') else { continue };
        let current = routes(family)?.into_iter().find(|r| without_quickack(r) == route && has_quickack(r));
        match current {
            // Gone or changed by someone else since: nothing of ours to take back.
            None => {}
            Some(_) => match change(family, route) {
                Ok(()) => restored.push(route.to_string()),
                Err(e) => failed.push(e),
            },
        }
    }
    if !failed.is_empty() {
        return Err(format!("could not restore every route ({} left in {}): {}", failed.len(), state.display(), failed.join("; ")));
    }
    std::fs::remove_file(&state).map_err(|e| format!("{}: {e}", state.display()))?;
    Ok(restored)
}

/// Whether the state file's routes still carry `quickack 1` here. A namespace's inode number
/// can be reused after it is deleted, so a file whose routes are not (or no longer) here is
/// stale: it is not "on", and `receiver_on` replaces it.
fn is_on(state: &std::path::Path) -> Result<bool, String> {
    let Ok(text) = std::fs::read_to_string(state) else { return Ok(false) };
    for line in text.lines() {
        let Some((family, route)) = line.split_once(' ') else { continue };
        if routes(family)?.iter().any(|r| has_quickack(r) && without_quickack(r) == route) {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Whether the fix is on in this namespace, and the routes that carry `quickack 1`.
pub fn receiver_status() -> Result<(bool, Vec<String>), String> {
    let on = is_on(&state_file()?)?;
    let mut quick = Vec::new();
    for family in ["-4", "-6"] {
        quick.extend(routes(family)?.into_iter().filter(|r| has_quickack(r)));
    }
    Ok((on, quick))
}

/// What the `delack-max` mode's program counted in a namespace (pathpool_delack.bpf.c,
/// `pp_rx_stats`; receiver_bpf.rs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DelackStats {
    /// MPTCP subflows established here since `on`.
    pub subflows: u64,
    /// Of them, those whose delayed-ACK timer the kernel let the program cap.
    pub capped: u64,
    /// Of them, those where the kernel refused every value.
    pub refused: u64,
    /// The cap the kernel took (µs asked for; 2 jiffies), 0 before the first subflow.
    pub delack_max_us: u64,
    /// What bpf_setsockopt(TCP_QUICKACK) answered on a subflow (0 accepted, else the errno),
    /// None before the first subflow.
    pub quickack_errno: Option<u64>,
    /// Calls of the per-segment callback on the subflows (incoming segments).
    pub segments: u64,
    /// Other TCP sockets established here, left alone.
    pub others: u64,
}

/// What the `read-ack` mode's programs counted in a namespace (pathpool_read_ack.bpf.c,
/// `struct pp_ra_stats`; read_ack.rs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadAckStats {
    /// MPTCP subflows established here since `on` and moved to `pp_read_ack`.
    pub subflows: u64,
    /// MPTCP subflows left as they were because their sender did not negotiate ECN.
    pub no_ecn: u64,
    /// MPTCP subflows left on a congestion control other than cubic (chosen for sending).
    pub other_cc: u64,
    /// MPTCP subflows where the kernel refused the change of congestion control.
    pub refused: u64,
    /// Other TCP sockets established here, left alone.
    pub others: u64,
    /// Data segments `pp_read_ack` saw on its subflows.
    pub segments: u64,
    /// Read-time ACKs it sent.
    pub acks: u64,
    /// Data segments that arrived on subflows an application had moved to a congestion
    /// control other than cubic, reno or bbr after the handshake (not covered).
    pub moved_off: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn route_lines_go_back_as_ip_route_change_takes_them() {
        assert_eq!(clean("10.0.0.0/24 dev v0 proto kernel scope link src 10.0.0.1 linkdown "), "10.0.0.0/24 dev v0 proto kernel scope link src 10.0.0.1");
        assert_eq!(clean("2001:db8::/64 dev v0 proto ra metric 100 expires 1790sec pref medium"), "2001:db8::/64 dev v0 proto ra metric 100 pref medium");
        assert!(has_quickack("default via 10.0.0.1 dev v0 quickack 1"));
        assert!(!has_quickack("default via 10.0.0.1 dev v0 quickack 0"));
        assert_eq!(without_quickack("default via 10.0.0.1 dev v0 quickack 1 mtu 1400"), "default via 10.0.0.1 dev v0 mtu 1400");
        let v6 = ["fe80::/64 dev v0 proto kernel metric 256", "fe80::/64 dev v1 proto kernel metric 256", "2001:db8::/64 dev v0"].map(String::from);
        assert_eq!(ambiguous(&v6), [true, true, false]);
    }
}
