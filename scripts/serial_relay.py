#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# usage: serial_relay.py PORT_FILE OUT
# The other end of an emulator's serial port in socket-client mode (Bochs's `com1:
# mode=socket-client`, tests/emu/lib.sh's boot_bochs): listens on a free TCP port of
# 127.0.0.1, writes its number to PORT_FILE, takes one connection and appends all that
# comes to OUT as it comes. It types the hypervisor's Ctrl-\ (the dump of every VM's
# vCPUs and counters, README, "What you see on the console") when a guest's console reports a stall (a
# line with "detected stall" or "soft lockup": the kernel's RCU and lockup watchdogs) and
# when sent SIGUSR1 (the test's time is running out), at most once every 20 s: so a guest
# that hangs leaves the hypervisor's view of it in the log.
import re
import signal
import socket
import sys
import time

STALL = re.compile(rb"detected stalls?|soft lockup")


def main():
    port_file, out_path = sys.argv[1], sys.argv[2]
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    with open(port_file, "w") as f:
        f.write(f"{srv.getsockname()[1]}\n")
    conn, _ = srv.accept()
    srv.close()
    last_dump = [0.0]

    def dump(*_):
        if time.time() - last_dump[0] >= 20:
            last_dump[0] = time.time()
            try:
                conn.sendall(b"\x1c")
            except OSError:
                pass

    signal.signal(signal.SIGUSR1, dump)
    tail = b""
    with open(out_path, "ab", buffering=0) as out:
        while True:
            try:
                data = conn.recv(4096)
            except InterruptedError:
                continue
            if not data:
                break
            out.write(data)
            tail = (tail + data)[-4096:]
            *lines, tail = tail.split(b"\n")
            if any(STALL.search(line) for line in lines):
                dump()


if __name__ == "__main__":
    main()
