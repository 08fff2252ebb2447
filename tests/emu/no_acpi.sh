# SPDX-License-Identifier: GPL-2.0-only
# Firmware that publishes no ACPI tables (QEMU with acpi=off: OVMF gets none over fw_cfg,
# as under Bochs, which has no fw_cfg). The hypervisor finds the CPUs through UEFI's MP
# services, measures the TSC against UEFI's Stall, keeps COM1 as its console, says it
# cannot power the machine off, and a 2-vCPU guest runs on both pCPUs; at the end the
# machine resets through the keyboard controller (on_exit = reboot). Then, with the default
# on_exit = poweroff, it says why it cannot power off and halts.
export QEMU_ARGS="-machine acpi=off"
. "$(dirname "$0")/lib.sh"
boot "[hv]
on_exit = reboot
$(linux_vm a 2 256M hv.mode=test)" 300
expect "no ACPI: the CPUs from UEFI MP services" "hv: 2 pCPUs (UEFI MP services; no valid ACPI RSDP)"
expect "no PM timer: the TSC measured against UEFI Stall" "MHz (UEFI Stall), "
expect "no FADT: no power-off, reboot by the keyboard controller" \
	"hv: power-off: none (no valid ACPI RSDP); reboot: keyboard controller"
expect "no SPCR: the console on COM1" "hv: console: 16550 at io 0x3f8 (COM1)"
expect "both pCPUs started" "hv: 2 of 2 pCPUs running"
expect_guest_ok a 2
expect_pcpu_irqs "on the pCPUs MP services listed"
expect "on_exit = reboot: the keyboard controller's reset" "hv: rebooting (keyboard controller)"
expect_not "QEMU saw no reset of its own" "qemu: the machine reset itself"
mv "$LOG" "$LOG.1"
STOP_AT="; halting" boot "$(linux_vm b 1 128M hv.mode=test)" 300
cat "$LOG.1" "$LOG" > "$LOG.2" && mv "$LOG.2" "$LOG" && rm -f "$LOG.1"
expect "b: powered off and reported" "hv: VM 'b' powered off;"
expect "no ACPI: the machine cannot power off, said why" "hv: cannot power off: no valid ACPI RSDP; halting"
finish
