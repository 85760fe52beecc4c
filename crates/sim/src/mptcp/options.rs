//! MPTCP-SBD's two TCP options in their on-wire byte layout (S0 §III; the layout of the
//! public kernel port of the MPTCP-SBD patch, see docs/algorithms.md):
//!
//! ```text
//! MP_TIMESTAMP  kind=30 len=8 | subtype=8 (4 bits) rsv (12 bits) | L (1 bit) time_us mod 2^31 (31 bits)
//! MP_GROUP      kind=30 len=8 | subtype=9 (4 bits) rsv (12 bits) | epoch (8) | group (8) | flow_id (16)
//! ```
//! Multi-byte fields are in network byte order. `L` marks one loss the sender signals
//! incrementally; group 99 means "not congested"; epoch 0 means "no decision yet", so epochs
//! wrap from 255 to 1.

/// TCP option kind of MPTCP (RFC 8684 §2).
pub const MPTCP_KIND: u8 = 30;
pub const SUBTYPE_TIMESTAMP: u8 = 8;
pub const SUBTYPE_GROUP: u8 = 9;
pub const OPTION_LEN: usize = 8;
/// Group value the receiver sends for a subflow that is not congested.
pub const GROUP_NOT_CONGESTED: u8 = 99;
/// Timestamps are microseconds modulo 2^31 (wraps after about 35.8 minutes).
pub const TIMESTAMP_MODULUS: u32 = 1 << 31;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MpTimestamp {
    /// Sender time in microseconds since its connection start, modulo 2^31.
    pub time_us: u32,
    /// One loss signalled with this segment.
    pub loss: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MpGroup {
    /// Decision id (1..=255; 0 is reserved for "no decision").
    pub epoch: u8,
    /// Group of subflow `flow_id` in that decision; `GROUP_NOT_CONGESTED` for none.
    pub group: u8,
    pub flow_id: u16,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SbdOption {
    Timestamp(MpTimestamp),
    Group(MpGroup),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecodeError {
    TooShort(usize),
    NotMptcp(u8),
    BadLength(u8),
    UnknownSubtype(u8),
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DecodeError::TooShort(n) => write!(f, "option needs {OPTION_LEN} bytes, got {n}"),
            DecodeError::NotMptcp(k) => write!(f, "option kind {k} is not MPTCP ({MPTCP_KIND})"),
            DecodeError::BadLength(l) => write!(f, "option length {l}, expected {OPTION_LEN}"),
            DecodeError::UnknownSubtype(s) => write!(f, "MPTCP subtype {s} is neither MP_TIMESTAMP nor MP_GROUP"),
        }
    }
}

impl std::error::Error for DecodeError {}

impl SbdOption {
    pub fn encode(&self) -> [u8; OPTION_LEN] {
        let mut b = [0u8; OPTION_LEN];
        b[0] = MPTCP_KIND;
        b[1] = OPTION_LEN as u8;
        match *self {
            SbdOption::Timestamp(t) => {
                b[2] = SUBTYPE_TIMESTAMP << 4;
                let word = (t.time_us % TIMESTAMP_MODULUS) | if t.loss { 1 << 31 } else { 0 };
                b[4..8].copy_from_slice(&word.to_be_bytes());
            }
            SbdOption::Group(g) => {
                b[2] = SUBTYPE_GROUP << 4;
                b[4] = g.epoch;
                b[5] = g.group;
                b[6..8].copy_from_slice(&g.flow_id.to_be_bytes());
            }
        }
        b
    }

    pub fn decode(bytes: &[u8]) -> Result<SbdOption, DecodeError> {
        if bytes.len() < OPTION_LEN {
            return Err(DecodeError::TooShort(bytes.len()));
        }
        if bytes[0] != MPTCP_KIND {
            return Err(DecodeError::NotMptcp(bytes[0]));
        }
        if bytes[1] as usize != OPTION_LEN {
            return Err(DecodeError::BadLength(bytes[1]));
        }
        match bytes[2] >> 4 {
            SUBTYPE_TIMESTAMP => {
                let word = u32::from_be_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]);
                Ok(SbdOption::Timestamp(MpTimestamp { time_us: word & (TIMESTAMP_MODULUS - 1), loss: word >> 31 == 1 }))
            }
            SUBTYPE_GROUP => Ok(SbdOption::Group(MpGroup {
                epoch: bytes[4],
                group: bytes[5],
                flow_id: u16::from_be_bytes([bytes[6], bytes[7]]),
            })),
            s => Err(DecodeError::UnknownSubtype(s)),
        }
    }
}

