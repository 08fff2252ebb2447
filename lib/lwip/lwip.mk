# SPDX-License-Identifier: GPL-2.0-only
# lwIP (the network stack for network boot), built from a fetched source like zlib
# (lib/zlib/zlib.mk): scripts/lwip.sh fetches and checksum-verifies it into build/src/;
# objects under $(BUILD)/lwip/, linked into the hypervisor of both architectures. Its
# options (lwipopts.h) and compiler glue (arch/cc.h) are the project's, here, found
# through -Ilib/lwip; lwip_port.c (lib/lwip/objects.mk) gives it a clock.
# LWIP_CFLAGS: the hypervisor's, with lib/lwip/libc first on the include path (its
# <string.h> and <stdlib.h> are hv/lib.h's functions), and lwIP's mem_init renamed: the
# hypervisor has its own (hv/mem.h).
LWIP_SRC := $(shell scripts/lwip.sh --dir)
LWIP_INC := -I$(LWIP_SRC)/include -Ilib/lwip
LWIP_NAMES := core/init core/def core/inet_chksum core/ip core/mem core/memp core/netif \
	core/pbuf core/tcp core/tcp_in core/tcp_out core/timeouts core/udp core/ipv4/dhcp \
	core/ipv4/etharp core/ipv4/icmp core/ipv4/ip4 core/ipv4/ip4_addr netif/ethernet
LWIP_OBJS := $(LWIP_NAMES:%=$(BUILD)/lwip/%.o)
LWIP_DEPS := lib/lwip/lwipopts.h lib/lwip/arch/cc.h lib/lwip/libc/string.h lib/lwip/libc/stdlib.h \
	lib/lwip/tcp_isn.h hv/console.h hv/lib.h hv/types.h
LWIP_CFLAGS = -Ilib/lwip/libc $(CFLAGS) -Dmem_init=lwip_mem_init

$(LWIP_SRC)/include/lwip/opt.h: scripts/lwip.sh scripts/fetch-source.sh
	@scripts/lwip.sh
	@touch $@
$(LWIP_SRC)/%.c: $(LWIP_SRC)/include/lwip/opt.h ;

# lwIP for the host tests that drive it (tests/unit/net/test_lwip_*.c): the same sources and
# options, built like those tests.
LWIP_UNIT := build/unit/lwip.a
$(LWIP_UNIT): $(LWIP_NAMES:%=$(LWIP_SRC)/%.c) $(LWIP_DEPS)
	$(call host_archive,$@,$(filter %.c,$^),gcc $(UNIT_CFLAGS) $(LWIP_INC) -Dmem_init=lwip_mem_init)

$(LWIP_OBJS): $(BUILD)/lwip/%.o: $(LWIP_SRC)/%.c $(LWIP_DEPS)
	@mkdir -p $(dir $@)
	@echo "  CC $<"
	@$(CC) $(LWIP_CFLAGS) -c $< -o $@
