//! Packet captures of the simulation, as tcpdump on each host would write them: a packet is
//! recorded when it leaves its sending host (first hop of its route) and when it arrives at
//! its receiving host (the endpoint), never inside queues or pipes. One pcap per host (raw
//! IPv4, nanosecond timestamps from simulated time 0, 120 bytes kept, as the testbed writes).
//!
//! The simulator's packets have no bytes; headers are synthesised (docs/pcap.md, "Simulator
//! captures"): byte sequence numbers from segment numbers (`seg_bytes` per segment), the
//! timestamp option in microseconds (TSval of data = its send time on the sender's clock, TSecr
//! of an ACK = the echoed send time; an ACK's own TSval is its departure time on the receiver's
//! clock), MPTCP-SBD's MP_TIMESTAMP / MP_GROUP where the packet carries them, and for MPTCP a
//! handshake at the subflow's start on both hosts (MP_CAPABLE with both keys, MP_JOIN with the
//! token of the server's key, RFC 8684 §3.1-3.2; HMACs are not computed). Only TCP flows that
//! were registered are captured; UDP is not.

use std::collections::VecDeque;
use std::io::Write;

use crate::ids::FlowId;
use crate::packet::{Packet, PacketKind, FLAG_MP_GROUP, FLAG_MP_TIMESTAMP, FLAG_PUSH};
use crate::time::{Time, PS_PER_NS, PS_PER_US};

/// Bytes kept per packet (as the testbed's captures).
pub const SNAPLEN: usize = 120;

/// MPTCP role of a captured subflow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptureMptcp {
    /// The first subflow: MP_CAPABLE with the client's and the server's keys.
    Capable { client_key: u64, server_key: u64 },
    /// Another subflow: MP_JOIN carrying the server's token.
    Join { server_token: u32, address_id: u8 },
}

/// How one TCP flow (or subflow) appears on the wire.
#[derive(Clone, Copy, Debug)]
pub struct CaptureFlow {
    /// Index of the sending and receiving hosts' files.
    pub src_host: usize,
    pub dst_host: usize,
    pub src: [u8; 4],
    pub dst: [u8; 4],
    pub sport: u16,
    pub dport: u16,
    /// TCP payload per segment.
    pub seg_bytes: u32,
    /// When the flow starts (its handshake is recorded then, on both hosts).
    pub start: Time,
    pub mptcp: Option<CaptureMptcp>,
    /// PSH as the sender set it (`TcpFlowConfig::linux_send_buffer`); otherwise on every
    /// data segment.
    pub sender_pushes: bool,
}

struct FlowState {
    f: CaptureFlow,
    isn: u32,
    /// Offsets of the two hosts' timestamp clocks (µs), as Linux randomises them per flow.
    ts_off_src: u32,
    ts_off_dst: u32,
    /// ACKs in flight: (cumulative ACK, departure time), to give each its departure TSval.
    acks: VecDeque<(u64, Time)>,
}

struct Host {
    out: Box<dyn Write>,
    /// Handshake records not yet written: (time, bytes), in time order.
    pending: VecDeque<(Time, Vec<u8>)>,
}

pub struct Capture {
    hosts: Vec<Host>,
    flows: Vec<Option<FlowState>>,
    error: Option<std::io::Error>,
    buf: Vec<u8>,
}

/// The IPv4 identification of one transmission: a hash of when it was sent and what it
/// carries, the same where it leaves and where it arrives, so that a capture at each end tells
/// a dropped transmission from its retransmission (Linux numbers a socket's packets in
/// order; the scripts only need each transmission to differ).
fn set_ip_id(header: &mut [u8], sent: Time, seq: u64) {
    let id = splitmix(sent ^ seq.rotate_left(40)) as u16;
    header[4..6].copy_from_slice(&id.to_be_bytes());
}

fn splitmix(mut x: u64) -> u64 {
    crate::rng::splitmix64(&mut x)
}

/// The MPTCP keys (client, server) of connection number `conn` under `seed`.
pub fn mptcp_keys(seed: u64, conn: u64) -> (u64, u64) {
    (splitmix(seed ^ (conn << 1)), splitmix(seed ^ (conn << 1) ^ 1))
}

const SYN: u8 = 0x02;
const ACK: u8 = 0x10;
const PSH: u8 = 0x08;

impl Capture {
    /// One writer per host; each gets the pcap file header now.
    pub fn new(hosts: Vec<Box<dyn Write>>) -> std::io::Result<Capture> {
        let mut c = Capture { hosts: Vec::new(), flows: Vec::new(), error: None, buf: Vec::with_capacity(256) };
        for mut out in hosts {
            // pcap header: nanosecond magic, version 2.4, snaplen 65535, LINKTYPE_RAW (101).
            let mut h = Vec::with_capacity(24);
            h.extend_from_slice(&0xa1b2_3c4du32.to_le_bytes());
            h.extend_from_slice(&2u16.to_le_bytes());
            h.extend_from_slice(&4u16.to_le_bytes());
            h.extend_from_slice(&[0; 8]);
            h.extend_from_slice(&65535u32.to_le_bytes());
            h.extend_from_slice(&101u32.to_le_bytes());
            out.write_all(&h)?;
            c.hosts.push(Host { out, pending: VecDeque::new() });
        }
        Ok(c)
    }

