//! Parameters of the RFC 8382 detector and its presets (docs/sbd.md "Parameters and
//! presets", §11.12, §11.13, §11.17, §11.23).

/// How the loss statistic enters the grouping (§11 item 12 / 19).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LossSplit {
    /// RFC 8382 §3.3.1 step 5: after the skew split, groups containing a flow with
    /// `pkt_loss > p_l` are split again by loss.
    AfterSkew,
    /// SBD-01 / [S0]: a group containing a flow with `pkt_loss > p_l` is split by loss
    /// *instead of* by skew.
    ReplacesSkew,
}

/// Default `corr_min`, fixed before the split was measured: flows behind one queue correlate
/// near 1 (docs/validation.md measured 1.00 over whole traces), independent queues near 0
/// (-0.24 to +0.18); 0.5 sits between with room for the noise of a 50-interval window.
pub const CORR_MIN: f64 = 0.5;

/// Defaults of the change test (docs/sbd.md, "Faster transitions", where the sweep that chose
/// them is written): a recent window of 8 intervals (2.8 s) of E_T; a pair moving together
/// changes below a recent co-movement of 0.2, a pair apart at 0.95; the recent window is
/// judged only when it carries at least half the reference's energy per interval; the change
/// must hold 2 intervals in a row; and it restarts the pair's whole groups. A pair moving
/// together also parts when the discord of its recent window (the spread of the difference of
/// its deviations) reaches 10 times the reference's, and a parted pair keeps its RFC 8382
/// statistics (only its correlation memory restarts).
pub const CHANGE_WINDOW: usize = 8;
pub const CHANGE_LOW: f64 = 0.2;
pub const CHANGE_HIGH: f64 = 0.95;
pub const CHANGE_ENERGY: f64 = 0.5;
pub const CHANGE_CONFIRM: usize = 2;
pub const CHANGE_DISCORD: f64 = 10.0;
pub const CHANGE_KEEP_STATS: bool = true;
pub const CHANGE_GROUPS: bool = true;

/// Every tunable of the RFC 8382 detector. Times are in nanoseconds.
#[derive(Clone, Debug, PartialEq)]
pub struct SbdParams {
    /// Base interval T.
    pub t_ns: u64,
    /// Intervals kept for freq_est and pkt_loss (and the buffer length).
    pub n: usize,
    /// Intervals used for mean_delay, skew_est and var_est (M <= N).
    pub m: usize,
    /// Flat part of the responsiveness weights (F <= M; F = M means a plain average).
    pub f: usize,
    pub c_s: f64,
    pub c_h: f64,
    pub p_l: f64,
    pub p_f: f64,
    pub p_mad: f64,
    pub p_s: f64,
    pub p_d: f64,
    pub p_v: f64,
    pub loss_split: LossSplit,
    /// RFC 8382 §4.2 oscillation-noise removal.
    pub noise_removal: bool,
    /// No observation before this many intervals have closed (warm-up, §11 item 23).
    pub min_intervals: usize,
    /// Estimate and remove the relative clock skew (RFC 8382 §5.2).
    pub skew_removal: bool,
    /// Intervals over which the clock skew is fitted (lower envelope of per-interval minima).
    pub skew_window: usize,
    /// Extension, not in RFC 8382 or [S0]: split groups whose flows' interval means do not
    /// move together (`crate::correlation`). Off in both presets.
    pub corr_split: bool,
    /// Least detrended correlation of the last N interval means that keeps two flows together.
    pub corr_min: f64,
    /// Extension, not in RFC 8382 or [S0]: restart the memory of flows whose bottleneck
    /// changed (`crate::change`). Off in `rfc8382` and `mptcp-sbd`, on in `pathpool`.
    pub change_detect: bool,
    /// The change test's recent window in intervals (what a restart keeps).
    pub change_window: usize,
    /// A pair moving together changes when its recent co-movement falls below this.
    pub change_low: f64,
    /// A pair not moving together changes when its recent co-movement reaches this.
    pub change_high: f64,
    /// The recent window is tested only when its deviations carry at least this share of the
    /// reference window's energy per interval (a quiet spell is not evidence of a change).
    pub change_energy: f64,
    /// A pair moving together also changes when the discord of its recent window reaches
    /// this multiple of the reference's (`crate::change`; 0: off).
    pub change_discord: f64,
    /// Consecutive intervals a change must hold before the memory restarts.
    pub change_confirm: usize,
    /// A change restarts every flow of the changed pair's groups, not only the pair.
    pub change_groups: bool,
    /// A pair that stopped moving together restarts only its correlation memory, not its
    /// RFC 8382 statistics (`crate::change`).
    pub change_keep_stats: bool,
}

