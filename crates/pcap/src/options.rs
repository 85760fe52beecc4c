//! TCP options (RFC 9293 §3.2): the timestamp (RFC 7323 §3) and MPTCP's kind 30
//! (RFC 8684 §3.1 MP_CAPABLE, §3.2 MP_JOIN) plus MPTCP-SBD's MP_TIMESTAMP ([S0] §III; the
//! layout of the simulator's `mptcp::options`). Common crates reject kind 30, so they are
//! parsed here. Other options are skipped by their length.

pub const KIND_TIMESTAMP: u8 = 8;
pub const KIND_MPTCP: u8 = 30;
pub const MP_CAPABLE: u8 = 0;
pub const MP_JOIN: u8 = 1;
/// MPTCP-SBD's per-packet sender timestamp (experimental subtype of [S0]'s kernel code).
pub const MP_SBD_TIMESTAMP: u8 = 8;

/// The options this project reads, of one segment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TcpOptions {
    /// (TSval, TSecr).
    pub ts: Option<(u32, u32)>,
    /// MP_CAPABLE keys: the sender's, and the receiver's when the option carries both
    /// (the third ACK and the first data segment, RFC 8684 §3.1).
    pub mp_capable: Option<(u64, Option<u64>)>,
    /// MP_CAPABLE without a key (RFC 8684 v1 SYN).
    pub mp_capable_syn: bool,
    /// MP_JOIN on a SYN: the receiver's token (RFC 8684 §3.2).
    pub join_token: Option<u32>,
    /// MPTCP-SBD MP_TIMESTAMP: (sender µs modulo 2^31, loss bit).
    pub sbd_ts: Option<(u32, bool)>,
}

/// Where the option list is malformed (a length below 2 or past the header).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BadOption {
    pub at: usize,
}

#[inline]
pub fn parse_options(mut b: &[u8]) -> Result<TcpOptions, BadOption> {
    let mut o = TcpOptions::default();
    let total = b.len();
    while let Some(&kind) = b.first() {
        match kind {
            0 => break,
            1 => {
                b = &b[1..];
                continue;
            }
            _ => {}
        }
        let at = total - b.len();
        if b.len() < 2 {
            return Err(BadOption { at });
        }
        let len = b[1] as usize;
        if len < 2 || len > b.len() {
            return Err(BadOption { at });
        }
        let v = &b[..len];
        match kind {
            KIND_TIMESTAMP if len == 10 => {
                o.ts = Some((u32::from_be_bytes([v[2], v[3], v[4], v[5]]), u32::from_be_bytes([v[6], v[7], v[8], v[9]])));
            }
            KIND_MPTCP if len >= 3 => match v[2] >> 4 {
                MP_CAPABLE => {
                    if len >= 12 {
                        let k1 = u64::from_be_bytes(v[4..12].try_into().expect("8"));
                        let k2 = (len >= 20).then(|| u64::from_be_bytes(v[12..20].try_into().expect("8")));
                        o.mp_capable = Some((k1, k2));
                    } else {
                        o.mp_capable_syn = true;
                    }
                }
                MP_JOIN if len == 12 => {
                    o.join_token = Some(u32::from_be_bytes([v[4], v[5], v[6], v[7]]));
                }
                MP_SBD_TIMESTAMP if len == 8 => {
                    let w = u32::from_be_bytes([v[4], v[5], v[6], v[7]]);
                    o.sbd_ts = Some((w & 0x7fff_ffff, w >> 31 == 1));
                }
                _ => {}
            },
            _ => {}
        }
        b = &b[len..];
    }
    Ok(o)
}

/// The token of a connection key: the most significant 32 bits of SHA-256 of the key in
/// network byte order (RFC 8684 §3.1, §3.2).
pub fn token_of_key(key: u64) -> u32 {
    let d = crate::sha256::digest(&key.to_be_bytes());
    u32::from_be_bytes([d[0], d[1], d[2], d[3]])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamp_mptcp_and_unknown_options() {
        let mut b = vec![1, 1, 8, 10, 0, 0, 0, 5, 0, 0, 0, 9];
        b.extend_from_slice(&[30, 20, 0x01, 0x81]);
        b.extend_from_slice(&1u64.to_be_bytes());
        b.extend_from_slice(&2u64.to_be_bytes());
        b.extend_from_slice(&[4, 2, 30, 8, 0x80, 0, 0x80, 0, 0, 7]);
        let o = parse_options(&b).unwrap();
        assert_eq!(o.ts, Some((5, 9)));
        assert_eq!(o.mp_capable, Some((1, Some(2))));
        assert_eq!(o.sbd_ts, Some((7, true)));
        assert_eq!(parse_options(&[8, 1]).unwrap_err(), BadOption { at: 0 });
        assert_eq!(parse_options(&[1, 8, 12, 0]).unwrap_err(), BadOption { at: 1 });
        assert_eq!(parse_options(&[0, 99]).unwrap(), TcpOptions::default());
    }

    #[test]
    fn join_token() {
        let b = [30, 12, 0x10, 0x02, 0xde, 0xad, 0xbe, 0xef, 0, 0, 0, 1];
        assert_eq!(parse_options(&b).unwrap().join_token, Some(0xdead_beef));
    }
}
