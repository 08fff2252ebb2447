/* SPDX-License-Identifier: GPL-2.0-only */
/* The counters of every VM and vCPU as text (metrics.h). The counters are described once,
 * in families[] (name, help, type, unit, the label and its values, where the values sit in
 * struct vcpu_stats); two small writers walk it:
 * - Prometheus text: for each metric family its # HELP and # TYPE lines, then one sample
 *   per VM and vCPU (and reason, kind or path), labels escaped as the format says
 *   (backslash, double quote, newline);
 * - JSON: per VM its counters (a counter's sum over the vCPUs, a gauge's largest) and per
 *   vCPU its own, each family by its name, its values by label in an object of their own.
 * Times are in seconds, as the format's conventions want, written from nanoseconds without
 * floating point. */
#include "net/telemetry/metrics.h"
#include "hv/lib.h"

/* widest: nothing is written, only counted (buf NULL), with every value at its widest
 * (~0: 20 digits, or 21 characters as seconds), which gives the longest output the VMs
 * and samples can make: the size a buffer needs (metrics_*_max). */
struct out {
	char *buf;
	size_t size, len;
	bool full, widest;
};

/* Appends the formatted text, or marks the output full and leaves it as it was. */
static void put(struct out *o, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void put(struct out *o, const char *fmt, ...)
{
	if (o->full)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(o->widest ? NULL : o->buf + o->len, o->widest ? 0 : o->size - o->len, fmt,
			  ap);
	va_end(ap);
	if (o->widest) {
		o->len += (size_t)MAX(n, 0);
		return;
	}
	if (n < 0 || (size_t)n >= o->size - o->len) {
		o->full = true;
		o->buf[o->len] = 0;
		return;
	}
	o->len += (size_t)n;
}

/* A label value: \ " and newline escaped. */
static void put_label(struct out *o, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			put(o, "\\%c", *s);
		else if (*s == '\n')
			put(o, "\\n");
		else
			put(o, "%c", *s);
	}
}

enum unit { COUNT, SECONDS };

/* One per-vCPU metric family: a field of struct vcpu_stats, or several (by label). */
struct family {
	const char *name, *help, *type;
	enum unit unit;
	const char *label;		/* the extra label, NULL for none */
	const char *(*label_of)(u32 j); /* its value for the j-th field */
	u32 nfields;
	size_t field; /* offset of the first u64 of struct vcpu_stats */
};

#define FIELD(f) offsetof(struct vcpu_stats, f)

static const char *exit_reason(u32 j) { return exit_kind_name(j); }
static const char *ipi_kind(u32 j)
{
	return (const char *const[]){ "fixed", "nmi", "init", "sipi" }[j];
}
static const char *ipi_path(u32 j) { return (const char *const[]){ "icr", "pv", "self" }[j]; }

static const struct family families[] = {
	{ "hv_vcpu_exits_total", "Exits from the guest, by reason.", "counter", COUNT, "reason",
	  exit_reason, EXIT_KINDS, FIELD(exits) },
	{ "hv_vcpu_interrupts_injected_total", "Interrupts delivered into the guest.", "counter",
	  COUNT, NULL, NULL, 1, FIELD(irqs_injected) },
	{ "hv_vcpu_nmis_injected_total", "NMIs delivered into the guest.", "counter", COUNT, NULL,
	  NULL, 1, FIELD(nmis_injected) },
	{ "hv_vcpu_ipis_total", "IPI targets this vCPU reached, by delivery mode.", "counter",
	  COUNT, "kind", ipi_kind, 4, FIELD(ipi_fixed) },
	{ "hv_vcpu_ipi_sends_total", "IPIs this vCPU sent, by path.", "counter", COUNT, "path",
	  ipi_path, 3, FIELD(ipi_icr) },
	{ "hv_vcpu_yields_total", "Directed yields this vCPU made that took effect.", "counter",
	  COUNT, NULL, NULL, 1, FIELD(yields) },
	{ "hv_vcpu_yields_received_total", "Directed yields that gave this vCPU a pCPU.", "counter",
	  COUNT, NULL, NULL, 1, FIELD(yields_received) },
	{ "hv_vcpu_lazy_eois_total", "EOIs the guest did without an exit (PV EOI).", "counter",
	  COUNT, NULL, NULL, 1, FIELD(lazy_eois) },
	{ "hv_vcpu_interrupts_cpu_delivered_total",
	  "Interrupts the CPU delivered without an exit (APIC virtualization).", "counter", COUNT,
	  NULL, NULL, 1, FIELD(irqs_cpu_delivered) },
	{ "hv_vcpu_virtual_eois_total", "EOIs the CPU completed without an exit.", "counter", COUNT,
	  NULL, NULL, 1, FIELD(virtual_eois) },
	{ "hv_vcpu_steal_seconds_total", "Time runnable but not running.", "counter", SECONDS, NULL,
	  NULL, 1, FIELD(steal_ns) },
	{ "hv_vcpu_steal_seconds_max", "Longest wait from runnable to running.", "gauge", SECONDS,
	  NULL, NULL, 1, FIELD(steal_max_ns) },
	{ "hv_vcpu_run_seconds_total", "Time running.", "counter", SECONDS, NULL, NULL, 1,
	  FIELD(run_ns) },
	{ "hv_vcpu_kicks_sent_total", "Host IPIs this vCPU's actions sent to other pCPUs.",
	  "counter", COUNT, NULL, NULL, 1, FIELD(kicks_sent) },
	{ "hv_vcpu_notifications_sent_total",
	  "Interrupts this vCPU's actions posted to running vCPUs with a notification "
	  "instead of a kick (posted interrupts: no exit on the target).",
	  "counter", COUNT, NULL, NULL, 1, FIELD(notifications_sent) },
	{ "hv_vcpu_ipis_not_running_total",
	  "IPIs the CPU delivered (AVIC) with a target outside guest mode, which the "
	  "hypervisor then woke or kicked.",
	  "counter", COUNT, NULL, NULL, 1, FIELD(ipi_not_running) },
	{ "hv_vcpu_wakeups_total", "Wakeups from halt.", "counter", COUNT, NULL, NULL, 1,
	  FIELD(wakeups) },
	{ "hv_vcpu_wake_latency_seconds_max", "Longest time from a wakeup to the guest entry.",
	  "gauge", SECONDS, NULL, NULL, 1, FIELD(wake_latency_max_ns) },
	{ "hv_vcpu_spin_exits_total", "Spin-waits seen (PAUSE, WFE).", "counter", COUNT, NULL, NULL,
	  1, FIELD(spin_exits) },
	{ "hv_vcpu_migrations_total", "Moves to another pCPU.", "counter", COUNT, NULL, NULL, 1,
	  FIELD(migrations) },
	{ "hv_vcpu_critical_preemptions_total",
	  "Times it lost its pCPU inside a guest critical section.", "counter", COUNT, NULL, NULL,
	  1, FIELD(critical_preemptions) },
	{ "hv_vcpu_boosts_total", "Turns extended or given ahead for a critical section.",
	  "counter", COUNT, NULL, NULL, 1, FIELD(boosts) },
	{ "hv_vcpu_bad_accesses_total", "Guest errors answered with a fault or all-ones.",
	  "counter", COUNT, NULL, NULL, 1, FIELD(bad_accesses) },
};

