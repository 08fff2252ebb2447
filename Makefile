# hv: a minimal type-1 hypervisor booted by UEFI.
#   make            build build/$(ARCH)/hv.efi
#   make run        boot it in QEMU with the default Linux guest (serial console)
#   make test       unit tests + emulator tests of both architectures, ends with
#                   "N passed, N failed"
#   ARCH=aarch64    (with make, make run) the arm64 build: build/aarch64/hv.efi
#   make unit       host unit tests only (ASan + UBSan)
#   make guests     build the default guest images from Debian packages
#   make bench      IPI microbenchmark with and without PV IPIs (ns/op, exits/op)
ARCH ?= x86_64
export ARCH
BUILD := build/$(ARCH)
VERSION := $(shell git describe --always --dirty 2>/dev/null || echo unknown)

ifeq ($(ARCH),x86_64)
ARCH_DIR := arch/x86
CC := gcc
LD := ld
OBJCOPY := objcopy
OBJDUMP := objdump
EFI_INC := -I/usr/include/efi -I/usr/include/efi/x86_64
EFI_CRT0 := /usr/lib/crt0-efi-x86_64.o
EFI_LDS := linker.ld
EFI_LIBS := -L/usr/lib -lgnuefi $(shell gcc -print-libgcc-file-name)
ARCH_CFLAGS := -mno-red-zone -mgeneral-regs-only -maccumulate-outgoing-args -DGNU_EFI_USE_MS_ABI
EFI_OBJCOPY := --target efi-app-x86_64 --subsystem=10
DRIVERS := drivers/uart16550.c drivers/acpi.c
else ifeq ($(ARCH),aarch64)
# GNU-EFI for arm64 comes from Debian's multiarch package, unpacked by scripts/deps.sh.
ARCH_DIR := arch/arm64
CC := aarch64-linux-gnu-gcc
LD := aarch64-linux-gnu-ld
OBJCOPY := aarch64-linux-gnu-objcopy
OBJDUMP := aarch64-linux-gnu-objdump
GNUEFI := build/gnu-efi-arm64/usr
EFI_INC := -I$(GNUEFI)/include/efi -I$(GNUEFI)/include/efi/aarch64
EFI_CRT0 := $(GNUEFI)/lib/crt0-efi-aarch64.o
EFI_LDS := $(GNUEFI)/lib/elf_aarch64_efi.lds
EFI_LIBS := -L$(GNUEFI)/lib -lgnuefi $(shell $(CC) -print-libgcc-file-name 2>/dev/null) --defsym=EFI_SUBSYSTEM=0xa
ARCH_CFLAGS := -mgeneral-regs-only -mstrict-align -mno-outline-atomics
EFI_OBJCOPY := -O binary
DRIVERS := drivers/pl011.c drivers/acpi.c drivers/fdt_platform.c
else
$(error ARCH=$(ARCH) is not supported (x86_64 or aarch64))
endif

CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -ffreestanding -fno-stack-protector -fpic -I$(ARCH_DIR)/include \
	-fshort-wchar -fno-strict-aliasing -fno-builtin -I. $(EFI_INC) $(ARCH_CFLAGS) \
	-DHV_VERSION=\"$(VERSION)\" -DHV_VERSION_W=L\"$(VERSION)\"
SRCS := $(wildcard boot/*.c hv/*.c $(ARCH_DIR)/*.c $(ARCH_DIR)/*/*.c) $(DRIVERS)
ASMS := $(wildcard $(ARCH_DIR)/*.asm $(ARCH_DIR)/*/*.asm)
SSRCS := $(wildcard $(ARCH_DIR)/*.S)
OBJS := $(SRCS:%.c=$(BUILD)/%.o) $(ASMS:%.asm=$(BUILD)/%.asm.o) $(SSRCS:%.S=$(BUILD)/%.S.o)
HDRS := $(wildcard */*.h */*/*.h */*/*/*.h */*/*/*/*.h)

.PHONY: all deps unit guests run test bench clean
all: $(BUILD)/hv.efi

deps:
	@scripts/deps.sh

# --- libfdt ------------------------------------------------------------------------
# libfdt from a Debian source package, fetched and checksum-verified into build/src/ by
# scripts/libfdt.sh (never kept in this repository); lib/libfdt/libfdt_env.h maps what
# it needs onto hv/lib.h. Its objects, under $(BUILD)/libfdt/, have flags of their own
# (LIBFDT_CFLAGS: the hypervisor's, warnings included, as it builds clean; -fwrapv:
# its int offset sums wrap, not undefined, on a hostile blob).
LIBFDT_SRC := $(shell scripts/libfdt.sh --dir)
LIBFDT_INC := -I$(LIBFDT_SRC) -Ilib/libfdt
LIBFDT_OBJS := $(patsubst %,$(BUILD)/libfdt/%.o,fdt fdt_ro fdt_sw fdt_rw fdt_wip fdt_addresses)
LIBFDT_CFLAGS = $(CFLAGS) -fwrapv
CFLAGS += $(LIBFDT_INC)
# One target fetches (no parallel fetches with -j), again when the pin or file list in
# scripts/libfdt.sh changes; the other files come with it.
$(LIBFDT_SRC)/libfdt.h: scripts/libfdt.sh scripts/fetch-source.sh
	@scripts/libfdt.sh
	@touch $@
