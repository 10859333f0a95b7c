# hardware:cycles:N and hardware:instructions:N sample the CPU's own counters, so the number of
# samples grows with the work done: samples/bench_getppid makes N getppid() calls, run at N and
# at 8N, each counted with the filter on its comm. The arm64 virt machine's `-cpu max` has a
# PMU (armv8_pmuv3; qemu counts instructions only with -icount, which tests/vm/boot gives it);
# qemu's x86_64 machine emulates none under TCG, nor does the 32-bit arm guest (its cortex-a15
# has no PMU in qemu's device tree; tests/vm/boot), and there the check is rawprobe's answer to a
# machine without one, with the kernel's own evidence (sysfs, dmesg) in the result.
#   hardware/EVENT   the counts at N and 8N, the second more than twice the first
#   hardware/no-pmu  (no PMU) exit 1 and the error that says so, naming the probe
n=20000
pmu=$(ls /sys/bus/event_source/devices 2>/dev/null | grep -E '^(cpu|cpu_core|armv8_pmuv3.*|armv8_cortex.*)$' | head -n 1)
sample=$RAWPROBE_SAMPLES/bench_getppid

if [ -z "$pmu" ]; then
  evidence="PMUs in sysfs: $(ls /sys/bus/event_source/devices | tr '\n' ' '); dmesg: $(dmesg | grep -iE 'perf|pmu' | head -n 2 | tr '\n' ' ')"
  if [ "$(uname -m)" = aarch64 ]; then
    vm_result hardware/pmu FAIL "the arm64 virt machine (-cpu max) has a PMU, but the kernel registered none; $evidence"
    exit 0
  fi
  "$RAWPROBE" -e 'hardware:cycles:1000000 { @c = count(); }' -c "$sample $n" >out 2>err
  rc=$?
  if [ "$rc" -eq 1 ] && grep -q "no hardware PMU.*'hardware:cycles:1000000'" err; then
    vm_result hardware/no-pmu PASS "no PMU on this machine ($evidence); rawprobe: $(head -n 1 err)"
  else
    vm_result hardware/no-pmu FAIL "no PMU ($evidence), but rawprobe exited $rc: $(head -c 400 err)"
  fi
  vm_result_clean hardware/clean "$rc"
  exit 0
fi

# count EVENT CALLS: prints the @n of one run, or "error: ..." when rawprobe failed.
count() {
  "$RAWPROBE" -o "out.$1.$2" -e "hardware:$1:100000 /comm == \"bench_getppid\"/ { @n = count(); }" \
    -c "$sample $2" >"sample.$1.$2" 2>"err.$1.$2"
  rc=$?
  if [ "$rc" -ne 0 ]; then echo "error: exit $rc: $(head -c 300 "err.$1.$2")"; return; fi
  awk '$1 == "@n:" { print $2 }' "out.$1.$2"
}
for event in cycles instructions; do
  small=$(count "$event" "$n")
  large=$(count "$event" $((n * 8)))
  case "$small$large" in
    *error*|'') vm_result "hardware/$event" FAIL "PMU $pmu; at $n calls: '$small'; at $((n * 8)): '$large'" ;;
    *)
      if [ "$small" -gt 0 ] && [ "$large" -gt $((small * 2)) ]; then
        vm_result "hardware/$event" PASS "PMU $pmu; @n: $small samples (period 100000) at $n getppid calls, $large at $((n * 8))"
      else
        vm_result "hardware/$event" FAIL "PMU $pmu; @n: $small at $n calls, $large at $((n * 8)): not more than twice as many"
      fi ;;
  esac
done
vm_result_clean hardware/clean 0