/// The fixed header bytes (kind, length, subtype) are implied by the packet flag that says
/// which option a simulated packet carries; these two functions move the option's 4
/// variable bytes (bytes 4..8 of its wire form) in and out of a packet.
impl SbdOption {
    pub fn packet_bytes(&self) -> [u8; 4] {
        let b = self.encode();
        [b[4], b[5], b[6], b[7]]
    }

    /// Rebuilds the wire form from a packet's 4 bytes and decodes it.
    pub fn from_packet_bytes(group: bool, bytes: [u8; 4]) -> Result<SbdOption, DecodeError> {
        let subtype = if group { SUBTYPE_GROUP } else { SUBTYPE_TIMESTAMP };
        let wire = [MPTCP_KIND, OPTION_LEN as u8, subtype << 4, 0, bytes[0], bytes[1], bytes[2], bytes[3]];
        SbdOption::decode(&wire)
    }
}

/// The relative one-way delay in microseconds from a 31-bit sender timestamp and the
/// receiver's own microsecond clock: modular subtraction, so a wrap of either clock between
/// samples does not produce a jump (algorithms.md §11 item 24). The result carries an
/// unknown constant offset, which RFC 8382's statistics do not need.
pub fn relative_owd_us(receiver_us: u64, sender_ts: u32) -> u32 {
    ((receiver_us % TIMESTAMP_MODULUS as u64) as u32).wrapping_sub(sender_ts) % TIMESTAMP_MODULUS
}

/// The next decision id after `epoch`, skipping the reserved 0.
pub fn next_epoch(epoch: u8) -> u8 {
    if epoch == u8::MAX {
        1
    } else {
        epoch + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamp_round_trip_and_layout() {
        let t = SbdOption::Timestamp(MpTimestamp { time_us: 0x1234_5678, loss: true });
        let b = t.encode();
        assert_eq!(b, [30, 8, 0x80, 0, 0x92, 0x34, 0x56, 0x78]);
        assert_eq!(SbdOption::decode(&b), Ok(t));
        let t = SbdOption::Timestamp(MpTimestamp { time_us: TIMESTAMP_MODULUS - 1, loss: false });
        assert_eq!(SbdOption::decode(&t.encode()), Ok(t));
    }

    #[test]
    fn group_round_trip_and_layout() {
        let g = SbdOption::Group(MpGroup { epoch: 7, group: GROUP_NOT_CONGESTED, flow_id: 0xBEEF });
        let b = g.encode();
        assert_eq!(b, [30, 8, 0x90, 0, 7, 99, 0xBE, 0xEF]);
        assert_eq!(SbdOption::decode(&b), Ok(g));
    }

    #[test]
    fn every_field_value_round_trips() {
        for epoch in [1u8, 128, 255] {
            for group in [0u8, 1, 8, 99, 255] {
                for flow_id in [0u16, 1, 40000, u16::MAX] {
                    let g = SbdOption::Group(MpGroup { epoch, group, flow_id });
                    assert_eq!(SbdOption::decode(&g.encode()), Ok(g));
                }
            }
        }
        for time_us in (0..TIMESTAMP_MODULUS).step_by(7_919_993) {
            for loss in [false, true] {
                let t = SbdOption::Timestamp(MpTimestamp { time_us, loss });
                assert_eq!(SbdOption::decode(&t.encode()), Ok(t));
            }
        }
    }

    #[test]
    fn malformed_options_are_refused() {
        assert_eq!(SbdOption::decode(&[30, 8, 0x80]), Err(DecodeError::TooShort(3)));
        assert_eq!(SbdOption::decode(&[2, 8, 0x80, 0, 0, 0, 0, 0]), Err(DecodeError::NotMptcp(2)));
        assert_eq!(SbdOption::decode(&[30, 12, 0x80, 0, 0, 0, 0, 0]), Err(DecodeError::BadLength(12)));
        assert_eq!(SbdOption::decode(&[30, 8, 0x20, 0, 0, 0, 0, 0]), Err(DecodeError::UnknownSubtype(2)));
    }

    #[test]
    fn owd_survives_timestamp_wrap() {
        // Sender clock 10 us before its wrap, receiver clock 5 ms ahead with its own offset.
        let offset = 3_000_000u64;
        let send = TIMESTAMP_MODULUS as u64 - 10;
        let before = relative_owd_us(send + offset + 5_000, (send % TIMESTAMP_MODULUS as u64) as u32);
        let send2 = send + 20; // wrapped
        let after = relative_owd_us(send2 + offset + 5_000, (send2 % TIMESTAMP_MODULUS as u64) as u32);
        assert_eq!(before, after);
    }

    #[test]
    fn epochs_skip_zero() {
        assert_eq!(next_epoch(1), 2);
        assert_eq!(next_epoch(255), 1);
    }
}
