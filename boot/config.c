/* SPDX-License-Identifier: GPL-2.0-only */
/* Configuration file parser (see config.h). Works on (pointer, length) slices of
 * the text, so lines may be arbitrarily long and nothing is copied until a value
 * is stored. */
#include "boot/config.h"
#include "hv/lib.h"
#include "hv/pv_features.h"

struct slice {
	const char *s;
	size_t n;
};

enum section { SEC_NONE, SEC_HV, SEC_VM, SEC_NET };

enum key {
	K_PCPUS,
	K_CONSOLE,
	K_SCHED,
	K_ON_EXIT,
	K_SERIAL,
	K_BAUD,
	K_KERNEL,
	K_INITRD,
	K_CMDLINE,
	K_VCPUS,
	K_MEMORY,
	K_PV,
	K_APICV,
	K_VM_PCPUS,
	K_ADDRESS,
	K_GATEWAY,
	K_PORT,
	K_SELFTEST,
	K_EXIT_PORT,
	K_NET_CONSOLE,
	K_HOST,
	K_ALLOW
};

static const struct {
	const char *name;
	enum section sec;
} keys[] = {
	[K_PCPUS] = { "pcpus", SEC_HV },	 [K_CONSOLE] = { "console", SEC_HV },
	[K_SCHED] = { "sched", SEC_HV },	 [K_ON_EXIT] = { "on_exit", SEC_HV },
	[K_SERIAL] = { "serial", SEC_HV },	 [K_BAUD] = { "baud", SEC_HV },
	[K_KERNEL] = { "kernel", SEC_VM },	 [K_INITRD] = { "initrd", SEC_VM },
	[K_CMDLINE] = { "cmdline", SEC_VM },	 [K_VCPUS] = { "vcpus", SEC_VM },
	[K_MEMORY] = { "memory", SEC_VM },	 [K_PV] = { "pv", SEC_VM },
	[K_APICV] = { "apicv", SEC_VM },	 [K_VM_PCPUS] = { "pcpus", SEC_VM },
	[K_ADDRESS] = { "address", SEC_NET },	 [K_GATEWAY] = { "gateway", SEC_NET },
	[K_PORT] = { "port", SEC_NET },		 [K_SELFTEST] = { "selftest", SEC_HV },
	[K_EXIT_PORT] = { "exit_port", SEC_VM }, [K_NET_CONSOLE] = { "console", SEC_NET },
	[K_HOST] = { "host", SEC_NET },		 [K_ALLOW] = { "allow", SEC_NET },
};

struct parser {
	struct hv_config *cfg;
	struct cfg_error *err;
	int line;
	enum section sec;
	struct vm_config *vm; /* current [vm] section */
	u32 seen;	      /* bitmask of keys seen in the current section */
	bool have_hv, have_net;
	int console_line;
};

/* Longest excerpt of the input quoted in an error message. */
#define SHOW_MAX 48

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static struct slice trim(const char *s, size_t n)
{
	while (n && is_space(*s))
		s++, n--;
	while (n && is_space(s[n - 1]))
		n--;
	return (struct slice){ s, n };
}

static bool slice_eq(struct slice a, const char *b)
{
	size_t n = strlen(b);
	return a.n == n && !memcmp(a.s, b, n);
}

/* Copies an excerpt of the input into buf for an error message: shortened with
 * "..." and with unprintable bytes replaced, so it is safe on a serial console. */
