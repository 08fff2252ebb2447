#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# tests/emu/telemetry.sh's flood (issue 35, item 1): while the guest's workmeter
# (tests/guest/linux/workmeter.c) runs on the only vCPU, pinned to pCPU 0 (where the
# network is polled), this client takes turns of quiet and of a flood on the telemetry's
# port through QEMU's port forward (127.0.0.1 only): THREADS connections at a time, each
# sending HEAD or GET /metrics and then resetting (SO_LINGER 0) at once, or after the
# answer's first bytes; bounded by FLOOD_MAX connections and the turn's length. The
# workmeter's windows are sorted into the turns by the serial log's line count at each
# turn's start and end (a window counts when its vCPU's previous line came after its turn
# began and its own before the turn ended). Prints "flood: ..." lines; the shell checks
#   flood: progress ok  (windows per second of the emulated CPUs' time: the flood's at
#                        least 90% of the quiet turns')
#   flood: builds ok    (/metrics built at most once a second, plus 2, while more than twice
#                        as many requests were answered; and at least 3 times: the
#                        copies are let go)
#   usage: telemetry_flood.py BASE_URL LOG
import glob
import os
import re
import socket
import statistics
import struct
import sys
import threading
import time
import urllib.request

base, log = sys.argv[1], sys.argv[2]
host, port = base.split("//")[1].split(":")
port = int(port)
TURN_S, TURNS, THREADS, FLOOD_MAX = 8, 4, 8, 20000


def tcg_thread():
    """The stat file of the emulated CPUs' thread of the QEMU that forwards our port (TCG
    runs them on one thread: the busiest one)."""
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmd = open(f"/proc/{pid}/cmdline", "rb").read()
        except OSError:
            continue
        if b"qemu-system" in cmd and f"hostfwd=tcp:{host}:{port}-".encode() in cmd:
            tasks = glob.glob(f"/proc/{pid}/task/*/stat")
            return max(tasks, key=cpu_s)
    return None


def cpu_s(stat):
    """A thread's CPU time in seconds (utime + stime)."""
    f = open(stat).read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")


def lines():
    with open(log, "rb") as f:
        return f.read().count(b"\n")


def counters():
    """hv_http_snapshot_builds_total{page="metrics"}, requests ok, pCPU 0's network time."""
    global size
    with urllib.request.urlopen(base + "/metrics", timeout=10) as r:
        text = r.read().decode()
    size = len(text)
    def one(pattern):
        m = re.search("^" + pattern + r" ([0-9.]+)$", text, re.M)
        return float(m.group(1)) if m else -1
    return (one(r'hv_http_snapshot_builds_total\{page="metrics"\}'),
            one(r'hv_http_requests_total\{result="ok"\}'), one("hv_net_poll_seconds_total"))


sent = size = 0
lock = threading.Lock()


def flood(until):
    global sent
    k = 0
    while time.monotonic() < until:
        with lock:
            if sent >= FLOOD_MAX:
                return
            sent += 1
        k += 1
        try:
            s = socket.create_connection((host, port), timeout=1)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            s.sendall(b"HEAD /metrics HTTP/1.0\r\n\r\n" if k % 2 else
                      b"GET /metrics HTTP/1.0\r\n\r\n")
            if k % 4 < 2:
                s.recv(64)  # the answer's first bytes, then the reset
            s.close()
        except OSError:
            pass


# Wait for the workmeter's first windows.
for _ in range(120):
    with open(log, "rb") as f:
        if f.read().count(b"GUEST-workmeter workmeter: cpu=0 ") >= 2:
            break
    time.sleep(0.5)
else:
    raise SystemExit("flood: the workmeter never started")

turns = []
tcg = tcg_thread()
b0, r0, n0 = counters()
began = time.monotonic()
flooded = 0.0
for t in range(TURNS):
    kind = "flood" if t % 2 else "quiet"
    start, t0, c0 = lines(), time.monotonic(), cpu_s(tcg) if tcg else 0
    if kind == "flood":
        threads = [threading.Thread(target=flood, args=(t0 + TURN_S,)) for _ in range(THREADS)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        flooded += time.monotonic() - t0
    time.sleep(max(0.0, t0 + TURN_S - time.monotonic()))
    turns.append((kind, start, lines(), (cpu_s(tcg) if tcg else 0) - c0))
    print(f"flood: turn {t} {kind} lines {start}-{turns[-1][2]}, the emulated CPUs' thread "
          f"ran {turns[-1][3]:.2f} s")
b1, r1, n1 = counters()
elapsed = time.monotonic() - began

# The windows, by turn.
windows = {"quiet": [], "flood": []}
last = {}
with open(log, "rb") as f:
    for no, raw in enumerate(f):
        m = re.search(rb"GUEST-workmeter workmeter: cpu=(\d+) window=\d+ ms=([0-9.]+)", raw)
        if not m:
            continue
        cpu, ms = m.group(1), float(m.group(2))
        for kind, start, end, _ in turns:
            if cpu in last and last[cpu] >= start and no < end:
                windows[kind].append(ms)
        last[cpu] = no
# Progress: windows (a fixed amount of work each) per second of the emulated machine's CPU
# time (its thread's: so that the host's other loads, which slow QEMU as a whole, do not
# count, while whatever pCPU 0 does instead of the guest does). The windows' own times
# (the guest's clock: real time) are printed beside.
cpu = {k: sum(c for kind, _, _, c in turns if kind == k) for k in windows}
q, fl = windows["quiet"], windows["flood"]
print(f"flood: {sent} connections in {flooded:.1f} s of flood, {r1 - r0:.0f} requests answered; "
      f"in {elapsed:.1f} s /metrics built {b1 - b0:.0f} times, pCPU 0's network time "
      f"{n1 - n0:.3f} s ({100 * (n1 - n0) / elapsed:.1f}%); /metrics {size} bytes")
if len(q) >= 3 and len(fl) >= 3 and cpu["quiet"] > 0 and cpu["flood"] > 0:
    rq, rf = len(q) / cpu["quiet"], len(fl) / cpu["flood"]
    print(f"flood: workmeter windows quiet {len(q)} in {cpu['quiet']:.2f} s of CPU (mean "
          f"{statistics.mean(q):.1f} ms), flood {len(fl)} in {cpu['flood']:.2f} s (mean "
          f"{statistics.mean(fl):.1f} ms): {100 * rf / rq:.0f}% of the quiet progress "
          f"({100 * statistics.mean(q) / statistics.mean(fl):.0f}% by the guest's clock)")
    if rf >= 0.9 * rq:
        print("flood: progress ok")
else:
    print(f"flood: too few windows: {len(q)} quiet, {len(fl)} flood")
# and at least 3 times: were the copies never let go (a reset or a HEAD that kept its
# reference), the first two GETs would hold both for good and the builds stop there. (A
# connection holds its copy up to 10 s, the server's limit, where its reset does not reach
# the server: a rebuild then waits, and the newest copy is served.)
if r1 - r0 > 2 * (elapsed + 2) and 3 <= b1 - b0 <= elapsed + 2:
    print("flood: builds ok")
