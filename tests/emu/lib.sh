# SPDX-License-Identifier: GPL-2.0-only
# Helpers for emulator tests. A test script gets its log path as $1, boots the
# hypervisor with a configuration in QEMU (TCG: emulated AMD SVM, or with ARCH=aarch64 an
# arm64 `virt` machine at EL2, GIC=2|3), then checks what the hypervisor and the guests
# printed. Each check prints one line; any failure fails the test.
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
LOG=$1
failed=0
# Nested in the host's KVM where it can run the hypervisor, else TCG (scripts/accel.sh).
export ACCEL="${ACCEL:-auto}"

# boot CONFIG_TEXT TIMEOUT_SECONDS [SMP]; QEMU_ARGS adds QEMU arguments; ESP_FILES (FILE=PATH
# ...) replaces the default guest files on the boot volume (scripts/mkesp.sh); with NETBOOT
# set, the volume is a folder that the machine network-boots from (PXE over TFTP, no
# disk: scripts/qemu.sh); with STOP_AT set, QEMU is stopped as soon as
# that string appears in the log, or each of its lines where it has several (for runs that
# do not end by themselves, or that end once the VMs that matter have); with
# TYPE_AFTER and TYPE_LINES set, the lines are typed on the serial console once
# TYPE_AFTER has appeared.
boot() {
	cfg=$(mktemp /tmp/hv-test-cfg.XXXXXX)
	esp=$(mktemp ${NETBOOT:+-d} /tmp/hv-test-esp.XXXXXX)
	printf '%s\n' "$1" > "$cfg"
	# shellcheck disable=SC2086 # ESP_FILES: FILE=PATH words, split on blanks
	"$TOP/scripts/mkesp.sh" "$esp" "$cfg" $ESP_FILES
	boot_image "$esp" "$2" "$3"
	rm -rf "$cfg" "$esp"
}

# all_in_log LINES: each of these lines (fixed strings) appears in the log
all_in_log() {
	printf '%s\n' "$1" | while IFS= read -r l; do grep -qF -- "$l" "$LOG" || return 1; done
}

# boot_image IMAGE TIMEOUT_SECONDS [SMP]: boots that disk image as it is (with BUS=usb as a
# USB stick; a folder over the network: scripts/qemu.sh); QEMU_ARGS, STOP_AT, TYPE_AFTER and TYPE_LINES as for boot.
boot_image() {
	start=$(date +%s)
	fifo=$(mktemp -u /tmp/hv-test-in.XXXXXX)
	mkfifo "$fifo"
	# x86: QEMU notes a triple fault of the host in LOG.qemu (-d cpu_reset); with
	# -no-reboot, QEMU exits with status 0 on a power-off, a reboot and a reset alike.
	# That note is the line "Triple fault" alone: -no-reboot makes the reset an exit, so
	# no CPU state follows it. The CPU dumps in LOG.qemu are the machine's start and each
	# INIT: the last one, in every boot, is CPU 1 at the INIT by which the hypervisor
	# starts it, in the firmware's AP loop (paging off, the firmware's CR3, EFER.NXE
	# only). scripts/flake.sh keeps the CPUs' state at such a reset.
	qlog=
	[ "${ARCH:-x86_64}" = x86_64 ] && qlog="-d cpu_reset -D $LOG.qemu"
	rm -f "$LOG.qemu"
	# Emptied here: the job below opens LOG only once this shell opens the fifo, so the
	# STOP_AT and TYPE_AFTER loops could read the last boot's log (a "Shell>" of it
	# stopped the next boot after 2 s).
	: > "$LOG"
	# shellcheck disable=SC2086 # QEMU_ARGS: extra QEMU arguments, split on blanks
	SMP=${3:-2} timeout "$2" "$TOP/scripts/qemu.sh" "$1" $qlog $QEMU_ARGS < "$fifo" > "$LOG" 2>&1 &
	qpid=$!
	exec 3> "$fifo"
	if [ -n "$TYPE_AFTER" ]; then
		# Type each line of TYPE_LINES on the serial console once TYPE_AFTER appeared.
		while kill -0 $qpid 2>/dev/null && ! grep -qF -- "$TYPE_AFTER" "$LOG"; do sleep 1; done
		printf '%s\n' "$TYPE_LINES" | while IFS= read -r line; do
			sleep 2
			printf '%s\r' "$line" >&3
		done
	fi
	stopped=
	if [ -n "$STOP_AT" ]; then
		while kill -0 $qpid 2>/dev/null && ! all_in_log "$STOP_AT"; do sleep 1; done
		sleep 1
		kill -TERM $qpid 2>/dev/null && stopped=1
	fi
	wait $qpid
	qrc=$?
	echo "qemu exit $qrc after $(($(date +%s) - start))s" >> "$LOG"
	# A boot that ran out of time with no line of the hypervisor: the firmware never
	# started it (AAVMF hung so once in a benchmark), said as such.
	if [ -z "$stopped" ] && [ $qrc = 124 ] && ! grep -aq "^hv: " "$LOG"; then
		echo "firmware: the time ran out before the hypervisor printed its first line" >> "$LOG"
	fi
	# A machine that went away without the hypervisor's last word (or in a triple
	# fault) reset itself.
	if [ -n "$qlog" ] && [ -z "$stopped" ]; then
		tf=$(grep -m1 -i "triple fault" "$LOG.qemu")
		if [ -n "$tf" ] || { [ $qrc = 0 ] && ! grep -q "^hv: \(powering off\|rebooting\) (" "$LOG"; }; then
			echo "qemu: the machine reset itself, not a power-off or reboot by the" \
				"hypervisor; QEMU's note: ${tf:-none (not a triple fault)} ($LOG.qemu)" >> "$LOG"
		fi
	fi
	exec 3>&-
	rm -f "$1.vars" "$fifo"
}

