# SPDX-License-Identifier: GPL-2.0-only
# Network boot (docs/network_boot.md): no disk; the firmware PXE-boots hv.efi over TFTP
# from QEMU's user networking (on x86 through the iPXE driver that QEMU loads as the
# virtio-net NIC's option ROM, on arm64 through AAVMF's own PXE driver), and hv.efi
# fetches hv.cfg and the guest's kernel and initrd from the same server with lwIP (DHCP,
# then TFTP). A guest runs from those files. Then hv.cfg names a file that the server does
# not have, then one it refuses (QEMU's TFTP server answers "../" with an access
# violation), then one larger than the hypervisor takes (1100 MiB, sparse): each time one
# console line names the file, the server and the reason, the NIC goes back to the
# firmware as found, and the firmware gets the machine back. Then the same first boot and
# missing file on arm64.
. "$(dirname "$0")/lib.sh"
export NETBOOT=1
boot "$(linux_vm linux0 2 256M hv.mode=test)" 400
expect "network boot seen in the device path" "hv: network-booted: NIC 52:54:00:12:34:56"
expect "address by DHCP, boot server named" "hv: network: address 10.0.2.15 netmask 255.255.255.0 gateway 10.0.2.2 (DHCP server 10.0.2.2); boot server 10.0.2.2 (TFTP, from BOOTP next-server)"
expect "hv.cfg over TFTP" "hv: tftp hv.cfg: done, "
expect "kernel over TFTP, all of it" "hv: tftp /guests/vmlinuz: done, $(($(stat -c %s "$TOP/build/guests/x86_64/vmlinuz") >> 10)) KiB in "
expect "initrd over TFTP" "hv: tftp /guests/initrd.gz: done, "
expect_guest_ok linux0 2
expect "machine powered off when the last VM stopped" "hv: powering off (ACPI S5)"
grep "^hv: tftp " "$LOG" | tr -d '\r' | sed 's/^/      /'
mv "$LOG" "$LOG.1"
STOP_AT="returning to the firmware" boot "$(linux_vm linux0 1 128M hv.mode=test)
[vm second]
kernel = /guests/missing
memory = 64M" 120 1
expect "a missing file: the file, the server, the TFTP error" "hv: /guests/missing: TFTP server 10.0.2.2: file not found (TFTP error 1: \"File not found\")"
expect "with the VM's config line" "hv: hv.cfg:8: VM 'second' cannot be created"
expect "the NIC given back to the firmware as found" "hv: network: NIC given back to the firmware"
expect_not "machine not taken over after the error" "taking over the machine"
mv "$LOG" "$LOG.2"
STOP_AT="returning to the firmware" boot "[vm refused]
kernel = /guests/../guests/vmlinuz
memory = 64M" 120 1
expect "a refused file: the file, the server, the TFTP error" "hv: /guests/../guests/vmlinuz: TFTP server 10.0.2.2: access violation (TFTP error 2: \"Access violation\")"
expect "the NIC given back to the firmware as found" "hv: network: NIC given back to the firmware"
cat "$LOG.2" "$LOG" > "$LOG.3" && mv "$LOG.3" "$LOG.2"
huge=$(mktemp /tmp/hv-test-huge.XXXXXX)
truncate -s 1100M "$huge" # sparse: QEMU announces its size (tsize), nothing is read
ESP_FILES="$huge=/guests/huge" STOP_AT="returning to the firmware" boot "[vm huge]
kernel = /guests/huge
memory = 64M" 120 1
rm -f "$huge"
expect "a file over the limit: refused at its announced size" "hv: /guests/huge: TFTP server 10.0.2.2: file too large: 1153433600 bytes, the hypervisor takes at most 1024 MiB"
expect "the NIC given back to the firmware as found" "hv: network: NIC given back to the firmware"
cat "$LOG.2" "$LOG" > "$LOG.3" && mv "$LOG.3" "$LOG.2"
export ARCH=aarch64
boot "$(linux_vm linux0 2 256M hv.mode=test)" 400
expect "arm64: network boot seen in the device path" "hv: network-booted: NIC 52:54:00:12:34:56"
expect "arm64: kernel over TFTP, all of it" "hv: tftp /guests/Image: done, $(($(stat -c %s "$TOP/build/guests/aarch64/Image") >> 10)) KiB in "
expect_guest_ok linux0 2
expect "arm64: machine powered off when the last VM stopped" "hv: powering off (PSCI SYSTEM_OFF)"
grep "^hv: tftp " "$LOG" | tr -d '\r' | sed 's/^/      /'
cat "$LOG.2" "$LOG" > "$LOG.3" && mv "$LOG.3" "$LOG.2"
STOP_AT="returning to the firmware" boot "[vm second]
kernel = /guests/missing
memory = 64M" 120 1
expect "arm64: a missing file: the file, the server, the TFTP error" "hv: /guests/missing: TFTP server 10.0.2.2: file not found (TFTP error 1: \"File not found\")"
expect "arm64: the shared NIC left initialized, as AAVMF's PXE driver had it" "hv: network: NIC given back to the firmware initialized, as found"
cat "$LOG.1" "$LOG.2" "$LOG" > "$LOG.3" && mv "$LOG.3" "$LOG" && rm -f "$LOG.1" "$LOG.2"
finish
