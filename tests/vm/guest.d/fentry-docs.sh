# The kfunc and iter examples of bpftrace 0.17's documentation (its man page, sections "kfunc
# and kretfunc" and "iterator"), run as written, give the output shape the documentation shows.
# Where the guest can say more than the shape, it does (/proc's comm of each listed pid).
#   fentry-docs/kfunc-listing   -lv 'kfunc:tcp_reset': the docs' two argument lines, verbatim,
#                               under a line naming tcp_reset (rawprobe names it as bpftrace
#                               0.20 does, fentry:vmlinux:tcp_reset; 0.17 said kfunc:tcp_reset)
#   fentry-docs/kretfunc-fget   kretfunc:fget printing "fd %d name %s": lines "fd N name FILE",
#                               one of them the BTF file a second rawprobe maps (mmap calls fget)
#   fentry-docs/iter-task       iter:task printing "%s:%d" of comm and pid: "Attaching 1
#                               probe..." then COMM:PID lines from pid 1 on, each comm /proc's (its
#                               first 15 bytes)
#   fentry-docs/iter-pin        iter:task:list: "Program pinned to /sys/fs/bpf/list", then
#                               `cat /sys/fs/bpf/list` gives the same COMM:PID lines
# Left out: kfunc:x86_pmu_stop (the docs show no output; TCG has no hardware PMU to stop),
# kfunc:kvm:x86_emulate_insn (kvm cannot load without VT-x); the iter:task_file example, which
# calls path() (bpf_d_path), is fentry-path.sh's.

"$RAWPROBE" -lv 'kfunc:tcp_reset' >out.list 2>err.list
rc=$?
first=$(sed -n 1p out.list)
args=$(sed -n '2,$p' out.list | tr '\n' '|')
if vm_no_btf fentry-docs/kfunc-listing "$rc" err.list; then :
elif [ "$rc" -eq 0 ] && [ "${first%:tcp_reset}" != "$first" ] && [ "$args" = "    struct sock * sk|    struct sk_buff * skb|" ]; then
  vm_result fentry-docs/kfunc-listing PASS "'$first' then the docs' two argument lines"
else
  vm_result fentry-docs/kfunc-listing FAIL "exit $rc: '$(head -c 300 out.list)' $(head -c 200 err.list)"
fi

"$RAWPROBE" -o out.fget -c "$RAWPROBE -lv fentry:vfs_read" \
  -e 'kretfunc:fget { printf("fd %d name %s\n", args->fd, str(retval->f_path.dentry->d_name.name)); }' \
  >/dev/null 2>err.fget
rc=$?
lines=$(grep -c "^fd " out.fget)
odd=$(sed '1d' out.fget | grep -v '^$' | grep -vE '^fd [0-9]+ name .+$' | head -n 3 | tr '\n' '|')
if vm_no_trampolines fentry-docs/kretfunc-fget "$rc" err.fget; then :
elif [ "$rc" -eq 0 ] && [ "$lines" -gt 0 ] && [ -z "$odd" ] && grep -qE '^fd [0-9]+ name vmlinux$' out.fget; then
  vm_result fentry-docs/kretfunc-fget PASS "$lines lines 'fd N name FILE', among them $(grep -m1 -E 'name vmlinux$' out.fget)"
else
  vm_result fentry-docs/kretfunc-fget FAIL "exit $rc, $lines lines, odd '$odd': $(head -c 300 err.fget)"
fi

# COMM:PID lines of FILE against /proc: prints what is wrong, nothing when all is right.
check_tasks() {
  want_first="$(cat /proc/1/comm):1"
  got_first=$(grep -m1 -E ':[0-9]+$' "$1")
  [ "$got_first" = "$want_first" ] || echo "first task '$got_first', /proc says '$want_first'"
  grep -E ':[0-9]+$' "$1" | while IFS= read -r line; do
    pid=${line##*:}
    comm=${line%:*}
    [ -r /proc/"$pid"/comm ] || continue  # gone since
    # /proc names a kernel thread in full (a worker's workqueue appended); task->comm keeps
    # the first 15 bytes.
    case "$(cat /proc/"$pid"/comm)" in
      "$comm"*) ;;
      *) echo "pid $pid is '$comm', /proc says '$(cat /proc/"$pid"/comm)'" ;;
    esac
  done | head -n 3
}

"$RAWPROBE" -e 'iter:task { printf("%s:%d\n", ctx->task->comm, ctx->task->pid); }' >out.task 2>err.task
rc=$?
wrong=$(check_tasks out.task)
if vm_no_btf fentry-docs/iter-task "$rc" err.task; then :
elif [ "$rc" -eq 0 ] && [ "$(sed -n 1p out.task)" = "Attaching 1 probe..." ] && [ -z "$wrong" ]; then
  vm_result fentry-docs/iter-task PASS "$(grep -cE ':[0-9]+$' out.task) COMM:PID lines, first $(sed -n 2p out.task), each comm as /proc has it"
else
  vm_result fentry-docs/iter-task FAIL "exit $rc: $wrong; $(head -c 200 out.task) $(head -c 200 err.task)"
fi

rm -f /sys/fs/bpf/list
"$RAWPROBE" -e 'iter:task:list { printf("%s:%d\n", ctx->task->comm, ctx->task->pid); }' >out.pin 2>err.pin
rc=$?
cat /sys/fs/bpf/list >out.cat 2>err.cat
wrong=$(check_tasks out.cat)
if vm_no_btf fentry-docs/iter-pin "$rc" err.pin; then :
elif [ "$rc" -eq 0 ] && grep -qx 'Program pinned to /sys/fs/bpf/list' out.pin && [ -s out.cat ] && [ -z "$wrong" ]; then
  vm_result fentry-docs/iter-pin PASS "pinned; cat gave $(grep -cE ':[0-9]+$' out.cat) COMM:PID lines, first $(sed -n 1p out.cat)"
else
  vm_result fentry-docs/iter-pin FAIL "exit $rc: $wrong; $(head -c 200 out.pin) $(head -c 200 err.pin) $(head -c 200 err.cat)"
fi
rm -f /sys/fs/bpf/list
