# SPDX-License-Identifier: GPL-2.0-only
# arm64: a gzip'd Image (the vmlinuz of Ubuntu, Fedora and others) boots as it is: the
# hypervisor inflates it before taking the machine (hv/gunzip.c, zlib). A second VM is
# given a truncated copy and must be refused, with the file and the reason, before the
# machine is taken over.
. "$(dirname "$0")/lib.sh"
export ARCH=aarch64 GIC=3
G=$TOP/build/guests/aarch64
GZ=$(mktemp /tmp/hv-test-Image.XXXXXX)
gzip -9 -c "$G/Image" > "$GZ"
ESP_FILES="$GZ=/guests/vmlinuz $G/initrd.gz=/guests/initrd.gz"
boot "[vm z]
kernel = /guests/vmlinuz
initrd = /guests/initrd.gz
cmdline = console=ttyAMA0 quiet hv.mode=test
vcpus = 2
memory = 192M" 200
expect "the Image inflated at boot" "hv: /guests/vmlinuz: gzip, inflated"
expect_guest_ok z 2
mv "$LOG" "$LOG.1"
head -c $(($(wc -c < "$GZ") / 2)) "$GZ" > "$GZ.half"
ESP_FILES="$GZ.half=/guests/vmlinuz" STOP_AT="returning to the firmware"
boot "[vm t]
kernel = /guests/vmlinuz
vcpus = 1
memory = 64M" 120
expect "a truncated file refused, with the reason" "hv: /guests/vmlinuz: gzip:"
expect "nothing started" "hv: nothing was started; returning to the firmware"
cat "$LOG.1" "$LOG" > "$LOG.2" && mv "$LOG.2" "$LOG" && rm -f "$LOG.1" "$GZ" "$GZ.half"
grep -h "hv: /guests/vmlinuz" "$LOG" | sed 's/^/      /'
finish
