# SPDX-License-Identifier: GPL-2.0-only
# scripts/accel.sh's choice between TCG and nested KVM, on made-up hosts (HV_HOST_ROOT: a
# /dev/kvm, /proc/cpuinfo and kvm_amd's or kvm_intel's nested parameter of our own). No
# emulator runs.
. "$(dirname "$0")/lib.sh"
root=$(mktemp -d /tmp/hv-accel.XXXXXX)
: > "$LOG"
# host VENDOR NESTED: a host with /dev/kvm, that CPU vendor and its KVM module's (kvm_amd,
# kvm_intel) nested=NESTED
host() {
	rm -rf "${root:?}"/*
	mod=kvm_amd
	[ "$1" = GenuineIntel ] && mod=kvm_intel
	mkdir -p "$root/dev" "$root/proc" "$root/sys/module/$mod/parameters"
	: > "$root/dev/kvm"
	printf 'processor\t: 0\nvendor_id\t: %s\n' "$1" > "$root/proc/cpuinfo"
	[ -z "$2" ] || echo "$2" > "$root/sys/module/$mod/parameters/nested"
}
# expect_accel DESCRIPTION ACCEL ARCH EXPECTED_STDOUT EXPECTED_STDERR_PART (none: silent)
expect_accel() {
	out=$(HV_HOST_ROOT=$root HV_HOST_MACHINE=x86_64 ACCEL=$2 ARCH=$3 \
		"$TOP/scripts/accel.sh" 2> "$root.err")
	if [ -z "$5" ]; then said=$(! [ -s "$root.err" ] && echo yes); else said=$(grep -qF -- "$5" "$root.err" && echo yes); fi
	if [ "$out" = "$4" ] && [ -n "$said" ]; then
		echo "ok:   $1 ($2: ${out:-refused})"
	else
		echo "FAIL: $1 ($2 gave '${out}', stderr '$(cat "$root.err")'; expected '$4' and '$5')"
		failed=1
	fi
}
host AuthenticAMD 1
expect_accel "an AMD host with nested SVM runs the hypervisor in KVM" kvm x86_64 kvm ""
expect_accel "auto takes KVM there" auto x86_64 kvm ""
expect_accel "tcg stays tcg" tcg x86_64 tcg ""
expect_accel "an arm64 machine is emulated on an x86 host" kvm aarch64 "" "can only be emulated"
host AuthenticAMD Y
expect_accel "nested=Y counts as on" kvm x86_64 kvm ""
host AuthenticAMD 0
expect_accel "nested=0 is refused with the modprobe line" kvm x86_64 "" "modprobe kvm_amd nested=1"
expect_accel "auto falls back to TCG and says why" auto x86_64 tcg "accel: tcg (kvm_amd does not offer nested SVM"
host GenuineIntel Y
expect_accel "an Intel host with nested VMX runs the VMX backend in KVM when asked" kvm x86_64 kvm ""
expect_accel "auto stays TCG there (not tried nested yet) and says so" auto x86_64 tcg \
	"accel: tcg (the VMX backend has not run nested under KVM yet"
host GenuineIntel N
expect_accel "kvm_intel without nested is refused with the modprobe line" kvm x86_64 "" \
	"modprobe kvm_intel nested=1"
host CentaurHauls ""
expect_accel "another vendor is refused" kvm x86_64 "" "neither AMD nor Intel"
rm "$root/dev/kvm"
expect_accel "no /dev/kvm is refused" kvm x86_64 "" "no /dev/kvm"
expect_accel "a misspelt ACCEL is refused" kvn x86_64 "" "ACCEL=kvn: tcg (the default), kvm or auto"
rm -rf "$root" "$root.err"
finish
