# The kprobe blacklist (functions the kernel refuses kprobes on), which the kernel lists only in
# debugfs (/sys/kernel/debug/kprobes/blacklist), with debugfs mounted and without it: when it
# is not mounted, rawprobe mounts it detached (fsmount: in no directory, seen by no one) to read
# the file, and the system's mounts do not change. The blacklist is read here, with debugfs
# mounted, before it is unmounted. Results:
#   kprobe-blacklist/by-name:mounted     kprobe:X for a function X that is both in
#                                        available_filter_functions and on the blacklist: exit
#                                        != 0, "is on the kprobe blacklist", nothing attached
#   kprobe-blacklist/by-name:unmounted   the same with debugfs unmounted; the message says the
#                                        blacklist came from a private debugfs mount
#   kprobe-blacklist/list:unmounted      rawprobe -l 'kprobe*' = available_filter_functions
#                                        minus the blacklist
#   kprobe-blacklist/wildcard:unmounted  kprobe:P* (--attach-mode=pmu, where the kernel itself
#                                        would refuse a blacklisted function) for a prefix P
#                                        that matches blacklisted and other functions: attaches
#                                        exactly the others
#   kprobe-blacklist/all-blacklisted:unmounted  kprobe:Q* for a prefix Q that matches only
#                                        blacklisted functions: exit != 0, an error that says
#                                        all of them (their number) are on the blacklist
#   kprobe-blacklist/no-leak             debugfs is still not mounted after those runs
T=/sys/kernel/tracing
D=/sys/kernel/debug
cp "$D/kprobes/blacklist" blacklist
# One (name, module) per line, as available_filter_functions has them: "name" or "name [mod]".
sort -u "$T/available_filter_functions" >functions
x=$(awk 'NR == FNR { black[$2] = 1; next } ($1 in black) { print $1; exit }' blacklist functions)
# A prefix P (the first one or two words of a name, "_"-separated) matching at least one
# blacklisted function and one to eight others: kprobe:P* is then a small set to attach.
# Also a prefix Q matching two or more functions, every one of them blacklisted.
awk 'NR == FNR { black[$2] = 1; next }
  { n = split($1, w, "_"); if (n < 2) next
    p1 = w[1] "_"; p2 = (n > 2) ? p1 w[2] "_" : ""
    for (i = 1; i <= 2; ++i) { p = (i == 1) ? p1 : p2; if (p == "") continue
      if ($1 in black) bad[p]++; else good[p]++ } }
  END { for (p in bad) {  # ("p in good" first: a reference to good[p] would create it)
          if (!(p in good)) { if (bad[p] >= 2) print "all", p, bad[p] }
          else if (good[p] <= 8) print "mixed", p } }' blacklist functions | sort >prefixes
prefix=$(awk '$1 == "mixed" { print $2; exit }' prefixes)
all_prefix=$(awk '$1 == "all" { print $2; exit }' prefixes)
all_count=$(awk '$1 == "all" { print $3; exit }' prefixes)

refusal_ok() {  # FILE: the by-name refusal of $x
  grep -q "kernel function '$x' is on the kprobe blacklist" "$1"
}

"$RAWPROBE" -e "kprobe:$x { @ = count(); }" >out.mounted 2>err.mounted
rc=$?
if [ -z "$x" ]; then
  vm_result kprobe-blacklist/by-name:mounted FAIL "no function is both in available_filter_functions and on the blacklist ($(wc -l <blacklist) lines)"
elif [ "$rc" -ne 0 ] && refusal_ok err.mounted && [ -z "$(vm_rawprobe_events)" ]; then
  vm_result kprobe-blacklist/by-name:mounted PASS "exit $rc: $(head -n 1 err.mounted)"
else
  vm_result kprobe-blacklist/by-name:mounted FAIL "kprobe:$x: exit $rc, stderr: $(head -c 300 err.mounted)"
fi

if ! umount "$D"; then
  vm_result kprobe-blacklist/umount FAIL "could not unmount $D"
  exit 0
fi

