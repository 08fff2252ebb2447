# SPDX-License-Identifier: GPL-2.0-only
# No IPI is lost (x86): vCPU 1 and up spin with interrupts enabled and never exit on
# their own (but for their timers), while vCPU 0 sends them IPIs one at a time, each
# waited for (tests/guest/modules/ipistress.c): unicast to vCPU 1 through the x2APIC ICR,
# and to all others. Boot 1: 2 vCPUs on 2 pCPUs without PV IPIs, IPIS of each kind;
# "others" is then the all-but-self shorthand ICR write. Boot 2: 3 vCPUs on 3 pCPUs with
# PV IPIs and no_ipi_broadcast=1, so that "others" (two targets: Linux's mask path) is
# one PV IPI hypercall each; IPIS / 10 of each kind (3 TCG vCPUs on 2 cores are slow).
# Zero lost (not taken in 30 s); late ones (taken after a second: the emulator left a vCPU
# without a core that long) are counted and printed, with the longest wait and the time per
# IPI (which means something only on a quiet machine).
. "$(dirname "$0")/lib.sh"
IPIS=${IPIS:-100000}
for pv in all,-ipi all; do
	if [ "$pv" = all ]; then
		n=3 iters=$((IPIS / 10)) extra=no_ipi_broadcast=1 LOG=$1.pv
	else
		n=2 iters=$IPIS extra=
	fi
	boot "[vm stress]
kernel = /guests/vmlinuz
initrd = /guests/initrd.gz
cmdline = console=ttyS0 quiet $extra hv.mode=test hv.modules=ipistress hv.ipistress=iters=$iters
vcpus = $n
memory = 256M
pv = $pv" 900 $n
	expect_guest_ok stress $n
	expect_vm stress "pv=$pv: unicast: $iters sent, every one taken, none lost" \
		"ipistress: unicast sent=$iters taken=$iters lost=0 "
	expect_vm stress "pv=$pv: others: $iters sent, every one taken, none lost" \
		"ipistress: others sent=$iters taken=$((iters * (n - 1))) lost=0 "
	if [ "$pv" = all ]; then
		expect_counter "pv=all: IPIs to others went through the PV hypercall" stress pv \
			$((iters * 2))
	else
		expect_counter_zero "pv=all,-ipi: no PV IPI" stress pv
	fi
	grep -h "GUEST-ipistress ipistress: \(unicast\|others\)" "$LOG" | sed "s/^/      pv=$pv /"
done
finish
