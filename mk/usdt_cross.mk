# USDT notes from real compilers of the architectures mk/elf.mk does not build:
# samples/usdt_args.c cross-compiled for riscv64, s390x (big-endian), ppc64le, mips64el (n64)
# and i386 into $(BUILD)/samples/elf/usdt_args_<arch>_<variant>, parsed on this host by
# tests/unit/elf_usdt_cross_test.cpp against readelf -n and llvm-mc:
#   _O0        Debian's cross gcc -O0: arguments in frame memory (-4@-20(s0), -4@164(%r11),
#              -4@0(9), -8@8($fp), -4@-8(%ebp))
#   _O2        gcc -O2: registers, base+offset, s390x's D(X,B) index form, i386's PIE globals
#              counter@GOTOFF(%eax) and (%ebx,%edx,4), constants (ppc's i42)
#   _clang     clang -O2 (not riscv64: clang 14 cannot match sdt.h's "nor" there): its own
#              choices, stack-pointer memory (160(%r15), 28($sp), 1(%esp), 0(8))
#   ppc64le_regnames   gcc -O2 -mregnames: %r3 and 0(%r9) instead of bare numbers
#   i386_nopie         gcc -O2 -no-pie: absolute globals (-4@counter, -4@table(,%edx,4))
#   i386_static_pie    gcc -O2 -static-pie: runs on this x86_64 host (no i386 ld.so is
#                      installed) with GOT-relative globals, for tests/kernel/usdt_i386_test.cpp
#
# The compilers come from `make test-deps` (tests/install-packages). sys/sdt.h is the host's
# copy made by mk/elf.mk ($(ELF_SDT_INCLUDE): sdt.h and sdt-config.h only); the host's
# /usr/include/<triplet> itself must not be on a cross compiler's path, it holds the host
# libc's bits/ headers.
USDT_CROSS_TRIPLET_riscv64  := riscv64-linux-gnu
USDT_CROSS_TRIPLET_s390x    := s390x-linux-gnu
USDT_CROSS_TRIPLET_ppc64le  := powerpc64le-linux-gnu
USDT_CROSS_TRIPLET_mips64el := mips64el-linux-gnuabi64
USDT_CROSS_TRIPLET_i386     := i686-linux-gnu
USDT_CROSS_ARCHES := riscv64 s390x ppc64le mips64el i386
usdt_cross = $(ELF_SAMPLES_DIR)/usdt_args_$(1)

# Each sample's compiler command, as a target-specific variable.
$(foreach a,$(USDT_CROSS_ARCHES),$(foreach o,O0 O2,\
  $(eval $(call usdt_cross,$(a)_$(o)): USDT_CROSS_CC = $(USDT_CROSS_TRIPLET_$(a))-gcc -$(o))))
$(foreach a,$(filter-out riscv64,$(USDT_CROSS_ARCHES)),\
  $(eval $(call usdt_cross,$(a)_clang): USDT_CROSS_CC = clang --target=$(USDT_CROSS_TRIPLET_$(a)) -O2))
$(call usdt_cross,ppc64le_regnames): USDT_CROSS_CC = $(USDT_CROSS_TRIPLET_ppc64le)-gcc -O2 -mregnames
$(call usdt_cross,i386_nopie): USDT_CROSS_CC = $(USDT_CROSS_TRIPLET_i386)-gcc -O2 -fno-pie -no-pie
$(call usdt_cross,i386_static_pie): USDT_CROSS_CC = $(USDT_CROSS_TRIPLET_i386)-gcc -O2 -static-pie

USDT_CROSS_SAMPLES := \
  $(foreach a,$(USDT_CROSS_ARCHES),$(call usdt_cross,$(a)_O0) $(call usdt_cross,$(a)_O2)) \
  $(foreach a,$(filter-out riscv64,$(USDT_CROSS_ARCHES)),$(call usdt_cross,$(a)_clang)) \
  $(call usdt_cross,ppc64le_regnames) $(call usdt_cross,i386_nopie) $(call usdt_cross,i386_static_pie)

$(USDT_CROSS_SAMPLES): samples/usdt_args.c $(ELF_SDT_INCLUDE)/sys/sdt.h
	$(USDT_CROSS_CC) -I$(ELF_SDT_INCLUDE) $< -o $@

usdt-cross-samples: $(USDT_CROSS_SAMPLES)
elf-samples: usdt-cross-samples
.PHONY: usdt-cross-samples

# The i386 static PIE runs as a process in tests/kernel/usdt_i386_test.cpp, on this host when
# its kernel runs 32-bit processes and in the VM guests (stock kernels, which do): it goes into
# the guests' samples with the oracle values binutils read from it (tests/kernel/i386-oracle).
I386_PROCESS_SAMPLE := $(call usdt_cross,i386_static_pie)
$(I386_PROCESS_SAMPLE).oracle: $(I386_PROCESS_SAMPLE) tests/kernel/i386-oracle
	tests/kernel/i386-oracle $< > $@.tmp && mv $@.tmp $@
$(BUILD)/samples/static/elf/%: $(ELF_SAMPLES_DIR)/%
	@mkdir -p $(@D)
	cp $< $@
elf-samples: $(I386_PROCESS_SAMPLE).oracle
# Read by mk/vm.mk (after this file): the initramfs takes every static sample.
STATIC_SAMPLES += $(addprefix $(BUILD)/samples/static/elf/,$(notdir $(I386_PROCESS_SAMPLE) $(I386_PROCESS_SAMPLE).oracle))
