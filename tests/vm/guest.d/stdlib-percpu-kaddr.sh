# percpu_kaddr("name"[, cpu]) (bpftrace 0.26.1's docs/stdlib.md) on kernels whose kallsyms lists
# variables (Debian's: CONFIG_KALLSYMS_ALL=y), which the host's kernel does not. process_counts
# counts, per CPU, the processes forked there and not yet gone (kernel/fork.c: copy_process()
# adds a thread-group leader, __unhash_process() takes it away; nr_processes() sums it), so the
# oracle is /proc's own list of processes: rawprobe's sum over every possible CPU must lie
# between the counts of /proc/PID directories before and after its run, plus rawprobe itself.
#   stdlib-percpu-kaddr/sum       bpf_per_cpu_ptr over CPUs 0..N-1 sums to the processes /proc lists
#                                 (without CONFIG_KALLSYMS_ALL: rawprobe's refusal naming it)
#   stdlib-percpu-kaddr/this-cpu  bpf_this_cpu_ptr reads what bpf_per_cpu_ptr(cpu) reads

# A kernel built without CONFIG_KALLSYMS_ALL (Debian's arm64 6.1) lists no variables: there
# rawprobe must refuse the script by name, before loading anything.
if ! grep -q ' process_counts$' /proc/kallsyms; then
  "$RAWPROBE" -e 'BEGIN { $p = percpu_kaddr("process_counts", 0); printf("%d\n", $p != 0); exit(); }' \
    >out.percpu 2>err.percpu
  rc=$?
  # Without BTF too (the armmp kernels), that is what rawprobe names first.
  if [ ! -e /sys/kernel/btf/vmlinux ]; then
    want="percpu_kaddr() needs the kernel's BTF" also=CONFIG_DEBUG_INFO_BTF
  else
    want="no 'process_counts' here" also=CONFIG_KALLSYMS_ALL
  fi
  if [ "$rc" -ne 0 ] && grep -qF "$want" err.percpu && grep -q "$also" err.percpu && [ ! -s out.percpu ]; then
    vm_result stdlib-percpu-kaddr/sum PASS "kallsyms lists no process_counts: refused naming $also, exit $rc"
  else
    vm_result stdlib-percpu-kaddr/sum FAIL "kallsyms lists no process_counts; exit $rc, out '$(head -c 100 out.percpu)': $(head -c 300 err.percpu)"
  fi
  return 0 2>/dev/null || exit 0
fi
possible=$(cat /sys/devices/system/cpu/possible)
ncpus=$(( ${possible##*-} + 1 ))
# Counted by the shell's own glob, so no process of the count's own is counted.
processes() { set -- /proc/[0-9]*; count=$#; }
processes; before=$count
"$RAWPROBE" -e 'BEGIN { $t = 0; for $i : 0..$1 { $p = percpu_kaddr("process_counts", $i); if ($p != 0) { $t += *$p; } }
  $here = percpu_kaddr("process_counts"); $mine = percpu_kaddr("process_counts", cpu);
  printf("sum %d this_cpu_matches %d\n", $t, *$here == *$mine); exit(); }' "$ncpus" >out.percpu 2>err.percpu
rc=$?
processes; after=$count
lo=$before; hi=$after
[ "$after" -lt "$before" ] && lo=$after && hi=$before
hi=$((hi + 1))  # rawprobe, alive while it counted
sum=$(awk '$1 == "sum" { print $2 }' out.percpu)
if [ "$rc" -eq 0 ] && [ -n "$sum" ] && [ "$sum" -ge "$lo" ] && [ "$sum" -le "$hi" ]; then
  vm_result stdlib-percpu-kaddr/sum PASS "sum over $ncpus CPUs $sum, /proc lists $lo..$hi processes"
else
  vm_result stdlib-percpu-kaddr/sum FAIL "exit $rc, sum '$sum', /proc lists $lo..$hi processes: $(head -c 400 err.percpu)"
fi
if grep -q 'this_cpu_matches 1' out.percpu; then
  vm_result stdlib-percpu-kaddr/this-cpu PASS "this CPU's process_counts read alike both ways"
else
  vm_result stdlib-percpu-kaddr/this-cpu FAIL "$(head -c 200 out.percpu) $(head -c 300 err.percpu)"
fi
