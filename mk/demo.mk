# `make demo`: install the build dependencies, build rawprobe and the seed's samples, then run
# real tracing sessions (root needed: uprobes and tracepoints attach for real):
#   1. uprobes on fun/foo/bar of the seed's fun.c, counted per probe, and bar's return values
#   2. the seed's read_rand thread timing (uprobe + uretprobe) with read()'s return values
#      from the syscall tracepoints
# Each runs with -c: the sample is started held, every probe is attached, then it runs, and
# rawprobe prints the maps when it exits.
DEMO_FUN := $(BUILD)/samples/fun
DEMO_RR  := $(BUILD)/samples/read_rand

demo:
	@$(MAKE) --no-print-directory deps
	@$(MAKE) --no-print-directory -j2 $(BUILD)/rawprobe $(DEMO_FUN) $(DEMO_RR)
	@if [ "$$(id -u)" != 0 ]; then echo "make demo attaches real probes: run it as root"; exit 1; fi
	@echo '$$ $(BUILD)/rawprobe -c "$(DEMO_FUN) 2" -e '"'"'uprobe:$(DEMO_FUN):fun, uprobe:$(DEMO_FUN):foo, uprobe:$(DEMO_FUN):bar { @calls[probe] = count(); } uretprobe:$(DEMO_FUN):bar { @returned[retval] = count(); }'"'"
	@$(BUILD)/rawprobe -c "$(DEMO_FUN) 2" -e 'uprobe:$(DEMO_FUN):fun, uprobe:$(DEMO_FUN):foo, uprobe:$(DEMO_FUN):bar { @calls[probe] = count(); } uretprobe:$(DEMO_FUN):bar { @returned[retval] = count(); }'
	@echo
	@echo '$$ $(BUILD)/rawprobe -c $(DEMO_RR) -e '"'"'uprobe:$(DEMO_RR):thread_fun { @start[tid] = nsecs; } uretprobe:$(DEMO_RR):thread_fun { @ns[pid, tid, @start[tid]] = nsecs - @start[tid]; delete(@start[tid]); } tracepoint:syscalls:sys_exit_read /comm == "read_rand"/ { @ret[tid] = args->ret; }'"'"
	@$(BUILD)/rawprobe -c $(DEMO_RR) -e 'uprobe:$(DEMO_RR):thread_fun { @start[tid] = nsecs; } uretprobe:$(DEMO_RR):thread_fun { @ns[pid, tid, @start[tid]] = nsecs - @start[tid]; delete(@start[tid]); } tracepoint:syscalls:sys_exit_read /comm == "read_rand"/ { @ret[tid] = args->ret; }'

.PHONY: demo
