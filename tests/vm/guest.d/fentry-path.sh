# path() (bpf_d_path) where the kernel allows it: iterators and fentry/fexit of the functions
# of its btf_allowlist_d_path. Every expected value is the kernel's other account of the same
# files (readlink of /proc/PID/fd/N) or samples/open_read's own report:
#   fentry-path/iter-task-file     bpftrace 0.17's iter:task_file example, as written: each
#                                  "COMM:PID FD:PATH" line's PATH is what readlink says of
#                                  /proc/PID/fd/FD (its last 63 bytes past 63), where it is open
#   fentry-path/security-file-open fentry:security_file_open printing path(args.file->f_path)
#                                  while open_read opens a known file N times: N lines naming
#                                  it, for the sample's N opens
#   fentry-path/fexit-security-file-open  fexit:security_file_open where retval is 0 (the open
#                                  allowed): the same N lines, through fexit's context
#   fentry-path/vfs-open-refused   fentry:vfs_open { path(args.path) }: vfs_open is not in the
#                                  kernel's allowlist, so the verifier refuses the call; rawprobe
#                                  exits non-zero naming btf_allowlist_d_path
sample=$RAWPROBE_SAMPLES/open_read

"$RAWPROBE" -e 'iter:task_file { printf("%s:%d %d:%s\n", ctx->task->comm, ctx->task->pid, ctx->fd, path(ctx->file->f_path)); }' \
  >out.iter 2>err.iter
rc=$?
compared=0
wrong=""
while IFS= read -r line; do
  case "$line" in *:*" "*:*) ;; *) continue ;; esac
  task=${line%% *}
  file=${line#* }
  pid=${task##*:}
  fd=${file%%:*}
  got=${file#*:}
  [ "$pid" = "$$" ] && continue  # this loop's own redirections change this shell's fds
  want=$(readlink /proc/"$pid"/fd/"$fd" 2>/dev/null) || continue  # closed since
  [ ${#want} -gt 63 ] && want=$(printf '%s' "$want" | tail -c 63)
  compared=$((compared + 1))
  [ "$got" = "$want" ] || wrong="$wrong pid $pid fd $fd: '$got' not '$want';"
done <out.iter
if vm_no_btf fentry-path/iter-task-file "$rc" err.iter; then :
elif [ "$rc" -eq 0 ] && [ "$compared" -ge 3 ] && [ -z "$wrong" ]; then
  vm_result fentry-path/iter-task-file PASS "$compared paths equal readlink's, e.g. $(grep -m1 '^init:1 ' out.iter)"
else
  vm_result fentry-path/iter-task-file FAIL "exit $rc, $compared compared:$(printf '%s' "$wrong" | head -c 300) $(head -c 300 err.iter)"
fi

mkdir -p /tmp/path-test
known=/tmp/path-test/known-file
echo data >"$known"
n=3
for kind in fentry fexit; do
  if [ "$kind" = fentry ]; then
    script='fentry:security_file_open /comm == "open_read"/ { printf("open %s\n", path(args.file->f_path)); }'
    name=security-file-open
  else
    script='fexit:security_file_open /comm == "open_read" && retval == 0/ { printf("open %s\n", path(args.file->f_path)); }'
    name=fexit-security-file-open
  fi
  "$RAWPROBE" -o out.$kind -e "$script" -c "$sample $n $known" >sample.$kind 2>err.$kind
  rc=$?
  opens=$(vm_report_value sample.$kind opens)
  got=$(grep -cx "open $known" out.$kind)
  if vm_no_trampolines fentry-path/$name "$rc" err.$kind; then :
  elif [ "$rc" -eq 0 ] && [ -n "$opens" ] && [ "$opens" -gt 0 ] && [ "$got" = "$opens" ]; then
    vm_result fentry-path/$name PASS "$got x 'open $known' for the sample's $opens opens"
  else
    vm_result fentry-path/$name FAIL "exit $rc, $got lines for $opens opens: $(head -c 200 out.$kind) $(head -c 300 err.$kind)"
  fi
done

"$RAWPROBE" -e 'fentry:vfs_open { printf("%s\n", path(args.path)); }' -c "$sample 1" >out.refused 2>err.refused
rc=$?
if vm_no_btf fentry-path/vfs-open-refused "$rc" err.refused; then :
elif [ "$rc" -ne 0 ] && grep -q 'btf_allowlist_d_path' err.refused && grep -q 'not allowed' err.refused; then
  vm_result fentry-path/vfs-open-refused PASS "exit $rc: $(grep -m1 'not allowed' err.refused)"
else
  vm_result fentry-path/vfs-open-refused FAIL "exit $rc: $(head -c 400 err.refused)"
fi
