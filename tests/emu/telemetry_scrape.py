#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# tests/emu/telemetry.sh's client: scrapes the hypervisor's HTTP endpoints and prints one
# "scrape: ..." line per check that held (the shell test expects them), details otherwise.
#   usage: telemetry_scrape.py BASE_URL OUT_DIR HV_ADDRESS
# BASE_URL reaches the hypervisor through QEMU's port forward; HV_ADDRESS (A.B.C.D:PORT) is
# its own, which a client on its LAN sends as Host (/console/ checks it).
import json
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from urllib.parse import urlparse

from prometheus_client.parser import text_string_to_metric_families

base, out, hv = sys.argv[1], sys.argv[2], sys.argv[3]


def get(path, tries=20, host=None):
    """The body of a 200 answer, or (status, body) of an error; retried while the
    hypervisor's address is not up yet (QEMU forwards, then nobody answers). host: the
    Host header to send instead of the forward's 127.0.0.1:PORT."""
    req = urllib.request.Request(base + path, headers={"Host": host} if host else {})
    for i in range(tries):
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()
        except (urllib.error.URLError, ConnectionError, socket.timeout) as e:
            print(f"{path}: {e!r}, again")
            time.sleep(1)
    raise SystemExit(f"{path}: no answer")


def exits(text):
    total = 0
    for fam in text_string_to_metric_families(text):
        for s in fam.samples:
            if s.name in ("hv_vcpu_exits_total", "hv_exits_total") and s.labels.get("vm") == "linux0":
                total += s.value
    return total


def families(text):
    return {f.name for f in text_string_to_metric_families(text)}


status, first = get("/metrics")
open(f"{out}/metrics.1", "w").write(first)
time.sleep(4)
status2, second = get("/metrics")
open(f"{out}/metrics.2", "w").write(second)
if status == 200 and status2 == 200:
    f1, f2 = families(first), families(second)  # raises on text that does not parse
    print(f"scrape: prometheus ok ({len(f1)} families, {len(first)} bytes)")
    e1, e2 = exits(first), exits(second)
    print(f"scrape: exits {e1:.0f} then {e2:.0f}")
    if e2 > e1 > 0:
        print("scrape: exits grew")
    own = {(s.name, tuple(sorted(s.labels.items()))): s.value
           for f in text_string_to_metric_families(second) for s in f.samples}
    rx = own.get(("hv_net_frames_total", (("direction", "rx"),)), 0)
    ok = own.get(("hv_http_requests_total", (("result", "ok"),)), 0)
    print(f"scrape: NIC rx {rx:.0f} frames, {ok:.0f} requests answered")
    pcpu0 = own.get(("hv_pcpu_switches_total", (("pcpu", "0"),)), 0)
    print(f"scrape: pcpu0 switches {pcpu0:.0f}")
    net = own.get(("hv_net_poll_seconds_total", ()), 0)
    throttled = own.get(("hv_net_poll_throttled_total", ()), -1)
    print(f"scrape: pcpu0's network time {net:.6f} s, polls held back {throttled:.0f}")
    if rx > 0 and ok >= 1 and pcpu0 > 0 and net > 0 and throttled >= 0:
        print("scrape: own counters ok")
else:
    print(f"/metrics: HTTP {status} {status2}")

status, stats = get("/stats")
try:
    doc = json.loads(stats)
    names = [vm["name"] for vm in doc["vms"]]
    print(f"scrape: stats VMs {names}")
    machine = doc["machine"]
    print(f"scrape: stats machine {json.dumps(machine)}")
    if "linux0" in names and set(machine["hv_pcpu_switches_total"]) == {"0", "1"} and \
            machine["hv_net_frames_total"]["rx"] > 0 and machine["hv_net_poll_seconds_total"] > 0:
        print("scrape: stats ok")
except (ValueError, KeyError, TypeError) as e:
    print(f"/stats: HTTP {status}, not the JSON expected: {e!r}: {stats[:200]!r}")

for _ in range(60):  # the guest's first line may be a while away (TCG)
    status, body = get("/console/linux0", host=hv)
    lines = [l for l in body.split("\n")[:-1] if l.strip()]  # whole lines: the hv prints those
    if status != 200 or lines:
        break
    time.sleep(1)
print(f"/console/linux0: HTTP {status}, {len(body)} bytes, {len(lines)} lines")
if status == 404 and "console = yes under [net]" in body:
    print("scrape: console not served ok")
if status == 200 and lines:
    open(f"{out}/console", "w").write(body)
    print(f"scrape: console last line: {lines[-1]}")
    status, body = get("/console/nosuch", host=hv)
    if status == 404 and "no VM named 'nosuch'" in body:
        print("scrape: console 404 ok")
    status, body = get("/console/linux0", host="evil.example:" + hv.split(":")[1])
    print(f"/console/linux0 as evil.example: HTTP {status}: {body.strip()}")
    if status == 403 and "Host header names another server" in body:
        print("scrape: console foreign host 403 ok")
    status, body = get("/console/linux0")
    if status == 403:
        print("scrape: console forwarded 403 ok")

status, body = get("/")
if status == 200 and "<canvas" in body and "/stats" in body:
    print(f"scrape: live page ok ({len(body)} bytes)")

status, body = get("/no/such/page")
print(f"/no/such/page: HTTP {status}")
if status == 404:
    print("scrape: 404 ok")

u = urlparse(base)
with socket.create_connection((u.hostname, u.port), timeout=10) as s:
    s.sendall(b"POST /metrics HTTP/1.0\r\nContent-Length: 0\r\n\r\n")
    answer = b""
    while chunk := s.recv(4096):
        answer += chunk
line = answer.split(b"\r\n", 1)[0].decode(errors="replace")
print(f"POST: {line}")
if line.startswith("HTTP/1.0 405") or line.startswith("HTTP/1.1 405"):
    print("scrape: 405 ok")

# The live page in a browser: headless Chromium (Debian's) loads it twice, a few seconds
# apart, each time running its script for 3 s (virtual time: the page's timers, fetches
# in real time); the exits it shows grow, and the two screenshots differ.
BROWSER = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--window-size=900,1400",
           "--virtual-time-budget=3000"]


def page_exits(dom):
    m = re.search(r"<td>hv_vcpu_exits_total</td><td>(\d+)</td>", dom)
    return int(m.group(1)) if m else None


if not shutil.which("chromium"):
    raise SystemExit("browser: no chromium (Debian's package; scripts/deps.sh installs it)")
shown = []
for k in (1, 2):
    dom = subprocess.run(BROWSER + ["--dump-dom", base + "/"], capture_output=True, text=True,
                         timeout=60).stdout
    shown.append(page_exits(dom))
    subprocess.run(BROWSER + [f"--screenshot={out}/page{k}.png", base + "/"],
                   capture_output=True, timeout=60)
    time.sleep(3)
print(f"browser: exits shown {shown[0]} then {shown[1]}")
if None not in shown and shown[1] > shown[0] > 0:
    print("scrape: page counters moved")
shots = [open(f"{out}/page{k}.png", "rb").read() for k in (1, 2)]
print(f"browser: screenshots of {len(shots[0])} and {len(shots[1])} bytes")
if shots[0] != shots[1]:
    print("scrape: screenshots differ")
