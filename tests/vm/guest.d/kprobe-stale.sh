# Events left in kprobe_events/uprobe_events by rawprobe processes that no longer exist are
# removed when rawprobe starts; events of live processes and other tools' events are kept.
#   kprobe-stale/by-hand  rawprobe_<deadpid>_N events written here (a kprobe, a kretprobe with
#                         maxactive, a uprobe) are gone after one rawprobe run; rawprobe_1_0
#                         (pid 1 is alive) and a foreign event stay
#   kprobe-stale/killed   a rawprobe killed with SIGKILL while attached in legacy mode leaves
#                         its kprobe and uprobe events behind (the reason for the cleanup); the
#                         next rawprobe run removes them
T=/sys/kernel/tracing
run_rawprobe() { "$RAWPROBE" -e 'BEGIN { exit(); }' >>rawprobe.out 2>&1; }

# A pid that existed and has exited.
dead=$(sh -c 'echo $$')
[ -d "/proc/$dead" ] && dead=$(sh -c 'echo $$')
defined=""
echo "p:rawprobe_${dead}_0 vfs_read" >>"$T/kprobe_events" && defined="$defined kprobe"
echo "r5:rawprobe_${dead}_1 vfs_read" >>"$T/kprobe_events" && defined="$defined kretprobe"
echo "p:rawprobe_${dead}_2 $RAWPROBE:0x1000" >>"$T/uprobe_events" && defined="$defined uprobe"
echo "p:rawprobe_1_0 vfs_read" >>"$T/kprobe_events" && defined="$defined live"
echo "p:vmtest_other vfs_read" >>"$T/kprobe_events" && defined="$defined foreign"
before=$(cat "$T/kprobe_events" "$T/uprobe_events" | tr '\n' ';')
run_rawprobe
rc=$?
after_k=$(cat "$T/kprobe_events")
after_u=$(cat "$T/uprobe_events")
dead_left=$(printf '%s\n%s\n' "$after_k" "$after_u" | grep "rawprobe_${dead}_")
if [ "$defined" != " kprobe kretprobe uprobe live foreign" ]; then
  vm_result kprobe-stale/by-hand FAIL "could not define the test events (defined:$defined)"
elif [ "$rc" -ne 0 ]; then
  vm_result kprobe-stale/by-hand FAIL "rawprobe exited $rc: $(head -c 300 rawprobe.out)"
elif [ -n "$dead_left" ]; then
  vm_result kprobe-stale/by-hand FAIL "events of dead pid $dead still there: $dead_left"
elif ! printf '%s\n' "$after_k" | grep -q 'rawprobe_1_0 ' || ! printf '%s\n' "$after_k" | grep -q 'vmtest_other '; then
  vm_result kprobe-stale/by-hand FAIL "removed more than the dead pid's events: now '$after_k'"
else
  vm_result kprobe-stale/by-hand PASS "before: $before after: $(printf '%s;%s' "$after_k" "$after_u")"
fi
echo "-:kprobes/rawprobe_1_0" >>"$T/kprobe_events"
echo "-:kprobes/vmtest_other" >>"$T/kprobe_events"

# A real leftover: SIGKILL gives rawprobe no chance to remove its events. The -c child runs
# only once every probe is attached, and kills its parent, rawprobe.
: >rawprobe.out
"$RAWPROBE" --attach-mode=legacy -e "kprobe:vfs_read { @r = count(); }
uprobe:$RAWPROBE_SAMPLES/open_read:main { @u = count(); }" -c "sh -c 'kill -9 \$PPID'" >killed.out 2>&1
killed_rc=$?
left=$(vm_rawprobe_events | tr '\n' ';')
run_rawprobe
rc=$?
after=$(vm_rawprobe_events | tr '\n' ';')
if [ "$killed_rc" -ne 137 ]; then
  vm_result kprobe-stale/killed FAIL "the traced child should have killed rawprobe (exit 137), exit $killed_rc: $(head -c 300 killed.out)"
elif ! printf '%s' "$left" | grep -q 'kprobes/rawprobe_' || ! printf '%s' "$left" | grep -q 'uprobes/rawprobe_'; then
  vm_result kprobe-stale/killed FAIL "the killed rawprobe left no kprobe and uprobe events to clean: '$left'"
elif [ "$rc" -ne 0 ] || [ -n "$after" ]; then
  vm_result kprobe-stale/killed FAIL "after the next run (exit $rc): '$after' (was '$left'); $(head -c 300 rawprobe.out)"
else
  vm_result kprobe-stale/killed PASS "left by SIGKILL: $left removed by the next run"
fi
# Leave nothing to the tests after this one, whatever happened above.
for event in $(vm_rawprobe_events | sed 's/^[^:]*:\([^ ]*\).*/\1/'); do
  case "$event" in
    uprobes/*) echo "-:$event" >>"$T/uprobe_events" ;;
    *) echo "-:$event" >>"$T/kprobe_events" ;;
  esac
done
