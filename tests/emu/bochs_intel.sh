# SPDX-License-Identifier: GPL-2.0-only
# An Intel CPU with VMX, where the VMX backend of issue 8 will be tested: Debian's Bochs 2.7
# (cpu model corei7_skylake_x, 2 CPUs), OVMF as its ROM, the boot volume on an ATA disk
# (../shared/EMULATION.md). Its OVMF publishes no ACPI tables (QEMU hands them over fw_cfg,
# which Bochs has not): the hypervisor finds both CPUs through UEFI's MP services, shows
# what the CPU's VMX offers (its capability MSRs, arch/x86/vmx/vmx_caps.c), enters and
# leaves VMX operation on the boot CPU (vmxon.c: Bochs's OVMF leaves IA32_FEATURE_CONTROL
# unlocked, the hypervisor locks it with VMX on) with a VMCS loaded, a field written and
# read back in between (vmx.c), and refuses the CPU before the takeover
# (the VMX backend runs no guests yet).
. "$(dirname "$0")/lib.sh"
command -v bochs > /dev/null || { echo "FAIL: no bochs (scripts/deps.sh installs it)"; exit 1; }
dir=$(mktemp -d /tmp/hv-test-bochs.XXXXXX)
cat /usr/share/OVMF/OVMF_VARS.fd /usr/share/OVMF/OVMF_CODE.fd > "$dir/ovmf.fd"
printf '[vm linux0]\nkernel = /guests/vmlinuz\n' > "$dir/hv.cfg"
"$TOP/scripts/mkesp.sh" "$dir/esp.img" "$dir/hv.cfg" "$dir/hv.cfg=/unused.cfg"
# Bochs takes a flat disk's geometry from its size: whole cylinders of 16 heads, 63 sectors.
cyl=$((16 * 63 * 512)) size=$(stat -c %s "$dir/esp.img")
truncate -s $(((size + cyl - 1) / cyl * cyl)) "$dir/esp.img"
cat > "$dir/bochsrc" << EOF
megs: 256
cpu: model=corei7_skylake_x, count=2, ips=100000000, reset_on_triple_fault=0, ignore_bad_msrs=1
romimage: file=ovmf.fd, address=0xffe00000
vgaromimage: file=/usr/share/seabios/vgabios-isavga.bin
ata0-master: type=disk, path=esp.img, mode=flat
boot: disk
display_library: rfb, options="timeout=0"
log: bochs.log
panic: action=fatal
clock: sync=none
speaker: enabled=0
sound: driver=dummy
com1: enabled=1, mode=file, dev=serial.txt
EOF
echo c > "$dir/dbg.rc" # Debian's bochs is the debugger build: "continue"
cd "$dir" || exit 1
start=$(date +%s)
timeout 300 bochs -q -f bochsrc -rc dbg.rc > bochs.out 2>&1 &
bpid=$!
until grep -q "returning to the firmware\|taking over the machine" serial.txt 2> /dev/null; do
	kill -0 "$bpid" 2> /dev/null || break
	sleep 2
done
sleep 2
kill "$bpid" 2> /dev/null
wait "$bpid"
tr -d '\r' < serial.txt > "$LOG"
printf "\nbochs stopped after %ss\n" $(($(date +%s) - start)) >> "$LOG"
cd / && rm -rf "$dir"
expect "the VMX backend chosen" "(x86_64, Intel VMX backend)"
expect "what its VMX offers, from the capability MSRs" \
	"hv: CPU GenuineIntel; VMX rev 43, EPT (2M, A/D) VPID unrestricted-guest; APICv: x2APIC-virt register-virt VID; no posted interrupts; PLE"
expect "no ACPI tables: both CPUs from UEFI MP services" \
	"hv: 2 pCPUs (UEFI MP services; no valid ACPI RSDP)"
expect "VMXON, a VMCS written and read, VMXOFF; refused: the VMX backend runs no guests yet" \
	"hv: the VMX backend runs no guests yet (issue 8; VMXON, a VMCS and VMXOFF work on this CPU); this hv.efi runs them with SVM"
expect "nothing started" "hv: nothing was started; returning to the firmware"
expect_not "no exception" "X64 Exception"
grep "^bochs stopped" "$LOG" | sed 's/^/      /'
finish
