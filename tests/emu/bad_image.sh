# SPDX-License-Identifier: GPL-2.0-only
# Kernel files that an x86 VM cannot boot (multiboot kernels among them), and a missing
# initrd: each is reported with
# the file, what it is and what would work, and the firmware gets the machine back.
. "$(dirname "$0")/lib.sh"
G=$TOP/build/guests/x86_64
refused() { # NAME: the VM was not created and the firmware's shell came back
	expect "$1: the VM's config line is named" "hv: hv.cfg:1: VM '$1' cannot be created"
	expect "$1: the firmware took over again (its shell)" "Shell>"
	expect_not "$1: machine not taken over" "taking over the machine"
}
STOP_AT="Shell>" boot "[vm initramfs]
kernel = /guests/initrd.gz" 120 1
expect "an initramfs as kernel is named as such" "hv: VM 'initramfs': /guests/initrd.gz: an initramfs (a cpio archive) given as the kernel: it belongs in initrd =; an x86 VM boots a bzImage (a distribution's vmlinuz), a vmlinux with a PVH entry note or a multiboot kernel"
refused initramfs

# An arm64 Image: its 64-byte header with the magic at 56, then zeros.
arm64=$(mktemp /tmp/hv-test-arm64.XXXXXX)
{ head -c 56 /dev/zero; printf 'ARM\144'; head -c 4096 /dev/zero; } > "$arm64"
ESP_FILES="$arm64=/guests/Image" STOP_AT="Shell>" boot "[vm arm]
kernel = /guests/Image" 120 1
expect "an arm64 Image on x86 is named" "hv: VM 'arm': /guests/Image: an arm64 Image; an x86 VM boots a bzImage"
refused arm

# The distribution's vmlinuz cut to half: its compressed kernel runs past the end.
half=$(mktemp /tmp/hv-test-half.XXXXXX)
head -c $(($(stat -c %s "$G/vmlinuz") / 2)) "$G/vmlinuz" > "$half"
ESP_FILES="$half=/guests/vmlinuz" STOP_AT="Shell>" boot "[vm half]
kernel = /guests/vmlinuz" 120 1
expect "a cut bzImage is refused with the reason" "hv: VM 'half': /guests/vmlinuz: a bzImage cut short: its compressed kernel runs past the end of the file"
refused half
rm -f "$arm64" "$half"

# Multiboot kernels (tests/guest/x86/mbtest.asm, its header at 0x1000): a wrong checksum,
# and a header that requires a video mode (flag 2, checksum adjusted).
MB=$TOP/build/x86_64/guests-test/mbtest.elf
sum=$(mktemp /tmp/hv-test-mbsum.XXXXXX)
video=$(mktemp /tmp/hv-test-mbvideo.XXXXXX)
cp "$MB" "$sum"
printf '\001' | dd of="$sum" bs=1 seek=$((0x1008)) conv=notrunc 2>/dev/null
cp "$MB" "$video"
printf '\007' | dd of="$video" bs=1 seek=$((0x1004)) conv=notrunc 2>/dev/null
printf '\367' | dd of="$video" bs=1 seek=$((0x1008)) conv=notrunc 2>/dev/null
ESP_FILES="$sum=/guests/mb.elf" STOP_AT="Shell>" boot "[vm mbsum]
kernel = /guests/mb.elf" 120 1
expect "a multiboot header with a wrong checksum is named" "hv: VM 'mbsum': /guests/mb.elf: a multiboot kernel whose header's checksum is wrong (magic + flags + checksum must be 0)"
refused mbsum
ESP_FILES="$video=/guests/mb.elf" STOP_AT="Shell>" boot "[vm mbvideo]
kernel = /guests/mb.elf" 120 1
expect "a multiboot kernel that requires a video mode is refused" "hv: VM 'mbvideo': /guests/mb.elf: a multiboot kernel: the kernel requires a video mode (multiboot flag 2): a VM here has no display"
refused mbvideo
rm -f "$sum" "$video"

# The vmlinuz in too little memory: it needs init_size from its load address.
STOP_AT="Shell>" boot "[vm small]
kernel = /guests/vmlinuz
memory = 32M" 120 1
expect "too little memory for the bzImage, with the sizes" "hv: VM 'small': /guests/vmlinuz: the kernel needs RAM up to"
refused small

STOP_AT="Shell>" boot "[vm noinitrd]
kernel = /guests/vmlinuz
initrd = /guests/missing.gz" 120 1
expect "missing file is named" "hv: /guests/missing.gz: file not found"
expect "the firmware took over again (its shell)" "Shell>"
finish
