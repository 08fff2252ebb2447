# SPDX-License-Identifier: GPL-2.0-only
# Telemetry after the takeover (README, "Telemetry"): hv.cfg has a [net] section, the
# machine a virtio-net NIC on QEMU's user network with the hypervisor's HTTP port
# forwarded to 127.0.0.1. The hypervisor takes the NIC after ExitBootServices, gets an
# address by DHCP and serves /metrics while a guest's 2 vCPUs spin: two scrapes a few
# seconds apart parse as Prometheus text (prometheus_client's parser) with the guest's
# counters grown, /stats is JSON with the same VM, /console/linux0 holds the guest's
# last console lines, / is the live page, an unknown path is a 404, and a request that
# is not GET or HEAD is refused (405). Then the live page in headless Chromium, twice:
# the exits it shows grow and the screenshots (kept as LOG.page1.png, LOG.page2.png)
# differ.
. "$(dirname "$0")/lib.sh"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
export QEMU_ARGS="-netdev user,id=tn,hostfwd=tcp:127.0.0.1:$port-:80 -device virtio-net-pci,netdev=tn,romfile="
out=$(mktemp -d /tmp/hv-test-telemetry.XXXXXX)
trap 'rm -rf "$out"' EXIT
# The scraper: once the hypervisor says where it serves, it asks (python: no curl needed).
(
	for _ in $(seq 600); do
		grep -q "hv: telemetry: http://" "$LOG" 2> /dev/null && break
		sleep 0.5
	done
	/usr/bin/python3 "$TOP/tests/emu/telemetry_scrape.py" "http://127.0.0.1:$port" "$out" > "$out/scrape.log" 2>&1
	echo "scrape exit $?" >> "$out/scrape.log"
) &
scraper=$!
boot "[net]
$(linux_vm linux0 2 256M "hv.mode=spin hv.spin=60")" 400
wait $scraper
sed 's/^/      /' "$out/scrape.log"
cat "$out/scrape.log" >> "$LOG"
expect "the NIC taken after the takeover" "hv: telemetry: NIC "
expect "an address by DHCP" "hv: telemetry: http://10.0.2.15:80/metrics (DHCP)"
expect "both scrapes parse as Prometheus text" "scrape: prometheus ok"
expect "the guest's exits grew between the scrapes" "scrape: exits grew"
expect "/stats is JSON with the VM" "scrape: stats ok"
last=$(sed -n 's/^scrape: console last line: //p' "$out/scrape.log")
expect "/console/linux0 ends with a line of the guest's console" "[linux0] ${last:-no line}"
expect "/console of an unknown VM is a 404" "scrape: console 404 ok"
expect "/ is the live page" "scrape: live page ok"
expect "an unknown path is a 404" "scrape: 404 ok"
expect "the live page in Chromium: the exits it shows grew" "scrape: page counters moved"
expect "the live page in Chromium: two screenshots differ" "scrape: screenshots differ"
cp "$out/page1.png" "$LOG.page1.png" 2> /dev/null
cp "$out/page2.png" "$LOG.page2.png" 2> /dev/null
expect "a POST is refused with 405" "scrape: 405 ok"
expect "the scraper finished" "scrape exit 0"
expect "machine powered off when the last VM stopped" "hv: powering off (ACPI S5)"
finish
