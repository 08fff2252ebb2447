/* SPDX-License-Identifier: GPL-2.0-only */
/* The Prometheus text writer (net/telemetry/metrics.c): each family's HELP and TYPE lines
 * once, before its samples; one sample per VM, vCPU and label value, with the counters'
 * values; times in seconds; label values escaped; a buffer too small: -1 and whole lines
 * only.
 * The JSON writer: the exact document of a small machine, a VM's counters summed over its
 * vCPUs (a gauge's largest), a hostile VM name escaped, a buffer too small: -1 and "".
 * The machine's own samples after the VMs' in both formats. The largest configuration
 * (8 VMs x 255 vCPUs, 256 pCPUs, hostile names, every counter at its widest) fits the
 * size metrics_*_max gives, to the byte, in both formats (issue 35: it used to be 256 KiB
 * for any machine; 1 VM x 128 vCPUs outgrew it). */
#include <stdlib.h>
#include "../../../net/telemetry/metrics.c"
#include "../../../hv/stats.c"
#include "../test.h"

static struct vm vm_a, vm_b;
static struct vcpu a0, a1, b0;
static struct vm *const vms[] = { &vm_a, &vm_b };
static char out[64 * 1024];

static void machine(void)
{
	strcpy(vm_a.name, "alpha");
	vm_a.nvcpus = 2, vm_a.vcpus[0] = &a0, vm_a.vcpus[1] = &a1;
	strcpy(vm_b.name, "b\"e\\t");
	vm_b.nvcpus = 1, vm_b.vcpus[0] = &b0;
	a0.stats.exits[EXIT_IO] = 34762;
	a1.stats.exits[EXIT_HALT] = 7;
	a1.stats.ipi_icr = 521, a1.stats.ipi_pv = 3;
	a0.stats.steal_ns = 1500000001; /* 1.500000001 s */
	a0.stats.steal_max_ns = 30000000;
	a1.stats.steal_max_ns = 2000000;
	a1.stats.wake_latency_max_ns = 4920000;
	b0.stats.boosts = 24;
}

static bool has_line(const char *line)
{
	size_t n = strlen(line);
	for (const char *p = out; (p = strstr(p, line)); p += n)
		if ((p == out || p[-1] == '\n') && p[n] == '\n')
			return true;
	return false;
}

static void test_samples(void)
{
	machine();
	int n = metrics_prometheus(out, sizeof out, vms, 2, NULL, 0);
	CHECK(n > 0);
	CHECK_EQ((size_t)n, strlen(out));
	CHECK(has_line("# TYPE hv_vcpu_exits_total counter"));
	CHECK(has_line("hv_vcpu_exits_total{vm=\"alpha\",vcpu=\"0\",reason=\"io\"} 34762"));
	CHECK(has_line("hv_vcpu_exits_total{vm=\"alpha\",vcpu=\"1\",reason=\"halt\"} 7"));
	CHECK(has_line("hv_vcpu_exits_total{vm=\"alpha\",vcpu=\"1\",reason=\"io\"} 0"));
	CHECK(has_line("hv_vcpu_ipi_sends_total{vm=\"alpha\",vcpu=\"1\",path=\"icr\"} 521"));
	CHECK(has_line("hv_vcpu_ipi_sends_total{vm=\"alpha\",vcpu=\"1\",path=\"pv\"} 3"));
	CHECK(has_line("hv_vcpu_steal_seconds_total{vm=\"alpha\",vcpu=\"0\"} 1.500000001"));
	CHECK(has_line("# TYPE hv_vcpu_steal_seconds_max gauge"));
	CHECK(has_line("hv_vcpu_steal_seconds_max{vm=\"alpha\",vcpu=\"0\"} 0.030000000"));
	CHECK(has_line("# TYPE hv_vcpu_wake_latency_seconds_max gauge"));
	CHECK(has_line("hv_vcpu_wake_latency_seconds_max{vm=\"alpha\",vcpu=\"1\"} 0.004920000"));
	CHECK(has_line("hv_vcpu_boosts_total{vm=\"b\\\"e\\\\t\",vcpu=\"0\"} 24"));
	/* Every line a comment or a sample of the family whose TYPE came last, each TYPE once. */
	char family[64] = "";
	u32 types = 0, samples = 0;
	for (char *line = out, *end; *line; line = end + 1) {
		end = strchr(line, '\n');
		CHECK(end != NULL);
		if (!end)
			break;
		if (!strncmp(line, "# HELP ", 7))
			continue;
		if (!strncmp(line, "# TYPE ", 7)) {
			size_t len = strcspn(line + 7, " ");
			CHECK(len < sizeof family);
			char name[64];
			memcpy(name, line + 7, len), name[len] = 0;
			CHECK(!strstr(out, line) || strstr(out, line) == line); /* once */
			strcpy(family, name);
			types++;
			continue;
		}
		CHECK(family[0] && !strncmp(line, family, strlen(family)) &&
		      line[strlen(family)] == '{');
		samples++;
	}
	CHECK_EQ(types, ARRAY_SIZE(families));
	/* 3 vCPUs: exits by 11 reasons, IPIs by 4 kinds and 3 paths, 15 single ones. */
	CHECK_EQ(samples, 3 * (EXIT_KINDS + 4 + 3 + ARRAY_SIZE(families) - 3));
}