/// The largest memory (`n`, `skew_window`) a detector takes: RFC 8382 suggests N = 50
/// intervals; 100 000 is about 10 hours of 350 ms intervals.
pub const MAX_N: usize = 100_000;
/// The longest interval `t_ms` (60 s; RFC 8382 suggests 350 ms).
pub const MAX_T_NS: u64 = 60_000_000_000;

impl SbdParams {
    /// RFC 8382 §2.2 values; p_l = 0.1 (not given in the RFC, §11 item 13); M/F weighting and
    /// noise removal on (RFC SHOULDs); loss refines the skew split (step 5); no grouping before
    /// 2·M intervals (RFC §3.3.1).
    pub fn rfc8382() -> Self {
        SbdParams {
            t_ns: 350_000_000,
            n: 50,
            m: 30,
            f: 20,
            c_s: 0.1,
            c_h: 0.3,
            p_l: 0.1,
            p_f: 0.1,
            p_mad: 0.1,
            p_s: 0.15,
            p_d: 0.1,
            p_v: 0.7,
            loss_split: LossSplit::AfterSkew,
            noise_removal: true,
            min_intervals: 60,
            skew_removal: false,
            skew_window: 200,
            corr_split: false,
            corr_min: CORR_MIN,
            change_detect: false,
            change_window: CHANGE_WINDOW,
            change_low: CHANGE_LOW,
            change_high: CHANGE_HIGH,
            change_energy: CHANGE_ENERGY,
            change_discord: CHANGE_DISCORD,
            change_confirm: CHANGE_CONFIRM,
            change_groups: CHANGE_GROUPS,
            change_keep_stats: CHANGE_KEEP_STATS,
        }
    }

    /// [S0] Table I / SBD-01 as MPTCP-SBD used it: M = N, F = M (no weighting), no noise
    /// removal, loss replaces skew, observations from the first closed interval (§11 items 12,
    /// 17, 23).
    pub fn mptcp_sbd() -> Self {
        SbdParams {
            t_ns: 350_000_000,
            n: 50,
            m: 50,
            f: 50,
            c_s: -0.01,
            c_h: 0.3,
            p_l: 0.1,
            p_f: 0.1,
            p_mad: 0.1,
            p_s: 0.1,
            p_d: 0.1,
            p_v: 0.7,
            loss_split: LossSplit::ReplacesSkew,
            noise_removal: false,
            min_intervals: 1,
            skew_removal: false,
            skew_window: 200,
            corr_split: false,
            corr_min: CORR_MIN,
            change_detect: false,
            change_window: CHANGE_WINDOW,
            change_low: CHANGE_LOW,
            change_high: CHANGE_HIGH,
            change_energy: CHANGE_ENERGY,
            change_discord: CHANGE_DISCORD,
            change_confirm: CHANGE_CONFIRM,
            change_groups: CHANGE_GROUPS,
            change_keep_stats: CHANGE_KEEP_STATS,
        }
    }

    /// pathpool's recommended detector (not a published algorithm): `mptcp-sbd` with the
    /// delay-correlation split and the bottleneck-change detector, chosen by measurement
    /// (docs/sbd.md, "The pathpool preset").
    pub fn pathpool() -> Self {
        SbdParams { corr_split: true, change_detect: true, ..Self::mptcp_sbd() }
    }

