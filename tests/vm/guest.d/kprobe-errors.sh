# Bad kprobes get a specific error and a non-zero exit, and leave no event behind, also when
# an earlier probe of the same script was already attached (the error path removes it).
#   kprobe-errors/no-such-function   kprobe:<a name no kernel has>: error naming it, exit != 0
#   kprobe-errors/mid-insn:MODE      kprobe:do_sys_openat2 attached, then kprobe:vfs_read+1,
#                                    inside vfs_read's first instruction, refused by the kernel
#                                    (EILSEQ): in both modes the error names the probe as
#                                    written, 'kprobe:vfs_read+1', and says the offset is
#                                    inside an instruction; exit != 0, nothing left
T=/sys/kernel/tracing
bogus=rawprobe_no_such_function

"$RAWPROBE" -e "kprobe:$bogus { @ = count(); }" >out.bogus 2>err.bogus
rc=$?
leftovers=$(vm_rawprobe_events)
if [ "$rc" -ne 0 ] && grep -q "kernel function '$bogus' not found" err.bogus && [ -z "$leftovers" ]; then
  vm_result kprobe-errors/no-such-function PASS "exit $rc: $(head -n 1 err.bogus)"
else
  vm_result kprobe-errors/no-such-function FAIL "exit $rc, stderr: $(head -c 300 err.bogus); left: $leftovers"
fi

for mode in pmu legacy; do
  "$RAWPROBE" --trace-syscalls --attach-mode="$mode" \
    -e 'kprobe:do_sys_openat2 { @a = count(); } kprobe:vfs_read+1 { @b = count(); }' >"out.$mode" 2>"err.$mode"
  rc=$?
  leftovers=$(vm_rawprobe_events)
  grep -v '^bpf(\|^perf_event_open(\|^ioctl(\|^write(' "err.$mode" >"msg.$mode"
  # Legacy: the event defined for do_sys_openat2 before vfs_read+1 failed, and its removal.
  first=$(sed -n 's|^write("[^"]*/kprobe_events", "p:\(rawprobe_[0-9]*_[0-9]*\) do_sys_openat2+0.*|\1|p' "err.$mode")
  removed=yes
  if [ -n "$first" ] && ! grep -q "^write(\"[^\"]*/kprobe_events\", \"-:kprobes/$first" "err.$mode"; then removed=no; fi
  if [ "$rc" -ne 0 ] && grep -q "'kprobe:vfs_read+1'" "msg.$mode" && grep -q 'is inside an instruction of vfs_read' "msg.$mode" && [ -z "$leftovers" ] && [ "$removed" = yes ]; then
    vm_result "kprobe-errors/mid-insn:$mode" PASS "exit $rc: $(head -n 2 "msg.$mode" | tr '\n' ' ')${first:+; $first (do_sys_openat2) was defined first, then removed}"
  else
    vm_result "kprobe-errors/mid-insn:$mode" FAIL "exit $rc, stderr: $(head -c 300 "msg.$mode"); left: $leftovers; ${first:+$first removed: $removed}"
  fi
done
