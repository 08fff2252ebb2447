# SPDX-License-Identifier: GPL-2.0-only
# Network boot with http:// paths (docs/network_boot.md): hv.efi is PXE-booted as in
# pxe_boot, and its hv.cfg names the guest's kernel and initrd as http:// URLs of an HTTP
# server on this machine (python3's http.server on 127.0.0.1, which QEMU's user
# networking shows the guest as 10.0.2.2). lwIP fetches them over TCP and a guest runs
# from them, and with [net] the hypervisor keeps the NIC (and lwIP) for its telemetry
# after the takeover. Then a file the server does not have (404), a port where no server
# listens, and a server that closes before the length it announced: each time one
# console line names the URL, the server and the reason, and the firmware gets the
# machine back. Last, arm64 (AAVMF) boots its kernel and initrd over HTTP the same way.
. "$(dirname "$0")/lib.sh"
export NETBOOT=1
dir=$(mktemp -d /tmp/hv-test-http.XXXXXX)
cp "$TOP/build/guests/x86_64/vmlinuz" "$TOP/build/guests/x86_64/initrd.gz" "$dir/"
mkdir "$dir/arm64"
cp "$TOP/build/guests/aarch64/Image" "$TOP/build/guests/aarch64/initrd.gz" "$dir/arm64/"
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
port=$(free_port)
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$dir" > "$dir.log" 2>&1 &
server=$!
# The short server: announces 1000000 bytes, sends 5000 and closes, for every request.
short=$(free_port)
python3 -c "
import socket
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(('127.0.0.1', $short)); s.listen()
while True:
    c, _ = s.accept(); c.recv(4096)
    c.sendall(b'HTTP/1.0 200 OK\\r\\nContent-Length: 1000000\\r\\n\\r\\n' + b'x' * 5000); c.close()
" > /dev/null 2>&1 &
short_server=$!
trap 'kill $server $short_server 2> /dev/null; rm -rf "$dir" "$dir.log"' EXIT
for _ in $(seq 50); do
	python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 1)" 2> /dev/null && break
	sleep 0.1
done
url=http://10.0.2.2:$port
boot "[net]
$(linux_vm linux0 2 256M hv.mode=test | sed "s|^kernel = .*|kernel = $url/vmlinuz|; s|^initrd = .*|initrd = $url/initrd.gz|")" 400
expect "hv.cfg over TFTP" "hv: tftp hv.cfg: done, "
expect "kernel over HTTP, all of it" "hv: http $url/vmlinuz: done, $(($(stat -c %s "$dir/vmlinuz") >> 10)) KiB in "
expect "initrd over HTTP, all of it" "hv: http $url/initrd.gz: done, $(($(stat -c %s "$dir/initrd.gz") >> 10)) KiB in "
expect_guest_ok linux0 2
expect "the same NIC and lwIP kept for the telemetry after the takeover" "hv: telemetry: http://10.0.2.15:80/metrics (DHCP)"
expect "machine powered off when the last VM stopped" "hv: powering off (ACPI S5)"
grep "^hv: http " "$LOG" | tr -d '\r' | sed 's/^/      /'
mv "$LOG" "$LOG.1"
STOP_AT="returning to the firmware" boot "[vm missing]
kernel = $url/guests/missing
memory = 64M" 120 1
expect "a missing file: the URL, the server, the HTTP status" "hv: $url/guests/missing: HTTP server 10.0.2.2:$port: HTTP 404 File not found"
expect "the NIC given back to the firmware as found" "hv: network: NIC given back to the firmware"
expect_not "machine not taken over after the error" "taking over the machine"
cat "$LOG.1" "$LOG" > "$LOG.2" && mv "$LOG.2" "$LOG.1"
closed=$(free_port)
STOP_AT="returning to the firmware" boot "[vm refused]
kernel = http://10.0.2.2:$closed/vmlinuz
memory = 64M" 120 1
expect "a port without a server: refused" "hv: http://10.0.2.2:$closed/vmlinuz: HTTP server 10.0.2.2:$closed: connection refused (no server on that port)"
expect "the NIC given back to the firmware as found" "hv: network: NIC given back to the firmware"
cat "$LOG.1" "$LOG" > "$LOG.2" && mv "$LOG.2" "$LOG.1"
STOP_AT="returning to the firmware" boot "[vm short]
kernel = http://10.0.2.2:$short/vmlinuz
memory = 64M" 120 1
expect "a body shorter than its Content-Length: a short read" "hv: http://10.0.2.2:$short/vmlinuz: HTTP server 10.0.2.2:$short: short read: the connection closed after 5000 of 1000000 bytes"
expect "the NIC given back to the firmware as found" "hv: network: NIC given back to the firmware"
cat "$LOG.1" "$LOG" > "$LOG.2" && mv "$LOG.2" "$LOG.1"
export ARCH=aarch64
boot "$(linux_vm linux0 2 256M hv.mode=test | sed "s|^kernel = .*|kernel = $url/arm64/Image|; s|^initrd = .*|initrd = $url/arm64/initrd.gz|")" 400
expect "arm64: kernel over HTTP, all of it" "hv: http $url/arm64/Image: done, $(($(stat -c %s "$dir/arm64/Image") >> 10)) KiB in "
expect_guest_ok linux0 2
grep "^hv: http " "$LOG" | tr -d '\r' | sed 's/^/      /'
cat "$LOG.1" "$LOG" > "$LOG.2" && mv "$LOG.2" "$LOG" && rm -f "$LOG.1"
finish
