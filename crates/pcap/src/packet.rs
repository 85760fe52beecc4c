//! From a captured frame to a TCP segment: the link layer (Ethernet with 802.1Q/802.1ad
//! tags, raw IP, Linux cooked SLL and SLL2, BSD loopback), IPv4 and IPv6 (extension headers
//! skipped, non-first fragments skipped) and the TCP header with its options, which
//! [`crate::options`] parses (MPTCP's kind 30 included).

use crate::options::{parse_options, TcpOptions};

/// Why a frame gave no TCP segment. Counted per kind, never fatal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Skip {
    /// A link type this reader does not decode.
    LinkType,
    /// Not IPv4 or IPv6 (ARP, LLDP, ...).
    NotIp,
    /// IP, but not TCP (UDP, ICMP, ...).
    NotTcp,
    /// A later fragment of a fragmented datagram (no TCP header).
    Fragment,
    /// Headers cut by the snapshot length before the end of the TCP header.
    Cut,
    /// A header field that cannot be right (IPv4 header length below 20, TCP data offset
    /// below 5, a length beyond the packet, a malformed option, ...).
    Malformed,
    /// A record with no captured bytes.
    Empty,
    /// An Ethernet frame with more VLAN tags than [`MAX_VLAN_TAGS`].
    VlanTags,
    /// A frame captured whole (its captured length is its length on the wire) that ends
    /// inside its own headers: a runt, not a snapshot length's cut.
    Short,
}

/// 802.1Q / 802.1ad / old QinQ tags decoded in front of the IP header.
pub const MAX_VLAN_TAGS: usize = 4;

impl Skip {
    pub const ALL: [Skip; 9] = [Skip::LinkType, Skip::NotIp, Skip::NotTcp, Skip::Fragment, Skip::Cut, Skip::Malformed, Skip::Empty, Skip::VlanTags, Skip::Short];

    pub fn describe(self) -> &'static str {
        match self {
            Skip::LinkType => "frames of a link type not decoded (only Ethernet, raw IP, Linux cooked SLL/SLL2 and BSD loopback are)",
            Skip::NotIp => "frames that are not IPv4 or IPv6",
            Skip::NotTcp => "IP packets that are not TCP",
            Skip::Fragment => "later IP fragments (no TCP header)",
            Skip::Cut => "TCP packets cut by the snapshot length inside their headers",
            Skip::Malformed => "packets with a malformed IP or TCP header",
            Skip::Empty => "empty records (no bytes captured)",
            Skip::VlanTags => "Ethernet frames with more than 4 VLAN tags (not decoded)",
            Skip::Short => "frames captured whole that end inside their own headers (too short; not a snapshot length's cut)",
        }
    }
}

/// An address as 16 bytes; IPv4 as ::ffff:a.b.c.d (RFC 4291 §2.5.5.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Addr(pub [u8; 16]);

impl Addr {
    pub fn v4(b: [u8; 4]) -> Addr {
        let mut a = [0u8; 16];
        a[10] = 0xff;
        a[11] = 0xff;
        a[12..].copy_from_slice(&b);
        Addr(a)
    }

    pub fn ip(&self) -> std::net::IpAddr {
        let v6 = std::net::Ipv6Addr::from(self.0);
        match v6.to_ipv4_mapped() {
            Some(v4) => std::net::IpAddr::V4(v4),
            None => std::net::IpAddr::V6(v6),
        }
    }
}

impl From<std::net::IpAddr> for Addr {
    fn from(ip: std::net::IpAddr) -> Addr {
        match ip {
            std::net::IpAddr::V4(v4) => Addr::v4(v4.octets()),
            std::net::IpAddr::V6(v6) => Addr(v6.octets()),
        }
    }
}

impl std::fmt::Display for Addr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.ip() {
            std::net::IpAddr::V4(a) => write!(f, "{a}"),
            std::net::IpAddr::V6(a) => write!(f, "[{a}]"),
        }
    }
}