"$RAWPROBE" -e "kprobe:$x { @ = count(); }" >out.unmounted 2>err.unmounted
rc=$?
if [ "$rc" -ne 0 ] && refusal_ok err.unmounted && grep -q 'debugfs mounted privately' err.unmounted; then
  vm_result kprobe-blacklist/by-name:unmounted PASS "exit $rc: $(head -n 1 err.unmounted)"
else
  vm_result kprobe-blacklist/by-name:unmounted FAIL "kprobe:$x: exit $rc, stderr: $(head -c 400 err.unmounted)"
fi

"$RAWPROBE" -l 'kprobe*' >listed 2>listed.err
rc=$?
awk 'NR == FNR { black[$2] = 1; next } !($1 in black) { print "kprobe:" $1 }' blacklist "$T/available_filter_functions" |
  sort >expected
sort listed -o listed
if [ "$rc" -eq 0 ] && [ -s expected ] && cmp -s listed expected; then
  vm_result kprobe-blacklist/list:unmounted PASS "$(wc -l <listed) functions: available_filter_functions minus the blacklist"
else
  vm_result kprobe-blacklist/list:unmounted FAIL "exit $rc, $(wc -l <listed) listed, $(wc -l <expected) expected; differences: $(diff listed expected | grep '^[-+]k' | head -n 4 | tr '\n' ' ') $(head -c 200 listed.err)"
fi

awk -v p="$prefix" 'NR == FNR { black[$2] = 1; next } index($1, p) == 1 && !($1 in black) { print $1 }' blacklist functions |
  sort >wanted
k=$(wc -l <wanted)
rc=1
[ -z "$prefix" ] || timeout 30 "$RAWPROBE" --attach-mode=pmu -o out.wildcard \
  -e "kprobe:$prefix* { @[probe] = count(); } interval:ms:1 { exit(); }" 2>err.wildcard
rc=$?
if [ -z "$prefix" ]; then
  vm_result kprobe-blacklist/wildcard:unmounted FAIL "no prefix matches both blacklisted and 1..8 other functions"
elif [ "$rc" -eq 0 ] && [ "$(head -n 1 out.wildcard)" = "Attaching $((k + 1)) probes..." ]; then
  vm_result kprobe-blacklist/wildcard:unmounted PASS "kprobe:$prefix* attached $k: $(tr '\n' ' ' <wanted)(left out: $(awk -v p="$prefix" 'NR == FNR { black[$2] = 1; next } index($1, p) == 1 && ($1 in black) { print $1 }' blacklist functions | tr '\n' ' '))"
else
  vm_result kprobe-blacklist/wildcard:unmounted FAIL "kprobe:$prefix*: exit $rc, want $k probes ($(tr '\n' ' ' <wanted)) + interval; got '$(head -n 1 out.wildcard)' $(head -c 300 err.wildcard)"
fi

if [ -z "$all_prefix" ]; then
  vm_result kprobe-blacklist/all-blacklisted:unmounted FAIL "no prefix matches only blacklisted functions"
else
  # The interval ends a run that attached something after all, so that a failure is quick.
  timeout 30 "$RAWPROBE" -e "kprobe:$all_prefix* { @ = count(); } interval:ms:1 { exit(); }" >out.all 2>err.all
  rc=$?
  if [ "$rc" -ne 0 ] && [ -z "$(vm_rawprobe_events)" ] &&
     grep -q "every kernel function matching '$all_prefix\*' ($all_count) is on the kprobe blacklist" err.all; then
    vm_result kprobe-blacklist/all-blacklisted:unmounted PASS "exit $rc: $(head -n 1 err.all)"
  else
    vm_result kprobe-blacklist/all-blacklisted:unmounted FAIL "kprobe:$all_prefix* ($all_count functions, all blacklisted): exit $rc, stderr: $(head -c 300 err.all)"
  fi
fi

if grep -q ' debugfs ' /proc/mounts; then
  vm_result kprobe-blacklist/no-leak FAIL "debugfs is mounted after rawprobe ran: $(grep ' debugfs ' /proc/mounts | tr '\n' ' ')"
else
  vm_result kprobe-blacklist/no-leak PASS "no debugfs in /proc/mounts after rawprobe read the blacklist privately"
fi
mount -t debugfs debugfs "$D" || vm_result kprobe-blacklist/remount FAIL "could not mount debugfs at $D again"
