# VM harness: boots Debian's stock kernels under qemu (TCG) with our own initramfs and
# runs tests/vm/guest.d/*.sh inside each. tests/vm/run is the entry point (suite "vm");
# tests/vm/README.md says how to add a guest test.
#
#   make vmtest        fetch kernels (cached), build the initramfs, boot every kernel, report
#   make vm-images     only build what a boot needs (tests/vm/run calls this)
#   make vmshell VM_KERNEL=6.12   boot one kernel to an interactive shell instead of the tests
#   make static-audit  the static binary makes no NSS calls (tests/vm/audit-static; the VM
#                      suite runs it first, as result "host static-audit")
#   make vmtest ARCH=aarch64   the same suite on Debian's arm64 kernels (qemu-system-aarch64 -M
#                      virt), with everything the guest runs cross-built into build/aarch64/
#                      and busybox-static:arm64; kernels cached in build/aarch64/vm/kernels
#   make vmtest ARCH=arm       the same on Debian's armmp kernels (qemu-system-arm -M virt -cpu
#                      cortex-a15), cross-built into build/arm/; suite vm-arm, never run by
#                      `make test`
#   VM_SERIES=6.1      boot only that kernel series (6.1, 6.12; default both)

VM_DIR := $(BUILD)/vm

# The kernel test suite, linked fully static so that it runs in the bare initramfs on any
# kernel: every kernel test written for this machine also runs on the stock kernels.
$(BUILD)/kernel-tests-static: $(KERNEL_OBJS) $(LIBS)
	$(CXX) -static $(LDFLAGS) -o $@ $(KERNEL_OBJS) $(LINK_LIBS) $(STATIC_LDLIBS)

# The USDT sample again at -O2, for the guests: its operands are registers and base+offset
# memory (-4@x2, -8@[x1, 8] on arm64; %rip-relative globals on x86_64), where the -O0 build's
# are stack slots (8@[sp, 16], -4@-20(%rbp)). guest.d/usdt-operands.sh traces both.
STATIC_SAMPLES += $(BUILD)/samples/static/usdt_args_O2
$(BUILD)/samples/static/usdt_args_O2: samples/usdt_args.c $(ELF_SDT_INCLUDE)/sys/sdt.h mk/samples.mk
	@mkdir -p $(@D)
	$(SAMPLES_CC) -O2 $(SAMPLES_ARCH_CFLAGS_$(ARCH)) -static -I$(ELF_SDT_INCLUDE) $< -o $@

ifdef CROSS
# A guest of the target architecture: its busybox, and the USDT samples compiled with the
# host's architecture-neutral sys/sdt.h (the cross compiler has none; mk/elf.mk copies it).
VM_BUSYBOX := $(VM_DIR)/busybox
$(VM_BUSYBOX):
	tests/vm/fetch-busybox $(DEB_ARCH) $@
$(BUILD)/samples/static/%: SAMPLES_CFLAGS += -I$(ELF_SDT_INCLUDE)
$(BUILD)/samples/static/hello_usdt $(BUILD)/samples/static/usdt_args: $(ELF_SDT_INCLUDE)/sys/sdt.h
# make-initramfs runs the target's busybox and rawprobe here under qemu-user.
VM_INITRAMFS_ENV := ARCH=$(ARCH) STRIP=$(STRIP) RUN=$(QEMU_USER) BUSYBOX=$(VM_BUSYBOX)
# The target's static libraries (make deps ARCH=...), for a `make test` that did only the host's.
vm-deps: deps
else
vm-deps:
endif

# apt decides what "newest" is, so this runs every time; it downloads only what is not cached.
vm-kernels:
	tests/vm/fetch-kernels $(VM_DIR)/kernels $(DEB_ARCH) $(VM_SERIES)

# Rebuilt every time (a few seconds): its inputs include whatever samples exist right now.
# STATIC_SAMPLES comes from mk/samples.mk (mk/*.mk are read in name order, so it is set here).
vm-initramfs: $(BUILD)/rawprobe-static $(BUILD)/kernel-tests-static $(STATIC_SAMPLES) $(VM_BUSYBOX) vm-kernels
	$(VM_INITRAMFS_ENV) tests/vm/make-initramfs $(VM_DIR)/initramfs.cpio.gz $(BUILD)/rawprobe-static \
	  $(BUILD)/kernel-tests-static $(BUILD)/samples/static $(VM_DIR)/kernels

vm-images: vm-kernels vm-initramfs

vmtest:
	ARCH=$(ARCH) BUILD=$(BUILD) VM_SERIES="$(VM_SERIES)" tests/vm/run

# Relinks $(BUILD)/rawprobe-static exactly as its own rule does, to see glibc's link warnings,
# and inspects its symbols.
static-audit: $(BUILD)/rawprobe-static
	CC="$(SAMPLES_CC)" tests/vm/audit-static $< -- \
	  $(CXX) -static $(STATIC_LDFLAGS) $(LDFLAGS) -Wl,--gc-sections $(BUILD)/obj/engine/main.o $(LINK_LIBS) $(STATIC_LDLIBS)

vmshell: vm-images
	ARCH=$(ARCH) BUILD=$(BUILD) tests/vm/boot --shell $(VM_KERNEL)

# `make test` runs the VM suite when qemu is installed (.ci/run installs it through test-deps),
# and the arm64 one (suite vm-aarch64: its own cross build in $(BUILD)/aarch64, its 6.1 kernel
# only, VM_SERIES_aarch64, for CI's time; tests/vm/README.md) when qemu-system-aarch64 and the
# aarch64 cross compiler are there too, unless VM_AARCH64 is empty (`make test VM_AARCH64=`).
# Both run beside the other suites (tests/run-suites --beside), the arm64 one first named: its
# cross build and then its guest are the longest chain of the run.
# What they download (kernels, busybox, the target's libraries) is fetched before any suite
# starts (test-fetch), so that no two apt runs meet.
VM_AARCH64 ?= 1
ifneq ($(shell command -v qemu-system-x86_64 2>/dev/null),)
TEST_SUITES_BESIDE += vm
TEST_BUILDS += $(BUILD)/rawprobe-static $(BUILD)/kernel-tests-static
TEST_FETCH += vm-kernels
endif
VM_SERIES_aarch64 ?= 6.1
export VM_SERIES_aarch64
ifndef CROSS
ifneq ($(and $(VM_AARCH64),$(shell command -v qemu-system-aarch64 2>/dev/null),$(shell command -v aarch64-linux-gnu-g++ 2>/dev/null)),)
TEST_SUITES_BESIDE := vm-aarch64 $(TEST_SUITES_BESIDE)
TEST_FETCH += vm-fetch-aarch64
endif
endif
vm-fetch-aarch64:
	$(MAKE) --no-print-directory ARCH=aarch64 BUILD=$(BUILD)/aarch64 VM_SERIES="$(VM_SERIES_aarch64)" \
	  vm-deps vm-kernels $(BUILD)/aarch64/vm/busybox

.PHONY: vm-fetch-aarch64 vm-deps vm-kernels vm-initramfs vm-images vmtest vmshell static-audit
