# printf from kprobe and kretprobe, delivered through each event buffer:
#   --event-buffer=ringbuf  BPF ring buffer (5.8)
#   --event-buffer=perf     one perf ring per CPU, the fallback for older kernels
# The whole output must be what samples/open_read's own report implies, in order: for each of
# its opens and reads, "open by PID" then "read returned X" (one CPU, so events arrive in the
# order they happened).
#   kprobe-buffers/KIND   the output, line for line
#   kprobe-buffers/clean:KIND  no rawprobe_* event left afterwards
n=3
sample=$RAWPROBE_SAMPLES/open_read
program='
kprobe:do_sys_openat2 /comm == "open_read"/ { printf("open by %d\n", pid); }
kretprobe:vfs_read /comm == "open_read"/ { printf("read returned %d\n", retval); }'

for kind in ringbuf perf; do
  "$RAWPROBE" --event-buffer="$kind" -o "out.$kind" -e "$program" -c "$sample $n" >"sample.$kind" 2>"err.$kind"
  rc=$?
  leftovers=$(vm_rawprobe_events)
  pid=$(vm_report_value "sample.$kind" pid)
  {
    echo "Attaching 2 probes..."
    awk -v pid="$pid" '$1 == "read" && $3 == "returned" { print "open by " pid; print "read returned " $4 }' "sample.$kind"
  } >"want.$kind"
  if [ "$rc" -ne 0 ]; then
    vm_result "kprobe-buffers/$kind" FAIL "exit $rc: $(head -c 400 "err.$kind")"
  elif [ "$(vm_report_value "sample.$kind" opens)" != "$n" ]; then
    vm_result "kprobe-buffers/$kind" FAIL "the sample did not report $n opens: $(head -c 300 "sample.$kind")"
  elif cmp -s "want.$kind" "out.$kind"; then
    vm_result "kprobe-buffers/$kind" PASS "$(($(wc -l <"out.$kind") - 1)) printf lines as the sample (pid $pid) reports: $(sed -n 2,3p "out.$kind" | tr '\n' ';')..."
  else
    vm_result "kprobe-buffers/$kind" FAIL "want: $(tr '\n' ';' <"want.$kind") got: $(tr '\n' ';' <"out.$kind")"
  fi
  if [ -z "$leftovers" ]; then
    vm_result "kprobe-buffers/clean:$kind" PASS "no rawprobe_* event left after exit $rc"
  else
    vm_result "kprobe-buffers/clean:$kind" FAIL "left behind: $leftovers"
  fi
done