static const char *show(char *buf, struct slice v)
{
	size_t n = v.n > SHOW_MAX ? SHOW_MAX - 3 : v.n;
	size_t i;

	for (i = 0; i < n; i++) {
		u8 c = (u8)v.s[i];
		buf[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	if (n < v.n) {
		memcpy(buf + n, "...", 3);
		n += 3;
	}
	buf[n] = 0;
	return buf;
}

static int fail(struct parser *ps, int line, const char *fmt, ...) PRINTF_LIKE(3, 4);

static int fail(struct parser *ps, int line, const char *fmt, ...)
{
	va_list ap;

	if (ps->err) {
		ps->err->line = line;
		va_start(ap, fmt);
		vsnprintf(ps->err->msg, sizeof(ps->err->msg), fmt, ap);
		va_end(ap);
	}
	/* Never hand back a half-parsed configuration. */
	memset(ps->cfg, 0, sizeof(*ps->cfg));
	return -1;
}

static int digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Decimal or 0x hex, no sign; -1 on anything else or on overflow. */
static int parse_u64(struct slice v, u64 *out)
{
	unsigned int base = 10;
	size_t i = 0;
	u64 x = 0;

	if (v.n > 2 && v.s[0] == '0' && (v.s[1] | 0x20) == 'x') {
		base = 16;
		i = 2;
	}
	if (i == v.n)
		return -1;
	for (; i < v.n; i++) {
		int d = digit(v.s[i]);

		if (d < 0 || (unsigned int)d >= base)
			return -1;
		if (x > (UINT64_MAX - (unsigned int)d) / base)
			return -1;
		x = x * base + (unsigned int)d;
	}
	*out = x;
	return 0;
}

/* A number with an optional K, M or G suffix (any case). */
static int parse_size(struct slice v, u64 *out)
{
	unsigned int shift = 0;
	u64 x;

	if (v.n) {
		switch (v.s[v.n - 1] | 0x20) {
		case 'k':
			shift = 10;
			break;
		case 'm':
			shift = 20;
			break;
		case 'g':
			shift = 30;
			break;
		}
	}
	if (shift)
		v.n--;
	if (parse_u64(v, &x) || x > (UINT64_MAX >> shift))
		return -1;
	*out = x << shift;
	return 0;
}

static bool valid_name(struct slice v)
{
	size_t i;

	if (v.n == 0 || v.n >= CFG_NAME_MAX)
		return false;
	for (i = 0; i < v.n; i++) {
		char c = v.s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '-'))
			return false;
	}
	return true;
}

static void copy_str(char *dst, struct slice v)
{
	memcpy(dst, v.s, v.n);
	dst[v.n] = 0;
}

static int set_str(struct parser *ps, char *dst, size_t size, struct slice v, const char *key)
{
	if (v.n >= size)
		return fail(ps, ps->line, "value too long for %s (max %u characters)", key,
			    (unsigned int)(size - 1));
	copy_str(dst, v);
	return 0;
}

static int set_num(struct parser *ps, u32 *dst, struct slice v, const char *key, u32 max)
{
	char buf[SHOW_MAX + 1];
	u64 x;

	if (parse_u64(v, &x) || x < 1 || x > max)
		return fail(ps, ps->line, "bad value '%s' for %s: expected a number 1..%u",
			    show(buf, v), key, max);
	*dst = (u32)x;
	return 0;
}

static int set_memory(struct parser *ps, struct slice v)
{
	char buf[SHOW_MAX + 1];
	u64 x;

	/* 2 MiB: both backends map guest RAM with 2 MiB pages (arch_vm_create checks it too) */
	if (parse_size(v, &x) || x < CFG_MIN_MEMORY || x > CFG_MAX_MEMORY || x % (2 * MiB))
		return fail(ps, ps->line,
			    "bad value '%s' for memory: expected a size 16M..64G, a multiple of 2M",
			    show(buf, v));
	ps->vm->memory = x;
	return 0;
}

static int set_sched(struct parser *ps, struct slice v)
{
	char buf[SHOW_MAX + 1];

	if (slice_eq(v, "aware"))
		ps->cfg->sched = SCHED_AWARE;
	else if (slice_eq(v, "rr"))
		ps->cfg->sched = SCHED_RR;
	else
		return fail(ps, ps->line, "bad value '%s' for sched: expected aware or rr",
			    show(buf, v));
	return 0;
}

static int set_on_exit(struct parser *ps, struct slice v)
{
	char buf[SHOW_MAX + 1];

	if (slice_eq(v, "poweroff"))
		ps->cfg->on_exit = ON_EXIT_POWEROFF;
	else if (slice_eq(v, "reboot"))
		ps->cfg->on_exit = ON_EXIT_REBOOT;
	else if (slice_eq(v, "halt"))
		ps->cfg->on_exit = ON_EXIT_HALT;
	else
		return fail(ps, ps->line,
			    "bad value '%s' for on_exit: expected poweroff, reboot or halt",
			    show(buf, v));
	return 0;
}