    /// Names accepted by [`SbdParams::preset`].
    pub const PRESETS: &'static [&'static str] = &["rfc8382", "mptcp-sbd", "pathpool"];

    /// The preset of that name (one of [`SbdParams::PRESETS`]).
    pub fn preset(name: &str) -> Option<Self> {
        match name {
            "rfc8382" => Some(Self::rfc8382()),
            "mptcp-sbd" => Some(Self::mptcp_sbd()),
            "pathpool" => Some(Self::pathpool()),
            _ => None,
        }
    }

    /// The change test's parameters.
    pub fn change(&self) -> crate::change::ChangeParams {
        crate::change::ChangeParams {
            window: self.change_window,
            low: self.change_low,
            high: self.change_high,
            energy: self.change_energy,
            discord: self.change_discord,
            confirm: self.change_confirm,
            whole_groups: self.change_groups,
            keep_stats: self.change_keep_stats,
        }
    }

    /// Names accepted by [`SbdParams::set`], in the order of [`SbdParams::entries`].
    pub const NAMES: &'static [&'static str] = &names(&TABLE);

    /// Overrides one parameter by name. Booleans take 0/1 or true/false.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let Some(param) = TABLE.iter().find(|p| p.name == name) else {
            return Err(format!("unknown parameter '{name}'; valid: {}", Self::NAMES.join(", ")));
        };
        let v = param.kind.parse(name, value)?;
        (param.put)(self, v);
        Ok(())
    }

    /// Checks the relations between parameters; the error names the offending one.
    pub fn validate(&self) -> Result<(), String> {
        if self.t_ns == 0 {
            return Err("t_ms: must be positive".into());
        }
        // Upper bounds before anything is allocated: the detector keeps n intervals per flow
        // (and n x n pairs), so an n of 10^8 would abort on allocation instead of answering.
        if self.t_ns > MAX_T_NS {
            return Err(format!("t_ms: at most {} ms, got {} ms", MAX_T_NS / 1_000_000, self.t_ns as f64 / 1e6));
        }
        if self.n < 2 || self.n > MAX_N {
            return Err(format!("n: must be in 2..={MAX_N}, got {}", self.n));
        }
        if self.m < 2 || self.m > self.n {
            return Err(format!("m: must be in 2..=n ({}), got {}", self.n, self.m));
        }
        if self.f < 1 || self.f > self.m {
            return Err(format!("f: must be in 1..=m ({}), got {}", self.m, self.f));
        }
        if !(-1.0..=1.0).contains(&self.corr_min) {
            return Err(format!("corr_min: must be a correlation in [-1, 1], got {}", self.corr_min));
        }
        let most = self.m.min(self.n / 2);
        if self.change_detect && !(2..=most).contains(&self.change_window) {
            return Err(format!("change_window: must be in 2..=min(m, n/2) ({most}), got {}", self.change_window));
        }
        for (name, v) in [("change_low", self.change_low), ("change_high", self.change_high)] {
            if !(-1.0..=1.0).contains(&v) {
                return Err(format!("{name}: must be a co-movement in [-1, 1], got {v}"));
            }
        }
        if !(self.change_energy >= 0.0 && self.change_energy.is_finite()) {
            return Err(format!("change_energy: must be a share >= 0, got {}", self.change_energy));
        }
        if !(self.change_discord >= 0.0 && self.change_discord.is_finite()) {
            return Err(format!("change_discord: must be a ratio >= 0 (0: off), got {}", self.change_discord));
        }
        if self.change_detect && !(1..=u16::MAX as usize).contains(&self.change_confirm) {
            return Err(format!("change_confirm: must be in 1..={}, got {}", u16::MAX, self.change_confirm));
        }
        if self.skew_removal && !(4..=MAX_N).contains(&self.skew_window) {
            return Err(format!("skew_window: must be in 4..={MAX_N}, got {}", self.skew_window));
        }
        for (name, v) in [
            ("c_s", self.c_s),
            ("c_h", self.c_h),
            ("p_l", self.p_l),
            ("p_f", self.p_f),
            ("p_mad", self.p_mad),
            ("p_s", self.p_s),
            ("p_d", self.p_d),
            ("p_v", self.p_v),
        ] {
            if !v.is_finite() {
                return Err(format!("{name}: must be finite"));
            }
        }
        Ok(())
    }

    /// (name, value) pairs for reports, in [`SbdParams::NAMES`] order.
    pub fn entries(&self) -> Vec<(&'static str, f64)> {
        TABLE.iter().map(|p| (p.name, (p.get)(self))).collect()
    }
}

/// How a parameter's text is read.
#[derive(Clone, Copy)]
enum Kind {
    /// A positive duration in ms, stored in ns.
    Millis,
    /// A non-negative integer.
    Count,
    /// Any number (relations are checked by `validate`).
    Number,
    /// 0/1 or true/false.
    Flag,
}

impl Kind {
    fn parse(self, name: &str, value: &str) -> Result<f64, String> {
        let t = value.trim();
        match self {
            Kind::Millis => match t.parse::<f64>() {
                Ok(v) if v > 0.0 && v.is_finite() && (v * 1e6).round() >= 1.0 => Ok(v),
                _ => Err(format!("{name}: expected a positive number of milliseconds (at least 0.000001), got '{value}'")),
            },
            Kind::Count => {
                t.parse::<usize>().map(|v| v as f64).map_err(|_| format!("{name}: expected a non-negative integer, got '{value}'"))
            }
            Kind::Number => t.parse::<f64>().map_err(|_| format!("{name}: expected a number, got '{value}'")),
            Kind::Flag => match t {
                "1" | "true" => Ok(1.0),
                "0" | "false" => Ok(0.0),
                _ => Err(format!("{name}: expected 0/1 or true/false, got '{value}'")),
            },
        }
    }
}

