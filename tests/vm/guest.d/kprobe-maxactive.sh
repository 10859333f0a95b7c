# --kretprobe-maxactive=N reaches the kernel. The kprobe PMU has no field for maxactive, so a
# kretprobe with it is defined through kprobe_events as "r<N>:NAME FUNC".
#   kprobe-maxactive/line:MODE    while attached, kprobe_events lists rawprobe's kretprobe as
#                                 r<N>:kprobes/rawprobe_<pid>_<n> vfs_read, the name rawprobe
#                                 wrote (--trace-syscalls shows the write); MODE auto or legacy
#   kprobe-maxactive/retval:MODE  and the kretprobe still works: the sum of vfs_read's retval
#                                 equals the bytes samples/open_read reports
#   kprobe-maxactive/clean:MODE   no rawprobe_* event left afterwards
#   kprobe-maxactive/pmu          with --attach-mode=pmu: exit 2, an error naming both options,
#                                 nothing attached
# The child (-c) runs only once every probe is attached, so what it reads from kprobe_events
# is the attached state.
max=7
n=3
sample=$RAWPROBE_SAMPLES/open_read
program='kretprobe:vfs_read /comm == "open_read"/ { @bytes = sum(retval); }'
child="sh -c 'cat /sys/kernel/tracing/kprobe_events; exec $sample $n'"

for mode in auto legacy; do
  "$RAWPROBE" --trace-syscalls --attach-mode="$mode" --kretprobe-maxactive="$max" -o "out.$mode" \
    -e "$program" -c "$child" >"child.$mode" 2>"err.$mode"
  rc=$?
  leftovers=$(vm_rawprobe_events)
  # write("/sys/kernel/tracing/kprobe_events", "r7:rawprobe_123_0 vfs_read+0\n") = 31
  written=$(sed -n 's|^write("[^"]*/kprobe_events", "\(r[0-9]*:rawprobe_[0-9]*_[0-9]*\) .*|\1|p' "err.$mode" | head -n 1)
  name=${written#*:}
  listed=$(grep "rawprobe_" "child.$mode")
  if [ "$rc" -ne 0 ]; then
    vm_result "kprobe-maxactive/line:$mode" FAIL "exit $rc: $(grep -v '^bpf(\|^perf_event_open(\|^ioctl(\|^write(' "err.$mode" | head -c 400)"
  elif [ "$written" != "r$max:$name" ] || [ -z "$name" ]; then
    vm_result "kprobe-maxactive/line:$mode" FAIL "rawprobe did not write an r$max: line; its kprobe_events writes: $(grep kprobe_events "err.$mode" | head -n 3)"
  elif printf '%s\n' "$listed" | grep -qx "r$max:kprobes/$name vfs_read"; then
    vm_result "kprobe-maxactive/line:$mode" PASS "wrote '$written vfs_read+0', kprobe_events lists '$listed'"
  else
    vm_result "kprobe-maxactive/line:$mode" FAIL "wrote '$written', kprobe_events lists '$listed'"
  fi
  bytes=$(vm_report_value "child.$mode" bytes)
  got=$(grep '^@bytes: ' "out.$mode")
  if [ "$rc" -eq 0 ] && [ "$(vm_report_value "child.$mode" opens)" = "$n" ] && [ "$got" = "@bytes: $bytes" ]; then
    vm_result "kprobe-maxactive/retval:$mode" PASS "$got, the sample read $bytes bytes"
  else
    vm_result "kprobe-maxactive/retval:$mode" FAIL "exit $rc, the sample reports '$bytes' bytes, rawprobe printed: $(tr '\n' ' ' <"out.$mode")"
  fi
  if [ -z "$leftovers" ]; then
    vm_result "kprobe-maxactive/clean:$mode" PASS "no rawprobe_* event left after exit $rc"
  else
    vm_result "kprobe-maxactive/clean:$mode" FAIL "left behind: $leftovers"
  fi
done

"$RAWPROBE" --trace-syscalls --attach-mode=pmu --kretprobe-maxactive="$max" -e "$program" \
  -c "$sample 1" >out.pmu 2>err.pmu
rc=$?
leftovers=$(vm_rawprobe_events)
if [ "$rc" -eq 2 ] && grep -q -- '--kretprobe-maxactive cannot be used with --attach-mode=pmu' err.pmu &&
   ! grep -q '^perf_event_open(\|^write(' err.pmu && [ -z "$leftovers" ] && [ ! -s out.pmu ]; then
  vm_result kprobe-maxactive/pmu PASS "exit 2: $(head -n 2 err.pmu | tr '\n' ' ')"
else
  vm_result kprobe-maxactive/pmu FAIL "exit $rc, stderr: $(head -c 400 err.pmu); stdout: $(head -c 200 out.pmu); left: $leftovers"
fi

# --explain tells the attach a run with the same options makes:
#   kprobe-maxactive/explain:MODE   its kprobe_events line is the one the run writes (the
#                                   name aside), with maxactive given as the reason
#   kprobe-maxactive/explain-pmu    without maxactive, in auto mode: the kprobe PMU, and the
#                                   run indeed opens a kprobe PMU event and writes no line
for mode in auto legacy; do
  "$RAWPROBE" --explain kretprobe:vfs_read --attach-mode="$mode" --kretprobe-maxactive="$max" >"explain.$mode" 2>&1
  rc=$?
  told=$(sed -n "s|^attach: kprobe_events line '\(r[0-9]*\):rawprobe_<pid>_<n> \([^']*\)' (maxactive $max can only be set this way).*|\1 \2|p" "explain.$mode")
  did=$(sed -n 's|^write("[^"]*/kprobe_events", "\(r[0-9]*\):rawprobe_[0-9]*_[0-9]* \([^\\]*\)\\n".*|\1 \2|p' "err.$mode" | head -n 1)
  if [ "$rc" -eq 0 ] && [ -n "$told" ] && [ "$told" = "$did" ]; then
    vm_result "kprobe-maxactive/explain:$mode" PASS "explain and run both: $told"
  else
    vm_result "kprobe-maxactive/explain:$mode" FAIL "exit $rc, explain told '$told', the run wrote '$did'; explain: $(head -c 400 "explain.$mode")"
  fi
done
"$RAWPROBE" --explain kretprobe:vfs_read >explain.plain 2>&1
rc=$?
"$RAWPROBE" --trace-syscalls -e "$program" -c "$sample 1" >out.plain 2>err.plain
run_rc=$?
if [ "$rc" -eq 0 ] && grep -q '^attach: perf_event_open on the kprobe PMU' explain.plain && [ "$run_rc" -eq 0 ] &&
   grep -q '^perf_event_open({type=[0-9]* /\* kprobe \*/' err.plain && ! grep -q 'kprobe_events' err.plain; then
  vm_result kprobe-maxactive/explain-pmu PASS "$(grep '^attach:' explain.plain)"
else
  vm_result kprobe-maxactive/explain-pmu FAIL "explain exit $rc: $(head -c 300 explain.plain); run exit $run_rc: $(grep -m2 'kprobe' err.plain)"
fi