# boot_bare IMAGE CMDLINE TIMEOUT SMP GIC: an arm64 test guest (tests/guest/arm64/) on QEMU's
# virt machine without the hypervisor, the same CPU model; the console goes to $LOG.
boot_bare() {
	timeout "$3" qemu-system-aarch64 -nodefaults -machine virt,accel=tcg,gic-version="$5" \
		-cpu max,pauth-impdef=on -smp "$4" -m 64M -nographic -serial mon:stdio -no-reboot \
		-kernel "$1" -append "$2" < /dev/null > "$LOG" 2>&1
	echo "qemu exit $? (bare)" >> "$LOG"
}

# expect DESCRIPTION FIXED_STRING: the log must contain the string
expect() {
	if grep -qF -- "$2" "$LOG"; then
		echo "ok:   $1"
	else
		echo "FAIL: $1 (no '$2' in the log)"
		failed=1
	fi
}

# expect_vm VM DESCRIPTION FIXED_STRING: a line of that VM's console contains the string
expect_vm() {
	if grep -F "[$1] " "$LOG" | grep -qF -- "$3"; then
		echo "ok:   $2"
	else
		echo "FAIL: $2 (no '$3' from VM $1)"
		failed=1
	fi
}

# expect_not DESCRIPTION FIXED_STRING
expect_not() {
	if grep -qF -- "$2" "$LOG"; then
		echo "FAIL: $1 ('$2' is in the log)"
		failed=1
	else
		echo "ok:   $1"
	fi
}

# A Linux guest VM named $1 with $2 vCPUs that ran its test steps and stopped the way
# $3 says (default: powered off).
expect_guest_ok() {
	expect "$1: every vCPU online" "[$1] GUEST-READY cpus=$2 online=0$( [ "$2" -gt 1 ] && echo "-$(($2 - 1))")"
	if [ "${ARCH:-x86_64}" = aarch64 ]; then
		expect "$1: the generic timer in use" "[$1] GUEST-FACT clockevent=arch_sys_timer"
	else
		expect "$1: x2APIC in use" "[$1] GUEST-FACT x2apic=1"
		expect "$1: TSC-deadline timer in use" "[$1] GUEST-FACT clockevent=lapic-deadline"
	fi
	expect "$1: test steps finished" "[$1] GUEST-DONE"
	expect "$1: ${3:-powered off} and reported" "hv: VM '$1' ${3:-powered off};"
}

# expect_mem_above VM GIB: the guest's MemTotal (its GUEST-FACT mem_kb) is above GIB GiB.
expect_mem_above() {
	kb=$(tr -d '\r' < "$LOG" | sed -n "s/.*\[$1\] GUEST-FACT mem_kb=\([0-9]*\).*/\1/p" | head -n1)
	if [ "${kb:-0}" -gt $(($2 * 1024 * 1024)) ]; then
		echo "ok:   $1: the guest has more than $2 GiB (MemTotal $kb kB)"
	else
		echo "FAIL: $1: the guest's MemTotal is ${kb:-missing} kB, not above $2 GiB"; failed=1
	fi
}

# expect_steal_matches VM: the steal time the guest accounted (/proc/stat's, summed over
# its CPUs) is within 5% of what the hypervisor counted for the VM at the same instant
# (guest module stealcheck reads both back to back, right before the power-off), plus one
# 10 ms tick per vCPU. The guest can only see less: it accounts steal at its ticks.
expect_steal_matches() {
	l=$(grep -a "^\[$1\] GUEST-FACT steal_ms=" "$LOG" | head -n1)
	g=$(echo "$l" | sed -n 's/.* steal_ms=\([0-9]*\).*/\1/p')
	h=$(echo "$l" | sed -n 's/.* hv_steal_ms=\([0-9]*\).*/\1/p')
	n=$(sed -n "s/^\[$1\] GUEST-READY cpus=\([0-9]*\).*/\1/p" "$LOG" | head -n1)
	if [ -n "$g" ] && [ -n "$h" ] && [ "$h" -gt 0 ] &&
		awk "BEGIN { exit !($g <= $h + 10 * ${n:-1} && $g >= $h * 0.95 - 10 * ${n:-1}) }"; then
		echo "ok:   $1: guest steal ${g} ms, hypervisor ${h} ms at that instant"
	else
		echo "FAIL: $1: guest steal ${g:-missing} ms, hypervisor ${h:-missing} ms at that instant (within 5%; hypervisor missing: did the guest module stealcheck load?)"
		failed=1
	fi
}

# counter VM NAME: a number from the hypervisor's report on that VM (pv, lazy-eois, ...)
counter() {
	sed -n "s/^hv: VM '$1' .* $2=\([0-9]*\).*/\1/p" "$LOG" | head -n1
}

# expect_counter DESCRIPTION VM NAME MIN: that counter is at least MIN
expect_counter() {
	n=$(counter "$2" "$3")
	if [ "${n:-0}" -ge "$4" ]; then
		echo "ok:   $1 ($3=$n)"
	else
		echo "FAIL: $1 ($3=${n:-missing}, expected at least $4)"
		failed=1
	fi
}

# expect_net_counter DESCRIPTION NAME MIN: a counter of the telemetry's line at the end of
# the run ("hv: telemetry: frames rx=N ... denied=N; requests ok=N ..."), at least MIN
expect_net_counter() {
	n=$(sed -n "s/^hv: telemetry: frames .*[ ;]$2=\([0-9]*\).*/\1/p" "$LOG" | head -n1)
	if [ "${n:-0}" -ge "$3" ]; then
		echo "ok:   $1 ($2=$n)"
	else
		echo "FAIL: $1 ($2=${n:-missing}, expected at least $3)"
		failed=1
	fi
}

