# SPDX-License-Identifier: GPL-2.0-only
# libfdt, built from a fetched source with flags of its own (the model for other fetched
# trees such as lwIP). scripts/libfdt.sh fetches and checksum-verifies it into build/src/
# (it is never kept in this repository); lib/libfdt/libfdt_env.h maps what it needs onto
# hv/lib.h. Objects under $(BUILD)/libfdt/, linked into the arm64 hypervisor (x86 has no
# device tree); the unit tests and the fuzz harnesses link it from archives built like
# them (ASan, UBSan; the fuzz archive with clang's coverage instrumentation).
# LIBFDT_CFLAGS: the hypervisor's, warnings included (it builds clean), and -fwrapv: its
# int offset sums wrap, not undefined, on a hostile blob.
LIBFDT_SRC := $(shell scripts/libfdt.sh --dir)
LIBFDT_INC := -I$(LIBFDT_SRC) -Ilib/libfdt
LIBFDT_NAMES := fdt fdt_ro fdt_sw fdt_rw fdt_wip fdt_addresses
LIBFDT_OBJS := $(LIBFDT_NAMES:%=$(BUILD)/libfdt/%.o)
LIBFDT_DEPS := lib/libfdt/libfdt_env.h hv/lib.h hv/types.h
LIBFDT_CFLAGS = $(CFLAGS) -fwrapv
LIBFDT_UNIT := build/unit/libfdt.a
LIBFDT_FUZZ := build/fuzz/libfdt.a

# One target fetches (no parallel fetches with -j), again when the pin or the file list in
# scripts/libfdt.sh changes; the other files come with it.
$(LIBFDT_SRC)/libfdt.h: scripts/libfdt.sh scripts/fetch-source.sh
	@scripts/libfdt.sh
	@touch $@
$(LIBFDT_SRC)/%.c: $(LIBFDT_SRC)/libfdt.h ;

$(LIBFDT_OBJS): $(BUILD)/libfdt/%.o: $(LIBFDT_SRC)/%.c $(LIBFDT_DEPS)
	@mkdir -p $(dir $@)
	@echo "  CC $<"
	@$(CC) $(LIBFDT_CFLAGS) -c $< -o $@

$(LIBFDT_UNIT): $(LIBFDT_NAMES:%=$(LIBFDT_SRC)/%.c) $(LIBFDT_DEPS)
	$(call host_archive,$@,$(filter %.c,$^),gcc $(UNIT_CFLAGS))
# -fwrapv as in the hypervisor's build (LIBFDT_CFLAGS).
$(LIBFDT_FUZZ): $(LIBFDT_NAMES:%=$(LIBFDT_SRC)/%.c) $(LIBFDT_DEPS) | build/fuzz/clang-ok
	$(call host_archive,$@,$(filter %.c,$^),$(FUZZ_CC) $(FUZZ_LIB_CFLAGS) -fwrapv)
