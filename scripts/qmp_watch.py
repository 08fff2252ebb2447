#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# usage: qmp_watch.py SOCKET OUT_PREFIX [MEM_BYTES [HANG_S]]
# For a QEMU started with `-no-reboot -action shutdown=pause -qmp unix:SOCKET,server=on,
# wait=off` (scripts/flake.sh): waits for the machine's end. A power-off (QMP SHUTDOWN
# event, reason guest-shutdown) just ends QEMU. A machine reset (reason guest-reset: a
# triple fault outside guest mode, or a reset the guest asked for) leaves QEMU paused at
# that moment; then every CPU's registers (`info registers -a`), the instructions at each
# CPU's RIP and the words at its RSP go to OUT_PREFIX.regs, and the first MEM_BYTES of
# physical memory (default 2 GiB, the tests' -m 2048) to OUT_PREFIX.mem, before QEMU is
# ended. Without this QEMU leaves nothing but a "Triple fault" line (-d cpu_reset logs
# CPU state at resets, which -no-reboot turns into an exit). A machine still running after
# HANG_S seconds (a hang: the test's own timeout ends it later) has the same registers,
# instructions and stacks saved to OUT_PREFIX.hang.regs, taken with the machine stopped
# for the moment, and runs on.
import json
import socket
import sys
import time


def main():
    path, out = sys.argv[1], sys.argv[2]
    mem = int(sys.argv[3], 0) if len(sys.argv) > 3 else 2 << 30
    hang_at = time.time() + float(sys.argv[4]) if len(sys.argv) > 4 else None
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

    def save_cpus(path, header):
        with open(path, "w") as o:
            o.write(header + "\n\n")
            o.write(hmp("info registers -a") + "\n")
            ncpus = len(cmd("query-cpus-fast").get("return", []))
            for cpu in range(ncpus):
                o.write("== CPU %d: instructions at RIP\n" % cpu)
                o.write(hmp("x/24i $pc", cpu) + "\n")
                o.write("== CPU %d: stack at RSP\n" % cpu)
                o.write(hmp("x/48gx $rsp", cpu) + "\n")

    recv()  # greeting
    cmd("qmp_capabilities")
    try:
        while True:
            if hang_at is not None:
                s.settimeout(max(hang_at - time.time(), 0.1))
            try:
                ev = recv()
            except TimeoutError:
                s.settimeout(None)
                f = s.makefile("rw")  # a file object cannot be read after a timeout
                hang_at = None
                cmd("stop")
                save_cpus(out + ".hang.regs", "still running after %s s" % sys.argv[4])
                cmd("cont")
                continue
            if ev.get("event") != "SHUTDOWN":
                continue
            reason = ev.get("data", {}).get("reason", "")
            if reason == "guest-reset":
                save_cpus(out + ".regs", "QMP SHUTDOWN event: %s" % json.dumps(ev))
                cmd("pmemsave", val=0, size=mem, filename=out + ".mem")
            cmd("quit")
            return
    except EOFError:
        return


main()
