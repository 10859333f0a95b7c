# kprobe:FUNC+OFF with OFF > 0 on an instruction boundary, in both forced attach modes.
# The boundary's oracle is the kernel's own instruction decoder, asked without rawprobe: a
# kprobe_events line "p:NAME FUNC+K" is refused for an offset inside an instruction (can_probe()
# in arch/x86/kernel/kprobes/core.c decodes FUNC from its start; the error_log says "Probe point
# is not an instruction boundary"), so the smallest K > 0 it accepts is where FUNC's second
# instruction starts (5 on the amd64 kernels: after the 5-byte __fentry__ call site; 8 on
# arm64 6.1, past its two-instruction ftrace site, see below). Every
# call runs that instruction, so FUNC+K fires exactly as often as FUNC itself. Results:
#   kprobe-offset/boundary          the oracle found a K > 0 the kernel accepts
#   kprobe-offset/count:MODE        kprobe:do_sys_openat2 and kprobe:do_sys_openat2+K, both
#                                   filtered to samples/open_read N: each counts the N opens
#                                   the sample reports, and while attached the kernel's
#                                   kprobes/list (debugfs) has a probe at do_sys_openat2+0xK
#                                   (so +K reached the kernel as written, not as +0)
#   kprobe-offset/clean:MODE        no rawprobe_* event left afterwards
T=/sys/kernel/tracing
func=do_sys_openat2
oracle=vmtest_offset_oracle
n=4
sample=$RAWPROBE_SAMPLES/open_read

off=""
k=1
while [ "$k" -le 16 ]; do
  if echo "p:$oracle $func+$k" >>"$T/kprobe_events" 2>/dev/null; then
    off=$k
    echo "-:$oracle" >>"$T/kprobe_events"
    break
  fi
  k=$((k + 1))
done
if [ -z "$off" ]; then
  vm_result kprobe-offset/boundary FAIL "kprobe_events took no offset 1..16 of $func: $(tail -n 2 "$T/error_log" | tr '\n' ' ')"
  exit 0
fi
# The kernel's reason for refusing the offset just before: three error_log lines per error,
#   [   3.61] trace_kprobe: error: Probe point is not an instruction boundary
#     Command: p:vmtest_offset_oracle do_sys_openat2+4
#                                     ^
reason=$(tail -n 3 "$T/error_log" | head -n 1 | sed 's/.*error: //')
command=$(tail -n 2 "$T/error_log" | head -n 1 | sed 's/^ *Command: //')
# arm64 decodes nothing there: register_kprobe() refuses an address that is not 4-byte aligned,
# or one in the function's ftrace call site (its first two instructions with
# -fpatchable-function-entry=2), with EINVAL, which error_log reports as a failed registration.
# 32-bit arm (an ARM-mode kernel: CONFIG_THUMB2_KERNEL is off) refuses an unaligned address so too.
want_reason="Probe point is not an instruction boundary"
case "$(uname -m)" in aarch64|armv7l) want_reason="Failed to register probe event" ;; esac
if [ "$off" -eq 1 ] || { [ "$reason" = "$want_reason" ] &&
   [ "$command" = "p:$oracle $func+$((off - 1))" ]; }; then
  vm_result kprobe-offset/boundary PASS "kprobe_events accepts $func+$off, refused 1..$((off - 1)) ($func+$((off - 1)): $reason)"
else
  vm_result kprobe-offset/boundary FAIL "kprobe_events accepts $func+$off, but the refusal of +$((off - 1)) was not for an instruction boundary: '$command': '$reason'"
  exit 0
fi

hex=$(printf '0x%x' "$off")
program="
kprobe:$func /comm == \"open_read\"/ { @zero = count(); }
kprobe:$func+$off /comm == \"open_read\"/ { @off = count(); }"
# The child copies the kernel's list of registered kprobes before the sample runs: rawprobe
# starts it only once every probe is attached.
child="sh -c 'cat /sys/kernel/debug/kprobes/list >kprobes-list.\$RAWPROBE_MODE; exec $sample $n'"

for mode in pmu legacy; do
  RAWPROBE_MODE=$mode "$RAWPROBE" --attach-mode="$mode" -o "out.$mode" -e "$program" -c "$child" \
    >"sample.$mode" 2>"err.$mode"
  rc=$?
  opens=$(vm_report_value "sample.$mode" opens)
  zero=$(grep '^@zero: ' "out.$mode")
  at_off=$(grep '^@off: ' "out.$mode")
  # "ffffffff8133c6e5  k  do_sys_openat2+0x5    [FTRACE]"
  listed=$(grep -c " $func+$hex\( \|$\)" "kprobes-list.$mode" 2>/dev/null)
  if [ "$rc" -ne 0 ]; then
    vm_result "kprobe-offset/count:$mode" FAIL "exit $rc: $(head -c 400 "err.$mode")"
  elif [ "$opens" != "$n" ]; then
    vm_result "kprobe-offset/count:$mode" FAIL "the sample reports '$opens' opens, asked for $n: $(head -c 300 "sample.$mode")"
  elif [ "$zero" = "@zero: $opens" ] && [ "$at_off" = "@off: $opens" ] && [ "${listed:-0}" -ge 1 ]; then
    vm_result "kprobe-offset/count:$mode" PASS "$at_off and $zero for $opens opens; kprobes/list: $(grep " $func+$hex" "kprobes-list.$mode" | head -n 1)"
  else
    vm_result "kprobe-offset/count:$mode" FAIL "want @off and @zero $opens and $func+$hex in kprobes/list; got '$at_off' '$zero', kprobes/list: $(grep " $func" "kprobes-list.$mode" 2>/dev/null | tr '\n' ' ')"
  fi
  vm_result_clean "kprobe-offset/clean:$mode" "$rc"
done