static int set_apicv(struct parser *ps, struct slice v)
{
	char buf[SHOW_MAX + 1];

	if (slice_eq(v, "auto") || slice_eq(v, "off")) {
		ps->vm->apicv_off = slice_eq(v, "off");
		return 0;
	}
	return fail(ps, ps->line, "bad value '%s' for apicv: expected auto or off", show(buf, v));
}

/* mmio@ADDR, mmio16@ADDR or mmio32@ADDR: the register size (1, 2, 4), else 0. */
static u8 mmio_form(struct slice v, u64 *addr)
{
	static const struct {
		const char *prefix;
		u8 reg_bytes;
	} forms[] = { { "mmio@", 1 }, { "mmio16@", 2 }, { "mmio32@", 4 } };
	for (size_t i = 0; i < ARRAY_SIZE(forms); i++) {
		size_t n = strlen(forms[i].prefix);
		if (v.n > n && !strncmp(v.s, forms[i].prefix, n) &&
		    !parse_u64((struct slice){ v.s + n, v.n - n }, addr) && *addr)
			return forms[i].reg_bytes;
	}
	return 0;
}

/* com1..com4 (the PC's ports), a port number, or mmio@ADDR (mmio16@, mmio32@). */
static int set_serial(struct parser *ps, struct slice v)
{
	static const u16 com[] = { 0x3F8, 0x2F8, 0x3E8, 0x2E8 };
	char buf[SHOW_MAX + 1];
	struct serial_choice *c = &ps->cfg->serial;
	u64 x;

	c->line = ps->line;
	if (v.n == 4 && !strncmp(v.s, "com", 3) && v.s[3] >= '1' && v.s[3] <= '4') {
		c->kind = SERIAL_IO;
		c->addr = com[v.s[3] - '1'];
	} else if ((c->reg_bytes = mmio_form(v, &x))) {
		c->kind = SERIAL_MMIO;
		c->addr = x;
	} else if (!parse_u64(v, &x) && x && x <= 0xFFFF) {
		c->kind = SERIAL_IO;
		c->addr = x;
	} else {
		return fail(ps, ps->line,
			    "bad value '%s' for serial: expected com1..com4, an I/O port "
			    "(0x2f8), mmio@ADDR, mmio16@ADDR or mmio32@ADDR",
			    show(buf, v));
	}
	return 0;
}

/* A 16550's rates: 115200 divided by a whole number. */
static int set_baud(struct parser *ps, struct slice v)
{
	u32 baud;
	if (set_num(ps, &baud, v, "baud", 115200))
		return -1;
	if (!baud || 115200 % baud)
		return fail(ps, ps->line,
			    "baud %u: a 16550 runs at 115200 divided by a whole number (115200, "
			    "57600, 38400, 19200, 9600, ...)",
			    baud);
	ps->cfg->serial.baud = baud;
	if (!ps->cfg->serial.line)
		ps->cfg->serial.line = ps->line;
	return 0;
}

/* A list of pCPU numbers and ranges: "0-3,6". */
static int set_pcpu_set(struct parser *ps, struct slice v)
{
	char buf[SHOW_MAX + 1];
	struct pcpu_set set = { { 0 } };
	size_t i = 0;

	while (i <= v.n) {
		size_t end = i;
		while (end < v.n && v.s[end] != ',')
			end++;
		struct slice item = trim(v.s + i, end - i);
		size_t dash = 0;
		while (dash < item.n && item.s[dash] != '-')
			dash++;
		u64 lo, hi;
		if (parse_u64(trim(item.s, dash), &lo) ||
		    (dash < item.n ? parse_u64(trim(item.s + dash + 1, item.n - dash - 1), &hi)
				   : (hi = lo, 0)) ||
		    lo > hi)
			return fail(
				ps, ps->line,
				"bad item '%s' in pcpus: expected N or N-M (N <= M), e.g. 0-3,6",
				show(buf, item));
		if (hi >= MAX_PCPUS)
			return fail(ps, ps->line, "pCPU %llu in pcpus: this build runs pCPUs 0..%u",
				    (unsigned long long)hi, (unsigned int)MAX_PCPUS - 1);
		for (u64 c = lo; c <= hi; c++)
			pcpu_set_add(&set, (u32)c);
		i = end + 1;
	}
	ps->vm->pcpu_set = set;
	ps->vm->pcpus_line = ps->line;
	return 0;
}