/// One named parameter: how it is read, and where it lives in [`SbdParams`].
struct Param {
    name: &'static str,
    kind: Kind,
    get: fn(&SbdParams) -> f64,
    put: fn(&mut SbdParams, f64),
}

/// A table row for a field of [`SbdParams`] of the given kind.
macro_rules! param {
    ($name:literal, Count, $field:ident) => {
        Param { name: $name, kind: Kind::Count, get: |p| p.$field as f64, put: |p, v| p.$field = v as usize }
    };
    ($name:literal, Number, $field:ident) => {
        Param { name: $name, kind: Kind::Number, get: |p| p.$field, put: |p, v| p.$field = v }
    };
    ($name:literal, Flag, $field:ident) => {
        Param { name: $name, kind: Kind::Flag, get: |p| p.$field as u8 as f64, put: |p, v| p.$field = v != 0.0 }
    };
}

/// The one list of parameter names (`--param`, scenario keys, reports), in report order.
const TABLE: [Param; 28] = [
    Param { name: "t_ms", kind: Kind::Millis, get: |p| p.t_ns as f64 / 1e6, put: |p, v| p.t_ns = (v * 1e6).round() as u64 },
    param!("n", Count, n),
    param!("m", Count, m),
    param!("f", Count, f),
    param!("c_s", Number, c_s),
    param!("c_h", Number, c_h),
    param!("p_l", Number, p_l),
    param!("p_f", Number, p_f),
    param!("p_mad", Number, p_mad),
    param!("p_s", Number, p_s),
    param!("p_d", Number, p_d),
    param!("p_v", Number, p_v),
    Param {
        name: "loss_replaces_skew",
        kind: Kind::Flag,
        get: |p| (p.loss_split == LossSplit::ReplacesSkew) as u8 as f64,
        put: |p, v| p.loss_split = if v != 0.0 { LossSplit::ReplacesSkew } else { LossSplit::AfterSkew },
    },
    param!("noise_removal", Flag, noise_removal),
    param!("min_intervals", Count, min_intervals),
    param!("skew_removal", Flag, skew_removal),
    param!("skew_window", Count, skew_window),
    param!("corr_split", Flag, corr_split),
    param!("corr_min", Number, corr_min),
    param!("change_detect", Flag, change_detect),
    param!("change_window", Count, change_window),
    param!("change_low", Number, change_low),
    param!("change_high", Number, change_high),
    param!("change_energy", Number, change_energy),
    param!("change_confirm", Count, change_confirm),
    param!("change_discord", Number, change_discord),
    param!("change_groups", Flag, change_groups),
    param!("change_keep_stats", Flag, change_keep_stats),
];

const fn names<const N: usize>(table: &[Param; N]) -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = table[i].name;
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_match_their_sources() {
        let r = SbdParams::rfc8382();
        assert_eq!((r.n, r.m, r.f, r.c_s, r.p_s), (50, 30, 20, 0.1, 0.15));
        let s = SbdParams::mptcp_sbd();
        assert_eq!((s.t_ns, s.n, s.m, s.f, s.c_s, s.c_h), (350_000_000, 50, 50, 50, -0.01, 0.3));
        assert_eq!((s.p_f, s.p_s, s.p_v, s.p_mad, s.p_d, s.p_l), (0.1, 0.1, 0.7, 0.1, 0.1, 0.1));
        assert!(r.validate().is_ok() && s.validate().is_ok());
    }

    #[test]
    fn set_rejects_unknown_names_listing_the_valid_ones() {
        let mut p = SbdParams::mptcp_sbd();
        let e = p.set("p_x", "1").unwrap_err();
        assert!(e.contains("p_x") && e.contains("p_mad") && e.contains("skew_removal"));
        p.set("t_ms", "100").unwrap();
        assert_eq!(p.t_ns, 100_000_000);
        assert!(p.set("n", "-3").is_err());
        p.set("m", "60").unwrap();
        assert!(p.validate().unwrap_err().starts_with("m:"));
    }
}
