# SPDX-License-Identifier: GPL-2.0-only
# usage: tcp_isns.py PCAP PORT: the initial sequence numbers of the SYN-ACKs sent from TCP
# port PORT in a capture (QEMU's filter-dump: pcap, Ethernet), in their order, and whether
# they look as RFC 6528 has them: a keyed hash of each connection's ends makes those of
# different client ports unrelated, where a counter (lwIP's own: 6510 plus its ticks) puts
# each next to the last. Prints "isns: N ..." and, with at least 4 of them and a gap of
# more than 2^24 between two that follow each other, "isns: unpredictable ok".
import struct
import sys


def syn_acks(path, port):
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 24 or struct.unpack_from("<I", data)[0] != 0xA1B2C3D4:
        raise SystemExit(f"isns: {path} is not a little-endian pcap capture")
    off = 24
    while off + 16 <= len(data):
        incl = struct.unpack_from("<IIII", data, off)[2]
        frame = data[off + 16 : off + 16 + incl]
        off += 16 + incl
        if len(frame) < 14 + 20 or frame[12:14] != b"\x08\x00":
            continue  # not IPv4
        ip = frame[14:]
        ihl = (ip[0] & 0xF) * 4
        if ip[9] != 6 or len(ip) < ihl + 20:
            continue  # not TCP
        tcp = ip[ihl:]
        sport, dport, seq = struct.unpack_from(">HHI", tcp)
        flags = tcp[13]
        if sport == port and flags & 0x12 == 0x12:  # SYN and ACK
            yield dport, seq


def main():
    isns = list(syn_acks(sys.argv[1], int(sys.argv[2])))
    gaps = [(b[1] - a[1]) % 2**32 for a, b in zip(isns, isns[1:])]
    far = [g for g in gaps if 2**24 < g < 2**32 - 2**24]
    print(f"isns: {len(isns)} SYN-ACKs from port {sys.argv[2]}, "
          f"{len(far)} of {len(gaps)} gaps over 2^24; first: "
          + " ".join(f"{p}:{s:#010x}" for p, s in isns[:6]))
    if len(isns) >= 4 and far:
        print("isns: unpredictable ok")


main()
