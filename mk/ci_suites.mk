# `make test CI_SUITES=1`, what .ci/run runs: beside the suites `make test` runs, every fuzz
# target for CI_FUZZ_SECONDS each (mk/fuzz.mk), the unit suite under ASan+UBSan, and
# `asan-kernel`: the kernel suite's cases again, each rawprobe they start the sanitized one.
# All in one tests/run-suites, so its last line sums them all. CI_ASAN_KERNEL= (empty) leaves
# asan-kernel out. How it fits CI's time: README.md, "Reliability".
CI_FUZZ_SECONDS ?= 3
CI_ASAN_KERNEL ?= 1
# The kernel suite's soak (tests/kernel/fault_soak_test.cpp) runs this long in CI; asan-kernel
# runs it for its default 20 s.
CI_SOAK_SECONDS ?= 120
# asan-kernel leaves out:
# - The files whose cases never start rawprobe: they compile, load, attach and read inside
#   kernel-tests, which is the plain build there, so a sanitized rawprobe beside them would
#   change nothing. A case starts rawprobe only through rawprobe_path(), run_rawprobe() or
#   build_dir() (tests/kernel/cli_run.h), so a file naming none of them is such a file.
# - The RLIMIT_NOFILE case: UBSan's vptr check tests memory through a pipe it opens, which a
#   process out of descriptors cannot make, so every virtual call is then reported as a call
#   on an invalid object (seen: ~AttachmentSet in that run's error path).
# - The stack map case that confines rawprobe to a 100 MB memory cgroup: ASan's shadow memory
#   alone takes rawprobe past that, and the kernel kills it (status 137). (`?`: the filter is
#   split on spaces.)
ifdef CI_SUITES
# Greps only when CI's suites run, not on every make.
ASAN_KERNEL_IN_PROCESS := $(shell grep -L -e rawprobe_path -e run_rawprobe -e 'build_dir()' tests/kernel/*_test.cpp)
comma := ,
empty :=
space := $(empty) $(empty)
CI_ASAN_KERNEL_FILTER ?= -sfe=$(subst $(space),$(comma),$(patsubst %,*%,$(notdir $(ASAN_KERNEL_IN_PROCESS)))) \
  -tce=RLIMIT_NOFILE*,*stack?map?the?kernel?cannot?allocate*
# The plain kernel run checks that grep: a case of these files that starts rawprobe fails
# (check_case_may_start_rawprobe in tests/kernel/cli_run.h).
export RAWPROBE_FILES_NOT_STARTING_RAWPROBE := $(notdir $(ASAN_KERNEL_IN_PROCESS))

# fuzz and asan-unit run beside the others (tests/run-suites --beside): they compute and touch
# no kernel state, so they fill the cores while the kernel cases wait on the kernel.
TEST_SUITES += $(if $(CI_ASAN_KERNEL),asan-kernel)
TEST_SUITES_BESIDE += fuzz asan-unit
# The sanitized unit suite links the fuzz build's archives (mk/fuzz_unit.mk): one sanitizer
# compile of the engine instead of two; so does the sanitized rawprobe the kernel cases run.
TEST_BUILDS += fuzz-build fuzz-seeds fuzz-unit-tests $(if $(CI_ASAN_KERNEL),asan-kernel-builds)
FUZZ_SECONDS = $(CI_FUZZ_SECONDS)
SOAK_SECONDS = $(CI_SOAK_SECONDS)
ASAN_KERNEL_FILTER = $(CI_ASAN_KERNEL_FILTER)
ASAN_UNIT_TESTS = $(FUZZ_DIR)/unit-tests
ASAN_KERNEL_DIR = $(FUZZ_DIR)/kernel
# FUZZ_DIR is exported by mk/fuzz.mk, after its default: exporting it here, before that
# `?=`, would define it empty.
export FUZZ_SECONDS SOAK_SECONDS ASAN_BUILD ASAN_KERNEL_FILTER ASAN_UNIT_TESTS ASAN_KERNEL_DIR
endif
