# kprobe and kretprobe through the real command line, in both forced attach modes:
#   pmu     perf_event_open of the kprobe PMU
#   legacy  a kprobe_events line per probe, opened as a tracepoint
# The sample samples/open_read opens a file exactly N times and reads once after each open; its
# own report ("opens N", "read I returned X", "bytes B") is the oracle. Results per mode:
#   kprobe-run/count:MODE   @opens of kprobe:do_sys_openat2 filtered to the sample = its opens
#   kprobe-run/retval:MODE  kretprobe:vfs_read retval: sum, calls and per-call sizes = its reads
#   kprobe-run/clean:MODE   afterwards no rawprobe_* event is left in kprobe_events/uprobe_events
n=5
sample=$RAWPROBE_SAMPLES/open_read
program='
kprobe:do_sys_openat2 /comm == "open_read"/ { @opens = count(); }
kretprobe:vfs_read /comm == "open_read"/ { @bytes = sum(retval); @reads = count(); @sizes[retval] = count(); }'

for mode in pmu legacy; do
  "$RAWPROBE" --attach-mode="$mode" -o "out.$mode" -e "$program" -c "$sample $n" >"sample.$mode" 2>"err.$mode"
  rc=$?
  leftovers=$(vm_rawprobe_events)
  opens=$(vm_report_value "sample.$mode" opens)
  reads=$(vm_report_value "sample.$mode" reads)
  bytes=$(vm_report_value "sample.$mode" bytes)
  header=$(head -n 1 "out.$mode")
  if [ "$rc" -ne 0 ]; then
    vm_result "kprobe-run/count:$mode" FAIL "exit $rc: $(head -c 400 "err.$mode")"
    vm_result "kprobe-run/retval:$mode" FAIL "exit $rc (see count:$mode)"
  elif [ "$opens" != "$n" ]; then
    vm_result "kprobe-run/count:$mode" FAIL "the sample reports 'opens $opens', asked for $n: $(head -c 300 "sample.$mode")"
    vm_result "kprobe-run/retval:$mode" FAIL "no valid sample report (see count:$mode)"
  else
    got=$(grep '^@opens: ' "out.$mode")
    if [ "$header" = "Attaching 2 probes..." ] && [ "$got" = "@opens: $opens" ]; then
      vm_result "kprobe-run/count:$mode" PASS "$got, the sample opened $opens times"
    else
      vm_result "kprobe-run/count:$mode" FAIL "want '@opens: $opens' after 'Attaching 2 probes...'; output: $(head -c 400 "out.$mode")"
    fi
    # Per call: one "@sizes[X]: C" line per distinct size the sample's reads returned, C calls
    # each (bpftrace prints a map's entries by value, ascending).
    awk '$1 == "read" && $3 == "returned" { c[$4]++ } END { for (s in c) printf "@sizes[%s]: %d\n", s, c[s] }' \
      "sample.$mode" | sort -t: -k2,2n -k1,1 >"want-sizes.$mode"
    grep '^@sizes\[' "out.$mode" >"got-sizes.$mode"
    got_bytes=$(grep '^@bytes: ' "out.$mode")
    got_reads=$(grep '^@reads: ' "out.$mode")
    if [ "$got_bytes" = "@bytes: $bytes" ] && [ "$got_reads" = "@reads: $reads" ] &&
       cmp -s "want-sizes.$mode" "got-sizes.$mode"; then
      vm_result "kprobe-run/retval:$mode" PASS "$got_bytes in $got_reads calls ($(tr '\n' ' ' <"got-sizes.$mode")), the sample read $bytes bytes in $reads calls"
    else
      vm_result "kprobe-run/retval:$mode" FAIL "the sample read $bytes bytes in $reads calls ($(tr '\n' ' ' <"want-sizes.$mode")); output: $(tr '\n' ' ' <"out.$mode")"
    fi
  fi
  if [ -z "$leftovers" ]; then
    vm_result "kprobe-run/clean:$mode" PASS "no rawprobe_* event in kprobe_events or uprobe_events after exit $rc"
  else
    vm_result "kprobe-run/clean:$mode" FAIL "left behind: $leftovers"
  fi
done
