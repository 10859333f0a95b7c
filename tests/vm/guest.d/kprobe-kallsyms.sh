# vm-modules: dummy
# The kprobe listing's fallback: with no tracefs to read available_filter_functions from (a
# system that never mounted it, where rawprobe may not mount it either), `rawprobe -l` lists
# /proc/kallsyms' text symbols (t/T), less the kprobe blacklist, module functions included.
# tracefs is unmounted here, and debugfs with it (debugfs/tracing is tracefs again); rawprobe
# runs in a user namespace (busybox unshare -r), where tracefs cannot be mounted, and reads
# the blacklist from a debugfs mounted at another place (/tmp/dbg), where it looks too. Both
# are mounted back at the end. Results:
#   kprobe-kallsyms/list           rawprobe -l 'kprobe*' = kallsyms text symbols minus the
#                                  blacklist (name and module), duplicates kept; also that
#                                  this differs from available_filter_functions' list, so the
#                                  comparison shows which file was read
#   kprobe-kallsyms/module         rawprobe -l 'kprobe:dummy:*' = the text symbols tagged
#                                  [dummy], less the blacklist, as kprobe:dummy:NAME
#   kprobe-kallsyms/padding        the __pfx_*/__cfi_* symbols kallsyms names as text (the
#                                  padding before each function, 6.2+) are not in ftrace's
#                                  function list, and the fallback lists none of them
#   kprobe-kallsyms/remount        tracefs and debugfs are back
# The expected list leaves out the padding symbols, which is what the padding check justifies.
T=/sys/kernel/tracing
D=/sys/kernel/debug
vm_require_module dummy kprobe-kallsyms/module
# The oracle's inputs, read while tracefs and debugfs are mounted. The blacklist lines are
# "0xSTART-0xEND<TAB>name" or "...name [module]": one "name [module]" key each.
awk '{ print $2 " " $3 }' "$D/kprobes/blacklist" >blacklist
ftrace_count=$(wc -l <"$T/available_filter_functions")
ftrace_padding=$(grep -cE '^__(pfx|cfi)_' "$T/available_filter_functions")
cp /proc/kallsyms kallsyms

for m in "$D/tracing" "$T" "$D"; do
  grep -q " $m " /proc/mounts && umount "$m"
done
if grep -qE " ($T|$D|$D/tracing) " /proc/mounts; then
  vm_result kprobe-kallsyms/list FAIL "could not unmount tracefs/debugfs: $(grep -E 'tracefs|debugfs' /proc/mounts | tr '\n' ' ')"
else
  mkdir -p /tmp/dbg && mount -t debugfs debugfs /tmp/dbg
  unshare -r "$RAWPROBE" -l 'kprobe*' >listed 2>listed.err
  rc=$?
  awk 'NR == FNR { black[$0] = 1; next }
       ($2 == "t" || $2 == "T") && $3 !~ /^__(pfx|cfi)_/ && !(($3 " " $4) in black) { print "kprobe:" $3 }' blacklist kallsyms |
    sort >expected
  kallsyms_padding=$(awk '($2 == "t" || $2 == "T") && $3 ~ /^__(pfx|cfi)_/' kallsyms | wc -l)
  listed_padding=$(grep -cE '^kprobe:(.*:)?__(pfx|cfi)_' listed)
  if [ "$ftrace_padding" -eq 0 ] && [ "$listed_padding" -eq 0 ]; then
    vm_result kprobe-kallsyms/padding PASS "$kallsyms_padding padding symbols in kallsyms, none in available_filter_functions, none listed"
  else
    vm_result kprobe-kallsyms/padding FAIL "available_filter_functions has $ftrace_padding padding symbols, rawprobe listed $listed_padding"
  fi
  sort listed -o listed
  n=$(wc -l <expected)
  if [ "$rc" -ne 0 ]; then
    vm_result kprobe-kallsyms/list FAIL "exit $rc: $(head -c 300 listed.err)"
  elif [ "$n" -eq 0 ]; then
    vm_result kprobe-kallsyms/list FAIL "the oracle is empty: no text symbols in /proc/kallsyms"
  elif [ "$n" -eq "$ftrace_count" ]; then
    vm_result kprobe-kallsyms/list FAIL "kallsyms and available_filter_functions both give $n: the test cannot tell which was read"
  elif cmp -s listed expected; then
    vm_result kprobe-kallsyms/list PASS "$n functions from kallsyms text symbols less $(wc -l <blacklist) blacklist lines (available_filter_functions has $ftrace_count)"
  else
    vm_result kprobe-kallsyms/list FAIL "$(wc -l <listed) listed, $n expected; first differences: $(diff listed expected | grep '^[-+]k' | head -n 4 | tr '\n' ' ') $(head -c 200 listed.err)"
  fi

  if grep -q '^dummy ' /proc/modules; then
    unshare -r "$RAWPROBE" -l 'kprobe:dummy:*' >listed.dummy 2>listed.dummy.err
    rc=$?
    awk 'NR == FNR { black[$0] = 1; next }
         ($2 == "t" || $2 == "T") && $4 == "[dummy]" && $3 !~ /^__(pfx|cfi)_/ && !(($3 " " $4) in black) { print "kprobe:dummy:" $3 }' \
      blacklist kallsyms | sort >expected.dummy
    sort listed.dummy -o listed.dummy
    if [ "$rc" -eq 0 ] && [ -s expected.dummy ] && cmp -s listed.dummy expected.dummy; then
      vm_result kprobe-kallsyms/module PASS "$(wc -l <expected.dummy) functions of dummy, e.g. $(head -n 1 expected.dummy)"
    else
      vm_result kprobe-kallsyms/module FAIL "exit $rc, $(wc -l <listed.dummy) listed, $(wc -l <expected.dummy) expected: $(diff listed.dummy expected.dummy | grep '^[-+]k' | head -n 4 | tr '\n' ' ') $(head -c 200 listed.dummy.err)"
    fi
  fi
fi

umount /tmp/dbg 2>/dev/null
mount -t tracefs nodev "$T" 2>/dev/null
mount -t debugfs debugfs "$D" 2>/dev/null
if [ -d "$T/events" ] && [ -f "$D/kprobes/blacklist" ]; then
  vm_result kprobe-kallsyms/remount PASS "tracefs and debugfs mounted again"
else
  vm_result kprobe-kallsyms/remount FAIL "tracefs or debugfs did not come back: $(grep -E 'tracefs|debugfs' /proc/mounts | tr '\n' ' ')"
fi
