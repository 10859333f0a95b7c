# What a fentry probe costs against a kprobe on the same function, __do_sys_getppid (getppid()), called
# by samples/bench_getppid (N getppid() calls timed with clock_gettime). Figures for `make
# bench` (tests/bench/benchlib/rows/fentry_cost.py reads this result's detail); the check is
# only that each probe counted exactly the workload's calls. Three rounds, the probes taking
# turns, with kernel.bpf_stats_enabled=1 (put back after); each figure is the median.
#   added ns per call   the workload's ns per call under the probe less the untraced one
#   program ns per run  run_time_ns / run_cnt of the probe's program, read from the tracer's
#                       /proc/PID/fdinfo while it is still attached
n=${VM_BENCH_CALLS:-50000}
workload=$RAWPROBE_SAMPLES/bench_getppid
# arm64 has no __do_sys_ function for a system call without arguments: SYSCALL_DEFINE0's body
# is __arm64_sys_getppid itself. 32-bit arm has no syscall wrappers at all: sys_getppid.
case "$(uname -m)" in
  aarch64) func=__arm64_sys_getppid ;;
  armv7l) func=sys_getppid ;;
  *) func=__do_sys_getppid ;;
esac
problems=""

ns_per_call() { sed -n 's/.*ns_per_call=\([0-9.]*\).*/\1/p' "$1"; }
median() { sort -n | sed -n 2p; }

# measure TYPE: "NS_PER_CALL PROGRAM_NS" of the workload under TYPE:func { @ = count(); }.
measure() {
  # BEGIN runs once every probe is attached: its line says the workload may start. (The last
  # round's file goes first: the shell may look before the new run has truncated it.)
  rm -f "out.$1"
  "$RAWPROBE" -e "BEGIN { printf(\"ready\\n\"); } $1:$func /comm == \"bench_getppid\"/ { @ = count(); }" \
    >"out.$1" 2>"err.$1" &
  rp=$!
  i=0
  while ! grep -q '^ready' "out.$1" 2>/dev/null && [ $i -lt 300 ]; do sleep 0.2; i=$((i + 1)); done
  "$workload" "$n" >"wl.$1"
  # The program that ran once per call: the largest run_cnt among the tracer's fds.
  prog=$(for f in /proc/$rp/fdinfo/*; do
    awk '/^run_time_ns:/ { t = $2 } /^run_cnt:/ { c = $2 } END { if (c > 0) print c, t }' "$f" 2>/dev/null
  done | sort -n | tail -n 1 | awk '{ printf "%.1f", $2 / $1 }')
  # SIGTERM, not SIGINT: a shell without job control starts background commands with SIGINT
  # ignored. Waited for at most a minute, then killed (and said).
  kill -TERM $rp
  i=0
  while kill -0 $rp 2>/dev/null && [ $i -lt 120 ]; do sleep 0.5; i=$((i + 1)); done
  if kill -0 $rp 2>/dev/null; then
    kill -KILL $rp
    problems="$problems $1 did not end within 60 s of SIGTERM;"
  fi
  wait $rp
  echo "fentry-cost: $1 done after $i waits: $(tr '\n' ' ' <"out.$1")" >&2
  got=$(sed -n 's/^@: //p' "out.$1")
  [ "$got" = "$n" ] || problems="$problems $1 counted '$got' of $n calls ($(head -c 200 "err.$1"));"
  echo "$(ns_per_call "wl.$1") $prog"
}

# Without BPF trampolines on kernel functions there is no fentry cost to measure.
if ! vm_config_enabled CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS; then
  "$RAWPROBE" -e "fentry:$func { @ = count(); }" -c "$workload 1" >out.probe 2>err.probe
  vm_no_trampolines fentry-cost $? err.probe
  exit 0
fi

stats_before=$(cat /proc/sys/kernel/bpf_stats_enabled)
echo 1 >/proc/sys/kernel/bpf_stats_enabled
for round in 1 2 3; do
  "$workload" "$n" >wl.none
  ns_per_call wl.none >>untraced
  measure fentry >>fentry.runs
  measure kprobe >>kprobe.runs
done
echo "$stats_before" >/proc/sys/kernel/bpf_stats_enabled

u=$(median <untraced)
fa=$(cut -d' ' -f1 fentry.runs | median)
ka=$(cut -d' ' -f1 kprobe.runs | median)
fp=$(cut -d' ' -f2 fentry.runs | median)
kp=$(cut -d' ' -f2 kprobe.runs | median)
figures=$(awk -v n="$n" -v u="$u" -v fa="$fa" -v ka="$ka" -v fp="$fp" -v kp="$kp" 'BEGIN {
  f = fa - u; k = ka - u
  printf "calls=%d untraced_ns=%.1f fentry_added_ns=%.1f kprobe_added_ns=%.1f added_ratio=%.3f ", n, u, f, k, (k > 0 ? f / k : 0)
  printf "fentry_prog_ns=%.1f kprobe_prog_ns=%.1f prog_ratio=%.3f", fp, kp, (kp > 0 ? fp / kp : 0) }')
if [ -z "$problems" ] && [ -n "$u" ] && [ -n "$fa" ] && [ -n "$ka" ] && [ -n "$fp" ] && [ -n "$kp" ]; then
  vm_result fentry-cost PASS "$figures"
else
  vm_result fentry-cost FAIL "$problems $figures"
fi
