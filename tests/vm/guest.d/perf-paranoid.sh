# Perf events at kernel.perf_event_paranoid 3 on Debian's kernels, whose patch
# (CONFIG_SECURITY_PERF_EVENTS_RESTRICT) lets only CAP_SYS_ADMIN open any: as uid 65534, a
# tracepoint and a profile script with CAP_BPF, CAP_PERFMON and CAP_DAC_READ_SEARCH stop
# before anything is made, naming CAP_SYS_ADMIN and the sysctl; with CAP_SYS_ADMIN (standing in
# for the other two) and CAP_DAC_READ_SEARCH they run. The host's upstream kernel reads 3 as 2,
# so this is where the refusal is the kernel's own.
#   perf-paranoid/TYPE-refused   exit 1, 'needs CAP_SYS_ADMIN', the sysctl named, no BPF_PROG_LOAD
#   perf-paranoid/TYPE-admin     exit 0, the map printed
dropper=$RAWPROBE_SAMPLES/drop_caps
saved=$(cat /proc/sys/kernel/perf_event_paranoid)
echo 3 >/proc/sys/kernel/perf_event_paranoid
for entry in "tracepoint:tracepoint:syscalls:sys_enter_getppid" "profile:profile:hz:99"; do
  type=${entry%%:*}
  program="${entry#*:} { @n = count(); } interval:ms:200 { exit(); }"
  "$dropper" -u 65534 -k bpf,perfmon,dac_read_search "$RAWPROBE" --trace-syscalls -e "$program" \
    >"out.$type" 2>"err.$type"
  rc=$?
  if [ "$rc" -eq 1 ] && grep -q 'kernel.perf_event_paranoid is 3 .* needs CAP_SYS_ADMIN,' "err.$type" &&
    ! grep -q 'BPF_PROG_LOAD\|BPF_MAP_CREATE' "err.$type"; then
    vm_result "perf-paranoid/$type-refused" PASS "$(grep 'needs CAP_SYS_ADMIN' "err.$type" | head -c 300)"
  else
    vm_result "perf-paranoid/$type-refused" FAIL "exit $rc: $(tail -c 500 "err.$type")"
  fi
  "$dropper" -u 65534 -k sys_admin,dac_read_search "$RAWPROBE" -e "$program" >"out.$type.admin" 2>"err.$type.admin"
  rc=$?
  if [ "$rc" -eq 0 ] && grep -q '^@n: ' "out.$type.admin"; then
    vm_result "perf-paranoid/$type-admin" PASS "$(grep '^@n: ' "out.$type.admin")"
  else
    vm_result "perf-paranoid/$type-admin" FAIL "exit $rc: $(tail -c 400 "err.$type.admin") $(head -c 200 "out.$type.admin")"
  fi
done
echo "$saved" >/proc/sys/kernel/perf_event_paranoid