    pub(crate) fn register(&mut self, flow: FlowId, f: CaptureFlow) {
        let i = flow.0 as usize;
        if self.flows.len() <= i {
            self.flows.resize_with(i + 1, || None);
        }
        let r = splitmix(((f.sport as u64) << 16) ^ f.dport as u64 ^ ((u32::from_be_bytes(f.src) as u64) << 32));
        let st = FlowState { f, isn: r as u32, ts_off_src: (r >> 32) as u32, ts_off_dst: splitmix(r) as u32, acks: VecDeque::new() };
        // The handshake, at the flow's start on both hosts.
        let syn_opts = match f.mptcp {
            Some(CaptureMptcp::Capable { .. }) => vec![30, 4, 0x01, 0x01],
            Some(CaptureMptcp::Join { server_token, address_id }) => {
                let mut o = vec![30, 12, 0x10, address_id];
                o.extend_from_slice(&server_token.to_be_bytes());
                o.extend_from_slice(&(r as u32).to_be_bytes());
                o
            }
            None => Vec::new(),
        };
        let synack_opts = match f.mptcp {
            Some(CaptureMptcp::Capable { server_key, .. }) => {
                let mut o = vec![30, 12, 0x01, 0x01];
                o.extend_from_slice(&server_key.to_be_bytes());
                o
            }
            Some(CaptureMptcp::Join { .. }) => {
                let mut o = vec![30, 16, 0x10, 0];
                o.extend_from_slice(&[0; 12]);
                o
            }
            None => Vec::new(),
        };
        let ack_opts = match f.mptcp {
            Some(CaptureMptcp::Capable { client_key, server_key }) => {
                let mut o = vec![30, 20, 0x01, 0x01];
                o.extend_from_slice(&client_key.to_be_bytes());
                o.extend_from_slice(&server_key.to_be_bytes());
                o
            }
            Some(CaptureMptcp::Join { .. }) => {
                let mut o = vec![30, 24, 0x10, 0];
                o.extend_from_slice(&[0; 20]);
                o
            }
            None => Vec::new(),
        };
        let t = f.start;
        let us = (t / PS_PER_US) as u32;
        let mut records = Vec::new();
        let (src, dst) = ((f.src, f.sport), (f.dst, f.dport));
        records.push(Self::synth(src, dst, st.isn, 0, SYN, us.wrapping_add(st.ts_off_src), 0, &syn_opts, 0));
        let server_isn = st.isn.rotate_left(16);
        records.push(Self::synth(dst, src, server_isn, st.isn.wrapping_add(1), SYN | ACK, us.wrapping_add(st.ts_off_dst), us.wrapping_add(st.ts_off_src), &synack_opts, 0));
        records.push(Self::synth(src, dst, st.isn.wrapping_add(1), server_isn.wrapping_add(1), ACK, us.wrapping_add(st.ts_off_src), us.wrapping_add(st.ts_off_dst), &ack_opts, 0));
        for host in [f.src_host, f.dst_host] {
            for r in &records {
                let pending = &mut self.hosts[host].pending;
                let at = pending.iter().position(|(pt, _)| *pt > t).unwrap_or(pending.len());
                pending.insert(at, (t, r.clone()));
            }
        }
        self.flows[i] = Some(st);
    }

    /// IPv4 + TCP header bytes (total length counts `payload` bytes that are not kept).
    #[allow(clippy::too_many_arguments)]
    fn synth(src: ([u8; 4], u16), dst: ([u8; 4], u16), seq: u32, ack: u32, flags: u8, tsval: u32, tsecr: u32, extra: &[u8], payload: u32) -> Vec<u8> {
        let mut opts = vec![1, 1, 8, 10];
        opts.extend_from_slice(&tsval.to_be_bytes());
        opts.extend_from_slice(&tsecr.to_be_bytes());
        opts.extend_from_slice(extra);
        while opts.len() % 4 != 0 {
            opts.push(1);
        }
        let tcp_len = 20 + opts.len();
        let total = 20 + tcp_len as u32 + payload;
        let mut b = Vec::with_capacity(20 + tcp_len);
        b.extend_from_slice(&[0x45, 0]);
        b.extend_from_slice(&(total.min(65535) as u16).to_be_bytes());
        b.extend_from_slice(&[0, 0, 0x40, 0, 64, 6, 0, 0]);
        b.extend_from_slice(&src.0);
        b.extend_from_slice(&dst.0);
        b.extend_from_slice(&src.1.to_be_bytes());
        b.extend_from_slice(&dst.1.to_be_bytes());
        b.extend_from_slice(&seq.to_be_bytes());
        b.extend_from_slice(&ack.to_be_bytes());
        b.push(((tcp_len / 4) as u8) << 4);
        b.push(flags);
        b.extend_from_slice(&[0xff, 0xff, 0, 0, 0, 0]);
        b.extend_from_slice(&opts);
        b
    }

