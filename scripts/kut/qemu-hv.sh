#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usage: qemu-hv.sh QEMU-ARGUMENTS...   (env: KUT_QEMU: the real QEMU, default
#        qemu-system-x86_64; TIMEOUT (default 90s); KUT_HV_LOGS: where the logs go, default
#        build/kut/hv-logs; HV_ACCEL: the ACCEL of scripts/qemu.sh, default auto; HV_SMP:
#        the host's pCPUs, default 2; HV_QEMU: its QEMU=7|10; HV_EMU=bochs: the host is
#        Bochs's Intel CPU, the hypervisor's VMX backend, instead of QEMU (x86_64))
# A stand-in for the QEMU that kvm-unit-tests' runner calls (QEMU=this script), of the
# architecture KUT_QEMU names (qemu-system-x86_64 or qemu-system-aarch64): the test
# (-kernel: a multiboot .flat on x86, a raw arm64 binary on arm64) runs as the VM `kut`
# of the hypervisor, which boots in QEMU as tests/emu/lib.sh boots it (docs/testing.md,
# kvm-unit-tests). Probes (-device '?', --help, -h) and a kernel that is not there (the
# runner's check for early failures) go to the real QEMU. The VM's console goes to stdout
# without its "[kut] " prefix; the hypervisor's log to $KUT_HV_LOGS/TESTNAME.log. Exits
# as QEMU with the suite's exit device does: (status << 1) | 1 after the test's exit (x86:
# isa-debug-exit, a write to the exit port 0xf4; arm64: chr-testdev, here the "EXIT:
# STATUS=" line the test prints before its PSCI SYSTEM_OFF); else 124 on a timeout, 1
# when the VM stopped otherwise, 2 when it never ran, the reason on stderr.
REAL=${KUT_QEMU:-qemu-system-x86_64}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
# ARCH: for tests/emu/lib.sh and the scripts it runs (the runner's own ARCH, from its
# config.mak, is kvm-unit-tests' name: arm64).
case $(basename "$REAL") in
*aarch64*) ARCH=aarch64 ;;
*) ARCH=x86_64 ;;
esac
export ARCH
prev=''
for a; do
	case $a in '?' | help | -h | -help | --help | -version | --version) exec "$REAL" "$@" ;; esac
	[ "$prev" != -kernel ] || [ -f "$a" ] || exec "$REAL" "$@"
	prev=$a
done
kernel='' initrd='' append='' smp=1 mem=128M machine='' ignored=''
while [ $# -gt 0 ]; do
	case $1 in
	-kernel) kernel=$2 ;;
	-initrd) initrd=$2 ;;
	-append) append=$2 ;;
	-smp) smp=$2 ;;
	-m) mem=$2 ;;
	-machine) machine="$machine,$2" ;;
	# The exit devices: x86's exit port; arm64's chr-testdev (a virtio console), whose
	# exit status the test also prints.
	-device) case $2 in isa-debug-exit,iobase=0xf4* | virtio-serial-device | virtconsole,chardev=ctd) ;;
		*) ignored="$ignored -device $2" ;; esac ;;
	-chardev) [ "$2" = testdev,id=ctd ] || ignored="$ignored -chardev $2" ;;
	-serial) [ "$2" = stdio ] || ignored="$ignored -serial $2" ;;
	-display | -accel) ;; # no display; the machine is the hypervisor's
	-nodefaults | --no-reboot | -no-reboot) shift && continue ;;
	-enable-kvm | -no-hpet | -nographic | -S | -s) ignored="$ignored $1" && shift && continue ;;
	-*) ignored="$ignored $1 $2" ;;
	*) ignored="$ignored $1" && shift && continue ;;
	esac
	shift 2
done
[ -n "$kernel" ] || { echo "qemu-hv: no -kernel" >&2; exit 2; }

# -smp N[,...] or cpus=N,...; -m N[MGK][,...] or size=..., MiB by default, rounded up to 2 MiB.
vcpus=${smp%%,*}
vcpus=${vcpus#cpus=}
mem=${mem%%,*}
mem=${mem#size=}
case $mem in
*[Gg]) mb=$((${mem%?} * 1024)) ;;
*[Mm]) mb=${mem%?} ;;
*[Kk]) mb=$(((${mem%?} + 1023) / 1024)) ;;
*) mb=$mem ;;
esac
mb=$(((mb + 1) / 2 * 2))
name=${TESTNAME:-$(basename "$kernel" .flat)}
logs=${KUT_HV_LOGS:-$TOP/build/kut/hv-logs}
mkdir -p "$logs"
log=$logs/$name.log

# arm64_image BINARY OUT: a raw arm64 binary as a Linux arm64 Image (booting.rst), the only
# arm64 kernel the hypervisor boots. QEMU loads a file without the Image magic as a
# pre-3.17 Image (text_offset 0x80000, size unknown); here a 64 KiB header says the same
# (text_offset 0x80000, image_size 0: the hypervisor then puts the initrd and the device
# tree high, above the binary's bss and stack, where the suite's setup() wants them) and
# its code0 branches over itself to the binary, which stays 64 KiB aligned.
arm64_image() {
	{
		printf '\000\100\000\024\000\000\000\000' # code0: b .+0x10000; code1: 0
		printf '\000\000\010\000\000\000\000\000' # text_offset: 0x80000
		head -c 40 /dev/zero # image_size, flags, res2..res4: 0
		printf 'ARM\144\000\000\000\000' # magic "ARM\x64", res5: 0
	} > "$2"
	truncate -s 64K "$2"
	cat "$1" >> "$2"
}

