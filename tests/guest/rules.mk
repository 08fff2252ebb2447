# SPDX-License-Identifier: GPL-2.0-only
# How the bare-metal test guests' objects are built (tests/guest/*/guests.mk set
# TEST_GUEST_DIR, TEST_GUESTS, TEST_GUEST_CFLAGS and TEST_GUEST_COMMON, and link them).
$(BUILD)/guests-test/%.o: $(TEST_GUEST_DIR)/%.c
	@mkdir -p $(dir $@)
	@echo "  CC $< (test guest)"
	@$(CC) $(TEST_GUEST_CFLAGS) $(DEPFLAGS) -c $< -o $@
$(BUILD)/guests-test/%.o: $(TEST_GUEST_DIR)/%.S
	@mkdir -p $(dir $@)
	@echo "  AS $< (test guest)"
	@$(CC) $(TEST_GUEST_CFLAGS) $(DEPFLAGS) -D__ASSEMBLY__ -c $< -o $@
-include $(addsuffix .d,$(TEST_GUEST_COMMON) $(TEST_GUESTS:%=$(BUILD)/guests-test/%.o))
