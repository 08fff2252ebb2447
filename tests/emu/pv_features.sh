# SPDX-License-Identifier: GPL-2.0-only
# The KVM paravirtual interface: a stock Linux guest turns every PV feature on by itself;
# a VM with `pv = none` sees none of them and still boots. Both run in the same boot, 6
# vCPUs on 2 pCPUs (PV IPIs need 3 or more vCPUs: Linux sends single IPIs by ICR). Both
# run the IPI benchmark's multicast a few times (needs 3 vCPUs: pvnone skips it), so that
# pvall surely sends multi-target IPIs: a boot alone sends only a handful, how many
# depends on the scheduling (under sched = aware sometimes none).
. "$(dirname "$0")/lib.sh"
boot "[vm pvall]
kernel = /guests/vmlinuz
initrd = /guests/initrd.gz
cmdline = console=ttyS0 quiet hv.mode=test hv.modules=ipibench hv.ipibench=iters=20:mode=multicast
vcpus = 4
memory = 256M

[vm pvnone]
kernel = /guests/vmlinuz
initrd = /guests/initrd.gz
cmdline = console=ttyS0 quiet hv.mode=test hv.modules=ipibench hv.ipibench=iters=20:mode=multicast
vcpus = 2
memory = 256M
pv = none" 300
for line in "kvm-clock: Using msrs 4b564d01 and 4b564d00" "kvm-guest: setup PV IPIs" \
	"kvm-guest: setup PV sched yield" "kvm-guest: PV spinlocks enabled" \
	"kvm-guest: KVM setup pv remote TLB flush" "clocksource: Switched to clocksource kvm-clock"; do
	expect_vm pvall "pv=all: $line" "$line"
done
expect_guest_ok pvall 4
expect_guest_ok pvnone 2
if grep -q "^\[pvnone\] GUEST-DMESG .*\(kvm-clock: Using\|kvm-guest: setup\|PV spinlocks enabled\|pv remote TLB\|Switched to clocksource kvm-clock\)" "$LOG"; then
	echo "FAIL: pv=none: a PV feature line appeared"; failed=1
else
	echo "ok:   pv=none: no PV feature line"
fi
expect_counter "PV IPIs used by pvall" pvall pv 20
expect_counter_zero "no PV IPI from pvnone" pvnone pv
expect_counter "PV EOI used by pvall (EOIs without an exit)" pvall lazy-eois 1
# The same boot and test steps: with twice the vCPUs, the PV VM still exits less (kvmclock
# instead of reading the ACPI PM timer port, PV EOI, PV IPIs).
expect_fewer_exits "a whole boot with PV features takes fewer exits" pvall pvnone
expect_counter_zero "no PV EOI in pvnone" pvnone lazy-eois
finish
