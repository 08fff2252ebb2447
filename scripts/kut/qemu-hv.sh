#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usage: qemu-hv.sh QEMU-ARGUMENTS...   (env: KUT_QEMU: the real QEMU, default
#        qemu-system-x86_64; TIMEOUT (default 90s); KUT_HV_LOGS: where the logs go, default
#        build/kut/hv-logs; HV_ACCEL: the ACCEL of scripts/qemu.sh, default auto; HV_SMP:
#        the host's pCPUs, default 2; HV_QEMU: its QEMU=7|10)
# A stand-in for qemu-system-x86_64 that kvm-unit-tests' runner calls (QEMU=this script):
# the test (-kernel, a multiboot .flat) runs as the VM `kut` of the hypervisor, which
# boots in QEMU as tests/emu/lib.sh boots it (docs/testing.md, kvm-unit-tests).
# Probes (-device '?', --help, -h) and a kernel that is not there (the runner's check for
# early failures) go to the real QEMU. The VM's console goes to stdout without its
# "[kut] " prefix; the hypervisor's log to $KUT_HV_LOGS/TESTNAME.log. Exits as QEMU with
# isa-debug-exit does: (status << 1) | 1 after a write to the exit port 0xf4; else 124
# on a timeout, 1 when the VM stopped otherwise, 2 when it never ran, the reason on stderr.
REAL=${KUT_QEMU:-qemu-system-x86_64}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
prev=''
for a; do
	case $a in '?' | help | -h | -help | --help | -version | --version) exec "$REAL" "$@" ;; esac
	[ "$prev" != -kernel ] || [ -f "$a" ] || exec "$REAL" "$@"
	prev=$a
done
kernel='' initrd='' append='' smp=1 mem=128M ignored=''
while [ $# -gt 0 ]; do
	case $1 in
	-kernel) kernel=$2 ;;
	-initrd) initrd=$2 ;;
	-append) append=$2 ;;
	-smp) smp=$2 ;;
	-m) mem=$2 ;;
	-device) case $2 in isa-debug-exit,iobase=0xf4*) ;; *) ignored="$ignored -device $2" ;; esac ;;
	-serial) [ "$2" = stdio ] || ignored="$ignored -serial $2" ;;
	-display | -machine | -accel) ;; # no display; the machine is the hypervisor's
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
# The suite reads the CPU count and the RAM size from QEMU's fw_cfg (port 0x510), which
# the VM does not have; lib/x86/fwcfg.c takes NR_CPUS and MEMSIZE (MiB) from the
# environment file (the module) instead.
env=$(mktemp /tmp/kut-env.XXXXXX)
[ -z "$initrd" ] || grep -v '^\(NR_CPUS\|MEMSIZE\)=' "$initrd" > "$env"
printf 'NR_CPUS=%s\nMEMSIZE=%s\n' "$vcpus" "$mb" >> "$env"
{
	echo "qemu-hv: $kernel as VM kut: $vcpus vCPUs, ${mb}M, cmdline '$append'"
	[ -z "$ignored" ] || echo "qemu-hv: ignored:$ignored"
} > "$log.args"

# The VM console without its prefix, then the exit status as QEMU's.
relay() {
	tr -d '\r' < "$log" | sed -n 's/^\[kut\] //p'
	cat "$log.args" >> "$log"
	rm -f "$env" "$log.args"
}
# shellcheck disable=SC2317,SC2154 # run by the trap; qpid: lib.sh's boot_image sets it
stopped_by_signal() {
	kill -TERM "$qpid" 2> /dev/null
	wait "$qpid"
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
ESP_FILES="$kernel=/kut/$(basename "$kernel") $env=/kut/env"
boot "[vm kut]
kernel = /kut/$(basename "$kernel")
initrd = /kut/env
${append:+cmdline = $append}
vcpus = $vcpus
memory = ${mb}M
exit_port = 0xf4" "${TIMEOUT:-90s}" "${HV_SMP:-2}"
trap - INT TERM
relay
code=$(sed -n "s/^hv: VM 'kut' exit port .* (QEMU would exit with \([0-9]*\)).*/\1/p" "$log" | head -n1)
[ -z "$code" ] || exit $((code & 255))
why=$(grep -a -m1 "^hv: VM 'kut' \|^qemu: \|^firmware: \|^hv: .*error\|^qemu exit" "$log")
echo "qemu-hv: the VM did not stop through its exit port: ${why:-no reason in the log} (log $log)" >&2
grep -q "^qemu exit 124" "$log" && exit 124
grep -q "^hv: VM 'kut' " "$log" && exit 1
exit 2
