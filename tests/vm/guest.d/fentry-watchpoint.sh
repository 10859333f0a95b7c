# watchpoint:ADDR:8:w on samples/watch_writes' global (built -no-pie: the address its `0` run
# reports is the address in every run). The kernel's own writes when exec sets up .bss are
# counted too, alike in a run that writes 0 times: the difference is the sample's count.
#   fentry-watchpoint/writes   count(N runs) - count(0 runs) = N, the sample's report
sample=$RAWPROBE_SAMPLES/watch_writes
addr=$("$sample" 0 | awk '$1 == "addr" { print $2 }')
seen() {
  "$RAWPROBE" -o "out.$1" -e "watchpoint:$addr:8:w { @writes = count(); }" -c "$sample $1" >"sample.$1" 2>"err.$1"
  echo "$? $(sed -n 's/^@writes: //p' "out.$1") $(vm_report_value "sample.$1" writes)"
}
set -- $(seen 0)
rc0=$1 base=$2
set -- $(seen 500)
rc=$1 got=$2 reported=$3
if [ "$rc0" -eq 0 ] && [ "$rc" -eq 0 ] && [ -n "$got" ] && [ $((got - base)) = "$reported" ] && [ "$reported" = 500 ]; then
  vm_result fentry-watchpoint/writes PASS "$got - $base = $reported writes, as the sample reports (address $addr)"
else
  vm_result fentry-watchpoint/writes FAIL "exit $rc0/$rc, counts $base/$got, reported $reported: $(head -c 300 err.500)"
fi