/* A buffer too small: -1, and what is there ends with a whole line. */
static void test_too_small(void)
{
	machine();
	int full = metrics_prometheus(out, sizeof out, vms, 2, NULL, 0);
	for (size_t size = 1; size < (size_t)full; size += 97) {
		static char small[64 * 1024];
		memset(small, 'x', sizeof small);
		CHECK_EQ(metrics_prometheus(small, size, vms, 2, NULL, 0), -1);
		size_t len = strlen(small);
		CHECK(len < size);
		CHECK(len == 0 || small[len - 1] == '\n');
		CHECK(!memcmp(small, out, len)); /* a prefix of the whole */
	}
	CHECK_EQ(metrics_prometheus(out, 0, vms, 2, NULL, 0), -1);
}

/* The counters of the JSON fixture's one vCPU, and so of its VM. */
#define C0_COUNTERS                                                                               \
	"\"counters\":{\"hv_vcpu_exits_total\":{\"host-irq\":0,\"io\":5,\"mmio\":0,\"msr\":0,"    \
	"\"cpuid\":0,\"halt\":2,\"hypercall\":0,\"irq-window\":0,\"exception\":0,\"shutdown\":0," \
	"\"other\":0},\"hv_vcpu_interrupts_injected_total\":7,\"hv_vcpu_nmis_injected_total\":0," \
	"\"hv_vcpu_ipis_total\":{\"fixed\":1,\"nmi\":0,\"init\":0,\"sipi\":0},"                   \
	"\"hv_vcpu_ipi_sends_total\":{\"icr\":0,\"pv\":3,\"self\":0},\"hv_vcpu_yields_total\":0," \
	"\"hv_vcpu_yields_received_total\":0,\"hv_vcpu_lazy_eois_total\":0,"                      \
	"\"hv_vcpu_interrupts_cpu_delivered_total\":0,\"hv_vcpu_virtual_eois_total\":0,"          \
	"\"hv_vcpu_steal_seconds_total\":1.500000001,\"hv_vcpu_steal_seconds_max\":0.000250000,"  \
	"\"hv_vcpu_run_seconds_total\":0.000000000,\"hv_vcpu_kicks_sent_total\":0,"               \
	"\"hv_vcpu_notifications_sent_total\":0,\"hv_vcpu_ipis_not_running_total\":0,"            \
	"\"hv_vcpu_wakeups_total\":0,\"hv_vcpu_wake_latency_seconds_max\":0.004920000,"           \
	"\"hv_vcpu_spin_exits_total\":0,\"hv_vcpu_migrations_total\":0,"                          \
	"\"hv_vcpu_critical_preemptions_total\":0,\"hv_vcpu_boosts_total\":24,"                   \
	"\"hv_vcpu_bad_accesses_total\":0}"

