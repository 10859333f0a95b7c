# fentry/fexit (BPF trampolines) on vfs_read against samples/open_read N, which reads 64 bytes
# after each of its N opens and reports its reads and bytes. Every expected value is the
# sample's own report or bpftool's:
#   fentry-vfs-read/args          fentry:vfs_read: one line per read of the sample with
#                                 args.count (typed size_t from BTF, no cast): N lines, each
#                                 asking for the sample's chunk (bytes / reads)
#   fentry-vfs-read/retval        fexit:vfs_read: sum(retval) and count() equal the sample's
#                                 bytes and reads; retval is typed ssize_t (signed: %d of a
#                                 negative stays negative, checked by the type in -lv)
#   fentry-vfs-read/struct        args.file->f_pos read through the typed struct file pointer
#                                 equals the offset before each read: 0 (each read follows an open)
#   fentry-vfs-read/syscalls      --trace-syscalls shows BPF_PROG_LOAD of a tracing program
#                                 with expected_attach_type BPF_TRACE_FENTRY and an
#                                 attach_btf_id, then BPF_LINK_CREATE with BPF_TRACE_FENTRY
#   fentry-vfs-read/listing       -lv 'fentry:vfs_read' against bpftool's prototype (the
#                                 parameter names of `bpftool btf dump`) where bpftool exists;
#                                 else the verifier loads a program reading exactly the listed
#                                 slots (fentry) and the retval slot after them (fexit)
#   fentry-vfs-read/kfunc-alias   kfunc:vfs_read (bpftrace 0.17's name) counts the same reads
n=4
sample=$RAWPROBE_SAMPLES/open_read

"$RAWPROBE" -o out.args -e 'fentry:vfs_read /comm == "open_read"/ { printf("count %d\n", args.count); }' \
  -c "$sample $n" >sample.args 2>err.args
rc=$?
reads=$(vm_report_value sample.args reads)
bytes=$(vm_report_value sample.args bytes)
if vm_no_trampolines fentry-vfs-read/args "$rc" err.args; then :
elif [ "$rc" -ne 0 ]; then
  vm_result fentry-vfs-read/args FAIL "exit $rc: $(head -c 400 err.args)"
elif [ -z "$reads" ] || [ "$reads" -eq 0 ]; then
  vm_result fentry-vfs-read/args FAIL "the sample reported no reads: $(head -c 200 sample.args)"
else
  chunk=$((bytes / reads))
  got=$(grep -cx "count $chunk" out.args)
  others=$(grep '^count ' out.args | grep -vx "count $chunk" | head -n 3 | tr '\n' ' ')
  if [ "$got" = "$reads" ] && [ -z "$others" ]; then
    vm_result fentry-vfs-read/args PASS "$got x 'count $chunk' for the sample's $reads reads of $bytes bytes"
  else
    vm_result fentry-vfs-read/args FAIL "want $reads x 'count $chunk', got $got; others: '$others'"
  fi
fi
vm_result_clean fentry-vfs-read/args-clean "$rc"

"$RAWPROBE" -o out.ret -e 'fexit:vfs_read /comm == "open_read"/ { @bytes = sum(retval); @reads = count(); }' \
  -c "$sample $n" >sample.ret 2>err.ret
rc=$?
reads=$(vm_report_value sample.ret reads)
bytes=$(vm_report_value sample.ret bytes)
got_bytes=$(sed -n 's/^@bytes: //p' out.ret)
got_reads=$(sed -n 's/^@reads: //p' out.ret)
if vm_no_trampolines fentry-vfs-read/retval "$rc" err.ret; then :
elif [ "$rc" -ne 0 ]; then
  vm_result fentry-vfs-read/retval FAIL "exit $rc: $(head -c 400 err.ret)"
elif [ "$got_bytes" = "$bytes" ] && [ "$got_reads" = "$reads" ] && [ -n "$reads" ]; then
  vm_result fentry-vfs-read/retval PASS "@bytes $got_bytes, @reads $got_reads, as the sample reports"
else
  vm_result fentry-vfs-read/retval FAIL "want bytes $bytes reads $reads, got '$got_bytes' '$got_reads': $(head -c 300 out.ret)"
fi

"$RAWPROBE" -o out.struct -e 'fentry:vfs_read /comm == "open_read"/ { @pos[args.file->f_pos] = count(); }' \
  -c "$sample $n" >sample.struct 2>err.struct
rc=$?
reads=$(vm_report_value sample.struct reads)
if vm_no_trampolines fentry-vfs-read/struct "$rc" err.struct; then :
elif [ "$rc" -ne 0 ]; then
  vm_result fentry-vfs-read/struct FAIL "exit $rc: $(head -c 400 err.struct)"
