# SPDX-License-Identifier: GPL-2.0-only
# Soak (scripts/flake.sh, not make test): two VMs of 2 vCPUs on 2 pCPUs, each sending
# IPIs between its vCPUs one at a time, every one waited for (tests/guest/modules/ipistress.c),
# one through the x2APIC ICR, the other through the PV hypercall: injections, kicks and
# world switches with both VMs sharing both pCPUs. None may be lost.
. "$(dirname "$0")/../emu/lib.sh"
IPIS=${IPIS:-3000}
boot "$(linux_vm icr 2 192M "hv.mode=test hv.modules=ipistress hv.ipistress=iters=$IPIS" "pv = all,-ipi")
$(linux_vm pv 2 192M "hv.mode=test hv.modules=ipistress hv.ipistress=iters=$IPIS" "pv = all")" 600
for vm in icr pv; do
	expect_guest_ok $vm 2
	expect_vm $vm "$vm: unicast: $IPIS sent, every one taken" "ipistress: unicast sent=$IPIS taken=$IPIS lost=0 "
	expect_vm $vm "$vm: others: $IPIS sent, every one taken" "ipistress: others sent=$IPIS taken=$IPIS lost=0 "
done
finish
