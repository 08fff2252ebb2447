/* SPDX-License-Identifier: GPL-2.0-only */
/* A VM as the configuration describes it: the core's model of a [vm NAME] section, which
 * boot/config.c parses hv.cfg into (its keys and their syntax: boot/config.h). */
#ifndef HV_VM_CONFIG_H
#define HV_VM_CONFIG_H

#include "arch/limits.h"
#include "hv/pcpu_set.h"
#include "hv/types.h"

#define CFG_MAX_VMS 8
#define CFG_NAME_MAX 32
#define CFG_PATH_MAX 128
#define CFG_CMDLINE_MAX 1024
#define CFG_MAX_INITRDS 8 /* initrd = A, B, ...: a multiboot kernel's modules */

#define CFG_MAX_VCPUS ARCH_MAX_VCPUS
#define CFG_MAX_PCPUS MAX_PCPUS
#define CFG_DEFAULT_MEMORY (256 * MiB)
#define CFG_MIN_MEMORY (16 * MiB)
#define CFG_MAX_MEMORY (64 * GiB)

struct vm_config {
	char name[CFG_NAME_MAX];		    /* from [vm NAME] */
	char kernel[CFG_PATH_MAX];		    /* required */
	char initrd[CFG_MAX_INITRDS][CFG_PATH_MAX]; /* the files of initrd = A, B, ... */
	u32 ninitrds;				    /* 0 if absent */
	int initrd_line;			    /* line of its initrd key */
	char cmdline[CFG_CMDLINE_MAX];		    /* "" if absent */
	u32 vcpus;				    /* 1..64, default 1 */
	u64 memory;		  /* bytes, 16M..64G, multiple of 2M, default 256M */
	u32 pv;			  /* BIT(enum pv_feature) set, default all */
	bool apicv_off;		  /* apicv = off: the emulated local APIC only */
	struct pcpu_set pcpu_set; /* where it may run; empty (default): any */
	int pcpus_line;		  /* line of its pcpus key */
	u16 exit_port;		  /* exit_port = N: the first of its 4 ports */
	int exit_port_line;	  /* line of its exit_port key; 0: none */
	int line;		  /* line of the [vm ...] header */
};

/* The name of the file the configuration was read from, for messages that name its lines
 * (boot/efi_main.c: hv-ARCH.cfg or hv.cfg). */
extern const char *config_file;

#endif
