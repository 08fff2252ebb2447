# SPDX-License-Identifier: GPL-2.0-only
# x86: the telemetry with an allow list that leaves QEMU's user network out
# (allow = 192.0.2.0/24; its connections come from 10.0.2.2): the console says what the
# list is, and a request through the port forward gets no answer at all (its frames are
# dropped before lwIP: no SYN-ACK, no HTTP, and the power-off line counts them as denied),
# while the guest runs on. The passing side is in telemetry.sh (allow = 10.0.2.2/32).
# About a minute.
. "$(dirname "$0")/lib.sh"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
QEMU_ARGS="-netdev user,id=tn,hostfwd=tcp:127.0.0.1:$port-:80 -device virtio-net-pci,netdev=tn,romfile="
out=$(mktemp /tmp/hv-test-allow.XXXXXX)
trap 'rm -f "$out"' EXIT
(
	for _ in $(seq 600); do
		grep -q "hv: telemetry: http://" "$LOG" 2> /dev/null && break
		sleep 0.5
	done
	# slirp takes the connection at once and passes it on: what comes back, in 20 s.
	/usr/bin/python3 - "$port" > "$out" 2>&1 << 'PY'
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
s.sendall(b"GET /metrics HTTP/1.0\r\nHost: 10.0.2.15\r\n\r\n")
got, end = b"", time.time() + 20
s.settimeout(1)
while time.time() < end:
    try:
        b = s.recv(4096)
    except socket.timeout:
        continue
    except OSError:
        break
    if not b:
        break
    got += b
print("denied: answer %r" % got[:40] if got else "denied: no answer in 20 s")
PY
) &
client=$!
boot "[net]
address = 10.0.2.15/24
gateway = 10.0.2.2
allow = 192.0.2.0/24
$(linux_vm linux0 1 256M "hv.mode=spin hv.spin=45")" 300
wait $client
cat "$out" >> "$LOG"
sed 's/^/      /' "$out"
expect "the console says who may reach it" \
	"hv: telemetry: only IPv4 frames from 192.0.2.0/24 reach it (allow)"
expect "the address (static)" "hv: telemetry: http://10.0.2.15:80/metrics (static)"
expect "a request from outside the list got no answer" "denied: no answer in 20 s"
# ...because the list dropped its frames, not because the network was dead.
expect_net_counter "its frames reached the NIC and the list dropped them" denied 1
expect "nothing answered" "requests ok=0 bad=0;"
expect "the guest ran on" "hv: VM 'linux0' powered off"
unset QEMU_ARGS
finish
