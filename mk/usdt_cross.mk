# USDT notes from real compilers of the architectures mk/elf.mk does not build (issue 3):
# samples/usdt_args.c cross-compiled with Debian's gcc for riscv64, s390x (big-endian),
# ppc64le, mips64el (n64) and i386, each at -O0 (arguments in frame memory: -4@-20(s0),
# -4@164(%r11), -4@0(9), -8@8($fp), -4@-8(%ebp)) and -O2 (registers, base+offset, s390x's
# D(X,B) index form, i386's counter@GOTOFF(%ebx) globals, constants), into
# $(BUILD)/samples/elf/usdt_args_<arch>_<O0|O2>. tests/unit/elf_usdt_cross_test.cpp parses them
# on this host and compares with readelf -n and llvm-mc.
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
USDT_CROSS_SAMPLES := $(foreach a,$(USDT_CROSS_ARCHES),$(foreach o,O0 O2,$(ELF_SAMPLES_DIR)/usdt_args_$(a)_$(o)))

# usdt_args_<arch>_<level>: the arch picks the compiler, the level the -O flag.
usdt_cross_arch  = $(word 3,$(subst _, ,$(notdir $(1))))
usdt_cross_level = $(word 4,$(subst _, ,$(notdir $(1))))
$(USDT_CROSS_SAMPLES): samples/usdt_args.c $(ELF_SDT_INCLUDE)/sys/sdt.h
	$(USDT_CROSS_TRIPLET_$(call usdt_cross_arch,$@))-gcc -$(call usdt_cross_level,$@) \
	  -I$(ELF_SDT_INCLUDE) $< -o $@

# The i386 sample as a static PIE, which this x86_64 host runs (IA32 emulation; no i386
# ld.so is installed) with its globals still GOT-relative: tests/kernel/usdt_i386_test.cpp
# traces it and reads counter@GOTOFF(%eax).
$(ELF_SAMPLES_DIR)/usdt_args_i386_static_pie: samples/usdt_args.c $(ELF_SDT_INCLUDE)/sys/sdt.h
	$(USDT_CROSS_TRIPLET_i386)-gcc -O2 -static-pie -I$(ELF_SDT_INCLUDE) $< -o $@

usdt-cross-samples: $(USDT_CROSS_SAMPLES) $(ELF_SAMPLES_DIR)/usdt_args_i386_static_pie
elf-samples: usdt-cross-samples
.PHONY: usdt-cross-samples
