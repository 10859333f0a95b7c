# VM harness: boots Debian's stock kernels under qemu (TCG) with our own initramfs and
# runs tests/vm/guest.d/*.sh inside each. tests/vm/run is the entry point (suite "vm");
# tests/vm/README.md says how to add a guest test.
#
#   make vmtest        fetch kernels (cached), build the initramfs, boot every kernel, report
#   make vm-images     only build what a boot needs (tests/vm/run calls this)
#   make vmshell VM_KERNEL=6.12   boot one kernel to an interactive shell instead of the tests
#   make static-audit  the static binary makes no NSS calls (tests/vm/audit-static; the VM
#                      suite runs it first, as result "host static-audit")

VM_DIR := $(BUILD)/vm

# The kernel test suite, linked fully static so that it runs in the bare initramfs on any
# kernel: every kernel test written for this machine also runs on the stock kernels.
$(BUILD)/kernel-tests-static: $(KERNEL_OBJS) $(LIBS)
	$(CXX) -static $(LDFLAGS) -o $@ $(KERNEL_OBJS) $(LINK_LIBS) $(STATIC_LDLIBS)

# apt decides what "newest" is, so this runs every time; it downloads only what is not cached.
vm-kernels:
	tests/vm/fetch-kernels $(VM_DIR)/kernels

# Rebuilt every time (a few seconds): its inputs include whatever samples exist right now.
# STATIC_SAMPLES comes from mk/samples.mk (mk/*.mk are read in name order, so it is set here).
vm-initramfs: $(BUILD)/rawprobe-static $(BUILD)/kernel-tests-static $(STATIC_SAMPLES) vm-kernels
	tests/vm/make-initramfs $(VM_DIR)/initramfs.cpio.gz $(BUILD)/rawprobe-static \
	  $(BUILD)/kernel-tests-static $(BUILD)/samples/static $(VM_DIR)/kernels

vm-images: vm-kernels vm-initramfs

vmtest:
	BUILD=$(BUILD) tests/vm/run

# Relinks $(BUILD)/rawprobe-static exactly as its own rule does, to see glibc's link warnings,
# and inspects its symbols.
static-audit: $(BUILD)/rawprobe-static
	CC="$(SAMPLES_CC)" tests/vm/audit-static $< -- \
	  $(CXX) -static $(STATIC_LDFLAGS) $(LDFLAGS) -Wl,--gc-sections $(BUILD)/obj/engine/main.o $(LINK_LIBS) $(STATIC_LDLIBS)

vmshell: vm-images
	BUILD=$(BUILD) tests/vm/boot --shell $(VM_KERNEL)

# `make test` runs the VM suite when qemu is installed (.ci/run installs it through test-deps).
ifneq ($(shell command -v qemu-system-x86_64 2>/dev/null),)
TEST_SUITES += vm
TEST_BUILDS += $(BUILD)/rawprobe-static $(BUILD)/kernel-tests-static
endif

.PHONY: vm-kernels vm-initramfs vm-images vmtest vmshell static-audit
