# SPDX-License-Identifier: GPL-2.0-only
# zlib's inflate (for compressed guest kernels, hv/gunzip.c), built from a fetched source
# like libfdt (lib/libfdt/libfdt.mk): scripts/zlib.sh fetches and checksum-verifies it into
# build/src/; objects under $(BUILD)/zlib/, linked into the hypervisor of both
# architectures; the unit tests link an archive built like them (ASan, UBSan).
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

$(ZLIB_SRC)/zlib.h: scripts/zlib.sh scripts/fetch-source.sh
	@scripts/zlib.sh
	@touch $@
$(ZLIB_SRC)/%.c: $(ZLIB_SRC)/zlib.h ;

$(ZLIB_OBJS): $(BUILD)/zlib/%.o: $(ZLIB_SRC)/%.c $(ZLIB_DEPS)
	@mkdir -p $(dir $@)
	@echo "  CC $<"
	@$(CC) $(ZLIB_CFLAGS) -c $< -o $@

$(ZLIB_UNIT): $(ZLIB_NAMES:%=$(ZLIB_SRC)/%.c) $(ZLIB_DEPS)
	@rm -rf build/unit/zlib && mkdir -p build/unit/zlib
	@for f in $(filter %.c,$^); do \
		gcc $(UNIT_CFLAGS) $(ZLIB_FLAGS) -c $$f -o build/unit/zlib/$$(basename $$f .c).o || exit 1; done
	@rm -f $@ && ar rcs $@ build/unit/zlib/*.o
