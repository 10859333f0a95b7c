# `make bench`: rawprobe and bpftrace side by side on the same workloads; the table
# is printed and written to $(BUILD)/bench.md. Needs root. It never fails because a tracer
# did: what rawprobe cannot run yet is said in its cells. Knobs (environment):
#   BENCH_RUNS (default 5) BENCH_WARMUP (1) BENCH_ROWS (all; e.g. startup,listing)
#   BENCH_CALLS BENCH_SYSCALLS BENCH_WILDCARD BENCH_EVENT_RATE BENCH_EVENT_SECONDS (see tests/bench/README.md)
# The workloads are samples/bench_*.c, built -O2 (they time themselves with clock_gettime).
BENCH_SAMPLES := $(patsubst samples/%.c,$(BUILD)/samples/%,$(wildcard samples/bench_*.c))
BENCH_RUNS    ?= 5
BENCH_WARMUP  ?= 1
BENCH_ROWS    ?=

$(BENCH_SAMPLES): $(BUILD)/samples/bench_%: samples/bench_%.c samples/bench_clock.h
	@mkdir -p $(@D)
	$(CC) -O2 -g -Wall -Wextra -Werror $< -o $@

bench-samples: $(BENCH_SAMPLES)

# The tracer and the seed's samples are built if they can be: a half-written tree must still
# give a table (its cells then say what is missing), so those builds may fail here.
# The listing row's large library (and the ELF layer's benchmark) is OpenJDK 17's libjvm.so.
BENCH_JDK_PACKAGE := openjdk-17-jre-headless
bench-packages:
	@tests/install-packages test
	@dpkg-query -W -f='$${Status}' $(BENCH_JDK_PACKAGE) 2>/dev/null | grep -q 'install ok installed' || \
	  { [ "$$(id -u)" -eq 0 ] && echo "installing: $(BENCH_JDK_PACKAGE)" && apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(BENCH_JDK_PACKAGE) >/dev/null; } || \
	  echo "bench: no $(BENCH_JDK_PACKAGE); the libjvm.so listing rows will say so"

bench: bench-samples bench-packages
	-@$(MAKE) --no-print-directory -k $(BUILD)/rawprobe $(BUILD)/rawprobe-static \
	  $(BUILD)/rawprobe-static.stripped $(SAMPLES)
	tests/bench/run.py --build $(BUILD) --runs $(BENCH_RUNS) --warmup $(BENCH_WARMUP) \
	  $(if $(BENCH_ROWS),--rows $(BENCH_ROWS))

.PHONY: bench bench-samples bench-packages