/// One TCP segment's header fields.
#[derive(Clone, Copy, Debug, Default)]
pub struct Segment {
    pub src: Addr,
    pub dst: Addr,
    pub sport: u16,
    pub dport: u16,
    pub seq: u32,
    pub ack: u32,
    /// TCP flags byte (FIN 0x01, SYN 0x02, RST 0x04, ACK 0x10).
    pub flags: u8,
    /// Payload bytes, from the IP length fields (not the captured length).
    pub payload: u32,
    /// IPv4 identification (RFC 791; RFC 6864); IPv6 has none outside fragments.
    pub ip_id: Option<u16>,
    pub opts: TcpOptions,
}

pub const FIN: u8 = 0x01;
pub const SYN: u8 = 0x02;
pub const RST: u8 = 0x04;
pub const ACK: u8 = 0x10;

/// LINKTYPE_* values decoded (tcpdump.org/linktypes.html).
pub mod linktype {
    pub const NULL: u32 = 0;
    pub const ETHERNET: u32 = 1;
    /// DLT_RAW as OpenBSD and others number it in files.
    pub const RAW_12: u32 = 12;
    pub const RAW_14: u32 = 14;
    pub const RAW: u32 = 101;
    pub const LOOP: u32 = 108;
    pub const LINUX_SLL: u32 = 113;
    pub const IPV4: u32 = 228;
    pub const IPV6: u32 = 229;
    pub const LINUX_SLL2: u32 = 276;
}

const ETH_IPV4: u16 = 0x0800;
const ETH_IPV6: u16 = 0x86dd;

#[inline]
fn be16(b: &[u8], at: usize) -> u16 {
    u16::from_be_bytes([b[at], b[at + 1]])
}

