#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# usage: qmp_watch.py SOCKET OUT_PREFIX [MEM_BYTES]
# For a QEMU started with `-no-reboot -action shutdown=pause -qmp unix:SOCKET,server=on,
# wait=off` (scripts/flake.sh): waits for the machine's end. A power-off (QMP SHUTDOWN
# event, reason guest-shutdown) just ends QEMU. A machine reset (reason guest-reset: a
# triple fault outside guest mode, or a reset the guest asked for) leaves QEMU paused at
# that moment; then every CPU's registers (`info registers -a`), the instructions at each
# CPU's RIP and the words at its RSP go to OUT_PREFIX.regs, and the first MEM_BYTES of
# physical memory (default 2 GiB, the tests' -m 2048) to OUT_PREFIX.mem, before QEMU is
# ended. Without this QEMU leaves nothing but a "Triple fault" line (-d cpu_reset logs
# CPU state at resets, which -no-reboot turns into an exit).
import json
import socket
import sys
import time


def main():
    path, out = sys.argv[1], sys.argv[2]
    mem = int(sys.argv[3], 0) if len(sys.argv) > 3 else 2 << 30
    s = None
    for _ in range(600):  # QEMU creates the socket early; give it a minute
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(path)
            break
        except OSError:
            s = None
            time.sleep(0.1)
    if s is None:
        sys.exit("qmp_watch: no QMP socket at " + path)
    f = s.makefile("rw")

    def recv():
        line = f.readline()
        if not line:
            raise EOFError
        return json.loads(line)

    def cmd(name, **args):
        f.write(json.dumps({"execute": name, "arguments": args}) + "\n")
        f.flush()
        while True:
            r = recv()
            if "return" in r or "error" in r:
                return r

    def hmp(line, cpu=0):
        r = cmd("human-monitor-command", **{"command-line": line, "cpu-index": cpu})
        return r.get("return", json.dumps(r.get("error")))

    recv()  # greeting
    cmd("qmp_capabilities")
    try:
        while True:
            ev = recv()
            if ev.get("event") != "SHUTDOWN":
                continue
            reason = ev.get("data", {}).get("reason", "")
            if reason == "guest-reset":
                with open(out + ".regs", "w") as o:
                    o.write("QMP SHUTDOWN event: %s\n\n" % json.dumps(ev))
                    o.write(hmp("info registers -a") + "\n")
                    ncpus = len(cmd("query-cpus-fast").get("return", []))
                    for cpu in range(ncpus):
                        o.write("== CPU %d: instructions at RIP\n" % cpu)
                        o.write(hmp("x/24i $pc", cpu) + "\n")
                        o.write("== CPU %d: stack at RSP\n" % cpu)
                        o.write(hmp("x/48gx $rsp", cpu) + "\n")
                cmd("pmemsave", val=0, size=mem, filename=out + ".mem")
            cmd("quit")
            return
    except EOFError:
        return


main()