/* initrd = A, B, ...: one path, or several (a multiboot kernel's modules). */
static int set_initrds(struct parser *ps, struct slice v)
{
	struct vm_config *vm = ps->vm;
	size_t i = 0;

	vm->initrd_line = ps->line;
	while (i <= v.n) {
		size_t end = i;
		while (end < v.n && v.s[end] != ',')
			end++;
		struct slice item = trim(v.s + i, end - i);
		if (!item.n)
			return fail(ps, ps->line,
				    "empty file name in initrd (files are separated "
				    "by commas)");
		if (vm->ninitrds == CFG_MAX_INITRDS)
			return fail(ps, ps->line, "too many files in initrd (max %u)",
				    (unsigned int)CFG_MAX_INITRDS);
		if (set_str(ps, vm->initrd[vm->ninitrds++], CFG_PATH_MAX, item, "initrd"))
			return -1;
		i = end + 1;
	}
	return 0;
}

/* exit_port = N: a guest's write to ports N..N+3 ends the VM (QEMU's isa-debug-exit with
 * iosize 4); whether a device has them is checked where the VM's devices are known. */
static int set_exit_port(struct parser *ps, struct slice v)
{
	char buf[SHOW_MAX + 1];
	u64 x;

	if (parse_u64(v, &x) || !x || x > 0xFFFC)
		return fail(ps, ps->line,
			    "bad value '%s' for exit_port: expected an I/O port 0x1..0xfffc "
			    "(it takes 4 ports, as QEMU's isa-debug-exit with iosize 4)",
			    show(buf, v));
	ps->vm->exit_port = (u16)x;
	ps->vm->exit_port_line = ps->line;
	return 0;
}

/* Longest pv value: every item spelled out, with blanks, fits easily. */
#define PV_VALUE_MAX 128

static int set_pv(struct parser *ps, struct slice v)
{
	char value[PV_VALUE_MAX], why[128];

	if (v.n >= sizeof(value))
		return fail(ps, ps->line, "value too long for pv (max %u characters)",
			    (unsigned int)sizeof(value) - 1);
	copy_str(value, v);
	if (pv_features_parse(value, &ps->vm->pv, why, sizeof(why)))
		return fail(ps, ps->line, "bad value for pv: %s", why);
	return 0;
}

/* A.B.C.D at the start of v: its length, or 0 when it is not one. */
static size_t parse_ipv4(struct slice v, u8 ip[4])
{
	size_t i = 0;
	for (int part = 0; part < 4; part++) {
		u32 b = 0, digits = 0;
		if (part && (i == v.n || v.s[i++] != '.'))
			return 0;
		for (; i < v.n && v.s[i] >= '0' && v.s[i] <= '9' && digits < 4; i++, digits++)
			b = b * 10 + (u32)(v.s[i] - '0');
		if (!digits || digits > 3 || b > 255)
			return 0;
		ip[part] = (u8)b;
	}
	return i;
}

/* address = dhcp | A.B.C.D/N */
static int set_address(struct parser *ps, struct slice v)
{
	char buf[SHOW_MAX + 1];
	struct net_config *net = &ps->cfg->net;
	if (slice_eq(v, "dhcp")) {
		net->dhcp = true;
		return 0;
	}
	size_t n = parse_ipv4(v, net->ip);
	u64 prefix;
	if (!n || n + 1 >= v.n || v.s[n] != '/' ||
	    parse_u64((struct slice){ v.s + n + 1, v.n - n - 1 }, &prefix) || !prefix ||
	    prefix > 30)
		return fail(ps, ps->line,
			    "bad value for address '%s': expected dhcp or A.B.C.D/N (N 1..30)",
			    show(buf, v));
	net->dhcp = false;
	net->prefix = (u8)prefix;
	return 0;
}

/* yes or no */
static int set_yes_no(struct parser *ps, bool *out, struct slice v, const char *name)
{
	char buf[SHOW_MAX + 1];
	if (!slice_eq(v, "yes") && !slice_eq(v, "no"))
		return fail(ps, ps->line, "bad value '%s' for %s: expected yes or no", show(buf, v),
			    name);
	*out = slice_eq(v, "yes");
	return 0;
}

