/* SPDX-License-Identifier: GPL-2.0-only */
/* The hv.cfg parser (boot/config.c, with hv/pv_features.c) on an untrusted file: the
 * input is the file, parsed from a heap copy of exactly its length (it needs no NUL).
 * Checked: an accepted file has 1..8 VMs with distinct valid names, a kernel each,
 * terminated strings, vCPUs, memory, pCPUs and baud in their ranges and a console that
 * names a VM; a refusal has a terminated message and a line within the file; parsing
 * without an error buffer gives the same answer. */
#include "../../boot/config.c"
#include "../../hv/pv_features.c"
#include "fuzz.h"

static bool terminated(const char *s, size_t size) { return memchr(s, 0, size) != NULL; }

static void check_config(const struct hv_config *cfg)
{
	bool console_found = false;

	FUZZ_CHECK(cfg->nvms >= 1 && cfg->nvms <= CFG_MAX_VMS);
	FUZZ_CHECK(cfg->pcpus <= CFG_MAX_PCPUS);
	FUZZ_CHECK(cfg->sched == SCHED_AWARE || cfg->sched == SCHED_RR);
	FUZZ_CHECK(cfg->serial.baud == 0 || 115200 % cfg->serial.baud == 0);
	FUZZ_CHECK(terminated(cfg->console, sizeof(cfg->console)));
	for (u32 i = 0; i < cfg->nvms; i++) {
		const struct vm_config *vm = &cfg->vms[i];
		FUZZ_CHECK(terminated(vm->name, sizeof(vm->name)));
		FUZZ_CHECK(valid_name((struct slice){ vm->name, strlen(vm->name) }));
		for (u32 j = 0; j < i; j++)
			FUZZ_CHECK(strcmp(vm->name, cfg->vms[j].name));
		FUZZ_CHECK(terminated(vm->kernel, sizeof(vm->kernel)) && vm->kernel[0]);
		FUZZ_CHECK(vm->ninitrds <= CFG_MAX_INITRDS);
		for (u32 j = 0; j < vm->ninitrds; j++)
			FUZZ_CHECK(terminated(vm->initrd[j], sizeof(vm->initrd[j])) &&
				   vm->initrd[j][0]);
		FUZZ_CHECK(!vm->exit_port_line || (vm->exit_port && vm->exit_port <= 0xFFFC));
		FUZZ_CHECK(terminated(vm->cmdline, sizeof(vm->cmdline)));
		FUZZ_CHECK(vm->vcpus >= 1 && vm->vcpus <= CFG_MAX_VCPUS);
		FUZZ_CHECK(vm->memory >= CFG_MIN_MEMORY && vm->memory <= CFG_MAX_MEMORY);
		FUZZ_CHECK(vm->memory % PAGE_SIZE == 0);
		console_found |= !strcmp(cfg->console, vm->name);
	}
	FUZZ_CHECK(console_found);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = (char *)fuzz_copy(data, size);
	static struct hv_config cfg, cfg2;
	struct cfg_error err;
	int lines = 1;

	for (size_t i = 0; i < size; i++)
		lines += text[i] == '\n';
	int rc = config_parse(text, size, &cfg, &err);
	if (rc == 0) {
		check_config(&cfg);
		FUZZ_CHECK(err.line == 0 && err.msg[0] == 0);
	} else {
		FUZZ_CHECK(rc == -1);
		FUZZ_CHECK(terminated(err.msg, sizeof(err.msg)) && err.msg[0]);
		FUZZ_CHECK(err.line >= 0 && err.line <= lines);
	}
	FUZZ_CHECK(config_parse(text, size, &cfg2, NULL) == rc);
	if (rc == 0)
		FUZZ_CHECK(!memcmp(&cfg, &cfg2, sizeof(cfg)));
	free(text);
	return 0;
}