elif grep -qx "@pos\[0\]: $reads" out.struct && [ "$(grep -c '^@pos' out.struct)" = 1 ]; then
  vm_result fentry-vfs-read/struct PASS "args.file->f_pos was 0 before each of the $reads reads"
else
  vm_result fentry-vfs-read/struct FAIL "want @pos[0]: $reads only, got: $(head -c 300 out.struct)"
fi

"$RAWPROBE" --trace-syscalls -e 'fentry:vfs_read { @ = count(); } BEGIN { exit(); }' >out.sys 2>err.sys
rc=$?
load=$(grep -cE '^bpf\(BPF_PROG_LOAD, .*prog_type=BPF_PROG_TYPE_TRACING.*expected_attach_type=BPF_TRACE_FENTRY.*attach_btf_id=[1-9][0-9]*.*\) = [0-9]+$' err.sys)
link=$(grep -cE '^bpf\((BPF_LINK_CREATE, .*attach_type=BPF_TRACE_FENTRY|BPF_RAW_TRACEPOINT_OPEN, .*name=NULL).*\) = [0-9]+$' err.sys)
if vm_no_trampolines fentry-vfs-read/syscalls "$rc" err.sys; then :
elif [ "$rc" -eq 0 ] && [ "$load" -ge 1 ] && [ "$link" -ge 1 ]; then
  vm_result fentry-vfs-read/syscalls PASS "$load tracing load(s) with attach_btf_id, $link trampoline link(s)"
else
  vm_result fentry-vfs-read/syscalls FAIL "exit $rc, loads $load, links $link: $(grep -E 'PROG_LOAD|LINK_CREATE|RAW_TRACE' err.sys | head -c 500)"
fi

"$RAWPROBE" -lv 'fentry:vfs_read' >out.list 2>err.list
rc=$?
params=$(sed -n 's/^    .* \([A-Za-z_0-9]*\)$/\1/p' out.list | grep -vx retval | tr '\n' ' ')
if command -v bpftool >/dev/null 2>&1; then
  id=$(bpftool btf dump file /sys/kernel/btf/vmlinux | awk '/FUNC .vfs_read. type_id=/ { split($4, a, "="); print a[2]; exit }')
  want=$(bpftool btf dump file /sys/kernel/btf/vmlinux | awk -v id="$id" '$1 == "[" id "]" { on = 1; next } on && /^\t/ { gsub(/\x27/, "", $1); print $1; next } on { exit }' | tr '\n' ' ')
  oracle=bpftool
else
  # No bpftool in the guest: the kernel's verifier is the oracle. A program that reads every
  # listed parameter's slot in fentry, and the slot after them as fexit's retval, loads only
  # if the function has exactly that many arguments (btf_ctx_access refuses a slot past them,
  # and fexit's return value is the slot right after the last).
  reads=""
  for p in $params; do reads="$reads @$p = (uint64)args.$p;"; done
  "$RAWPROBE" --dry-run -e "fentry:vfs_read { $reads } fexit:vfs_read { @r = retval; }" >/dev/null 2>err.dry
  dry=$?
  want=$params
  [ "$dry" -eq 0 ] || want="(the verifier refused the listed slots: $(head -c 300 err.dry))"
  oracle=verifier
fi
if vm_no_btf fentry-vfs-read/listing "$rc" err.list; then :
elif [ "$rc" -eq 0 ] && [ "$(head -n 1 out.list)" = "fentry:vmlinux:vfs_read" ] && [ -n "$params" ] && [ "$params" = "$want" ] &&
   grep -q ' retval$' out.list; then
  vm_result fentry-vfs-read/listing PASS "($oracle) $(tr '\n' '|' <out.list)"
else
  vm_result fentry-vfs-read/listing FAIL "exit $rc, params '$params' want '$want': $(tr '\n' '|' <out.list) $(head -c 200 err.list)"
fi

"$RAWPROBE" -o out.kfunc -e 'kfunc:vfs_read /comm == "open_read"/ { @reads = count(); }' -c "$sample $n" \
  >sample.kfunc 2>err.kfunc
rc=$?
reads=$(vm_report_value sample.kfunc reads)
if vm_no_trampolines fentry-vfs-read/kfunc-alias "$rc" err.kfunc; then :
elif [ "$rc" -eq 0 ] && grep -qx "@reads: $reads" out.kfunc; then
  vm_result fentry-vfs-read/kfunc-alias PASS "@reads: $reads, as the sample reports"
else
  vm_result fentry-vfs-read/kfunc-alias FAIL "exit $rc, want @reads: $reads: $(head -c 300 out.kfunc) $(head -c 300 err.kfunc)"
fi
