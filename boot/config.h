/* SPDX-License-Identifier: GPL-2.0-only */
/* Parser for the hypervisor configuration file (INI style).
 *
 *   # comment                 ; comment
 *   [hv]
 *   pcpus = 4                 # 0 or absent: every CPU the firmware lists
 *   console = linux0          # VM that gets serial input first (default: first VM)
 *   sched = aware             # scheduling policy: aware (default) or rr (hv/sched_policy.h)
 *   on_exit = poweroff        # when no VM is left or on a fatal error: poweroff, reboot, halt
 *   serial = com2             # the console: com1..com4, a port (0x2f8), mmio@ADDR
 *   baud = 115200             # its rate (a divisor of 115200); default: the firmware's
 *   [vm linux0]
 *   kernel = \vmlinux         # required
 *   initrd = \initrd.gz       # several, comma-separated: a multiboot kernel's modules
 *   cmdline = console=ttyS0 quiet
 *   vcpus = 2                 # 1..64, default 1
 *   memory = 512M             # N, NK, NM, NG; 16M..64G, multiple of 2M; default 256M
 *   pv = all,-ipi             # paravirtual features offered (default: all), below
 *   pcpus = 0-1,3             # the pCPUs its vCPUs may run on (default: all)
 *   exit_port = 0xf4          # x86: a guest write there ends the VM (isa-debug-exit)
 *   [net]                     # telemetry over HTTP on the hypervisor's own NIC
 *   address = dhcp            # or A.B.C.D/N (N 1..30); default dhcp
 *   gateway = 10.0.2.2        # with a static address only
 *   port = 80                 # the HTTP port (default 80)
 *   allow = 10.0.0.0/8, 192.0.2.7   # only these send frames that reach the network stack
 *
 * pv is a comma-separated list applied left to right to the empty set: `all`, `none`,
 * a feature name or `+name` (adds it), `-name` (removes it). Features: clock (kvmclock),
 * steal (steal time and the preempted flag), eoi (PV EOI), unhalt (PV spinlocks: halt
 * and kick), tlb (PV TLB flush), ipi (KVM_HC_SEND_IPI), yield (KVM_HC_SCHED_YIELD); see
 * hv/pv_features.h. "none" gives the guest no paravirtual feature at all.
 *
 * Whitespace followed by '#' starts a trailing comment. Sections and keys are
 * case-sensitive; numbers are decimal or 0x hex. Only cmdline may be empty. */
#ifndef BOOT_CONFIG_H
#define BOOT_CONFIG_H

#include "hv/types.h"
#include "hv/on_exit.h"
#include "hv/sched_policy.h"
#include "hv/vm_config.h"

/* The machine's console, `serial` (and `baud`) under [hv]: a 16550 at an I/O port (x86:
 * com1..com4 or a port number) or a UART at a physical address (mmio@ADDR: arm64's PL011,
 * an x86 16550 with byte registers; mmio16@ADDR, mmio32@ADDR: a 16550 with 2- or 4-byte
 * registers at that stride). Default: what the firmware's SPCR says, else the
 * architecture's usual one. */
enum serial_kind { SERIAL_DEFAULT, SERIAL_IO, SERIAL_MMIO };
struct serial_choice {
	enum serial_kind kind;
	u64 addr;     /* I/O port or physical address */
	u8 reg_bytes; /* SERIAL_MMIO: 1, 2 or 4 */
	u32 baud;     /* 0: as the firmware set it (or the SPCR says) */
	int line;     /* of the serial key (or baud, without serial) */
};

#define CFG_DEFAULT_HTTP_PORT 80
#define CFG_MAX_ALLOW 8

/* A network, A.B.C.D/N (a host: /32). */
struct cfg_cidr {
	u8 ip[4];
	u8 prefix; /* 0..32 */
};

/* [net]: the NIC that the hypervisor keeps for itself after the takeover, and its
 * telemetry (net/telemetry/telemetry.h). Absent: no network after the takeover. */
struct net_config {
	bool enabled; /* a [net] section came */
	bool dhcp;    /* address = dhcp (default) */
	u8 ip[4];     /* a static address/prefix */
	u8 prefix;
	bool has_gateway;
	u8 gateway[4];
	u16 port; /* HTTP */
	/* console = yes: /console/NAME serves the VMs' console output (default no) */
	bool console;
	char host[64]; /* host = NAME: a name the Host header may carry; "" for none */
	/* allow = CIDR, ...: only IPv4 frames from these networks (and ARP, and a DHCP
	 * server's answers) reach the network stack (net/telemetry/frame_filter.h); none:
	 * all do */
	struct cfg_cidr allow[CFG_MAX_ALLOW];
	u32 nallow;
	int line; /* of the [net] header */
};

struct hv_config {
	u32 pcpus;		    /* 1..256; 0 (default) = all the firmware lists */
	char console[CFG_NAME_MAX]; /* VM that gets serial input first */
	enum sched_policy sched;    /* default SCHED_AWARE */
	enum on_exit on_exit;	    /* default ON_EXIT_POWEROFF */
	struct serial_choice serial;
	struct net_config net;
	/* selftest = yes: the hardware self-test's own VMs instead of [vm] sections
	 * (hv/selftest.h) */
	bool selftest;
	int selftest_line;
	u32 nvms;
	struct vm_config vms[CFG_MAX_VMS];
};

struct cfg_error {
	int line; /* 1-based; 0 when about the whole file */
	char msg[160];
};

/* Parses len bytes of text (need not be NUL-terminated) into *cfg. Returns 0, or
 * -1 with *err (if non-NULL) set to the line and reason of the first error. */
int config_parse(const char *text, size_t len, struct hv_config *cfg, struct cfg_error *err);

#endif
