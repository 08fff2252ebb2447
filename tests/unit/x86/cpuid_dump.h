/* SPDX-License-Identifier: GPL-2.0-only */
/* A recorded CPU's CPUID for the unit tests: load_dump reads one of the dumps of real CPUs
 * in tests/unit/x86/data/cpuid/ (see its README), dump_cpuid answers like the CPUID
 * instruction (a cpuid_fn). */
#ifndef HV_TEST_CPUID_DUMP_H
#define HV_TEST_CPUID_DUMP_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One recorded CPU: its leaves, as "CPUID LLLLLLLL: EAX-EBX-ECX-EDX [SL nn]" lines. */
struct leaf {
	u32 leaf, sub, r[4];
	bool has_sub;
};
static struct leaf leaves[256];
static int nleaves;

static void load_dump(const char *name)
{
	char path[512], line[256];
	const char *dir = strrchr(__FILE__, '/');
	snprintf(path, sizeof path, "%.*s/data/cpuid/%s.txt", (int)(dir - __FILE__), __FILE__,
		 name);
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "cannot open %s\n", path);
		exit(1);
	}
	nleaves = 0;
	while (fgets(line, sizeof line, f) && nleaves < (int)ARRAY_SIZE(leaves)) {
		struct leaf *l = &leaves[nleaves];
		if (sscanf(line, "CPUID %x: %x-%x-%x-%x", &l->leaf, &l->r[0], &l->r[1], &l->r[2],
			   &l->r[3]) != 5)
			continue;
		const char *sl = strstr(line, "[SL ");
		l->has_sub = sl != NULL;
		l->sub = sl ? (u32)strtoul(sl + 4, NULL, 16) : 0;
		nleaves++;
	}
	fclose(f);
}

/* The recorded CPU's CPUID: a leaf listed without sub-leaves answers every sub-leaf,
 * an unlisted one (or sub-leaf) reads as zero, as the dumps leave out empty ones. */
static void dump_cpuid(u32 leaf, u32 sub, u32 r[4])
{
	r[0] = r[1] = r[2] = r[3] = 0;
	for (int i = 0; i < nleaves; i++)
		if (leaves[i].leaf == leaf && (!leaves[i].has_sub || leaves[i].sub == sub)) {
			memcpy(r, leaves[i].r, sizeof leaves[i].r);
			return;
		}
}

#endif