static struct vm vm_c;
static struct vcpu c0;
static struct vm *const vm_c_only[] = { &vm_c };

static void test_json(void)
{
	strcpy(vm_c.name, "v0");
	vm_c.nvcpus = 1, vm_c.vcpus[0] = &c0;
	c0.stats.exits[EXIT_IO] = 5, c0.stats.exits[EXIT_HALT] = 2;
	c0.stats.irqs_injected = 7;
	c0.stats.ipi_fixed = 1, c0.stats.ipi_pv = 3;
	c0.stats.steal_ns = 1500000001;
	c0.stats.steal_max_ns = 250000;
	c0.stats.wake_latency_max_ns = 4920000;
	c0.stats.boosts = 24;
	static const char want[] = "{\"vms\":[{\"name\":\"v0\"," C0_COUNTERS
				   ",\"vcpus\":[{\"id\":0," C0_COUNTERS "}]}]}\n";
	CHECK_EQ(metrics_json(out, sizeof out, vm_c_only, 1, NULL, 0), strlen(want));
	CHECK_STR(out, want);
	CHECK_EQ(metrics_json(out, sizeof out, vms, 0, NULL, 0), strlen("{\"vms\":[]}\n"));
	CHECK_STR(out, "{\"vms\":[]}\n");

	/* Two VMs: a VM's counters add up its vCPUs', its gauge is the largest of theirs. */
	machine();
	a0.stats.wake_latency_max_ns = 1000000;
	a0.stats.exits[EXIT_HALT] = 3;
	int n = metrics_json(out, sizeof out, vms, 2, NULL, 0);
	CHECK(n > 0);
	CHECK_EQ((size_t)n, strlen(out));
	static const char alpha[] =
		"{\"vms\":[{\"name\":\"alpha\",\"counters\":{"
		"\"hv_vcpu_exits_total\":{\"host-irq\":0,\"io\":34762,\"mmio\":0,"
		"\"msr\":0,\"cpuid\":0,\"halt\":10,";
	CHECK(!strncmp(out, alpha, strlen(alpha)));
	const char *vcpus = strstr(out, "\"vcpus\":[{\"id\":0,");
	const char *alpha_max = strstr(out, "\"hv_vcpu_wake_latency_seconds_max\":0.004920000,");
	const char *a0_max = strstr(out, "\"hv_vcpu_wake_latency_seconds_max\":0.001000000,");
	CHECK(vcpus && alpha_max && a0_max && alpha_max < vcpus && vcpus < a0_max);
	const char *alpha_steal = strstr(out, "\"hv_vcpu_steal_seconds_max\":0.030000000,");
	const char *a1_steal = strstr(out, "\"hv_vcpu_steal_seconds_max\":0.002000000,");
	CHECK(alpha_steal && a1_steal && alpha_steal < vcpus && vcpus < a1_steal);
	CHECK(strstr(out, "\"hv_vcpu_ipi_sends_total\":{\"icr\":521,\"pv\":3,\"self\":0}"));
	CHECK(strstr(out, "]},{\"name\":\"b\\\"e\\\\t\",\"counters\":{"));
	CHECK(strstr(out, "{\"id\":1,\"counters\":{"));
	CHECK(!strstr(out, "{\"id\":2,"));
	CHECK(n > 7 && !strcmp(out + n - 7, "}}]}]}\n"));

	/* A hostile name: quotes, backslashes, control characters, bytes outside ASCII. */
	strcpy(vm_c.name, "x\"\\\n\x01\x1f\x7f\xc3\xa9</");
	n = metrics_json(out, sizeof out, vm_c_only, 1, NULL, 0);
	static const char name[] =
		"{\"vms\":[{\"name\":\"x\\\"\\\\\\u000a\\u0001\\u001f\\u007f\\u00c3\\u00a9</\",";
	CHECK(n > 0 && !strncmp(out, name, strlen(name)));
	for (int i = 0; i + 1 < n; i++)
		CHECK(out[i] >= ' ' && out[i] < 0x7f);

	/* A buffer too small: -1 and "", whatever its size; one byte more than the document
	 * takes it. */
	int full = metrics_json(out, sizeof out, vms, 2, NULL, 0);
	CHECK(full > 0);
	static char small[64 * 1024];
	u32 wrong = 0;
	for (size_t size = 1; size <= (size_t)full; size++) {
		memset(small, 'x', sizeof small);
		wrong += metrics_json(small, size, vms, 2, NULL, 0) != -1 || small[0] != 0;
	}
	CHECK_EQ(wrong, 0);
	CHECK_EQ(metrics_json(small, (size_t)full + 1, vms, 2, NULL, 0), full);
	CHECK_STR(small, out);
	CHECK_EQ(metrics_json(out, 0, vms, 2, NULL, 0), -1);
}