# expect_counter_zero DESCRIPTION VM NAME
expect_counter_zero() {
	n=$(counter "$2" "$3")
	if [ "$n" = 0 ]; then
		echo "ok:   $1"
	else
		echo "FAIL: $1 ($3=${n:-missing}, expected 0)"
		failed=1
	fi
}

# exits VM: all exits of that VM, from its report line
exits() {
	sed -n "s/^hv: VM '$1' .*; \([0-9]*\) exits:.*/\1/p" "$LOG" | head -n1
}

# expect_fewer_exits DESCRIPTION VM_A VM_B: VM_A's whole run took fewer exits than VM_B's
expect_fewer_exits() {
	a=$(exits "$2") b=$(exits "$3")
	if [ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ]; then
		echo "ok:   $1 ($2: $a exits, $3: $b)"
	else
		echo "FAIL: $1 ($2: ${a:-missing} exits, $3: ${b:-missing})"
		failed=1
	fi
}

# arm64_smp GIC_VERSION GIC_FACT: on arm64 with that GIC, a guest of 2 vCPUs and one of
# 4 vCPUs share 2 pCPUs with a third of 1 vCPU and `pv = none`. Each sees every CPU, runs
# work pinned to each of them (IPIs), takes timer interrupts, and powers off through
# PSCI; the first two use PV stolen time. GIC_FACT: what Linux names that GIC.
arm64_smp() {
	export ARCH=aarch64 GIC=$1
	guest() { # name vcpus [pv]
		printf '\n[vm %s]\nkernel = /guests/Image\ninitrd = /guests/initrd.gz\ncmdline = console=ttyAMA0 quiet hv.mode=test\nvcpus = %s\nmemory = 192M\npv = %s\n' "$1" "$2" "${3:-all}"
	}
	boot "$(guest a 2)
$(guest b 4)
$(guest c 1 none)" 150
	expect "banner" "(aarch64, EL2 backend)"
	expect "GICv$1 found" "hv: GICv$1"
	expect "all pCPUs started" "hv: 2 of 2 pCPUs running"
	expect_guest_ok a 2
	expect_guest_ok b 4
	expect_guest_ok c 1
	expect_vm a "a: Linux drives the GICv$1" "GUEST-FACT gic=$2"
	expect_vm a "a: PV stolen time" "arm-pv: using stolen time PV"
	expect_vm b "b: PV stolen time" "arm-pv: using stolen time PV"
	if grep -q "^\[c\] .*arm-pv: using stolen time PV" "$LOG"; then
		echo "FAIL: c (pv = none) used stolen time"; failed=1
	else
		echo "ok:   c (pv = none): no PV stolen time"
	fi
	expect_counter "a: SGIs sent" a fixed 1
	expect_counter "b: SGIs sent" b fixed 1
	expect_counter "b: steal time accounted (4 vCPUs on 2 pCPUs)" b steal 1
	expect_steal_matches b
	expect_counter "b: pCPUs kicked" b kicks 1
	# Targeted injection: about one kick per SGI target at most (a little slack for the
	# other interrupts that cross pCPUs: PSCI CPU_ON, the UART's line); kicking every
	# vCPU's pCPU per interrupt would give several per target.
	for vm in a b; do
		k=$(counter $vm kicks) f=$(counter $vm fixed)
		if [ -n "$k" ] && [ -n "$f" ] && [ "$k" -le $((f + f / 10 + 8)) ]; then
			echo "ok:   $vm: kicks only for targets ($k kicks, $f SGI targets)"
		else
			echo "FAIL: $vm: more kicks than SGI targets (${k:-missing} kicks, ${f:-missing} targets)"; failed=1
		fi
	done
	expect "machine powered off when the last VM stopped" "hv: powering off (PSCI SYSTEM_OFF)"
}

# linux_vm NAME VCPUS MEMORY CMDLINE [LINE]: a [vm] section for the default Linux guest of
# ARCH, its console on the serial port, the command line after that (hv.mode=...).
linux_vm() {
	if [ "${ARCH:-x86_64}" = aarch64 ]; then
		set -- "$1" "$2" "$3" "console=ttyAMA0 quiet $4" "$5" /guests/Image
	else
		set -- "$1" "$2" "$3" "console=ttyS0 quiet $4" "$5" /guests/vmlinuz
	fi
	printf '\n[vm %s]\nkernel = %s\ninitrd = /guests/initrd.gz\ncmdline = %s\nvcpus = %s\nmemory = %s\n%s\n' "$1" "$6" "$4" "$2" "$3" "$5"
}

