# Seeds for the BTF reader's fuzz target (tests/fuzz/btf_blob_fuzz.cpp): slices of this
# kernel's vmlinux BTF and a module's split BTF on top of one, made by tests/fuzz/btf_seed.cpp.
# The module is the first one /sys/kernel/btf lists, or when the kernel publishes none,
# tests/fuzz/btf_seed_module.c encoded by pahole against vmlinux as a module build does.
BTF_FUZZ_SEEDS = $(FUZZ_DIR)/seeds/btf_blob
FUZZ_SEEDS_btf_blob_fuzz = $(BTF_FUZZ_SEEDS)
FUZZ_ARGS_btf_blob_fuzz = -max_len=65536

$(BUILD)/btf-seed: $(BUILD)/obj/tests/fuzz/btf_seed.o $(LIBS)
	$(CXX) $(LDFLAGS) -o $@ $< $(LINK_LIBS) $(LDLIBS)

fuzz-seeds: btf-fuzz-seeds
btf-fuzz-seeds: $(BUILD)/btf-seed
	@mkdir -p $(BTF_FUZZ_SEEDS)
	@module=$$(ls /sys/kernel/btf | grep -vx vmlinux | head -1); \
	if [ -n "$$module" ]; then module=/sys/kernel/btf/$$module; \
	elif command -v pahole >/dev/null; then \
	  gcc -g -O0 -c tests/fuzz/btf_seed_module.c -o $(BUILD)/btf_seed_module.o && \
	  pahole --btf_base /sys/kernel/btf/vmlinux --btf_encode_detached=$(BUILD)/btf_seed_module.btf \
	    $(BUILD)/btf_seed_module.o && module=$(BUILD)/btf_seed_module.btf; \
	fi; \
	$(BUILD)/btf-seed /sys/kernel/btf/vmlinux $(BTF_FUZZ_SEEDS) $$module

.PHONY: btf-fuzz-seeds