/* host = NAME: a DNS name of the machine (letters, digits, '-' and '.'), which a browser's
 * Host header may carry besides the address. */
static int set_host(struct parser *ps, struct slice v)
{
	char buf[SHOW_MAX + 1];
	bool ok = v.n < sizeof(ps->cfg->net.host);
	for (size_t i = 0; ok && i < v.n; i++) {
		char c = v.s[i];
		ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		     c == '-' || c == '.';
	}
	if (!ok)
		return fail(ps, ps->line,
			    "bad value '%s' for host: expected a DNS name (letters, digits, '-' "
			    "and '.', at most %zu characters)",
			    show(buf, v), sizeof(ps->cfg->net.host) - 1);
	memcpy(ps->cfg->net.host, v.s, v.n);
	ps->cfg->net.host[v.n] = 0;
	return 0;
}

/* N of A.B.C.D/N: one or two decimal digits, 0..32. */
static bool parse_prefix(struct slice s, u8 *out)
{
	u32 v = 0;
	if (s.n < 1 || s.n > 2)
		return false;
	for (size_t i = 0; i < s.n; i++) {
		if (s.s[i] < '0' || s.s[i] > '9')
			return false;
		v = v * 10 + (u32)(s.s[i] - '0');
	}
	*out = (u8)v;
	return v <= 32;
}

/* allow = A.B.C.D[/N], ...: up to CFG_MAX_ALLOW networks, a host without /N. */
static int set_allow(struct parser *ps, struct slice v)
{
	char buf[SHOW_MAX + 1];
	struct net_config *net = &ps->cfg->net;
	for (size_t start = 0; start <= v.n;) {
		size_t end = start;
		while (end < v.n && v.s[end] != ',')
			end++;
		struct slice item = trim(v.s + start, end - start);
		struct cfg_cidr c = { .prefix = 32 };
		size_t n = parse_ipv4(item, c.ip);
		struct slice after = { item.s + n, item.n - n }; /* "/N" or nothing */
		if (!n || (after.n &&
			   (after.s[0] != '/' ||
			    !parse_prefix((struct slice){ after.s + 1, after.n - 1 }, &c.prefix))))
			return fail(ps, ps->line,
				    "bad value '%s' for allow: expected A.B.C.D or A.B.C.D/N "
				    "(N 0..32), separated by commas",
				    show(buf, item));
		if (net->nallow == CFG_MAX_ALLOW)
			return fail(ps, ps->line, "allow: more than %d networks", CFG_MAX_ALLOW);
		net->allow[net->nallow++] = c;
		start = end + 1;
	}
	return 0;
}

/* gateway = A.B.C.D */
static int set_gateway(struct parser *ps, struct slice v)
{
	char buf[SHOW_MAX + 1];
	if (parse_ipv4(v, ps->cfg->net.gateway) != v.n)
		return fail(ps, ps->line, "bad value for gateway '%s': expected A.B.C.D",
			    show(buf, v));
	ps->cfg->net.has_gateway = true;
	return 0;
}

