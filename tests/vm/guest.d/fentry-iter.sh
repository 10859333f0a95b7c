# iter:task: the program runs once over every task and rawprobe ends by itself. The oracle is
# /proc: the thread-group leaders' pids (ctx->task->pid == tgid) printed by the iterator are the
# numeric entries of /proc, less those that began or ended in between (the guest is idle; a
# difference beyond rawprobe's own pid fails).
#   fentry-iter/task     the pids equal /proc's
#   fentry-iter/ends     rawprobe exits 0 without a signal or exit() within the test's time
ls /proc | grep -E '^[0-9]+$' | sort -n >proc.before
timeout 60 "$RAWPROBE" -q -e 'iter:task /ctx->task->pid == ctx->task->tgid/ { printf("%d\n", ctx->task->pid); }' \
  >out.iter 2>err.iter
rc=$?
ls /proc | grep -E '^[0-9]+$' | sort -n >proc.after
sort -n out.iter | grep -E '^[0-9]+$' >iter.sorted
# Present in /proc both before and after: must be listed. Listed: must be in one of them.
comm -12 proc.before proc.after >proc.stable
missing=$(comm -23 proc.stable iter.sorted | tr '\n' ' ')
extra=$(sort -u proc.before proc.after | comm -13 - iter.sorted | tr '\n' ' ')
if vm_no_btf fentry-iter/ends "$rc" err.iter; then
  return 0 2>/dev/null || exit 0
elif [ "$rc" -ne 0 ]; then
  vm_result fentry-iter/ends FAIL "exit $rc: $(head -c 300 err.iter)"
else
  vm_result fentry-iter/ends PASS "exit 0 after $(wc -l <iter.sorted) tasks"
fi
# rawprobe's own pid appears in the iteration but in neither listing of /proc.
extra_count=$(echo $extra | wc -w)
if [ -z "$missing" ] && [ "$extra_count" -le 1 ] && [ -s iter.sorted ]; then
  vm_result fentry-iter/task PASS "$(wc -l <iter.sorted) pids, as /proc (beyond it: '$extra'; only rawprobe itself may be)"
else
  vm_result fentry-iter/task FAIL "missing '$missing', extra '$extra'"
fi