# What the VM boots, by architecture: its kernel, the environment file (the runner's
# -initrd) and the rest of its configuration.
env=$(mktemp /tmp/kut-env.XXXXXX)
image=$kernel vm_keys='' gic=''
case $ARCH in
x86_64)
	# The suite reads the CPU count and the RAM size from QEMU's fw_cfg (port 0x510),
	# which the VM does not have; lib/x86/fwcfg.c takes NR_CPUS and MEMSIZE (MiB) from
	# the environment file (the module) instead.
	[ -z "$initrd" ] || grep -v '^\(NR_CPUS\|MEMSIZE\)=' "$initrd" > "$env"
	printf 'NR_CPUS=%s\nMEMSIZE=%s\n' "$vcpus" "$mb" >> "$env"
	vm_keys='exit_port = 0xf4'
	;;
aarch64)
	[ -z "$initrd" ] || cp "$initrd" "$env"
	image=$env.Image
	arm64_image "$kernel" "$image"
	# The GIC of QEMU's virt machine: gic-version's, by default a GICv2 up to 8 CPUs, else
	# a GICv3 (hw/arm/virt.c, finalize_gic_version); a VM of the hypervisor has the GIC
	# of the machine it runs on.
	case $machine in
	*gic-version=2*) GIC=2 ;;
	*gic-version=*) GIC=3 ;;
	*) GIC=$((vcpus <= 8 ? 2 : 3)) ;;
	esac
	export GIC
	gic=", GICv$GIC"
	;;
esac
{
	echo "qemu-hv: $kernel as VM kut: $vcpus vCPUs, ${mb}M, cmdline '$append'$gic"
	[ -z "$ignored" ] || echo "qemu-hv: ignored:$ignored"
} > "$log.args"

# The VM console without its prefix, then the exit status as QEMU's.
relay() {
	tr -d '\r' < "$log" | sed -n 's/^\[kut\] //p'
	cat "$log.args" >> "$log"
	rm -f "$env" "$env.Image" "$log.args"
}
# shellcheck disable=SC2317,SC2154,SC2086 # run by the trap; qpid: lib.sh's boot_image sets
# it (bpid, rpid: boot_bochs's Bochs and serial relay)
stopped_by_signal() {
	kill -TERM ${qpid:-} ${bpid:-} ${rpid:-} 2> /dev/null
	wait
	relay
	echo "qemu-hv: terminated (timeout), log $log" >&2
	exit 124
}
trap stopped_by_signal INT TERM

set -- "$log"
ACCEL=${HV_ACCEL:-auto} QEMU=${HV_QEMU:-} MEM=$((mb + 1024 > 2048 ? mb + 1024 : 2048))
export ACCEL QEMU MEM
. "$TOP/tests/emu/lib.sh"
# shellcheck disable=SC2034 # ESP_FILES: read by lib.sh's boot
ESP_FILES="$image=/kut/$(basename "$kernel") $env=/kut/env"
config="[vm kut]
kernel = /kut/$(basename "$kernel")
initrd = /kut/env
${append:+cmdline = $append}
vcpus = $vcpus
memory = ${mb}M
$vm_keys"
limit=${TIMEOUT:-90s}
case ${HV_EMU:-qemu}/$ARCH in
qemu/*) boot "$config" "$limit" "${HV_SMP:-2}" ;;
# The VMX backend: Bochs's Intel CPU (2 pCPUs), as tests/emu/bochs_*.sh boot it; its
# time limit in seconds, 10 fewer than the runner's so that its log is written first.
bochs/x86_64)
	case $limit in
	*m) limit=$((${limit%m} * 60)) ;;
	*s) limit=${limit%s} ;;
	esac
	boot_bochs "$config" $((limit > 20 ? limit - 10 : limit))
	;;
*)
	echo "qemu-hv: HV_EMU=$HV_EMU: qemu, or bochs for x86_64" >&2
	exit 2
	;;
esac
trap - INT TERM
relay
case $ARCH in
x86_64) code=$(sed -n "s/^hv: VM 'kut' exit port .* (QEMU would exit with \([0-9]*\)).*/\1/p" "$log" | head -n1) ;;
# The status the test printed, once its PSCI SYSTEM_OFF stopped the VM.
aarch64) code=$(tr -d '\r' < "$log" | grep -q "^hv: VM 'kut' powered off;" &&
	tr -d '\r' < "$log" | sed -n 's/^\[kut\] EXIT: STATUS=\([0-9]*\).*/\1/p' | head -n1) ;;
esac
[ -z "$code" ] || exit $((code & 255))
why=$(grep -a -m1 "^hv: VM 'kut' \|^qemu: \|^firmware: \|^hv: .*error\|^qemu exit" "$log")
echo "qemu-hv: the VM did not stop through the test's exit: ${why:-no reason in the log} (log $log)" >&2
grep -q "^qemu exit 124\|^bochs stopped after .* (status 124)" "$log" && exit 124
grep -q "^hv: VM 'kut' " "$log" && exit 1
exit 2
