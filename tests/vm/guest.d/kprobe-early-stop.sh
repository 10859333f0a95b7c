# SIGTERM (legacy) or SIGINT (pmu) while a large kprobe wildcard is attached one function at a
# time: rawprobe stops at the next function, ends the run as on any stop signal (END runs, the
# maps print, exit 0), removes every kprobe_events entry it defined, and attaches END even so
# (named first, END is attached after the wildcard, once the signal is pending).
#   kprobe-early-stop/MODE        exit 0, "end ran", @started printed; far fewer functions
#                                 attached than the wildcard has (--trace-syscalls' account)
#   kprobe-early-stop/MODE:clean  no rawprobe_* event left behind
T=/sys/kernel/tracing
program='END { printf("end ran\n"); } BEGIN { @started = 1; }
kprobe:vfs_*, kprobe:security_* { @calls = count(); }'

# How many of the wildcard's attachments exist now: legacy counts its kprobe_events entries,
# pmu its perf event descriptors (BEGIN's among them).
attached_now() {
  if [ "$1" = legacy ]; then
    grep -c "rawprobe_$2_" "$T/kprobe_events"
  else
    ls -l "/proc/$2/fd" 2>/dev/null | grep -c 'perf_event'
  fi
}

for entry in legacy:TERM pmu:INT; do
  mode=${entry%%:*}
  sig=${entry#*:}
  "$RAWPROBE" --trace-syscalls --attach-mode="$mode" -e "$program" >"out.$mode" 2>"err.$mode" &
  pid=$!
  seen=0
  tries=0
  while [ "$seen" -lt 8 ] && [ "$tries" -lt 1200 ] && kill -0 "$pid" 2>/dev/null; do
    sleep 0.05
    seen=$(attached_now "$mode" "$pid")
    tries=$((tries + 1))
  done
  kill -"$sig" "$pid"
  wait "$pid"
  rc=$?
  total=$(sed -n 's/^Attaching \([0-9]*\) probes\.\.\.$/\1/p' "out.$mode")
  if [ "$mode" = legacy ]; then
    # Every entry defined (kprobes and BEGIN's and END's uprobes), and each one removed.
    attached=$(grep -c "\"p:rawprobe_${pid}_" "err.$mode")
    removed=$(grep -c "\"-:[ku]probes/rawprobe_${pid}_" "err.$mode")
  else
    attached=$(grep -c 'perf_event_open(.*) = [0-9]' "err.$mode")
    removed=$attached
  fi
  if [ "$seen" -lt 8 ]; then
    vm_result "kprobe-early-stop/$mode" FAIL "saw $seen attachments, not 8, before rawprobe ended (exit $rc): $(head -c 400 "err.$mode")"
  elif [ "$rc" -ne 0 ] || ! grep -q '^end ran$' "out.$mode" || ! grep -q '^@started: 1$' "out.$mode"; then
    vm_result "kprobe-early-stop/$mode" FAIL "exit $rc, want 0 with 'end ran' and '@started: 1': $(head -c 400 "out.$mode") $(tail -c 400 "err.$mode")"
  elif [ -z "$total" ] || [ "$attached" -ge "$total" ] || [ "$removed" -ne "$attached" ]; then
    vm_result "kprobe-early-stop/$mode" FAIL "attached $attached of ${total:-?} (removed $removed): the attach did not stop early"
  else
    vm_result "kprobe-early-stop/$mode" PASS "SIG$sig after $seen: $attached of $total attached (BEGIN and END included), $removed removed, END ran, maps printed"
  fi
  vm_result_clean "kprobe-early-stop/$mode:clean" "$rc"
done