# migration: under sched = aware a vCPU waiting for a turn moves to a pCPU that has
# nothing to run, and a VM's pcpus keeps its vCPUs where it says (ARCH picks the guest).
# Placed, pcpu0 runs free's vcpu0 and vcpu1, pcpu1 pinned's vcpu0 and free's vcpu2. The
# free VM also runs msgbench (make bench's messaging benchmark), ipibench and lockbench, briefly.
migration() {
	boot "[hv]
sched = aware
$(linux_vm pinned 1 192M hv.mode=test 'pcpus = 1')
$(linux_vm free 3 192M "hv.mode=test hv.modules=ipibench,lockbench hv.ipibench=iters=50:mode=unicast-wait,broadcast hv.lockbench=iters=50 hv.tools=msgbench hv.msgbench=groups=1:fds=3:loops=20:runs=1")" 400
	expect_guest_ok pinned 1
	expect_guest_ok free 3
	if tr -d '\r' < "$LOG" | grep -q "^hv: VM 'pinned' vcpu0 (pcpu1): .* migrations=0$"; then
		echo "ok:   pinned (pcpus = 1): ran on pcpu1 only"
	else
		echo "FAIL: pinned (pcpus = 1): moved or left pcpu1"; failed=1
	fi
	expect_counter "free: its vCPUs moved to idle pCPUs" free migrations 1
	expect_vm free "free: msgbench passed its 180 messages" "GUEST-msgbench msgbench: groups=1 fds=3 loops=20 runs=1 messages=180 ms="
	# The guest tools, on either architecture, with the hypervisor's counters.
	expect_vm free "free: ipibench found the stats call" "ipibench: cpus=3 iters=50 stats=yes"
	expect_vm free "free: ipibench ran its broadcast" "ipibench: broadcast ops=50 ns/op="
	expect_vm free "free: lockbench ran, with the counters" "lockbench: cpus=3 iters=50 hold_us=20 gap_us=20 irqsave=0 bh=0 ops=150 ns/op="
	if grep -F "[free] GUEST-lockbench" "$LOG" | grep -q "exits/op=[0-9]"; then
		echo "ok:   free: lockbench read exits per round"
	else
		echo "FAIL: free: lockbench printed no exits per round"; failed=1
	fi
}