static int parse_section(struct parser *ps, struct slice l)
{
	char buf[SHOW_MAX + 1];
	struct hv_config *cfg = ps->cfg;
	struct slice in, name;
	struct vm_config *vm;
	u32 i;

	if (l.n < 2 || l.s[l.n - 1] != ']')
		return fail(ps, ps->line,
			    "bad section header '%s': expected '[hv]', '[net]' or '[vm NAME]'",
			    show(buf, l));
	in = trim(l.s + 1, l.n - 2);
	ps->seen = 0;
	if (slice_eq(in, "hv")) {
		if (ps->have_hv)
			return fail(ps, ps->line, "duplicate [hv] section");
		ps->have_hv = true;
		ps->sec = SEC_HV;
		return 0;
	}
	if (slice_eq(in, "net")) {
		if (ps->have_net)
			return fail(ps, ps->line, "duplicate [net] section");
		ps->have_net = true;
		ps->sec = SEC_NET;
		cfg->net.enabled = true;
		cfg->net.dhcp = true;
		cfg->net.port = CFG_DEFAULT_HTTP_PORT;
		cfg->net.line = ps->line;
		return 0;
	}
	if (in.n < 2 || memcmp(in.s, "vm", 2) || (in.n > 2 && !is_space(in.s[2])))
		return fail(ps, ps->line, "unknown section '%s'", show(buf, l));

	name = trim(in.s + 2, in.n - 2);
	if (!name.n)
		return fail(ps, ps->line, "missing VM name in '[vm NAME]'");
	if (!valid_name(name))
		return fail(ps, ps->line,
			    "bad VM name '%s': expected 1..%u characters of A-Z a-z 0-9 _ -",
			    show(buf, name), (unsigned int)CFG_NAME_MAX - 1);
	for (i = 0; i < cfg->nvms; i++)
		if (slice_eq(name, cfg->vms[i].name))
			return fail(ps, ps->line, "duplicate VM name '%s'", cfg->vms[i].name);
	if (cfg->nvms == CFG_MAX_VMS)
		return fail(ps, ps->line, "too many VMs (max %u)", (unsigned int)CFG_MAX_VMS);

	vm = &cfg->vms[cfg->nvms++];
	copy_str(vm->name, name);
	vm->vcpus = 1;
	vm->memory = CFG_DEFAULT_MEMORY;
	vm->pv = PV_FEATURES_ALL;
	vm->line = ps->line;
	ps->vm = vm;
	ps->sec = SEC_VM;
	return 0;
}

static int parse_key(struct parser *ps, struct slice l)
{
	char buf[SHOW_MAX + 1];
	struct hv_config *cfg = ps->cfg;
	struct slice k, v;
	const char *name;
	size_t eq;
	u32 id;

	for (eq = 0; eq < l.n && l.s[eq] != '='; eq++)
		;
	if (eq == l.n)
		return fail(ps, ps->line, "line is not 'key = value'");
	k = trim(l.s, eq);
	v = trim(l.s + eq + 1, l.n - eq - 1);
	if (!k.n)
		return fail(ps, ps->line, "line is not 'key = value'");
	if (ps->sec == SEC_NONE)
		return fail(ps, ps->line, "key outside of a section");

	for (id = 0; id < ARRAY_SIZE(keys); id++)
		if (keys[id].sec == ps->sec && slice_eq(k, keys[id].name))
			break;
	if (id == ARRAY_SIZE(keys)) {
		if (ps->sec == SEC_HV)
			return fail(ps, ps->line, "unknown key '%s' in [hv]", show(buf, k));
		if (ps->sec == SEC_NET)
			return fail(ps, ps->line, "unknown key '%s' in [net]", show(buf, k));
		return fail(ps, ps->line, "unknown key '%s' in [vm %s]", show(buf, k),
			    ps->vm->name);
	}
	name = keys[id].name;
	if (ps->seen & BIT(id))
		return fail(ps, ps->line, "duplicate key '%s'", name);
	ps->seen |= BIT(id);
	if (!v.n && id != K_CMDLINE)
		return fail(ps, ps->line, "empty value for %s", name);

	switch ((enum key)id) {
	case K_PCPUS:
		return set_num(ps, &cfg->pcpus, v, name, CFG_MAX_PCPUS);
	case K_CONSOLE:
		ps->console_line = ps->line;
		return set_str(ps, cfg->console, sizeof(cfg->console), v, name);
	case K_SCHED:
		return set_sched(ps, v);
	case K_ON_EXIT:
		return set_on_exit(ps, v);
	case K_SELFTEST:
		ps->cfg->selftest_line = ps->line;
		return set_yes_no(ps, &ps->cfg->selftest, v, name);
	case K_NET_CONSOLE:
		return set_yes_no(ps, &cfg->net.console, v, name);
	case K_HOST:
		return set_host(ps, v);
	case K_ALLOW:
		return set_allow(ps, v);
	case K_SERIAL:
		return set_serial(ps, v);
	case K_BAUD:
		return set_baud(ps, v);
	case K_KERNEL:
		return set_str(ps, ps->vm->kernel, sizeof(ps->vm->kernel), v, name);
	case K_INITRD:
		return set_initrds(ps, v);
	case K_CMDLINE:
		return set_str(ps, ps->vm->cmdline, sizeof(ps->vm->cmdline), v, name);
	case K_VCPUS:
		return set_num(ps, &ps->vm->vcpus, v, name, CFG_MAX_VCPUS);
	case K_MEMORY:
		return set_memory(ps, v);
	case K_PV:
		return set_pv(ps, v);
	case K_APICV:
		return set_apicv(ps, v);
	case K_VM_PCPUS:
		return set_pcpu_set(ps, v);
	case K_EXIT_PORT:
		return set_exit_port(ps, v);
	case K_ADDRESS:
		return set_address(ps, v);
	case K_GATEWAY:
		return set_gateway(ps, v);
	case K_PORT: {
		u32 port;
		if (set_num(ps, &port, v, name, 65535))
			return -1;
		cfg->net.port = (u16)port;
		return 0;
	}
	}
	return 0;
}

