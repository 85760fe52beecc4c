//! TUN devices: the two ends of a testbed link. The kernel hands a packet routed out of the
//! device to whoever reads the file descriptor (the delay element), and a packet written to
//! it enters the namespace as if it had arrived on the device.

use crate::{fail, Result};
use std::fs::{File, OpenOptions};
use std::os::fd::AsRawFd;
use std::os::unix::fs::OpenOptionsExt;

const TUNSETIFF: libc::c_ulong = 0x4004_54ca;
const IFF_TUN: libc::c_short = 0x0001;
const IFF_NO_PI: libc::c_short = 0x1000;
const SIOCETHTOOL: libc::c_ulong = 0x8946;
const ETHTOOL_SGSO: u32 = 0x24;

#[repr(C)]
struct IfReqFlags {
    name: [u8; 16],
    flags: libc::c_short,
    _pad: [u8; 22],
}

#[repr(C)]
struct IfReqData {
    name: [u8; 16],
    data: *mut libc::c_void,
    _pad: [u8; 16],
}

#[repr(C)]
struct EthtoolValue {
    cmd: u32,
    data: u32,
}

fn ifname(name: &str) -> Result<[u8; 16]> {
    if name.is_empty() || name.len() > 15 {
        return fail(format!("interface name \"{name}\" must have 1 to 15 characters"));
    }
    let mut buf = [0u8; 16];
    buf[..name.len()].copy_from_slice(name.as_bytes());
    Ok(buf)
}

/// Creates TUN device `name` in the calling thread's namespace (non-blocking, no packet
/// information header) with generic segmentation off, so that the queue in front of it sees
/// packets no larger than the MTU, as a wire would. The device lives as long as the file.
pub fn open(name: &str) -> Result<File> {
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(libc::O_NONBLOCK)
        .open("/dev/net/tun")
        .map_err(|e| crate::NetlabError(format!("cannot open /dev/net/tun: {e}")))?;
    let mut req = IfReqFlags { name: ifname(name)?, flags: IFF_TUN | IFF_NO_PI, _pad: [0; 22] };
    // SAFETY: req is a valid, properly sized struct ifreq for TUNSETIFF.
    if unsafe { libc::ioctl(file.as_raw_fd(), TUNSETIFF, &mut req) } != 0 {
        return fail(format!("TUNSETIFF {name}: {}", std::io::Error::last_os_error()));
    }
    gso_off(name)?;
    Ok(file)
}

fn gso_off(name: &str) -> Result<()> {
    // SAFETY: plain socket(2) call; the fd is closed below.
    let sock = unsafe { libc::socket(libc::AF_INET, libc::SOCK_DGRAM, 0) };
    if sock < 0 {
        return fail(format!("socket for ethtool: {}", std::io::Error::last_os_error()));
    }
    let mut value = EthtoolValue { cmd: ETHTOOL_SGSO, data: 0 };
    let mut req = IfReqData { name: ifname(name)?, data: (&mut value as *mut EthtoolValue).cast(), _pad: [0; 16] };
    // SAFETY: req points at a live ethtool_value for the duration of the call.
    let rc = unsafe { libc::ioctl(sock, SIOCETHTOOL, &mut req) };
    let err = std::io::Error::last_os_error();
    // SAFETY: sock is a descriptor this function opened.
    unsafe { libc::close(sock) };
    if rc != 0 {
        return fail(format!("turning generic segmentation offload off on {name}: {err}"));
    }
    Ok(())
}