# boost: sched = aware lets a vCPU inside a guest critical section run on at the end of
# its turn (boost), and the guest's published preempt count (pv preempt, guest module
# hvpreempt: x86 the per-CPU count, arm64 the running task's) is what shows a spinlock
# held with interrupts on (arm64: with softirqs off, see below). Three VMs of 2 vCPUs on 2 pCPUs (a spinner keeps them
# overcommitted); `pc` and `nopc` run lockbench (plain spin_lock held 200 us per round),
# only `pc` offers and registers the preempt count.
boost() {
	# arm64: Debian's kernel has no CONFIG_PREEMPT_COUNT, so its spin_lock leaves the count
	# alone; spin_lock_bh (bh=1) raises the softirq part of it, which every kernel counts.
	# The spinning VM must still spin when pc's lockbench runs: a fixed spin (20 s, then
	# 45 s) ended before pc's lockbench ran in some runs (pc boots last under QEMU's TCG,
	# and lockbench then ran without contention: 0 boosts). It spins until QEMU is stopped,
	# once both benchmark VMs have reported (the boot's timeout still bounds a hang).
	bench="hv.mode=test hv.modules=hvpreempt,lockbench hv.lockbench=iters=400:hold_us=200:gap_us=100"
	[ "${ARCH:-x86_64}" != aarch64 ] || bench="$bench:bh=1"
	STOP_AT="hv: VM 'pc' vcpu1 (
hv: VM 'nopc' vcpu1 (" boot "[hv]
sched = aware
$(linux_vm pc 2 192M "$bench")
$(linux_vm nopc 2 192M "$bench" 'pv = all,-preempt')
$(linux_vm spin 2 128M 'hv.mode=spin hv.spin=3600')" 500
	expect_guest_ok pc 2
	expect_guest_ok nopc 2
	expect_vm pc "pc: hvpreempt registered both CPUs" "hvpreempt: registered the preempt count of 2 CPUs"
	expect_vm nopc "nopc: hvpreempt refused (pv lacks preempt)" "hvpreempt: the VM does not offer it"
	# The published count showed critical sections only where the VM offers it, and they
	# were boosted (lockbench's boosts, per lock round, informational beside nopc's).
	expect_counter "pc: the scheduler saw the published preempt count" pc preempt-count-hits 20
	expect_counter_zero "nopc: no preempt count without pv preempt" nopc preempt-count-hits
	boosts() {
		sed -n "s/^\[$1\] GUEST-lockbench lockbench: .* ops=\([0-9]*\) .* boosts\/op=\([0-9.]*\).*/\1 \2/p" "$LOG" |
			awk '{ printf "%d\n", $1 * $2 + 0.5 }' | head -n1
	}
	p=$(boosts pc)
	n=$(boosts nopc)
	if [ -n "$p" ] && [ "$p" -ge 10 ]; then
		echo "ok:   pc: lockbench's vCPUs were boosted (boosts $p; nopc ${n:-missing})"
	else
		echo "FAIL: pc: lockbench's vCPUs were boosted ${p:-missing} times (expected at least 10)"; failed=1
	fi
}

# arm64_sgi_stress GIC_VERSION: the SGI stress guest (tests/guest/arm64/sgistress.c), whose
# receivers spin with IRQs unmasked and never leave the guest on their own, so a lost SGI
# stays lost. Boot 1: 2 vCPUs on 2 pCPUs, 100000 SGIs from vCPU 0 to vCPU 1, then 10000
# race rounds (each SGI sent as vCPU 1 exits and re-enters once). Boot 2: 3 vCPUs
# on 3 pCPUs (slow under TCG on 2 host cores: few SGIs), unicast and broadcast (IRM=1 /
# TargetListFilter=1). Each SGI must be taken within the guest's poll bound (lost=0), and
# every one in the end (taken=sent); the ns/sgi lines go into the result. Boot 1 takes
# about 20 s on a quiet machine; beside another emulator's spinning vCPUs each SGI waits
# for the host to schedule two threads, several ms: hence the long timeout.
arm64_sgi_stress() {
	export ARCH=aarch64 GIC=$1
	ESP_FILES="$TOP/build/aarch64/guests-test/sgistress.img=/guests/sgistress.img"
	sgi_vm() { # name vcpus cmdline
		printf '[vm %s]\nkernel = /guests/sgistress.img\ncmdline = %s\nvcpus = %s\nmemory = 64M\n' \
			"$1" "$3" "$2"
	}
	boot "$(sgi_vm u 2 'sgistress.n=100000 sgistress.nr=10000')" 600 2
	mv "$LOG" "$LOG.1"
	boot "$(sgi_vm b 3 'sgistress.n=200 sgistress.nr=0 sgistress.nb=400')" 120 3
	cat "$LOG.1" "$LOG" > "$LOG.2" && mv "$LOG.2" "$LOG" && rm -f "$LOG.1"
	expect "GICv$1 found" "hv: GICv$1"
	expect_sgi u unicast 2 100000
	expect_sgi u race 2 10000
	expect_sgi b unicast 3 200
	expect_sgi b broadcast 3 400
	expect_not "no guest failure" "SGISTRESS FAIL"
	expect_vm u "u: finished" "SGISTRESS DONE"
	expect_vm b "b: finished" "SGISTRESS DONE"
	expect "u: powered off and reported" "hv: VM 'u' powered off;"
	expect "b: powered off and reported" "hv: VM 'b' powered off;"
	grep -F "SGISTRESS gic=" "$LOG" | sed 's/^/      /'
}

# expect_sgi VM KIND CPUS N: that VM's SGISTRESS line for KIND sent N SGIs, took all, lost none
expect_sgi() {
	l=$(grep -F "[$1] SGISTRESS gic=$GIC $2 cpus=$3 " "$LOG" | head -n1)
	sent=$(echo "$l" | sed -n 's/.* sent=\([0-9]*\).*/\1/p')
	taken=$(echo "$l" | sed -n 's/.* taken=\([0-9]*\).*/\1/p')
	lost=$(echo "$l" | sed -n 's/.* lost=\([0-9]*\).*/\1/p')
	if [ "$sent" = "$4" ] && [ "$taken" = "$sent" ] && [ "$lost" = 0 ]; then
		echo "ok:   $1: $2 SGIs ($3 vCPUs): $sent sent, all taken, none lost"
	else
		echo "FAIL: $1: $2 SGIs ($3 vCPUs): sent=${sent:-missing} taken=${taken:-missing} lost=${lost:-missing}, expected $4 sent, all taken, 0 lost"
		failed=1
	fi
}

# victim_windows TOOL: the windows of the victim VM's workmeter (tests/guest/linux/
# workmeter.c), sorted into the halves of the hostile VM 'fuzz' by where their lines fall
# between TOOL's phase lines in the one serial log ("TOOL: phase benign round=N", "...
# attack round=N", "TOOL: phase end": the lines the attacker's kernel printed as it went,
# with its time stamp, not the copies its init prints from dmesg at the end). A window
# counts when it began and ended inside one half (it begins where the same vCPU's previous
# window ended; each vCPU's first one is left out). Writes $LOG.windows, a row per window:
# half (benign or attack), time in ms, the vCPU's share of that time (less steal) in %.
victim_windows() {
	tr -d '\r' < "$LOG" | awk -v tool="$1" '
		$0 ~ ("^\\[fuzz\\] \\[ *[0-9.]+\\] " tool ": phase ") {
			p = $0
			sub(".*" tool ": phase ", "", p)
			phase = p ~ /^end/ ? "" : substr(p, 1, 6)
			since = NR
		}
		/^\[victim\] GUEST-workmeter workmeter: cpu=/ {
			split($0, f, /[ =]/)
			for (i = 1; i in f; i++) {
				if (f[i] == "cpu") cpu = f[i + 1]
				if (f[i] == "ms") ms = f[i + 1]
				if (f[i] == "steal") steal = f[i + 1]
			}
			if (phase != "" && (cpu in last) && last[cpu] > since)
				printf "%s %s %d\n", phase, ms, (ms > 0 ? 100 * (ms - steal) / ms : 0)
			last[cpu] = NR
		}' > "$LOG.windows"
}

# window_median HALF [COLUMN]: the median of that column of $LOG.windows (2: time, 3:
# share) over the windows of that kind of half
window_median() {
	grep "^$1 " "$LOG.windows" | cut -d' ' -f"${2:-2}" | sort -n |
		awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'
}

# expect_victim_speed DESCRIPTION MIN_WINDOWS FACTOR: at least MIN_WINDOWS windows of each
# kind in $LOG.windows, and the median attacked window at most FACTOR times the median
# benign one (the victim kept at least 1/FACTOR of its speed); then a line with the
# medians and shares.
expect_victim_speed() {
	nb=$(grep -c "^benign " "$LOG.windows") na=$(grep -c "^attack " "$LOG.windows")
	mb=$(window_median benign) ma=$(window_median attack)
	if [ "$nb" -ge "$2" ] && [ "$na" -ge "$2" ] && awk "BEGIN { exit !($ma <= $3 * $mb) }"; then
		echo "ok:   $1 (median window $mb ms benign, $ma ms attacked; $nb and $na windows)"
	else
		echo "FAIL: $1: median window ${mb:-none} ms benign ($nb windows), ${ma:-none} ms attacked ($na windows); expected at least $2 of each and attacked <= $3 x benign"
		failed=1
	fi
	echo "      victim windows: benign median ${mb:-none} ms ($nb windows, median share of its pCPU $(window_median benign 3)%)," \
		"attacked median ${ma:-none} ms ($na windows, $(window_median attack 3)%)"
}

# usb_boot: the USB stick's image (make usb-image: scripts/mkusb.sh) on ARCH's machine as its
# only disk, a USB mass-storage device on an xHCI controller. The firmware starts its
# architecture's EFI/BOOT file, hv.efi reads hv-ARCH.cfg, and the default guest reaches its
# shell, runs a typed command and powers off. Then the same stick without hv-ARCH.cfg
# (and no hv.cfg): the console names the files it looked for, and nothing is started.
usb_boot() {
	img=$(mktemp /tmp/hv-test-usb.XXXXXX)
	if ! "$TOP/scripts/mkusb.sh" "$img" > /dev/null; then
		echo "FAIL: scripts/mkusb.sh wrote no image (both architectures built?)"
		failed=1 && rm -f "$img" && return
	fi
	a=${ARCH:-x86_64}
	export BUS=usb
	# shellcheck disable=SC2016 # typed into the guest's shell, which expands it
	TYPE_AFTER="Type commands" TYPE_LINES='echo usb-$((6*7))
poweroff -f' boot_image "$img" 300
	expect "$a: hv.efi read its own configuration" "hv: configuration: hv-$a.cfg"
	expect "$a: the default guest loaded from the stick" "hv: VM 'linux0': 2 vCPUs, 512 MiB, kernel /guests/$a/"
	expect "all pCPUs started" "hv: 2 of 2 pCPUs running"
	expect_vm linux0 "the guest's shell ran a typed command" "usb-42"
	expect "typed poweroff ends the VM" "hv: VM 'linux0' powered off;"
	expect "machine powered off when the last VM stopped" "hv: powering off ("
	mv "$LOG" "$LOG.1"
	MTOOLS_SKIP_CHECK=1 mdel -i "$img@@1M" "::/hv-$a.cfg"
	STOP_AT="returning to the firmware" boot_image "$img" 120
	cat "$LOG.1" "$LOG" > "$LOG.2" && mv "$LOG.2" "$LOG" && rm -f "$LOG.1" "$img"
	expect "no configuration on the stick: the files looked for are named" \
		"hv: hv-$a.cfg: file not found; hv.cfg: file not found (both are looked for where hv.efi"
	expect "no configuration: nothing started" "hv: nothing was started; returning to the firmware"
}

# expect_pcpu_irqs HOW: each of the 2 pCPUs took kicks (IPIs from the other) and timer
# interrupts, HOW (e.g. "through the x2APIC").
expect_pcpu_irqs() {
	for p in 0 1; do
		line=$(tr -d '\r' < "$LOG" | grep "^hv: pcpu$p: switches=")
		k=$(echo "$line" | sed -n 's/.* kicks=\([0-9]*\).*/\1/p')
		t=$(echo "$line" | sed -n 's/.* timer-irqs=\([0-9]*\).*/\1/p')
		if [ "${k:-0}" -gt 0 ] && [ "${t:-0}" -gt 0 ]; then
			echo "ok:   pcpu$p: kicks ($k) and timer interrupts ($t) arrived $1"
		else
			echo "FAIL: pcpu$p: kicks=${k:-missing} timer-irqs=${t:-missing}"; failed=1
		fi
	done
}

# Prints the hypervisor's report lines (exit counts) into the test output, then exits.
# telemetry: the telemetry after the takeover (docs/telemetry.md):
# hv.cfg has a [net] section, the machine a virtio-net NIC on QEMU's user network with the
# hypervisor's HTTP port forwarded to 127.0.0.1; telemetry NET_KEYS HOW: the [net] keys
# and how the address comes (DHCP or static). The hypervisor takes the NIC after
# ExitBootServices, gets its address and serves /metrics while a guest's 2 vCPUs spin:
# two scrapes a few seconds apart parse as Prometheus text (prometheus_client's parser)
# with the guest's counters grown, /stats is JSON with the same VM, /console/linux0 holds
# the guest's last console lines where NET_CONFIG says console = yes (asked with the
# hypervisor's address as Host, as a client on its LAN does; asked as another server, or
# through QEMU's port forward as 127.0.0.1, it is refused: 403), else is not served (404),
# / is the live page, an unknown path is a 404, and a
# request that is not GET or HEAD is refused (405). Then the live page in headless
# Chromium, twice: the exits it shows grow and the screenshots (kept as LOG.page1.png,
# LOG.page2.png) differ. The network traffic is captured (QEMU's filter-dump, kept as
# LOG.pcap): the hypervisor's TCP initial sequence numbers are not a counter (RFC 6528,
# tcp_isns.py), and it said where its random numbers come from.
telemetry() {
	port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	out=$(mktemp -d /tmp/hv-test-telemetry.XXXXXX)
	QEMU_ARGS="-netdev user,id=tn,hostfwd=tcp:127.0.0.1:$port-:80 -device virtio-net-pci,netdev=tn,romfile= -object filter-dump,id=td,netdev=tn,file=$out/net.pcap"
	trap 'rm -rf "$out"' EXIT
	# The scraper: once the hypervisor says where it serves, it asks (python: no curl needed).
	(
		for _ in $(seq 600); do
			grep -q "hv: telemetry: http://" "$LOG" 2> /dev/null && break
			sleep 0.5
		done
		hv=$(sed -n 's|^hv: telemetry: http://\([0-9.]*:[0-9]*\)/metrics.*|\1|p' "$LOG" | head -n1)
		/usr/bin/python3 "$TOP/tests/emu/telemetry_scrape.py" "http://127.0.0.1:$port" "$out" "$hv" > "$out/scrape.log" 2>&1
		echo "scrape exit $?" >> "$out/scrape.log"
		[ "$3" = flood ] && /usr/bin/python3 "$TOP/tests/emu/telemetry_flood.py" "http://127.0.0.1:$port" "$LOG" >> "$out/scrape.log" 2>&1
	) &
	scraper=$!
	# flood: one vCPU on pCPU 0 that measures its progress (telemetry_flood.py), long
	# enough for the scrape and the flood's turns, beside a VM of 128 vCPUs on pCPU 1 that
	# stops at once (the multiboot test kernel) but makes /metrics as large as a big
	# machine's (over 256 KiB, which was a 500 before issue 35): each build of it costs
	# pCPU 0 that much; else two vCPUs that spin.
	guest=$(linux_vm linux0 2 256M "hv.mode=spin hv.spin=60")
	FLOOD_GUEST_S=${FLOOD_GUEST_S:-75} FLOOD_WORK=${FLOOD_WORK:-20}
	if [ "$3" = flood ]; then
		guest="$(linux_vm linux0 1 256M \
			"hv.mode=test hv.tools=workmeter hv.workmeter=seconds=$FLOOD_GUEST_S:work=$FLOOD_WORK" "pcpus = 0")
[vm wide]
kernel = /guests/mbtest.elf
cmdline = status=0
vcpus = 128
memory = 16M
exit_port = 0xf4
pcpus = 1"
		g=$TOP/build/guests/x86_64
		ESP_FILES="$g/vmlinuz=/guests/vmlinuz $g/initrd.gz=/guests/initrd.gz $TOP/build/x86_64/guests-test/mbtest.elf=/guests/mbtest.elf"
	fi
	boot "[net]
$1$guest" 400
	unset ESP_FILES
	wait $scraper
	sed 's/^/      /' "$out/scrape.log"
	cat "$out/scrape.log" >> "$LOG"
	expect "the NIC taken after the takeover" "hv: telemetry: NIC "
	expect "the address ($2)" "hv: telemetry: http://10.0.2.15:80/metrics ($2)"
	expect "both scrapes parse as Prometheus text" "scrape: prometheus ok"
	expect "the guest's exits grew between the scrapes" "scrape: exits grew"
	expect "the machine's own counters: pCPUs, NIC frames, requests" "scrape: own counters ok"
	expect "/stats is JSON with the VM and the machine's counters" "scrape: stats ok"
	if printf '%s\n' "$1" | grep -qx "console = yes"; then
		last=$(sed -n 's/^scrape: console last line: //p' "$out/scrape.log")
		expect "/console/linux0 ends with a line of the guest's console" "[linux0] ${last:-no line}"
		expect "/console of an unknown VM is a 404" "scrape: console 404 ok"
		expect "/console asked as another server (DNS rebinding) is a 403" "scrape: console foreign host 403 ok"
		expect "/console through the port forward (Host 127.0.0.1) is a 403" "scrape: console forwarded 403 ok"
	else
		expect "/console is not served without console = yes (404)" "scrape: console not served ok"
	fi
	expect "/ is the live page" "scrape: live page ok"
	expect "an unknown path is a 404" "scrape: 404 ok"
	expect "the live page in Chromium: the exits it shows grew" "scrape: page counters moved"
	expect "the live page in Chromium: two screenshots differ" "scrape: screenshots differ"
	cp "$out/page1.png" "$LOG.page1.png" 2> /dev/null
	cp "$out/page2.png" "$LOG.page2.png" 2> /dev/null
	expect "a POST is refused with 405" "scrape: 405 ok"
	expect "the scraper finished" "scrape exit 0"
	if [ "$3" = flood ]; then
		grep "^flood: " "$out/scrape.log" | grep -v "flood: turn" | sed 's/^/      /'
		expect "a flood of HEAD/GET /metrics and resets left the vCPU on pCPU 0 at least 90% of its progress" "flood: progress ok"
		expect "the flood did not build /metrics per request (at most once a second)" "flood: builds ok"
	fi
	expect "machine powered off when the last VM stopped" "hv: powering off ("
	expect_net_counter "the power-off line counts the requests answered" ok 5
	expect "its random numbers from the CPU or the firmware" \
		"hv: random numbers (TCP sequence numbers, DHCP, ports) from "
	grep "^hv: random numbers" "$LOG" | sed 's/^/      /'
	cp "$out/net.pcap" "$LOG.pcap" 2> /dev/null
	/usr/bin/python3 "$TOP/tests/emu/tcp_isns.py" "$out/net.pcap" 80 >> "$LOG" 2>&1
	grep "^isns: [0-9]" "$LOG" | sed 's/^/      /'
	expect "its TCP initial sequence numbers are not a counter (RFC 6528)" "isns: unpredictable ok"
	unset QEMU_ARGS
}

# The x86 interrupt test guest (tests/guest/x86/apictest.c) on the boot volume, a VM of it
# (NAME [EXTRA CONFIG LINES]), and its steps checked (expect_apictest NAME).
APICTEST="$TOP/build/x86_64/guests-test/apictest.elf=/guests/apictest.elf"
apictest_vm() { printf '[vm %s]\nkernel = /guests/apictest.elf\nvcpus = 2\nmemory = 16M\n%s\n' "$1" "$2"; }
expect_apictest() {
	for step in "mmio: ioapic version 11, entries 24, entry 0 10055" "self-ipi: 1000 of 1000" \
		"timer: 20 of 20" "ap: 1 of 1" "ipi bsp->ap: 1000 of 1000" "ipi ap->bsp: 1000 of 1000" \
		"nested: 0 of 20 rounds took the waiting vector in the handler"; do
		expect "$1: ${step%%:*}" "[$1] X86TEST ok $step"
	done
	expect "$1: DR6 kept while other vCPUs ran on its pCPU" "[$1] X86TEST ok dr6: kept"
	expect "$1: all steps passed" "[$1] X86TEST DONE"
	expect "$1: powered off" "hv: VM '$1' powered off;"
	expect_counter "$1: MMIO emulated (nested paging faults)" "$1" mmio 4
	expect_counter "$1: SELF IPIs through the x2APIC" "$1" self 1000
	for path in icr pv; do # each cost measured (0: an IPI not taken in time)
		if grep -aq "^\[$1\] X86TEST ipicost $path: unicast-wait=[1-9][0-9]* unicast=[1-9][0-9]* broadcast-wait=[1-9]" "$LOG"; then
			echo "ok:   $1: IPI costs through the $path path"
		else
			echo "FAIL: $1: no IPI costs through the $path path"
			failed=1
		fi
	done
	expect_counter "$1: PV IPIs sent" "$1" pv 600
	grep -a "^\[$1\] X86TEST ipicost" "$LOG" | sed 's/^/      /'
}

# The hardware self-test's table (hv/selftest.c): expect_selftest ROW RESULT checks that
# row's result (pass, fail, absent, unused); expect_selftest_costs VM checks that the VM's
# guest measured both IPI paths, and shows them.
expect_selftest() {
	if grep -aqE "^hv: self-test: $1 +$2( |\$)" "$LOG"; then
		echo "ok:   self-test: $1: $2"
	else
		echo "FAIL: self-test: $1 is not $2: $(grep -a "^hv: self-test: $1 " "$LOG" | head -1)"
		failed=1
	fi
}
expect_selftest_costs() {
	for path in icr pv; do
		if grep -aqE "^hv: self-test: $1 +$path: unicast-wait=[1-9][0-9]* unicast=[1-9][0-9]* broadcast-wait=[1-9]" "$LOG"; then
			echo "ok:   self-test: $1: IPI costs through the $path path"
		else
			echo "FAIL: self-test: $1: no IPI costs through the $path path"
			failed=1
		fi
	done
}

# boot_bochs CONFIG_TEXT TIMEOUT_SECONDS: the hypervisor with that configuration on an
# Intel CPU: Debian's Bochs 2.7 (cpu model corei7_skylake_x, 2 CPUs, VMX with EPT, VPID
# and unrestricted guest, ips 100 M), OVMF as its ROM, the boot volume on an ATA disk
# (ESP_FILES as for boot; ../shared/EMULATION.md). Bochs's machine has no ACPI power-off:
# the run ends when the hypervisor says it returns to the firmware or halts, or on FATAL.
boot_bochs() {
	command -v bochs > /dev/null || { echo "FAIL: no bochs (scripts/deps.sh installs it)"; exit 1; }
	dir=$(mktemp -d /tmp/hv-test-bochs.XXXXXX)
	cat /usr/share/OVMF/OVMF_VARS.fd /usr/share/OVMF/OVMF_CODE.fd > "$dir/ovmf.fd"
	printf '%s\n' "$1" > "$dir/hv.cfg"
	# shellcheck disable=SC2086 # ESP_FILES: FILE=PATH words, split on blanks
	"$TOP/scripts/mkesp.sh" "$dir/esp.img" "$dir/hv.cfg" $ESP_FILES
	# Bochs takes a flat disk's geometry from its size: whole cylinders of 16 heads, 63 sectors.
	cyl=$((16 * 63 * 512)) size=$(stat -c %s "$dir/esp.img")
	truncate -s $(((size + cyl - 1) / cyl * cyl)) "$dir/esp.img"
	# COM1 goes to scripts/serial_relay.py, which keeps it in serial.txt and types Ctrl-\
	# (the hypervisor's dump) when a guest reports a stall or the time runs out.
	: > "$dir/serial.txt"
	python3 "$TOP/scripts/serial_relay.py" "$dir/port" "$dir/serial.txt" &
	rpid=$!
	for _ in $(seq 50); do [ -s "$dir/port" ] && break; sleep 0.1; done
	cat > "$dir/bochsrc" <<- EOF
		megs: 768
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
		com1: enabled=1, mode=socket-client, dev=localhost:$(cat "$dir/port")
	EOF
	echo c > "$dir/dbg.rc" # Debian's bochs is the debugger build: "continue"
	start=$(date +%s)
	(cd "$dir" && exec timeout -k 10 "$2" bochs -q -f bochsrc -rc dbg.rc > bochs.out 2>&1) &
	bpid=$!
	dumped=
	until grep -q "returning to the firmware\|hv: no VM left\|FATAL" "$dir/serial.txt" 2> /dev/null; do
		kill -0 "$bpid" 2> /dev/null || break
		if [ -z "$dumped" ] && [ $(($(date +%s) - start)) -ge $(($2 - 20)) ]; then
			kill -USR1 "$rpid" && dumped=1
		fi
		sleep 2
	done
	# What follows (the self-test's table) until the console is quiet for 3 s.
	size=-1
	for _ in $(seq 10); do
		[ "$(stat -c %s "$dir/serial.txt" 2> /dev/null)" = "$size" ] && break
		size=$(stat -c %s "$dir/serial.txt" 2> /dev/null)
		sleep 3
	done
	# (quietly: the stand-in for QEMU, scripts/kut/qemu-hv.sh, may write nothing else to
	# stderr, and a shell says "Terminated" there for a job it waits for)
	kill "$bpid" 2> /dev/null
	wait "$bpid" 2> /dev/null
	brc=$? # 124: its time ran out (timeout's status)
	kill "$rpid" 2> /dev/null
	wait "$rpid" 2> /dev/null
	tr -d '\r' < "$dir/serial.txt" > "$LOG"
	printf "\nbochs stopped after %ss (status %s)\n" $(($(date +%s) - start)) "$brc" >> "$LOG"
	rm -rf "$dir"
}

finish() {
	grep -E "^hv: VM '.*' (powered|reset|triple|stopped)|^qemu exit" "$LOG" | sed 's/^/      /'
	exit $failed
}
