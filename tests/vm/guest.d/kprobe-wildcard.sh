# A wildcard kprobe set, kprobe:do_sys_open*, in each attach mode:
#   auto    the kprobe_multi link when the kernel has one (CONFIG_FPROBE, 5.18), else one
#           kprobe PMU event per function
#   pmu     one kprobe PMU event per function
#   legacy  one kprobe_events line per function
# The oracle for the set is the kernel's own list: the names in available_filter_functions that
# match, minus the kprobe blacklist. samples/open_read's report gives the count for
# do_sys_openat2, which every open(2) goes through. Results per mode:
#   kprobe-wildcard/set:MODE    "Attaching K probes..." with K the oracle's count, every key
#                               of @p[probe] in the set, and @p[kprobe:do_sys_openat2] the opens
#   kprobe-wildcard/path:auto   the path auto took is the one this kernel's config implies
#   kprobe-wildcard/clean:MODE  no rawprobe_* event left afterwards
T=/sys/kernel/tracing
BL=/sys/kernel/debug/kprobes/blacklist
n=4
sample=$RAWPROBE_SAMPLES/open_read
program='kprobe:do_sys_open* /comm == "open_read"/ { @p[probe] = count(); }'

awk 'NR == FNR { black[$2] = 1; next }
     $1 ~ /^do_sys_open/ && !($1 in black) && !seen[$1]++ { print $1 }' "$BL" "$T/available_filter_functions" |
  sort >set
k=$(wc -l <set)

for mode in auto pmu legacy; do
  "$RAWPROBE" --trace-syscalls --attach-mode="$mode" -o "out.$mode" -e "$program" -c "$sample $n" \
    >"sample.$mode" 2>"err.$mode"
  rc=$?
  leftovers=$(vm_rawprobe_events)
  opens=$(vm_report_value "sample.$mode" opens)
  sed -n 's/^@p\[kprobe:\([^]]*\)\]: \([0-9]*\)$/\1 \2/p' "out.$mode" | sort >"probe-counts.$mode"
  outside=$(awk 'NR == FNR { in_set[$1] = 1; next } !($1 in in_set) { print $1 }' set "probe-counts.$mode" | tr '\n' ' ')
  got=$(awk '$1 == "do_sys_openat2" { print $2 }' "probe-counts.$mode")
  if [ "$rc" -ne 0 ]; then
    vm_result "kprobe-wildcard/set:$mode" FAIL "exit $rc: $(grep -v '^bpf(\|^perf_event_open(\|^ioctl(\|^write(' "err.$mode" | head -c 400)"
  elif [ "$k" -lt 2 ]; then
    vm_result "kprobe-wildcard/set:$mode" FAIL "the oracle has $k functions matching do_sys_open*: not a set"
  elif [ "$(head -n 1 "out.$mode")" != "Attaching $k probes..." ]; then
    vm_result "kprobe-wildcard/set:$mode" FAIL "want 'Attaching $k probes...' ($(tr '\n' ' ' <set)), got '$(head -n 1 "out.$mode")'"
  elif [ -n "$outside" ]; then
    vm_result "kprobe-wildcard/set:$mode" FAIL "counted functions outside the set: $outside"
  elif [ "$opens" != "$n" ] || [ "$got" != "$opens" ]; then
    vm_result "kprobe-wildcard/set:$mode" FAIL "do_sys_openat2 counted '$got', the sample reports $opens opens (asked for $n)"
  else
    vm_result "kprobe-wildcard/set:$mode" PASS "attached $k ($(tr '\n' ' ' <set)); counts: $(tr '\n' ' ' <"probe-counts.$mode")"
  fi
  if [ "$mode" = auto ]; then
    if vm_config_enabled CONFIG_FPROBE; then want=kprobe_multi; else want="kprobe PMU"; fi
    # What --trace-syscalls shows succeeding (a BPF_PROG_LOAD with that expected_attach_type
    # succeeds on kernels whose link creation then fails, so only the link counts):
    #   bpf(BPF_LINK_CREATE, {... attach_type=BPF_TRACE_KPROBE_MULTI ...}, 64) = 9
    #   perf_event_open({type=6, ... config1="do_sys_openat2" ...}, ...) = 9
    #   write(".../kprobe_events", "p:rawprobe_...
    if grep -qE '^bpf\(BPF_LINK_CREATE, .*attach_type=BPF_TRACE_KPROBE_MULTI.*\) = [0-9]+$' "err.$mode"; then took=kprobe_multi
    elif grep -qE '^perf_event_open\(.*config1="do_sys_open.*\) = [0-9]+$' "err.$mode"; then took="kprobe PMU"
    elif grep -q '^write(".*kprobe_events", "p:' "err.$mode"; then took=kprobe_events
    else took="nothing recognisable: $(grep -E 'KPROBE_MULTI|do_sys_open' "err.$mode" | head -n 3)"; fi
    if [ "$took" = "$want" ]; then
      vm_result kprobe-wildcard/path:auto PASS "$took (CONFIG_FPROBE $(vm_config_enabled CONFIG_FPROBE && echo set || echo unset))"
    else
      vm_result kprobe-wildcard/path:auto FAIL "took $took, this kernel's config implies $want"
    fi
  fi
  if [ -z "$leftovers" ]; then
    vm_result "kprobe-wildcard/clean:$mode" PASS "no rawprobe_* event left after exit $rc"
  else
    vm_result "kprobe-wildcard/clean:$mode" FAIL "left behind: $leftovers"
  fi
done
