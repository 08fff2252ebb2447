#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usage: accel.sh   (env: ACCEL=tcg|kvm|auto, default tcg; ARCH=x86_64|aarch64)
# Prints the accelerator QEMU is to use, tcg or kvm, or says on stderr why KVM cannot
# run the hypervisor here and exits 1. KVM runs it nested: the host's KVM must offer
# nested virtualization of the CPU the hypervisor drives (AMD SVM: kvm_amd's nested=1;
# Intel VMX: kvm_intel's nested=1). auto: kvm where that holds, else tcg, saying why on
# stderr; on Intel hosts auto stays tcg (the VMX backend, tested under Bochs, has not run
# nested under KVM yet: ACCEL=kvm tries it). HV_HOST_ROOT (tests) puts /dev, /proc and /sys under another directory.
R=${HV_HOST_ROOT:-}
ACCEL=${ACCEL:-tcg}
ARCH=${ARCH:-x86_64}

# why_no_kvm: nothing when KVM can run the hypervisor, else the reason
why_no_kvm() {
	host=${HV_HOST_MACHINE:-$(uname -m)}
	if [ "$host" != "$ARCH" ]; then
		echo "an $ARCH machine on an $host host can only be emulated (tcg)"
	elif [ ! -e "$R/dev/kvm" ]; then
		echo "no /dev/kvm: KVM is not loaded or the CPU has no virtualization (inside a VM: the outer hypervisor must offer it nested)"
	elif [ ! -r "$R/dev/kvm" ] || [ ! -w "$R/dev/kvm" ]; then
		echo "no access to /dev/kvm: run as root or join its group (usually kvm)"
	elif [ "$ARCH" = x86_64 ]; then
		case $(sed -n 's/^vendor_id[[:space:]]*: *//p' "$R/proc/cpuinfo" | head -n1) in
		AuthenticAMD | HygonGenuine)
			case $(cat "$R/sys/module/kvm_amd/parameters/nested" 2>/dev/null) in
			1 | Y) ;;
			*) echo "kvm_amd does not offer nested SVM: modprobe -r kvm_amd && modprobe kvm_amd nested=1" ;;
			esac
			;;
		GenuineIntel)
			case $(cat "$R/sys/module/kvm_intel/parameters/nested" 2>/dev/null) in
			1 | Y) [ "$ACCEL" = kvm ] || echo "the VMX backend has not run nested under KVM yet: ACCEL=kvm tries it" ;;
			*) echo "kvm_intel does not offer nested VMX: modprobe -r kvm_intel && modprobe kvm_intel nested=1" ;;
			esac
			;;
		*) echo "the host CPU is neither AMD nor Intel" ;;
		esac
	fi
}

case "$ACCEL" in
tcg) echo tcg ;;
kvm | auto)
	why=$(why_no_kvm)
	if [ -z "$why" ]; then
		echo kvm
	elif [ "$ACCEL" = auto ]; then
		echo "accel: tcg ($why)" >&2
		echo tcg
	else
		echo "accel: ACCEL=kvm: $why" >&2
		exit 1
	fi
	;;
*)
	echo "accel: ACCEL=$ACCEL: tcg (the default), kvm or auto" >&2
	exit 1
	;;
esac
