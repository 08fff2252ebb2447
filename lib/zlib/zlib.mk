# SPDX-License-Identifier: GPL-2.0-only
# zlib's inflate (for compressed guest kernels, hv/gunzip.c), built from a fetched source
# like libfdt (lib/libfdt/libfdt.mk): scripts/zlib.sh fetches and checksum-verifies it into
# build/src/; objects under $(BUILD)/zlib/, linked into the hypervisor of both
# architectures; the unit tests and the fuzz harnesses link archives built like them
# (ASan, UBSan; the fuzz archive with clang's coverage instrumentation).
# ZLIB_INC: Z_SOLO (freestanding: no libc, no default allocator) for every includer of
# zlib.h; ZLIB_FLAGS: the glue header first, and without the fallthrough warnings of
# zlib's switch statements.
ZLIB_SRC := $(shell scripts/zlib.sh --dir)
ZLIB_INC := -I$(ZLIB_SRC) -DZ_SOLO
ZLIB_NAMES := inflate inftrees inffast zutil adler32 crc32
ZLIB_OBJS := $(ZLIB_NAMES:%=$(BUILD)/zlib/%.o)
ZLIB_DEPS := lib/zlib/zlib_env.h hv/lib.h hv/types.h
ZLIB_FLAGS := -include lib/zlib/zlib_env.h -Wno-implicit-fallthrough
ZLIB_CFLAGS = $(CFLAGS) $(ZLIB_FLAGS)
ZLIB_UNIT := build/unit/zlib.a
ZLIB_FUZZ := build/fuzz/zlib.a

$(ZLIB_SRC)/zlib.h: scripts/zlib.sh scripts/fetch-source.sh
	@scripts/zlib.sh
	@touch $@
$(ZLIB_SRC)/%.c: $(ZLIB_SRC)/zlib.h ;

$(ZLIB_OBJS): $(BUILD)/zlib/%.o: $(ZLIB_SRC)/%.c $(ZLIB_DEPS)
	@mkdir -p $(dir $@)
	@echo "  CC $<"
	@$(CC) $(ZLIB_CFLAGS) -c $< -o $@

$(ZLIB_UNIT): $(ZLIB_NAMES:%=$(ZLIB_SRC)/%.c) $(ZLIB_DEPS)
	$(call host_archive,$@,$(filter %.c,$^),gcc $(UNIT_CFLAGS) $(ZLIB_FLAGS))
$(ZLIB_FUZZ): $(ZLIB_NAMES:%=$(ZLIB_SRC)/%.c) $(ZLIB_DEPS) | build/fuzz/clang-ok
	$(call host_archive,$@,$(filter %.c,$^),$(FUZZ_CC) $(FUZZ_LIB_CFLAGS) $(ZLIB_FLAGS))