static int parse_line(struct parser *ps, const char *s, size_t n)
{
	struct slice l = trim(s, n);
	size_t i;

	if (!l.n || l.s[0] == '#' || l.s[0] == ';')
		return 0;
	/* Whitespace followed by '#' starts a trailing comment. */
	for (i = 1; i < l.n; i++) {
		if (l.s[i] == '#' && (l.s[i - 1] == ' ' || l.s[i - 1] == '\t')) {
			l = trim(l.s, i);
			break;
		}
	}
	if (l.s[0] == '[')
		return parse_section(ps, l);
	return parse_key(ps, l);
}

static int check_nul(struct parser *ps, const char *text, size_t len)
{
	int line = 1;
	size_t i;

	for (i = 0; i < len; i++) {
		if (text[i] == '\n')
			line++;
		if (text[i])
			continue;
		if (len >= 2 && (((u8)text[0] == 0xff && (u8)text[1] == 0xfe) ||
				 ((u8)text[0] == 0xfe && (u8)text[1] == 0xff)))
			return fail(ps, line,
				    "NUL byte in file (UTF-16? save it as ASCII or UTF-8)");
		return fail(ps, line, "NUL byte in file");
	}
	return 0;
}

int config_parse(const char *text, size_t len, struct hv_config *cfg, struct cfg_error *err)
{
	struct parser ps = { .cfg = cfg, .err = err };
	char buf[SHOW_MAX + 1];
	size_t pos = 0, end;
	struct slice con;
	u32 i;

	memset(cfg, 0, sizeof(*cfg));
	cfg->sched = SCHED_AWARE;
	if (err) {
		err->line = 0;
		err->msg[0] = 0;
	}
	if (check_nul(&ps, text, len))
		return -1;
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		pos = 3; /* UTF-8 byte order mark */

	while (pos < len) {
		for (end = pos; end < len && text[end] != '\n'; end++)
			;
		ps.line++;
		if (parse_line(&ps, text + pos, end - pos))
			return -1;
		pos = end + 1;
	}

	if (cfg->selftest && cfg->nvms)
		return fail(
			&ps, cfg->vms[0].line,
			"selftest = yes (line %d) runs its own VMs: no [vm ...] section with it",
			cfg->selftest_line);
	if (!cfg->nvms && !cfg->selftest)
		return fail(&ps, 0, "no [vm ...] section");
	if (cfg->net.has_gateway && cfg->net.dhcp)
		return fail(&ps, cfg->net.line, "[net] has a gateway but no static address");
	for (i = 0; i < cfg->nvms; i++)
		if (!cfg->vms[i].kernel[0])
			return fail(&ps, cfg->vms[i].line, "[vm %s] has no kernel",
				    cfg->vms[i].name);
	if (cfg->selftest) /* its VMs come later, the console to the first */
		return 0;
	if (!cfg->console[0]) {
		memcpy(cfg->console, cfg->vms[0].name, sizeof(cfg->console));
		return 0;
	}
	for (i = 0; i < cfg->nvms; i++)
		if (!strcmp(cfg->console, cfg->vms[i].name))
			return 0;
	con = (struct slice){ cfg->console, strlen(cfg->console) };
	return fail(&ps, ps.console_line, "console '%s' is not a configured VM", show(buf, con));
}