/* The j-th value of family m for vCPU v. */
static u64 vcpu_value(const struct out *o, const struct family *m, const struct vcpu *v, u32 j)
{
	if (o->widest)
		return ~0ull;
	/* One load: other pCPUs update the counters while a scrape reads them. */
	const u64 *x = (const u64 *)((const u8 *)&v->stats + m->field + j * sizeof(u64));
	return __atomic_load_n(x, __ATOMIC_RELAXED);
}

/* The j-th value of family m for a whole VM: a counter's sum, a gauge's largest. */
static u64 vm_value(const struct out *o, const struct family *m, const struct vm *vm, u32 j)
{
	bool gauge = !strcmp(m->type, "gauge");
	u64 v = 0;
	if (o->widest)
		return ~0ull;
	for (u32 c = 0; c < vm->nvcpus; c++) {
		u64 x = vcpu_value(o, m, vm->vcpus[c], j);
		v = gauge ? MAX(v, x) : v + x;
	}
	return v;
}

/* A value as both formats write numbers: seconds with nine decimals. */
static void put_number(struct out *o, enum unit unit, u64 v)
{
	if (unit == SECONDS)
		put(o, "%llu.%09llu", (unsigned long long)(v / 1000000000),
		    (unsigned long long)(v % 1000000000));
	else
		put(o, "%llu", (unsigned long long)v);
}

/* A machine sample's number: a _seconds_total family's in seconds. */
static void put_sample_number(struct out *o, const struct metric_sample *x)
{
	size_t l = strlen(x->family), suffix = strlen("_seconds_total");
	bool seconds = l > suffix && !strcmp(x->family + l - suffix, "_seconds_total");
	put_number(o, seconds ? SECONDS : COUNT, o->widest ? ~0ull : x->n);
}

/* The whole Prometheus document into o; false when it did not fit (o->buf then holds
 * whole lines only). */
static bool prometheus(struct out *o, struct vm *const *vms, u32 nvms,
		       const struct metric_sample *s, u32 ns)
{
	for (size_t f = 0; f < ARRAY_SIZE(families); f++) {
		const struct family *m = &families[f];
		put(o, "# HELP %s %s\n# TYPE %s %s\n", m->name, m->help, m->name, m->type);
		for (u32 i = 0; i < nvms; i++) {
			for (u32 c = 0; c < vms[i]->nvcpus; c++) {
				for (u32 j = 0; j < m->nfields; j++) {
					size_t line = o->len;
					put(o, "%s{vm=\"", m->name);
					put_label(o, vms[i]->name);
					put(o, "\",vcpu=\"%u\"", c);
					if (m->label)
						put(o, ",%s=\"%s\"", m->label, m->label_of(j));
					put(o, "} ");
					put_number(o, m->unit,
						   vcpu_value(o, m, vms[i]->vcpus[c], j));
					put(o, "\n");
					if (o->full) { /* whole lines only */
						o->len = line;
						if (o->size)
							o->buf[line] = 0;
						return false;
					}
				}
			}
		}
	}
	for (u32 i = 0; i < ns; i++) {
		size_t line = o->len;
		if (!i || strcmp(s[i].family, s[i - 1].family))
			put(o, "# HELP %s %s\n# TYPE %s counter\n", s[i].family, s[i].help,
			    s[i].family);
		put(o, "%s", s[i].family);
		if (s[i].label)
			put(o, "{%s=\"%s\"}", s[i].label, s[i].value);
		put(o, " ");
		put_sample_number(o, &s[i]);
		put(o, "\n");
		if (o->full) {
			o->len = line;
			if (o->size)
				o->buf[line] = 0;
			return false;
		}
	}
	return !o->full;
}