static const struct metric_sample few[] = {
	{ "hv_pcpu_switches_total", "Switches.", "pcpu", "0", 12 },
	{ "hv_pcpu_switches_total", "Switches.", "pcpu", "1", 7 },
	{ "hv_net_poll_seconds_total", "Time.", NULL, NULL, 2500000000ull },
	{ "hv_net_rx_denied_total", "Denied.", NULL, NULL, 3 },
};

static void test_machine(void)
{
	machine();
	int n = metrics_prometheus(out, sizeof out, vms, 2, few, ARRAY_SIZE(few));
	CHECK(n > 0);
	static const char tail[] = "# HELP hv_pcpu_switches_total Switches.\n"
				   "# TYPE hv_pcpu_switches_total counter\n"
				   "hv_pcpu_switches_total{pcpu=\"0\"} 12\n"
				   "hv_pcpu_switches_total{pcpu=\"1\"} 7\n"
				   "# HELP hv_net_poll_seconds_total Time.\n"
				   "# TYPE hv_net_poll_seconds_total counter\n"
				   "hv_net_poll_seconds_total 2.500000000\n"
				   "# HELP hv_net_rx_denied_total Denied.\n"
				   "# TYPE hv_net_rx_denied_total counter\n"
				   "hv_net_rx_denied_total 3\n";
	CHECK(n > (int)strlen(tail) && !strcmp(out + n - strlen(tail), tail));
	/* Too small by a byte: -1, whole lines. */
	static char small[64 * 1024];
	CHECK_EQ(metrics_prometheus(small, (size_t)n, vms, 2, few, ARRAY_SIZE(few)), -1);
	size_t len = strlen(small);
	CHECK(len > 0 && small[len - 1] == '\n' && !memcmp(small, out, len));
	static const char doc[] = "{\"vms\":[],\"machine\":{\"hv_pcpu_switches_total\":"
				  "{\"0\":12,\"1\":7},\"hv_net_poll_seconds_total\":2.500000000,"
				  "\"hv_net_rx_denied_total\":3}}\n";
	CHECK_EQ(metrics_json(out, sizeof out, vms, 0, few, ARRAY_SIZE(few)), strlen(doc));
	CHECK_STR(out, doc);
	/* The bound of a small machine: its output with the values it has is shorter. */
	CHECK(metrics_prometheus_max(vms, 2, few, ARRAY_SIZE(few)) > (size_t)n);
}

/* The largest configuration: MAX_VMS VMs of MAX_VCPUS vCPUs, names of 31 bytes that each
 * escape to the longest (a quote: 2 bytes in Prometheus; a control byte: 6 in JSON),
 * MAX_PCPUS pCPUs' samples and a dozen more with long help texts. */
static struct vm big[MAX_VMS];
static struct vm *big_vms[MAX_VMS];
static struct metric_sample big_samples[2 * MAX_PCPUS + 14];
static char ids[MAX_PCPUS][4];

