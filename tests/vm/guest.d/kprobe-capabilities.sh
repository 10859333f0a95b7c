# kprobes without root: as uid 65534 holding only the capabilities an attach mode needs
# (samples/drop_caps keeps them through the ambient set, as setpriv does on the host), a
# kprobe script traces; with any one of them dropped, rawprobe exits 1 naming it and leaves
# nothing attached. What each mode needs is the kernel's rule:
#   auto    a kprobe_multi link (CONFIG_FPROBE, 6.12 here): CAP_BPF and CAP_PERFMON; without
#           it (6.1) the kprobe PMU: CAP_SYS_ADMIN, which stands in for those two
#   pmu     the kprobe PMU: CAP_SYS_ADMIN
#   legacy  kprobe_events (root's, 0640 in a 0700 directory): CAP_DAC_OVERRIDE, and a perf event
#           per probe: CAP_BPF and CAP_PERFMON, or CAP_SYS_ADMIN alone where
#           kernel.perf_event_paranoid is 3 (Debian's CONFIG_SECURITY_PERF_EVENTS_RESTRICT)
# Dropping CAP_SYS_ADMIN where it stood in for CAP_BPF leaves CAP_BPF the first one missing.
#   kprobe-capabilities/MODE             with all of them: @calls of do_sys_openat2 = the sample's opens
#   kprobe-capabilities/MODE-CAP         without CAP: exit 1, the error names the one missing
#   kprobe-capabilities/MODE-CAP:clean   no rawprobe_* event left behind
n=3
sample=$RAWPROBE_SAMPLES/open_read
dropper=$RAWPROBE_SAMPLES/drop_caps
program='kprobe:do_sys_openat2, kprobe:vfs_read /comm == "open_read"/ { @calls[probe] = count(); }'
# uid 65534 writes -o files here (the scratch directory is root's, mode 0700).
out=$(mktemp -d /tmp/as-nobody.XXXXXX)
chmod 777 "$out"

if vm_config_enabled CONFIG_FPROBE; then auto=bpf,perfmon; else auto=sys_admin; fi
legacy=bpf,perfmon,dac_override
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
[ "$paranoid" -gt 2 ] && legacy=sys_admin,dac_override

for entry in "auto:$auto" pmu:sys_admin "legacy:$legacy"; do
  mode=${entry%%:*}
  caps=${entry#*:}
  "$dropper" -u 65534 -k "$caps" "$RAWPROBE" --attach-mode="$mode" -o "$out/$mode" -e "$program" \
    -c "$sample $n" >"sample.$mode" 2>"err.$mode"
  rc=$?
  opens=$(vm_report_value "sample.$mode" opens)
  got=$(grep '^@calls\[kprobe:do_sys_openat2\]: ' "$out/$mode")
  if [ "$rc" -eq 0 ] && [ -n "$opens" ] && [ "$got" = "@calls[kprobe:do_sys_openat2]: $opens" ]; then
    vm_result "kprobe-capabilities/$mode" PASS "with $caps only: $got, the sample opened $opens times"
  else
    vm_result "kprobe-capabilities/$mode" FAIL "with $caps: exit $rc, want '@calls[kprobe:do_sys_openat2]: $opens'; $(head -c 300 "$out/$mode") $(head -c 400 "err.$mode")"
  fi
  vm_result_clean "kprobe-capabilities/$mode:clean" "$rc"
  for drop in $(echo "$caps" | tr ',' ' '); do
    rest=$(echo ",$caps," | sed "s/,$drop,/,/; s/^,//; s/,\$//")
    named=$drop
    [ "$drop" = sys_admin ] && ! echo ",$rest," | grep -q ',bpf,' && named=bpf
    want=CAP_$(echo "$named" | tr 'a-z' 'A-Z')
    "$dropper" -u 65534 -k "$rest" "$RAWPROBE" --attach-mode="$mode" -e "$program" -c "$sample 1" \
      >"out.$mode.$drop" 2>"err.$mode.$drop"
    rc=$?
    if [ "$rc" -eq 1 ] && grep -q "needs $want," "err.$mode.$drop"; then
      vm_result "kprobe-capabilities/$mode-$drop" PASS "with '$rest': $(head -n 1 "err.$mode.$drop" | head -c 300)"
    else
      vm_result "kprobe-capabilities/$mode-$drop" FAIL "with '$rest': exit $rc, want 'needs $want': $(head -c 400 "err.$mode.$drop")"
    fi
    vm_result_clean "kprobe-capabilities/$mode-$drop:clean" "$rc"
  done
done

# Where perf_event_paranoid is 3, CAP_BPF and CAP_PERFMON do not open a legacy probe's perf
# event: rawprobe must say CAP_SYS_ADMIN is missing before it writes kprobe_events, rather
# than fail with the kernel's bare EACCES after.
#   kprobe-capabilities/legacy-paranoid   exit 1 naming CAP_SYS_ADMIN, no kprobe_events write
if [ "$paranoid" -gt 2 ]; then
  "$dropper" -u 65534 -k bpf,perfmon,dac_override "$RAWPROBE" --trace-syscalls --attach-mode=legacy -e "$program" \
    -c "$sample 1" >out.paranoid 2>err.paranoid
  rc=$?
  if [ "$rc" -eq 1 ] && grep -q 'needs CAP_SYS_ADMIN,' err.paranoid && ! grep -q 'kprobe_events"' err.paranoid; then
    vm_result kprobe-capabilities/legacy-paranoid PASS "perf_event_paranoid $paranoid: $(grep 'needs CAP_SYS_ADMIN' err.paranoid | head -c 300)"
  else
    vm_result kprobe-capabilities/legacy-paranoid FAIL "perf_event_paranoid $paranoid, exit $rc: $(tail -c 500 err.paranoid)"
  fi
  vm_result_clean kprobe-capabilities/legacy-paranoid:clean "$rc"
fi
rm -rf "$out"
