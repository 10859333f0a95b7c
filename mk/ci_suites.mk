# `make test CI_SUITES=1`, what .ci/run runs: beside the suites `make test` runs, every fuzz
# target for CI_FUZZ_SECONDS each (mk/fuzz.mk), the unit suite under ASan+UBSan, and the
# kernel suite's cases with a sanitized rawprobe: `asan-kernel` runs every case the VM guests
# also run (all but the doctest suite host-only), `asan-kernel-host` the host-only fault,
# verifier, `-o FILE`, lost-event and full-map cases. All in one tests/run-suites, so its last
# line sums them all. CI_ASAN_KERNEL= (empty) leaves the two kernel ones out. How the choice
# fits CI's time: README.md, "Reliability".
CI_FUZZ_SECONDS ?= 3
CI_ASAN_KERNEL ?= 1
# Not the RLIMIT_NOFILE case: UBSan's vptr check tests memory through a pipe it opens, which a
# process out of descriptors cannot make, so every virtual call is then reported as a call on
# an invalid object (seen: ~AttachmentSet in that run's error path).
# Nor the stack map case that confines rawprobe to a 100 MB memory cgroup: ASan's shadow memory
# alone takes rawprobe past that, and the kernel kills it (status 137). (`?`: the filter is split
# on spaces.)
CI_ASAN_KERNEL_FILTER ?= -tse=host-only -tce=RLIMIT_NOFILE*,*stack?map?the?kernel?cannot?allocate*
CI_ASAN_KERNEL_HOST_FILTER ?= -ts=host-only -sf=*fault_*,*cli_verifier_test*,*cli_output_file_test*,*cli_lost_events_test*,*cli_full_map_test* -tce=RLIMIT_NOFILE*

ifdef CI_SUITES
TEST_SUITES += fuzz asan-unit $(if $(CI_ASAN_KERNEL),asan-kernel asan-kernel-host)
# The sanitized unit suite links the fuzz build's archives (mk/fuzz_unit.mk): one sanitizer
# compile of the engine instead of two; so does the sanitized rawprobe the kernel cases run.
TEST_BUILDS += fuzz-build fuzz-seeds fuzz-unit-tests $(if $(CI_ASAN_KERNEL),asan-kernel-builds)
FUZZ_SECONDS = $(CI_FUZZ_SECONDS)
ASAN_KERNEL_FILTER = $(CI_ASAN_KERNEL_FILTER)
ASAN_KERNEL_HOST_FILTER = $(CI_ASAN_KERNEL_HOST_FILTER)
ASAN_UNIT_TESTS = $(FUZZ_DIR)/unit-tests
ASAN_KERNEL_DIR = $(FUZZ_DIR)/kernel
# FUZZ_DIR is exported by mk/fuzz.mk, after its default: exporting it here, before that
# `?=`, would define it empty.
export FUZZ_SECONDS ASAN_BUILD ASAN_KERNEL_FILTER ASAN_KERNEL_HOST_FILTER ASAN_UNIT_TESTS ASAN_KERNEL_DIR
endif