static u32 largest(void)
{
	static struct vcpu vcpus[MAX_VMS][MAX_VCPUS];
	for (u32 i = 0; i < MAX_VMS; i++) {
		memset(big[i].name, i & 1 ? '"' : '\x01', sizeof big[i].name - 1);
		big[i].nvcpus = MAX_VCPUS;
		for (u32 c = 0; c < MAX_VCPUS; c++)
			big[i].vcpus[c] = &vcpus[i][c];
		big_vms[i] = &big[i];
	}
	u32 k = 0;
	for (u32 f = 0; f < 2; f++)
		for (u32 i = 0; i < MAX_PCPUS; i++) {
			snprintf(ids[i], sizeof ids[i], "%u", i);
			big_samples[k++] = (struct metric_sample){
				f ? "hv_pcpu_idle_waits_total" : "hv_pcpu_switches_total",
				"A help text of some length, as the machine's have.", "pcpu",
				ids[i], 0
			};
		}
	while (k < ARRAY_SIZE(big_samples))
		big_samples[k++] = (struct metric_sample){ k & 1 ? "hv_net_poll_seconds_total"
								 : "hv_http_requests_total",
							   "Another help text.", NULL, NULL, 0 };
	return k;
}

/* Every counter of every vCPU and sample set to v (~0: the widest). */
static void fill(u64 v)
{
	for (u32 i = 0; i < MAX_VMS; i++)
		for (u32 c = 0; c < MAX_VCPUS; c++) {
			u64 *x = (u64 *)&big[i].vcpus[c]->stats;
			for (size_t j = 0; j < sizeof(struct vcpu_stats) / sizeof(u64); j++)
				x[j] = v == ~0ull ? v : v * (j + 1) + c;
		}
	for (u32 k = 0; k < ARRAY_SIZE(big_samples); k++)
		big_samples[k].n = v == ~0ull ? v : v + k;
}

static void test_largest(void)
{
	u32 ns = largest();
	size_t pmax = metrics_prometheus_max(big_vms, MAX_VMS, big_samples, ns);
	size_t jmax = metrics_json_max(big_vms, MAX_VMS, big_samples, ns);
	printf("largest configuration: /metrics up to %zu bytes, /stats up to %zu\n", pmax, jmax);
	char *buf = malloc(MAX(pmax, jmax) + 1);
	/* A JSON VM sums its vCPUs' counters: ~0 each would wrap, so the widest are tried
	 * alone (the bound takes every value at ~0, whatever the sum), then values that make
	 * real sums. */
	for (u32 round = 0; round < 2; round++) {
		fill(round ? 123456789 : ~0ull);
		int p = metrics_prometheus(buf, pmax, big_vms, MAX_VMS, big_samples, ns);
		CHECK(p > 0 && (size_t)p < pmax);
		CHECK(p > 0 && buf[p - 1] == '\n');
		int j = metrics_json(buf, jmax, big_vms, MAX_VMS, big_samples, ns);
		CHECK(j > 0 && (size_t)j < jmax);
		CHECK(j > 0 && !strcmp(buf + j - 3, "}}\n"));
		if (!round) { /* at the widest, the bound is exact */
			CHECK_EQ((size_t)p, pmax - 1);
			CHECK_EQ((size_t)j, jmax - 1);
			CHECK_EQ(metrics_prometheus(buf, pmax - 1, big_vms, MAX_VMS, big_samples,
						    ns),
				 -1);
			CHECK_EQ(metrics_json(buf, jmax - 1, big_vms, MAX_VMS, big_samples, ns),
				 -1);
		}
	}
	/* What issue 35 found: 1 VM x 128 vCPUs outgrew the old 256 KiB. */
	big[0].name[6] = 0;
	fill(1000);
	big[0].nvcpus = 128;
	int p = metrics_prometheus(buf, pmax, big_vms, 1, big_samples, ns);
	CHECK(p > 256 * 1024);
	CHECK((size_t)p < metrics_prometheus_max(big_vms, 1, big_samples, ns));
	big[0].nvcpus = MAX_VCPUS;
	free(buf);
}

int main(void)
{
	test_machine();
	test_largest();
	test_samples();
	test_too_small();
	test_json();
	return test_summary();
}