#[inline]
fn be32(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// The IP packet inside a frame.
#[inline]
fn network(linktype: u32, f: &[u8]) -> Result<&[u8], Skip> {
    let (ethertype, rest) = match linktype {
        linktype::RAW | linktype::RAW_12 | linktype::RAW_14 | linktype::IPV4 | linktype::IPV6 => return Ok(f),
        linktype::ETHERNET => {
            if f.len() < 14 {
                return Err(Skip::Cut);
            }
            let mut et = be16(f, 12);
            let mut at = 14;
            // 802.1Q / 802.1ad / old QinQ tags, up to four deep.
            let mut tags = 0;
            while matches!(et, 0x8100 | 0x88a8 | 0x9100) {
                if tags == MAX_VLAN_TAGS {
                    return Err(Skip::VlanTags);
                }
                if f.len() < at + 4 {
                    return Err(Skip::Cut);
                }
                et = be16(f, at + 2);
                at += 4;
                tags += 1;
            }
            (et, &f[at..])
        }
        linktype::LINUX_SLL => {
            if f.len() < 16 {
                return Err(Skip::Cut);
            }
            (be16(f, 14), &f[16..])
        }
        linktype::LINUX_SLL2 => {
            if f.len() < 20 {
                return Err(Skip::Cut);
            }
            (be16(f, 0), &f[20..])
        }
        linktype::NULL | linktype::LOOP => {
            if f.len() < 4 {
                return Err(Skip::Cut);
            }
            // BSD address family, host order for NULL, network order for LOOP: 2 is IPv4,
            // 24/28/30 are IPv6 on the BSDs and macOS.
            let le = u32::from_le_bytes([f[0], f[1], f[2], f[3]]);
            let be = u32::from_be_bytes([f[0], f[1], f[2], f[3]]);
            let af = if linktype == linktype::LOOP { be } else if le < 256 { le } else { be };
            let et = match af {
                2 => ETH_IPV4,
                24 | 28 | 30 => ETH_IPV6,
                _ => return Err(Skip::NotIp),
            };
            (et, &f[4..])
        }
        _ => return Err(Skip::LinkType),
    };
    match ethertype {
        ETH_IPV4 | ETH_IPV6 => Ok(rest),
        _ => Err(Skip::NotIp),
    }
}

/// [`parse`] for a captured record of `orig_len` bytes on the wire: an empty record, and a
/// frame whose headers end early although nothing of it was cut, say so rather than [`Skip::Cut`].
#[inline]
pub fn parse_record(linktype: u32, frame: &[u8], orig_len: u32) -> Result<Segment, Skip> {
    match parse(linktype, frame) {
        Err(Skip::Cut) if frame.is_empty() => Err(Skip::Empty),
        Err(Skip::Cut) if frame.len() as u64 >= orig_len as u64 => Err(Skip::Short),
        r => r,
    }
}

/// Parses a frame down to its TCP header. `Err` says why there is none.
#[inline]
pub fn parse(linktype: u32, frame: &[u8]) -> Result<Segment, Skip> {
    let ip = network(linktype, frame)?;
    if ip.is_empty() {
        return Err(Skip::Cut);
    }
    let mut s = Segment::default();
    // (TCP header slice, bytes of TCP header + payload per the IP length)
    let (tcp, l4_len) = match ip[0] >> 4 {
        4 => {
            if ip.len() < 20 {
                return Err(Skip::Cut);
            }
            let ihl = (ip[0] & 0x0f) as usize * 4;
            let total = be16(ip, 2) as usize;
            if ihl < 20 || total < ihl {
                return Err(Skip::Malformed);
            }
            if ip[9] != 6 {
                return Err(Skip::NotTcp);
            }
            if be16(ip, 6) & 0x1fff != 0 {
                return Err(Skip::Fragment);
            }
            if ip.len() < ihl {
                return Err(Skip::Cut);
            }
            s.ip_id = Some(be16(ip, 4));
            s.src = Addr::v4([ip[12], ip[13], ip[14], ip[15]]);
            s.dst = Addr::v4([ip[16], ip[17], ip[18], ip[19]]);
            // total = 0 is TSO on the capturing host: the length is the frame's.
            let l4 = if total == 0 { ip.len() - ihl } else { total - ihl };
            (&ip[ihl..], l4)
        }
        6 => {
            if ip.len() < 40 {
                return Err(Skip::Cut);
            }
            let mut next = ip[6];
            let mut len = be16(ip, 4) as usize;
            s.src = Addr(ip[8..24].try_into().expect("16"));
            s.dst = Addr(ip[24..40].try_into().expect("16"));
            let mut at = 40;
            if len == 0 {
                // A jumbogram (RFC 2675) or TSO: the rest of the frame.
                len = ip.len() - 40;
            }
            // Extension headers (RFC 8200 §4): hop-by-hop, routing, destination options,
            // fragment, authentication; at most eight of them.
            for _ in 0..8 {
                match next {
                    0 | 43 | 60 | 51 => {
                        if ip.len() < at + 2 {
                            return Err(Skip::Cut);
                        }
                        let ext = if next == 51 { (ip[at + 1] as usize + 2) * 4 } else { (ip[at + 1] as usize + 1) * 8 };
                        if ext > len {
                            return Err(Skip::Malformed);
                        }
                        next = ip[at];
                        at += ext;
                        len -= ext;
                    }
                    44 => {
                        if ip.len() < at + 8 {
                            return Err(Skip::Cut);
                        }
                        if len < 8 {
                            return Err(Skip::Malformed);
                        }
                        if be16(ip, at + 2) & 0xfff8 != 0 {
                            return Err(Skip::Fragment);
                        }
                        next = ip[at];
                        at += 8;
                        len -= 8;
                    }
                    _ => break,
                }
            }
            if next != 6 {
                return Err(Skip::NotTcp);
            }
            if ip.len() < at {
                return Err(Skip::Cut);
            }
            (&ip[at..], len)
        }
        _ => return Err(Skip::Malformed),
    };
    if tcp.len() < 20 {
        return Err(Skip::Cut);
    }
    let off = (tcp[12] >> 4) as usize * 4;
    if off < 20 || off > l4_len {
        return Err(Skip::Malformed);
    }
    if tcp.len() < off {
        return Err(Skip::Cut);
    }
    s.sport = be16(tcp, 0);
    s.dport = be16(tcp, 2);
    s.seq = be32(tcp, 4);
    s.ack = be32(tcp, 8);
    s.flags = tcp[13];
    s.payload = (l4_len - off) as u32;
    s.opts = parse_options(&tcp[20..off]).map_err(|_| Skip::Malformed)?;
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// IPv4 + TCP header with a timestamp option and `payload` bytes claimed.
    pub fn ipv4_tcp(payload: u16) -> Vec<u8> {
        let mut p = vec![0x45, 0, 0, 0, 0, 0, 0x40, 0, 64, 6, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2];
        let total = 20 + 32 + payload;
        p[2..4].copy_from_slice(&total.to_be_bytes());
        let mut t = vec![0u8; 20];
        t[0..2].copy_from_slice(&1234u16.to_be_bytes());
        t[2..4].copy_from_slice(&80u16.to_be_bytes());
        t[4..8].copy_from_slice(&1000u32.to_be_bytes());
        t[12] = 8 << 4;
        t[13] = ACK;
        t.extend_from_slice(&[1, 1, 8, 10, 0, 0, 0, 7, 0, 0, 0, 3]);
        p.extend(t);
        p
    }

    #[test]
    fn ethernet_with_two_vlan_tags() {
        let mut f = vec![0u8; 12];
        f.extend_from_slice(&[0x88, 0xa8, 0, 5, 0x81, 0x00, 0, 7, 0x08, 0x00]);
        f.extend(ipv4_tcp(1448));
        let s = parse(linktype::ETHERNET, &f).unwrap();
        assert_eq!((s.sport, s.dport, s.seq, s.payload), (1234, 80, 1000, 1448));
        assert_eq!(s.opts.ts, Some((7, 3)));
        assert_eq!(s.src.to_string(), "10.0.0.1");
    }

    #[test]
    fn ipv6_with_an_extension_header_and_sll2() {
        let tcp = &ipv4_tcp(100)[20..];
        let mut ip = vec![0x60, 0, 0, 0, 0, 0, 0, 64];
        let len = (8 + tcp.len() + 100) as u16;
        ip[4..6].copy_from_slice(&len.to_be_bytes());
        ip[6] = 60; // destination options, then TCP
        ip.extend_from_slice(&[0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
        ip.extend_from_slice(&[0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]);
        ip.extend_from_slice(&[6, 0, 1, 4, 0, 0, 0, 0]);
        ip.extend_from_slice(tcp);
        let mut f = vec![0x86, 0xdd, 0, 0];
        f.extend_from_slice(&[0; 16]);
        f.extend(ip);
        let s = parse(linktype::LINUX_SLL2, &f).unwrap();
        assert_eq!(s.payload, 100);
        assert_eq!(s.src.to_string(), "[2001:db8::1]");
    }

    #[test]
    fn skips_say_why() {
        let mut udp = ipv4_tcp(0);
        udp[9] = 17;
        assert_eq!(parse(linktype::RAW, &udp).unwrap_err(), Skip::NotTcp);
        let mut arp = vec![0u8; 12];
        arp.extend_from_slice(&[0x08, 0x06, 0, 0]);
        assert_eq!(parse(linktype::ETHERNET, &arp).unwrap_err(), Skip::NotIp);
        assert_eq!(parse(linktype::RAW, &ipv4_tcp(0)[..30]).unwrap_err(), Skip::Cut);
        let mut bad = ipv4_tcp(0);
        bad[20 + 12] = 2 << 4;
        assert_eq!(parse(linktype::RAW, &bad).unwrap_err(), Skip::Malformed);
        assert_eq!(parse(147, &ipv4_tcp(0)).unwrap_err(), Skip::LinkType);
        let mut frag = ipv4_tcp(0);
        frag[6] = 0x20;
        frag[7] = 0x10;
        assert_eq!(parse(linktype::RAW, &frag).unwrap_err(), Skip::Fragment);
    }
}
