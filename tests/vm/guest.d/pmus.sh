# The perf PMUs and tracefs files rawprobe attaches through are present exactly when the
# booted kernel's own config says they should be, and the stock kernels have kprobes (the
# development machine does not, so kprobe support is proven here).
#   pmu NAME CONFIG_X    PMU directory /sys/bus/event_source/devices/NAME with a numeric type
#   tracefs FILE CONFIG_X  /sys/kernel/tracing/FILE
pmu() {
  dir=/sys/bus/event_source/devices/$1
  type=$(cat "$dir/type" 2>/dev/null)
  if vm_config_enabled "$2"; then
    case "$type" in
      ''|*[!0-9]*) vm_result "pmu:$1" FAIL "$2 is set but $dir/type is missing or not a number ('$type')" ;;
      *) vm_result "pmu:$1" PASS "type $type ($2)" ;;
    esac
  elif [ -e "$dir" ]; then
    vm_result "pmu:$1" FAIL "$dir exists although $2 is not set"
  else
    vm_result "pmu:$1" PASS "absent, as $2 is not set"
  fi
}
tracefs_file() {
  path=/sys/kernel/tracing/$1
  if vm_config_enabled "$2"; then
    if [ -f "$path" ]; then vm_result "tracefs:$1" PASS "present ($2)"
    else vm_result "tracefs:$1" FAIL "$2 is set but $path is missing"; fi
  elif [ -e "$path" ]; then vm_result "tracefs:$1" FAIL "$path exists although $2 is not set"
  else vm_result "tracefs:$1" PASS "absent, as $2 is not set"; fi
}

# The tracepoint PMU has no config of its own: perf_event_init() registers it whenever
# CONFIG_PERF_EVENTS is set (kernel/events/core.c, perf_tp_register).
pmu tracepoint CONFIG_PERF_EVENTS
pmu uprobe CONFIG_UPROBE_EVENTS
pmu kprobe CONFIG_KPROBE_EVENTS
tracefs_file uprobe_events CONFIG_UPROBE_EVENTS
tracefs_file kprobe_events CONFIG_KPROBE_EVENTS
tracefs_file available_filter_functions CONFIG_DYNAMIC_FTRACE

# Every kernel this harness boots is there to prove kprobe support.
if vm_config_enabled CONFIG_KPROBES && [ -f /sys/bus/event_source/devices/kprobe/type ]; then
  vm_result kprobes PASS "CONFIG_KPROBES=y and the kprobe PMU is registered"
else
  vm_result kprobes FAIL "this kernel cannot run kprobe tests: CONFIG_KPROBES $(grep -E '^# CONFIG_KPROBES is not set|^CONFIG_KPROBES=' "$VM_KCONFIG"), kprobe PMU type file $( [ -f /sys/bus/event_source/devices/kprobe/type ] && echo present || echo missing)"
fi
