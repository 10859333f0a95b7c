# `make test CI_SUITES=1`, what .ci/run runs: beside the suites `make test` runs, every fuzz
# target for CI_FUZZ_SECONDS each (mk/fuzz.mk) and the unit suite under ASan+UBSan; with
# CI_ASAN_KERNEL=1 also the cases of the kernel suite CI_ASAN_KERNEL_FILTER selects (doctest
# flags), built and run under ASan+UBSan. All in one tests/run-suites, so its last line sums
# them all. How the defaults were chosen to fit CI's time: README.md, "Reliability".
CI_FUZZ_SECONDS ?= 3
CI_ASAN_KERNEL ?=
# Not the RLIMIT_NOFILE case: UBSan's vptr check tests memory through a pipe it opens, which a
# process out of descriptors cannot make, so every virtual call is then reported as a call on
# an invalid object (seen: ~AttachmentSet in that run's error path).
CI_ASAN_KERNEL_FILTER ?= -sf=*fault_*,*cli_verifier_test*,*cli_output_file_test*,*cli_lost_events_test*,*cli_full_map_test* -tce=RLIMIT_NOFILE*

ifdef CI_SUITES
TEST_SUITES += fuzz asan-unit $(if $(CI_ASAN_KERNEL),asan-kernel)
# The sanitized unit suite links the fuzz build's archives (mk/fuzz_unit.mk): one sanitizer
# compile of the engine instead of two. The kernel suite under ASan needs the g++ build.
TEST_BUILDS += fuzz-build fuzz-seeds fuzz-unit-tests $(if $(CI_ASAN_KERNEL),asan-suite-builds)
FUZZ_SECONDS = $(CI_FUZZ_SECONDS)
ASAN_KERNEL_FILTER = $(CI_ASAN_KERNEL_FILTER)
ASAN_UNIT_TESTS = $(FUZZ_DIR)/unit-tests
# FUZZ_DIR is exported by mk/fuzz.mk, after its default: exporting it here, before that
# `?=`, would define it empty.
export FUZZ_SECONDS ASAN_BUILD ASAN_KERNEL_FILTER ASAN_UNIT_TESTS
endif

# The sanitizer build of what those suites run (as `make asan` builds it, but with line tables
# only, -g1: a report still names file:line, and the build is shorter); the kernel suite
# traces the plain build's samples, which are what is traced, not what is tested.
asan-suite-builds: samples
	$(MAKE) --no-print-directory CI_SUITES= BUILD=$(ASAN_BUILD) SAN="$(ASAN_SAN)" OPT="-O1 -g1" \
	  $(ASAN_BUILD)/rawprobe $(ASAN_BUILD)/kernel-tests
	ln -sfn $(CURDIR)/$(BUILD)/samples $(ASAN_BUILD)/samples

.PHONY: asan-suite-builds
