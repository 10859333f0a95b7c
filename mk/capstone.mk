# Capstone for the static binary. Debian's libcapstone.a disassembles twelve architectures,
# and its tables were most of rawprobe-static's bytes; a binary only checks instruction
# boundaries in the code of processes that run on its own kernel, so CAPSTONE=min (the
# default) builds Capstone from Debian's own source package (fetched by `make deps`, never kept
# in this repository) with only those architectures:
#   x86_64:  x86 (64-bit processes, and i386 processes on the 64-bit kernel)
#   aarch64: aarch64 and arm (AArch32 processes on the 64-bit kernel)
#   arm:     arm (A32 and Thumb)
# CAPSTONE=full links Debian's library with every architecture, for inspecting foreign
# binaries (--explain, -l, the boundary check of a binary copied from another machine).
# Only rawprobe-static uses the choice: build/rawprobe and the test binaries, which inspect the
# cross-compiled samples of seven architectures, keep Debian's full library.
CAPSTONE ?= min
CAPSTONE_ARCHS_x86_64  := x86
CAPSTONE_ARCHS_aarch64 := aarch64 arm
CAPSTONE_ARCHS_arm     := arm
CAPSTONE_SRC := build/capstone-src
CAPSTONE_MIN := $(BUILD)/capstone-min

ifeq ($(CAPSTONE),min)
STATIC_LDFLAGS := -L$(CAPSTONE_MIN)
$(BUILD)/rawprobe-static: $(CAPSTONE_MIN)/libcapstone.a
else ifneq ($(CAPSTONE),full)
$(error CAPSTONE=$(CAPSTONE): min or full)
endif

deps: capstone-source
capstone-source:
	@tests/install-packages capstone-source $(CAPSTONE_SRC)

# Capstone's own Makefile, out of tree (BUILDDIR). Its CFLAGS come through the environment:
# given on the command line they would replace the -DCAPSTONE_HAS_<ARCH> it appends. Our own
# make variables (ARCH, BUILD) must not reach it, hence the cleared MAKEFLAGS.
# -Os: the disassembler runs on a few instructions around a probe's offset. Only Intel syntax
# is printed (rawprobe never sets CS_OPT_SYNTAX), so the AT&T printer and its tables
# (CAPSTONE_X86_ATT_DISABLE, 108 KB) stay out. The objects are rebuilt from scratch when this
# fragment changes, since Capstone's Makefile does not track its flags.
$(CAPSTONE_MIN)/libcapstone.a: $(CAPSTONE_SRC)/.complete mk/capstone.mk
	rm -rf $(@D) && mkdir -p $(@D)
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL CFLAGS="-Os -ffunction-sections -fdata-sections" \
	  $(MAKE) -s -C $(CAPSTONE_SRC) -j2 BUILDDIR=$(abspath $(CAPSTONE_MIN)) CAPSTONE_X86_ATT_DISABLE=yes \
	  CC=$(if $(CROSS),$(TRIPLET)-gcc,gcc) AR=$(if $(CROSS),$(TRIPLET)-ar,ar) \
	  RANLIB=$(if $(CROSS),$(TRIPLET)-ranlib,ranlib) \
	  CAPSTONE_ARCHS="$(CAPSTONE_ARCHS_$(ARCH))" CAPSTONE_STATIC=yes CAPSTONE_SHARED=no \
	  $(abspath $(CAPSTONE_MIN))/libcapstone.a
$(CAPSTONE_SRC)/.complete:
	@tests/install-packages capstone-source $(CAPSTONE_SRC)

.PHONY: capstone-source

# The "size" suite of `make test` (tests/size-check): the stripped static binary is at most
# SIZE_LIMIT bytes, and `make size`'s breakdown accounts for it: the goal, "6 MB", read as
# 6,000,000 bytes.
SIZE_LIMIT ?= 6000000
size-check: $(BUILD)/rawprobe-static.stripped
	tests/size-check $(BUILD) $(SIZE_LIMIT) $(CAPSTONE)
TEST_SUITES += size
TEST_BUILDS += $(BUILD)/rawprobe-static.stripped
.PHONY: size-check
