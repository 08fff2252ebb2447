/* SPDX-License-Identifier: GPL-2.0-only */
/* The Prometheus text writer (hv/metrics.c): each family's HELP and TYPE lines once, before
 * its samples; one sample per VM, vCPU and label value, with the counters' values; times
 * in seconds; label values escaped; a buffer too small: -1 and whole lines only. */
#include "../../hv/metrics.c"
#include "../../hv/stats.c"
#include "test.h"

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
	int n = metrics_prometheus(out, sizeof out, vms, 2);
	CHECK(n > 0);
	CHECK_EQ((size_t)n, strlen(out));
	CHECK(has_line("# TYPE hv_vcpu_exits_total counter"));
	CHECK(has_line("hv_vcpu_exits_total{vm=\"alpha\",vcpu=\"0\",reason=\"io\"} 34762"));
	CHECK(has_line("hv_vcpu_exits_total{vm=\"alpha\",vcpu=\"1\",reason=\"halt\"} 7"));
	CHECK(has_line("hv_vcpu_exits_total{vm=\"alpha\",vcpu=\"1\",reason=\"io\"} 0"));
	CHECK(has_line("hv_vcpu_ipi_sends_total{vm=\"alpha\",vcpu=\"1\",path=\"icr\"} 521"));
	CHECK(has_line("hv_vcpu_ipi_sends_total{vm=\"alpha\",vcpu=\"1\",path=\"pv\"} 3"));
	CHECK(has_line("hv_vcpu_steal_seconds_total{vm=\"alpha\",vcpu=\"0\"} 1.500000001"));
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
	int full = metrics_prometheus(out, sizeof out, vms, 2);
	for (size_t size = 1; size < (size_t)full; size += 97) {
		static char small[64 * 1024];
		memset(small, 'x', sizeof small);
		CHECK_EQ(metrics_prometheus(small, size, vms, 2), -1);
		size_t len = strlen(small);
		CHECK(len < size);
		CHECK(len == 0 || small[len - 1] == '\n');
		CHECK(!memcmp(small, out, len)); /* a prefix of the whole */
	}
	CHECK_EQ(metrics_prometheus(out, 0, vms, 2), -1);
}

int main(void)
{
	test_samples();
	test_too_small();
	return test_summary();
}