$(LIBFDT_SRC)/%.c: $(LIBFDT_SRC)/libfdt.h ;
$(LIBFDT_OBJS): $(BUILD)/libfdt/%.o: $(LIBFDT_SRC)/%.c lib/libfdt/libfdt_env.h hv/lib.h hv/types.h
	@mkdir -p $(dir $@)
	@echo "  CC $<"
	@$(CC) $(LIBFDT_CFLAGS) -c $< -o $@
# Every object and unit test may include <libfdt.h>.
$(OBJS) $(patsubst tests/unit/%.c,build/unit/%,$(wildcard tests/unit/test_*.c)): | $(LIBFDT_SRC)/libfdt.h
OBJS += $(LIBFDT_OBJS)
# The unit tests link libfdt built like them (ASan, UBSan) from an archive: a test
# gets the members it uses.
LIBFDT_UNIT := build/unit/libfdt.a
$(LIBFDT_UNIT): $(LIBFDT_OBJS:$(BUILD)/libfdt/%.o=$(LIBFDT_SRC)/%.c) lib/libfdt/libfdt_env.h hv/lib.h hv/types.h
	@rm -rf build/unit/libfdt && mkdir -p build/unit/libfdt
	@for f in $(filter %.c,$^); do gcc $(UNIT_CFLAGS) -c $$f -o build/unit/libfdt/$$(basename $$f .c).o || exit 1; done
	@rm -f $@ && ar rcs $@ build/unit/libfdt/*.o
# --- end of libfdt -----------------------------------------------------------------

$(BUILD)/%.o: %.c $(HDRS)
	@mkdir -p $(dir $@)
	@echo "  CC $<"
	@$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/%.asm.o: %.asm
	@mkdir -p $(dir $@)
	@echo "  AS $<"
	@nasm -f elf64 -I$(dir $<) $< -o $@

$(BUILD)/%.S.o: %.S $(HDRS)
	@mkdir -p $(dir $@)
	@echo "  AS $<"
	@$(CC) $(CFLAGS) -D__ASSEMBLY__ -c $< -o $@

$(BUILD)/hv.so: $(OBJS) Makefile $(EFI_LDS) scripts/check-no-fp.sh
	$(LD) -nostdlib -znocombreloc -shared -Bsymbolic --no-undefined -T $(EFI_LDS) $(EFI_CRT0) $(OBJS) -o $@.tmp $(EFI_LIBS)
	@scripts/check-no-fp.sh $(OBJDUMP) $@.tmp || { echo "the hypervisor must not use FP/SIMD registers (they hold the guest's)"; exit 1; }
	@mv $@.tmp $@

$(BUILD)/hv.efi: $(BUILD)/hv.so
	$(OBJCOPY) -j .text -j .sdata -j .data -j .dynamic -j .dynsym -j .rel -j .rela -j '.rel.*' \
		-j '.rela.*' -j .reloc $(EFI_OBJCOPY) $< $@
	@echo "built $@"

# Host unit tests: test_a64_*.c test arm64 code and see arm64's arch headers.
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=build/unit/%)
UNIT_CFLAGS = -std=gnu11 -g -O1 -Wall -Wextra -Werror -I. -I$(if $(filter test_a64_%,$(notdir $@)),arch/arm64,arch/x86)/include \
	-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -DHV_UNIT_TEST \
	$(LIBFDT_INC)
build/unit/%: tests/unit/%.c $(HDRS) $(wildcard boot/*.c hv/*.c drivers/*.c arch/*/*.c arch/*/*/*.c) $(LIBFDT_UNIT)
	@mkdir -p build/unit
	gcc $(UNIT_CFLAGS) $< $(LIBFDT_UNIT) -o $@

unit: $(UNIT_BINS)
	@tests/run.sh unit

guests:
	@scripts/guest/build.sh $(ARCH)

run: deps all guests
	@scripts/run.sh

# Both architectures: the emulator tests boot x86-64 (SVM) and arm64 (EL2, GICv2/v3).
test: deps $(UNIT_BINS)
	@$(MAKE) --no-print-directory ARCH=x86_64 all guests
	@$(MAKE) --no-print-directory ARCH=aarch64 all guests
	@tests/run.sh all

bench: deps all guests
	@scripts/bench.sh

clean:
	rm -rf build
