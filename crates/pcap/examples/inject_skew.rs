//! Rewrites a raw-IPv4 pcap (the testbed's and the simulator's captures) as if the clock of
//! the hosts sending from the given addresses ran `PPM` parts per million fast: every TCP
//! TSval they sent grows by PPM x 1e-6 per tick elapsed since their first. For docs/pcap.md,
//! "Clock skew".
//!
//! cargo run --release -p pathpool-pcap --example inject_skew -- IN.pcap OUT.pcap PPM ADDR [ADDR ...]

use pathpool_pcap::file::CaptureReader;
use std::collections::HashMap;
use std::io::Write;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 5 {
        eprintln!("usage: inject_skew IN.pcap OUT.pcap PPM ADDR [ADDR ...]");
        std::process::exit(2);
    }
    let ppm: f64 = args[3].parse().expect("PPM: a number");
    let addrs: Vec<[u8; 4]> = args[4..].iter().map(|a| a.parse::<std::net::Ipv4Addr>().expect("ADDR: an IPv4 address").octets()).collect();
    let input = std::fs::File::open(&args[1]).expect("IN: readable");
    let mut r = CaptureReader::new(&args[1], input).unwrap_or_else(|e| panic!("{e}"));
    let mut out = std::io::BufWriter::new(std::fs::File::create(&args[2]).expect("OUT: writable"));
    for w in [0xa1b2_3c4du32, 0x0004_0002, 0, 0, 65535, 101] {
        out.write_all(&w.to_le_bytes()).unwrap();
    }
    // Per sending address: the first TSval (unwrapped by a 64-bit running value).
    let mut first: HashMap<[u8; 4], (u32, i64)> = HashMap::new();
    while r.advance().unwrap_or_else(|e| panic!("{e}")) {
        let rec = r.current();
        assert_eq!(rec.linktype, 101, "only raw IPv4 captures (LINKTYPE_RAW)");
        let mut d = rec.data.to_vec();
        if d.len() >= 40 && d[0] >> 4 == 4 && d[9] == 6 {
            let src: [u8; 4] = d[12..16].try_into().unwrap();
            let ihl = (d[0] & 15) as usize * 4;
            let end = (ihl + (d[ihl + 12] >> 4) as usize * 4).min(d.len());
            let mut at = ihl + 20;
            while at + 1 < end && addrs.contains(&src) {
                match d[at] {
                    0 => break,
                    1 => at += 1,
                    kind => {
                        let len = d[at + 1] as usize;
                        if len < 2 || at + len > end {
                            break;
                        }
                        if kind == 8 && len == 10 {
                            let v = u32::from_be_bytes(d[at + 2..at + 6].try_into().unwrap());
                            let (v0, _) = *first.entry(src).or_insert((v, 0));
                            let elapsed = v.wrapping_sub(v0) as i32 as f64;
                            let skewed = v.wrapping_add((elapsed * ppm * 1e-6).round() as i32 as u32);
                            d[at + 2..at + 6].copy_from_slice(&skewed.to_be_bytes());
                        }
                        at += len;
                    }
                }
            }
        }
        let ns = rec.ts_ns;
        for w in [(ns / 1_000_000_000) as u32, (ns % 1_000_000_000) as u32, d.len() as u32, rec.orig_len] {
            out.write_all(&w.to_le_bytes()).unwrap();
        }
        out.write_all(&d).unwrap();
    }
    out.flush().unwrap();
}