int metrics_prometheus(char *buf, size_t size, struct vm *const *vms, u32 nvms,
		       const struct metric_sample *s, u32 ns)
{
	struct out o = { buf, size, 0, size == 0, false };
	if (size)
		buf[0] = 0;
	return prometheus(&o, vms, nvms, s, ns) ? (int)o.len : -1;
}

size_t metrics_prometheus_max(struct vm *const *vms, u32 nvms, const struct metric_sample *s,
			      u32 ns)
{
	struct out o = { .widest = true };
	prometheus(&o, vms, nvms, s, ns);
	return o.len + 1; /* and the NUL */
}

/* A JSON string (RFC 8259 7): quote and backslash escaped, control characters and bytes
 * outside ASCII as \u00XX (the latter read as Latin-1), so that the output is ASCII and
 * valid JSON whatever the bytes. */
static void put_json_string(struct out *o, const char *s)
{
	put(o, "\"");
	for (; *s; s++) {
		u8 c = (u8)*s;
		if (c == '"' || c == '\\')
			put(o, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			put(o, "\\u%04x", c);
		else
			put(o, "%c", c);
	}
	put(o, "\"");
}

/* "counters":{...} of vCPU v, or of the whole VM when v is NULL. */
static void put_json_counters(struct out *o, const struct vm *vm, const struct vcpu *v)
{
	put(o, "\"counters\":{");
	for (size_t f = 0; f < ARRAY_SIZE(families); f++) {
		const struct family *m = &families[f];
		put(o, "%s\"%s\":%s", f ? "," : "", m->name, m->label ? "{" : "");
		for (u32 j = 0; j < m->nfields; j++) {
			if (m->label) {
				if (j)
					put(o, ",");
				put_json_string(o, m->label_of(j));
				put(o, ":");
			}
			put_number(o, m->unit, v ? vcpu_value(o, m, v, j) : vm_value(o, m, vm, j));
		}
		if (m->label)
			put(o, "}");
	}
	put(o, "}");
}

/* ,"machine":{"hv_pcpu_switches_total":{"0":12,...},...,"hv_net_rx_dropped_total":0,...}:
 * the machine's samples, each family an object by label value, or a number. */
static void put_json_machine(struct out *o, const struct metric_sample *s, u32 ns)
{
	put(o, ",\"machine\":{");
	for (u32 i = 0; i < ns; i++) {
		bool first = !i || strcmp(s[i].family, s[i - 1].family);
		bool last = i + 1 == ns || strcmp(s[i].family, s[i + 1].family);
		if (first)
			put(o, "%s\"%s\":%s", i ? "," : "", s[i].family, s[i].label ? "{" : "");
		if (s[i].label)
			put(o, "%s\"%s\":", first ? "" : ",", s[i].value);
		put_sample_number(o, &s[i]);
		if (s[i].label && last)
			put(o, "}");
	}
	put(o, "}");
}

/* The whole JSON document into o; false when it did not fit. */
static bool json(struct out *o, struct vm *const *vms, u32 nvms, const struct metric_sample *s,
		 u32 ns)
{
	put(o, "{\"vms\":[");
	for (u32 i = 0; i < nvms; i++) {
		put(o, "%s{\"name\":", i ? "," : "");
		put_json_string(o, vms[i]->name);
		put(o, ",");
		put_json_counters(o, vms[i], NULL);
		put(o, ",\"vcpus\":[");
		for (u32 c = 0; c < vms[i]->nvcpus; c++) {
			put(o, "%s{\"id\":%u,", c ? "," : "", c);
			put_json_counters(o, vms[i], vms[i]->vcpus[c]);
			put(o, "}");
		}
		put(o, "]}");
	}
	put(o, "]");
	if (ns)
		put_json_machine(o, s, ns);
	put(o, "}\n");
	return !o->full;
}

int metrics_json(char *buf, size_t size, struct vm *const *vms, u32 nvms,
		 const struct metric_sample *s, u32 ns)
{
	struct out o = { buf, size, 0, size == 0, false };
	if (json(&o, vms, nvms, s, ns))
		return (int)o.len;
	if (size)
		buf[0] = 0; /* no half a document */
	return -1;
}

size_t metrics_json_max(struct vm *const *vms, u32 nvms, const struct metric_sample *s, u32 ns)
{
	struct out o = { .widest = true };
	json(&o, vms, nvms, s, ns);
	return o.len + 1;
}
