/* SPDX-License-Identifier: GPL-2.0-only */
/* What a file handed over as a guest kernel is, by its magic numbers, so that a loader
 * that refuses it can name what it found ("an arm64 Image", "an initramfs") rather than
 * only what it missed. Pure; the buffer is untrusted. */
#ifndef HV_FILE_KIND_H
#define HV_FILE_KIND_H

#include "hv/types.h"

/* What file_kind returns for an arm64 Image, for a loader to tell it from the rest. */
extern const char file_kind_arm64_image[];

/* A phrase for the file ("an x86 bzImage", "an arm64 ELF file ..."), to follow its name
 * in a loader's refusal; never NULL. */
const char *file_kind(const void *buf, size_t len);

#endif
