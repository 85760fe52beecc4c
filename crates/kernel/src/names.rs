//! The controllers' names, and which scenario `cc` selects which.

/// The struct_ops congestion controls the BPF object registers (TCP_CA_NAME_MAX is 16).
pub const CONTROLLERS: [&str; 4] = ["pathpool_lia", "pathpool_olia", "pathpool_balia", "pathpool_sbd"];

/// The kernel controller for a scenario's `cc` on an MPTCP flow, if it is one of ours.
pub fn controller_for(cc: &str) -> Option<&'static str> {
    match cc {
        "lia" => Some("pathpool_lia"),
        "olia" => Some("pathpool_olia"),
        "balia" => Some("pathpool_balia"),
        "sbd" | "mptcp-sbd" => Some("pathpool_sbd"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_fit_the_kernel_limit_and_map_from_scenario_names() {
        for n in CONTROLLERS {
            assert!(n.len() < 16, "{n} exceeds TCP_CA_NAME_MAX");
        }
        assert_eq!(controller_for("olia"), Some("pathpool_olia"));
        assert_eq!(controller_for("mptcp-sbd"), Some("pathpool_sbd"));
        assert_eq!(controller_for("reno"), None);
    }
}
