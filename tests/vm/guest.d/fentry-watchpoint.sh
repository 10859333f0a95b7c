# watchpoint:ADDR:SIZE:w on samples/watch_writes' global, a long (8 bytes; 4 on 32-bit arm),
# built -no-pie: the address its `0` run reports is the address in every run. The kernel's
# own writes when exec sets up .bss are counted too, alike in a run that writes 0 times: the
# difference is the sample's count.
#   fentry-watchpoint/writes   count(N runs) - count(0 runs) = N, the sample's report; on a
#                              32-bit arm CPU without mismatch breakpoints, rawprobe's refusal
#                              naming that
#   fentry-watchpoint/len8     (a 4-byte long only) an 8-byte watch: counted as above where the
#                              CPU's debug unit can watch 8 bytes, else refused with the hint
sample=$RAWPROBE_SAMPLES/watch_writes
"$sample" 0 >sample.info
addr=$(awk '$1 == "addr" { print $2 }' sample.info)
size=$(awk '$1 == "size" { print $2 }' sample.info)
seen() {
  "$RAWPROBE" -o "out.$1" -e "watchpoint:$addr:${2:-$size}:w { @writes = count(); }" -c "$sample $1" >"sample.$1" 2>"err.$1"
  echo "$? $(sed -n 's/^@writes: //p' "out.$1") $(vm_report_value "sample.$1" writes)"
}
set -- $(seen 0)
rc0=$1 base=$2
set -- $(seen 500)
rc=$1 got=$2 reported=$3
if [ "$rc" -ne 0 ] && grep -q 'perf_event_open: EINVAL' err.500 &&
   grep -q "32-bit arm's kernel sets a watchpoint only where the CPU's debug unit has mismatch breakpoints" err.500; then
  # 32-bit arm: the kernel steps over a perf watchpoint's access with a mismatch breakpoint,
  # which qemu's cortex-a15 lacks; rawprobe must say so.
  vm_result fentry-watchpoint/writes PASS "refused by this CPU, and rawprobe says why: $(grep -m 1 hint err.500 | head -c 200)"
  return 0 2>/dev/null || exit 0
elif [ "$rc0" -eq 0 ] && [ "$rc" -eq 0 ] && [ -n "$got" ] && [ $((got - base)) = "$reported" ] && [ "$reported" = 500 ]; then
  vm_result fentry-watchpoint/writes PASS "$got - $base = $reported writes, as the sample reports (address $addr, $size bytes)"
else
  vm_result fentry-watchpoint/writes FAIL "exit $rc0/$rc, counts $base/$got, reported $reported: $(head -c 300 err.500)"
fi
if [ "$size" = 4 ]; then
  set -- $(seen 0 8)
  base=$2
  set -- $(seen 300 8)
  rc=$1 got=$2 reported=$3
  if [ "$rc" -eq 0 ] && [ -n "$got" ] && [ -n "$base" ] && [ "$reported" = 300 ] && [ $((got - base)) = 300 ]; then
    vm_result fentry-watchpoint/len8 PASS "this CPU watches 8 bytes: $got - $base = 300 writes"
  elif [ "$rc" -ne 0 ] && grep -q 'perf_event_open: EINVAL' err.300 &&
       grep -q "watches at most 4 bytes\|32-bit arm's kernel sets a watchpoint only where" err.300; then
    vm_result fentry-watchpoint/len8 PASS "8 bytes refused with the hint: $(grep -m 1 hint err.300)"
  else
    vm_result fentry-watchpoint/len8 FAIL "exit $rc, count $got, reported $reported: $(head -c 300 err.300)"
  fi
fi
