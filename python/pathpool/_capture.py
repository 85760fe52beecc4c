"""pathpool.packets(): a capture's packets, read by the same Rust reader as ``pathpool detect
--pcap`` (pcap and pcapng, either byte order and timestamp resolution), for analyses that
need more of each packet than detect's outputs hold."""

from collections import namedtuple

from pathpool import _pathpool

#: One captured packet: capture time in ns, LINKTYPE_* of its interface, its length on the
#: wire, and the captured bytes (from the link-layer header on).
Packet = namedtuple("Packet", ["time_ns", "linktype", "length", "data"])


def packets(path):
    """Yields ``Packet``s of the capture file ``path`` in file order. A file that is not a
    capture, or is damaged, raises ValueError naming the file, the byte offset and what was
    expected; a file cut inside a record ends at its last whole record."""
    for record in _pathpool.CaptureRecords(path):
        yield Packet(*record)

