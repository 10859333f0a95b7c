# Cross builds (mk/target/arch.mk sets the toolchain): proof that the target's binaries start
# and work, run on this host under qemu-user (qemu-user-static, installed by
# `make deps ARCH=...`).
#   make cross-test ARCH=aarch64   the unit suite built for the target, and rawprobe-static's
#                                  own checks, under qemu-$(ARCH)-static
# The unit tests' fixtures (samples of every architecture, built by the host's compilers and
# read with the host's readelf, llvm-mc, ...) are the host build's, made here by a host make.
# The kernel suites cannot run under qemu-user: it does not emulate bpf() or
# perf_event_open() for a foreign architecture (the arm64 VM harness runs those).
ifdef CROSS
HOST_BUILD := build
cross-test: $(BUILD)/unit-tests $(BUILD)/rawprobe-static
	$(MAKE) --no-print-directory ARCH=$(HOST_ARCH) BUILD=$(HOST_BUILD) elf-samples samples
	tests/cross-test $(ARCH) $(QEMU_USER) $(BUILD) $(HOST_BUILD)
else
cross-test:
	@echo "cross-test: give ARCH=aarch64 or ARCH=arm (this host is $(HOST_ARCH))" >&2; exit 2
endif

.PHONY: cross-test
