#!/usr/bin/env python3
"""A real Linux capture in which every frame appears twice (docs/pcap.md, "Copies"): run as
root inside a network namespace whose loopback drops a share of packets
(scripts/pcap_loopback.sh sets it up). Captures `lo` with an AF_PACKET socket, which sees each
packet leaving and arriving (as `tcpdump -i lo` or `-i any` do), while one TCP connection
sends BYTES over 127.0.0.1; writes OUT.pcap and prints the kernel's retransmitted segments
(TcpRetransSegs, /proc/net/snmp) of the transfer.
usage: pcap_loopback.py OUT.pcap BYTES"""
import socket
import struct
import sys
import threading
import time


def retrans():
    lines = [l.split() for l in open("/proc/net/snmp") if l.startswith("Tcp:")]
    return int(lines[1][lines[0].index("RetransSegs")])


def capture(path, stop, ready):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0003))
    s.bind(("lo", 0))
    s.settimeout(0.2)
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 128, 1))  # µs, Ethernet
        ready.set()
        while not stop.is_set():
            try:
                data = s.recv(65536)
            except socket.timeout:
                continue
            t = time.time()
            cut = data[:128]
            f.write(struct.pack("<IIII", int(t), int((t % 1) * 1e6), len(cut), len(data)))
            f.write(cut)


def main():
    out, total = sys.argv[1], int(sys.argv[2])
    stop, ready = threading.Event(), threading.Event()
    cap = threading.Thread(target=capture, args=(out, stop, ready))
    cap.start()
    ready.wait()
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", 5201))
    srv.listen(1)

    def sink():
        c, _ = srv.accept()
        while c.recv(1 << 16):
            pass
        c.close()

    rx = threading.Thread(target=sink)
    rx.start()
    before = retrans()
    cl = socket.create_connection(("127.0.0.1", 5201))
    chunk = b"x" * 16384
    sent = 0
    while sent < total:
        sent += cl.send(chunk)
    cl.shutdown(socket.SHUT_WR)
    rx.join()
    cl.close()
    after = retrans()
    time.sleep(0.5)
    stop.set()
    cap.join()
    print(f"kernel TcpRetransSegs during the transfer: {after - before}")


if __name__ == "__main__":
    main()
