//! TCP_INFO of a TCP socket and MPTCP_TCPINFO (one tcp_info per subflow) of an MPTCP socket:
//! the window, smoothed RTT, bytes acknowledged, retransmissions, DSACKs and the time the
//! sender was limited by the receive window or its send buffer, as the probes record them.
//! Fields are read at their offsets in Linux's `struct tcp_info` (include/uapi/linux/tcp.h),
//! which only ever grows at its end.

use std::net::Ipv4Addr;
use std::os::fd::RawFd;

const TCP_INFO: libc::c_int = 11;
const SOL_MPTCP: libc::c_int = 284;
const MPTCP_TCPINFO: libc::c_int = 2;
const MPTCP_ADDRS: libc::c_int = 3;
/// Bytes of struct tcp_info this code reads (up to tcpi_total_rto).
const INFO_LEN: usize = 248;
const MAX_SUBFLOWS: usize = 8;

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TcpInfo {
    pub cwnd_packets: u32,
    pub ssthresh_packets: u32,
    pub srtt_us: u32,
    /// The least RTT measured over the connection (tcpi_min_rtt; Linux keeps a windowed
    /// minimum, tcp_min_rtt_wlen): the path's own delay plus the hosts' least latency.
    pub min_rtt_us: u32,
    pub bytes_acked: u64,
    pub total_retrans: u32,
    pub rto_count: u16,
    pub delivered: u32,
    /// Time the sender had data in flight, and the parts of it limited by the peer's
    /// receive window and by the send buffer (tcpi_busy_time, tcpi_rwnd_limited,
    /// tcpi_sndbuf_limited; cumulative).
    pub busy_us: u64,
    pub rwnd_limited_us: u64,
    pub sndbuf_limited_us: u64,
    /// Duplicate segments the receiver reported by DSACK (tcpi_dsack_dups).
    pub dsack_dups: u32,
}

fn u16_at(b: &[u8], off: usize) -> u16 {
    u16::from_ne_bytes(b[off..off + 2].try_into().expect("two bytes"))
}
fn u32_at(b: &[u8], off: usize) -> u32 {
    u32::from_ne_bytes(b[off..off + 4].try_into().expect("four bytes"))
}
fn u64_at(b: &[u8], off: usize) -> u64 {
    u64::from_ne_bytes(b[off..off + 8].try_into().expect("eight bytes"))
}

/// Decodes the fields used from a struct tcp_info of `len` valid bytes.
pub fn decode(b: &[u8], len: usize) -> TcpInfo {
    let b = &b[..INFO_LEN];
    TcpInfo {
        srtt_us: u32_at(b, 68),
        min_rtt_us: u32_at(b, 148),
        ssthresh_packets: u32_at(b, 76),
        cwnd_packets: u32_at(b, 80),
        total_retrans: u32_at(b, 100),
        bytes_acked: u64_at(b, 120),
        delivered: u32_at(b, 192),
        busy_us: u64_at(b, 168),
        rwnd_limited_us: u64_at(b, 176),
        sndbuf_limited_us: u64_at(b, 184),
        dsack_dups: u32_at(b, 216),
        // tcpi_total_rto exists from Linux 6.7 on; older kernels return fewer bytes.
        rto_count: if len >= 242 { u16_at(b, 240) } else { 0 },
    }
}

/// TCP_INFO of a TCP socket (or of an MPTCP socket's first subflow).
pub fn tcp(fd: RawFd) -> Option<TcpInfo> {
    let mut buf = [0u8; INFO_LEN];
    let mut len = INFO_LEN as libc::socklen_t;
    // SAFETY: buf has len writable bytes; the kernel writes at most len.
    let rc = unsafe { libc::getsockopt(fd, libc::IPPROTO_TCP, TCP_INFO, buf.as_mut_ptr().cast(), &mut len) };
    (rc == 0).then(|| decode(&buf, len as usize))
}

/// Each subflow's local address and TcpInfo. MPTCP_ADDRS and MPTCP_TCPINFO list the
/// subflows in the same (the kernel's) order.
pub fn mptcp_subflows(fd: RawFd) -> Option<Vec<(Ipv4Addr, TcpInfo)>> {
    let infos = mptcp_infos(fd)?;
    let addrs = mptcp_local_addrs(fd)?;
    (addrs.len() == infos.len()).then(|| addrs.into_iter().zip(infos).collect())
}

/// struct mptcp_subflow_data { u32 size_subflow_data, num_subflows, size_kernel, size_user }.
const SUBFLOW_DATA_HEADER: usize = 16;

/// An MPTCP getsockopt that answers with struct mptcp_subflow_data and one record of
/// `record_len` bytes per subflow: the buffer, the number of subflows, and the bytes of each
/// record the kernel filled.
fn subflow_records(fd: RawFd, option: libc::c_int, record_len: usize) -> Option<(Vec<u8>, usize, usize)> {
    let mut buf = vec![0u8; SUBFLOW_DATA_HEADER + MAX_SUBFLOWS * record_len];
    buf[0..4].copy_from_slice(&(SUBFLOW_DATA_HEADER as u32).to_ne_bytes());
    buf[12..16].copy_from_slice(&(record_len as u32).to_ne_bytes());
    let mut len = buf.len() as libc::socklen_t;
    // SAFETY: buf has len writable bytes and a valid mptcp_subflow_data header.
    let rc = unsafe { libc::getsockopt(fd, SOL_MPTCP, option, buf.as_mut_ptr().cast(), &mut len) };
    if rc != 0 {
        return None;
    }
    let count = (u32_at(&buf, 4) as usize).min(MAX_SUBFLOWS);
    let filled = record_len.min(u32_at(&buf, 8) as usize);
    Some((buf, count, filled))
}

fn mptcp_local_addrs(fd: RawFd) -> Option<Vec<Ipv4Addr>> {
    // struct mptcp_subflow_addrs: a local and a remote sockaddr_storage (128 B each).
    const ADDRS_LEN: usize = 256;
    let (buf, count, _) = subflow_records(fd, MPTCP_ADDRS, ADDRS_LEN)?;
    // sockaddr_in: family (2 B), port (2 B), address (4 B, network order).
    Some((0..count).map(|k| { let o = SUBFLOW_DATA_HEADER + k * ADDRS_LEN + 4; Ipv4Addr::new(buf[o], buf[o + 1], buf[o + 2], buf[o + 3]) }).collect())
}

fn mptcp_infos(fd: RawFd) -> Option<Vec<TcpInfo>> {
    let (buf, count, filled) = subflow_records(fd, MPTCP_TCPINFO, INFO_LEN)?;
    Some((0..count).map(|k| decode(&buf[SUBFLOW_DATA_HEADER + k * INFO_LEN..], filled)).collect())
}
