# kprobe arguments (arg0..argN from pt_regs through the host's arch table) and kretprobe retval,
# printed per call, in both forced attach modes. Every expected value is what the traced
# program itself was told or reports:
#   kprobe-args/path:MODE   kprobe:do_sys_openat2 printf("%d %s", pid, str(arg1)) for
#                           samples/open_read N PATH: N lines, each with the pid the sample
#                           reports and the path it reports having opened (a user pointer:
#                           str() must read user memory from a kprobe)
#   kprobe-args/count:MODE  kprobe:vfs_read arg2 (size_t count) for busybox
#                           `dd if=FILE of=COPY bs=B count=3` on a file of 2*B+R bytes: one
#                           line per record dd reports ("2+1 records in"), each asking for B
#                           bytes (its bs= argument), and kretprobe:vfs_read retval per call:
#                           B for each full record, the rest for the partial one, summing to the
#                           size of the copy dd wrote
# Both programs filter on comm; the pid printed with each line proves it was the sample.
bs=777
rest=46
n=3
sample=$RAWPROBE_SAMPLES/open_read
path=$PWD/kprobe-args-target
# 2*bs+rest bytes: dd's third read asks for bs and gets rest.
head -c $((2 * bs + rest)) /dev/urandom >"$path"

open_program='kprobe:do_sys_openat2 /comm == "open_read"/ { printf("open %d %s\n", pid, str(arg1)); }'
read_program='
kprobe:vfs_read /comm == "dd"/ { printf("read %d %d\n", pid, arg2); }
kretprobe:vfs_read /comm == "dd"/ { printf("ret %d %d\n", pid, retval); }'

for mode in pmu legacy; do
  # --- str(arg1) of do_sys_openat2 against open_read's own report
  "$RAWPROBE" --attach-mode="$mode" -o "open.$mode" -e "$open_program" -c "$sample $n $path" \
    >"sample.$mode" 2>"open-err.$mode"
  rc=$?
  pid=$(vm_report_value "sample.$mode" pid)
  opened=$(vm_report_value "sample.$mode" path)
  opens=$(vm_report_value "sample.$mode" opens)
  grep '^open ' "open.$mode" >"open-lines.$mode"
  want="open $pid $opened"
  others=$(grep -vxF "$want" "open-lines.$mode" | head -n 3 | tr '\n' ' ')
  got=$(grep -cxF "$want" "open-lines.$mode")
  if [ "$rc" -ne 0 ]; then
    vm_result "kprobe-args/path:$mode" FAIL "exit $rc: $(head -c 400 "open-err.$mode")"
  elif [ "$opens" != "$n" ] || [ "$opened" != "$path" ] || [ -z "$pid" ]; then
    vm_result "kprobe-args/path:$mode" FAIL "the sample did not report $n opens of $path: $(head -c 300 "sample.$mode")"
  elif [ "$got" = "$opens" ] && [ -z "$others" ]; then
    vm_result "kprobe-args/path:$mode" PASS "$got x '$want', the sample reports pid $pid, path $opened, opens $opens"
  else
    vm_result "kprobe-args/path:$mode" FAIL "want $opens x '$want', got $got; other lines: '$others'; output: $(head -c 300 "open.$mode")"
  fi

  # --- arg2 and retval of vfs_read against dd's arguments and its own report
  rm -f "copy.$mode"
  "$RAWPROBE" --attach-mode="$mode" -o "read.$mode" -e "$read_program" \
    -c "dd if=$path of=$PWD/copy.$mode bs=$bs count=$n" >"dd.$mode" 2>"read-err.$mode"
  rc=$?
  # busybox dd's report, on stderr after rawprobe's: "2+1 records in"
  records=$(sed -n 's/^\([0-9]*\)+\([0-9]*\) records in$/\1 \2/p' "read-err.$mode")
  full=${records% *}
  partial=${records#* }
  copied=$(wc -c <"copy.$mode" 2>/dev/null)
  dd_pid=$(awk '$1 == "read" { print $2; exit }' "read.$mode")
  awk '$1 == "read" { print $3 }' "read.$mode" | tr '\n' ' ' >"asked.$mode"
  awk '$1 == "ret" { print $3 }' "read.$mode" | tr '\n' ' ' >"returned.$mode"
  pids=$(awk '$1 == "read" || $1 == "ret" { print $2 }' "read.$mode" | sort -u | tr '\n' ' ')
  # One line per read dd made: full records of $bs bytes, then the partial one.
  want_asked="" want_returned=""
  i=0
  while [ -n "$records" ] && [ "$i" -lt $((full + partial)) ]; do
    want_asked="$want_asked$bs "
    if [ "$i" -lt "$full" ]; then want_returned="$want_returned$bs "
    else want_returned="$want_returned$((copied - full * bs)) "; fi
    i=$((i + 1))
  done
  sum=$(awk '$1 == "ret" { s += $3 } END { print s + 0 }' "read.$mode")
  if [ "$rc" -ne 0 ]; then
    vm_result "kprobe-args/count:$mode" FAIL "exit $rc: $(head -c 400 "read-err.$mode")"
  elif [ -z "$records" ] || [ "$((full + partial))" -ne "$n" ] || [ "$copied" -ne $((2 * bs + rest)) ]; then
    vm_result "kprobe-args/count:$mode" FAIL "dd did not read the file as planned: '$(head -c 200 "read-err.$mode")', copy of $copied bytes"
  elif [ "$(cat "asked.$mode")" = "$want_asked" ] && [ "$(cat "returned.$mode")" = "$want_returned" ] &&
       [ "$sum" = "$copied" ] && [ "$pids" = "$dd_pid " ]; then
    vm_result "kprobe-args/count:$mode" PASS "arg2: $want_asked(dd bs=$bs), retval: $want_returned(dd: $full+$partial records in, copied $copied bytes), pid $dd_pid"
  else
    vm_result "kprobe-args/count:$mode" FAIL "want arg2 '$want_asked' retval '$want_returned' sum $copied from one pid; got arg2 '$(cat "asked.$mode")' retval '$(cat "returned.$mode")' sum $sum pids '$pids'"
  fi
done
