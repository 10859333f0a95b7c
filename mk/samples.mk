# The seed's sample programs (samples/*.c, EXAMPLES.md section 2), built the way the seed
# builds them: plain gcc, -O0 (every function keeps its symbol and its calls), dynamic.
#   $(BUILD)/samples/<name>          what the seed's scripts and the kernel tests trace
#                                    (tests find them through RAWPROBE_SAMPLES, default here)
#   $(BUILD)/samples/static/<name>   the same, -static, for the VM harness's initramfs
SAMPLES_CC     ?= gcc
# 32-bit arm: ARM code, not the Thumb-2 that Debian's armhf gcc emits by default. The kernel's
# arm uprobes take ARM-state instructions only (rawprobe refuses Thumb code by name), and these
# programs are there to be traced. APCS frame records (-mapcs-frame: fp, ip, lr, pc), because
# the arm kernel's user stack walk (perf_callchain_user, what ustack reads) follows those.
SAMPLES_ARCH_CFLAGS_arm := -marm -mapcs-frame
SAMPLES_CFLAGS := -O0 $(SAMPLES_ARCH_CFLAGS_$(ARCH))
SAMPLE_NAMES   := hello fun read_rand hello_usdt open_read usdt_args cpu_spin sized_calls struct_arg watch_writes watch_calls exec_calls soak_calls thread_signals drop_caps
SAMPLE_LIBS_read_rand := -lpthread
SAMPLE_LIBS_thread_signals := -lpthread
# Fixed addresses of its globals, so the pointers a script prints agree between runs.
SAMPLE_LIBS_struct_arg := -no-pie
SAMPLE_LIBS_watch_writes := -no-pie

SAMPLES        := $(addprefix $(BUILD)/samples/,$(SAMPLE_NAMES))
# The VM's benchmark workload (guest.d/fentry-cost.sh): make bench builds it -O2 for the host
# (mk/bench.mk); the guest, which runs only static programs, gets this build.
STATIC_ONLY_SAMPLES := bench_getppid
STATIC_SAMPLES := $(addprefix $(BUILD)/samples/static/,$(SAMPLE_NAMES) $(STATIC_ONLY_SAMPLES))

$(SAMPLES): $(BUILD)/samples/%: samples/%.c
	@mkdir -p $(@D)
	$(SAMPLES_CC) $(SAMPLES_CFLAGS) $< -o $@ $(SAMPLE_LIBS_$*)

$(STATIC_SAMPLES): $(BUILD)/samples/static/%: samples/%.c
	@mkdir -p $(@D)
	$(SAMPLES_CC) $(SAMPLES_CFLAGS) -static $< -o $@ $(SAMPLE_LIBS_$*)

# Built again when their flags here change (the armhf build's -marm).
$(SAMPLES) $(STATIC_SAMPLES): mk/samples.mk
samples: $(SAMPLES) $(STATIC_SAMPLES)
all: samples
TEST_BUILDS += samples
.PHONY: samples
# struct_arg's types live in a header that scripts import too (samples/import_records.bt).
$(BUILD)/samples/struct_arg $(BUILD)/samples/static/struct_arg: samples/struct_arg.h