    fn write(&mut self, host: usize, t: Time, bytes: &[u8], orig_len: u32) {
        if self.error.is_some() {
            return;
        }
        let h = &mut self.hosts[host];
        let mut r = Ok(());
        while let Some((pt, _)) = h.pending.front() {
            if *pt > t {
                break;
            }
            let (pt, rec) = h.pending.pop_front().expect("front");
            let len = rec.len() as u32;
            r = r.and_then(|_| record(&mut h.out, pt, &rec, len));
        }
        let r = r.and_then(|_| record(&mut h.out, t, bytes, orig_len));
        if let Err(e) = r {
            self.error = Some(e);
        }
    }

    /// Called for every packet handed from one element to the next: `hop` is its index on its
    /// route before the move, `arrival` whether the next element is an endpoint.
    #[inline]
    pub(crate) fn on_hop(&mut self, p: &Packet, now: Time, arrival: bool) {
        if p.hop != 0 && !arrival {
            return;
        }
        let Some(Some(st)) = self.flows.get_mut(p.flow as usize) else { return };
        let f = st.f;
        let seg = f.seg_bytes;
        let (host_dep, host_arr) = match p.kind {
            PacketKind::TcpData => (f.src_host, f.dst_host),
            PacketKind::TcpAck => (f.dst_host, f.src_host),
            PacketKind::Udp => return,
        };
        let mut extra = [0u8; 8];
        let bytes = match p.kind {
            PacketKind::TcpData => {
                let tsval = ((p.ts / PS_PER_US) as u32).wrapping_add(st.ts_off_src);
                let seq = st.isn.wrapping_add(1).wrapping_add((p.seq as u32).wrapping_mul(seg));
                let has = p.flags & FLAG_MP_TIMESTAMP != 0;
                if has {
                    extra = [30, 8, 8 << 4, 0, p.mp_option[0], p.mp_option[1], p.mp_option[2], p.mp_option[3]];
                }
                let push = if !f.sender_pushes || p.flags & FLAG_PUSH != 0 { PSH } else { 0 };
                let mut b = Self::synth((f.src, f.sport), (f.dst, f.dport), seq, st.isn.rotate_left(16).wrapping_add(1), ACK | push, tsval, 0, if has { &extra } else { &[] }, seg);
                set_ip_id(&mut b, p.ts, p.seq);
                b
            }
            _ => {
                // The ACK's own TSval: its departure time, remembered until it arrives.
                let sent = if p.hop == 0 && !arrival {
                    st.acks.push_back((p.seq, now));
                    if st.acks.len() > 1 << 16 {
                        st.acks.pop_front();
                    }
                    now
                } else {
                    let mut sent = now;
                    while let Some(&(a, t)) = st.acks.front() {
                        if a > p.seq {
                            break;
                        }
                        st.acks.pop_front();
                        if a == p.seq {
                            sent = t;
                            break;
                        }
                    }
                    sent
                };
                let tsval = ((sent / PS_PER_US) as u32).wrapping_add(st.ts_off_dst);
                let tsecr = ((p.ts / PS_PER_US) as u32).wrapping_add(st.ts_off_src);
                let ack = st.isn.wrapping_add(1).wrapping_add((p.seq as u32).wrapping_mul(seg));
                let has = p.flags & FLAG_MP_GROUP != 0;
                if has {
                    extra = [30, 8, 9 << 4, 0, p.mp_option[0], p.mp_option[1], p.mp_option[2], p.mp_option[3]];
                }
                let mut b = Self::synth((f.dst, f.dport), (f.src, f.sport), st.isn.rotate_left(16).wrapping_add(1), ack, ACK, tsval, tsecr, if has { &extra } else { &[] }, 0);
                set_ip_id(&mut b, sent, p.seq);
                b
            }
        };
        let orig = u16::from_be_bytes([bytes[2], bytes[3]]) as u32;
        let kept = bytes.len().min(SNAPLEN);
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        buf.extend_from_slice(&bytes[..kept]);
        if p.hop == 0 && !arrival {
            self.write(host_dep, now, &buf, orig);
        }
        if arrival {
            self.write(host_arr, now, &buf, orig);
        }
        self.buf = buf;
    }

    /// Writes what is pending and flushes every file.
    pub fn finish(mut self) -> std::io::Result<()> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        for h in &mut self.hosts {
            while let Some((t, rec)) = h.pending.pop_front() {
                let len = rec.len() as u32;
                record(&mut h.out, t, &rec, len)?;
            }
            h.out.flush()?;
        }
        Ok(())
    }
}

fn record(out: &mut dyn Write, t: Time, bytes: &[u8], orig_len: u32) -> std::io::Result<()> {
    let ns = t / PS_PER_NS;
    let mut h = [0u8; 16];
    h[0..4].copy_from_slice(&((ns / 1_000_000_000) as u32).to_le_bytes());
    h[4..8].copy_from_slice(&((ns % 1_000_000_000) as u32).to_le_bytes());
    h[8..12].copy_from_slice(&(bytes.len() as u32).to_le_bytes());
    h[12..16].copy_from_slice(&orig_len.max(bytes.len() as u32).to_le_bytes());
    out.write_all(&h)?;
    out.write_all(bytes)
}
