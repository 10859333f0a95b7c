# vm-modules: dummy
# kprobe:MODULE:FUNC on a real module, dummy (drivers/net/dummy.c), which busybox `ip` can make
# the kernel call: `ip link add NAME type dummy` creates a dummy link through the module's
# rtnl_link_ops (dummy_validate checks the request, alloc_netdev calls dummy_setup,
# register_netdevice calls ndo_init = dummy_dev_init), `ip link del NAME` unregisters it
# (ndo_uninit = dummy_dev_uninit, which 6.1 has and 6.12 no longer does). Results:
#   kprobe-module/list              rawprobe -l 'kprobe:dummy:*' lists exactly the functions
#                                   available_filter_functions tags [dummy]
#   kprobe-module/count:MODE        kprobe:dummy:FUNC counts, MODE pmu and legacy: each of
#                                   dummy_validate, dummy_setup, dummy_dev_init once per link
#                                   the child added, dummy_dev_uninit (where the module has it)
#                                   once per link it deleted; the child's own "added"/"deleted"
#                                   lines are the oracle
#   kprobe-module/clean:MODE        no rawprobe_* event left afterwards
#   kprobe-module/wildcard          kprobe:dummy:dummy_d*, ...:dummy_s*, ...:dummy_v* in the
#                                   default mode (one block): one kprobe_multi link (a
#                                   BPF_LINK_CREATE of that type that returned a link, where
#                                   --info reports kprobe_multi) for the functions of
#                                   count:MODE, which the globs match and no others of the
#                                   module; @[func] counts them as count:MODE does
#   kprobe-module/no-such-module    kprobe:nosuchmod:dummy_setup: exit != 0, an error that
#                                   names the module as not loaded and says where the
#                                   function is (kprobe:dummy:dummy_setup)
T=/sys/kernel/tracing
vm_require_module dummy kprobe-module/load || exit 0
grep ' \[dummy\]$' "$T/available_filter_functions" | awk '{ print "kprobe:dummy:" $1 }' | sort >expected-list

"$RAWPROBE" -l 'kprobe:dummy:*' >listed 2>listed.err
rc=$?
sort listed >listed.sorted
if [ "$rc" -ne 0 ]; then
  vm_result kprobe-module/list FAIL "exit $rc: $(head -c 300 listed.err)"
elif [ ! -s expected-list ]; then
  vm_result kprobe-module/list FAIL "available_filter_functions has no function tagged [dummy] after loading it"
elif cmp -s listed.sorted expected-list; then
  vm_result kprobe-module/list PASS "$(wc -l <listed.sorted) functions, as available_filter_functions: $(sed 's/^kprobe:dummy://' listed.sorted | tr '\n' ' ')"
else
  vm_result kprobe-module/list FAIL "differences (- rawprobe, + available_filter_functions): $(diff listed.sorted expected-list | grep '^[-+]k' | head -n 5 | tr '\n' ' ')"
fi

# The functions called once per link added, and the one called per link deleted where the
# module has it (the oracle is the module's own function list).
on_add="dummy_validate dummy_setup dummy_dev_init"
on_del=""
grep -qx 'kprobe:dummy:dummy_dev_uninit' expected-list && on_del=dummy_dev_uninit
program=""
for f in $on_add $on_del; do
  program="$program kprobe:dummy:$f { @[\"$f\"] = count(); }"
done
vm_dummy_links_child child.sh h1mod0 h1mod1

for mode in pmu legacy; do
  "$RAWPROBE" --attach-mode="$mode" -o "out.$mode" -e "$program" -c "sh $PWD/child.sh" \
    >"child.$mode" 2>"err.$mode"
  rc=$?
  added=$(grep -c '^added ' "child.$mode")
  deleted=$(grep -c '^deleted ' "child.$mode")
  : >"want.$mode"
  for f in $on_add; do echo "@[$f]: $added" >>"want.$mode"; done
  for f in $on_del; do echo "@[$f]: $deleted" >>"want.$mode"; done
  sort "want.$mode" -o "want.$mode"
  grep '^@\[' "out.$mode" | sort >"got.$mode"
  if [ "$rc" -ne 0 ]; then
    vm_result "kprobe-module/count:$mode" FAIL "exit $rc: $(head -c 400 "err.$mode")"
  elif [ "$added" -ne 2 ] || [ "$deleted" -ne 2 ]; then
    vm_result "kprobe-module/count:$mode" FAIL "the child added $added and deleted $deleted of 2 links: $(head -c 300 "err.$mode")"
  elif cmp -s "want.$mode" "got.$mode"; then
    vm_result "kprobe-module/count:$mode" PASS "$(tr '\n' ' ' <"got.$mode")for $added links added, $deleted deleted"
  else
    vm_result "kprobe-module/count:$mode" FAIL "want $(tr '\n' ' ' <"want.$mode")(added $added, deleted $deleted); got: $(tr '\n' ' ' <"out.$mode")"
  fi
  vm_result_clean "kprobe-module/clean:$mode" "$rc"
done

"$RAWPROBE" --trace-syscalls -o out.wild \
  -e 'kprobe:dummy:dummy_d*, kprobe:dummy:dummy_s*, kprobe:dummy:dummy_v* { @[func] = count(); }' \
  -c "sh $PWD/child.sh" >child.wild 2>err.wild
rc=$?
added=$(grep -c '^added ' child.wild)
deleted=$(grep -c '^deleted ' child.wild)
: >want.wild
for f in $on_add; do echo "@[$f]: $added" >>want.wild; done
for f in $on_del; do echo "@[$f]: $deleted" >>want.wild; done
sort want.wild -o want.wild
grep '^@\[' out.wild | sort >got.wild
multi_links=$(grep -cE '^bpf\(BPF_LINK_CREATE, .*attach_type=BPF_TRACE_KPROBE_MULTI.*\) = [0-9]+$' err.wild)
if "$RAWPROBE" --info | grep -qE '^kprobe_multi link +yes'; then want_multi=1; else want_multi=0; fi
if [ "$rc" -ne 0 ]; then
  vm_result kprobe-module/wildcard FAIL "exit $rc: $(grep -v '^bpf(\|^perf_event_open(\|^ioctl(' err.wild | head -c 400)"
elif [ "$multi_links" -ne "$want_multi" ]; then
  vm_result kprobe-module/wildcard FAIL "$multi_links kprobe_multi links created, $want_multi expected (--info: $("$RAWPROBE" --info | grep '^kprobe_multi'))"
elif [ "$added" -ne 2 ] || [ "$deleted" -ne 2 ]; then
  vm_result kprobe-module/wildcard FAIL "the child added $added and deleted $deleted of 2 links"
elif cmp -s want.wild got.wild; then
  vm_result kprobe-module/wildcard PASS "$(tr '\n' ' ' <got.wild)with $multi_links kprobe_multi link(s)"
else
  vm_result kprobe-module/wildcard FAIL "want $(tr '\n' ' ' <want.wild)got: $(tr '\n' ' ' <out.wild)"
fi
vm_result_clean kprobe-module/wildcard-clean "$rc"

"$RAWPROBE" -e 'kprobe:nosuchmod:dummy_setup { @ = count(); }' >out.nosuchmod 2>err.nosuchmod
rc=$?
leftovers=$(vm_rawprobe_events)
if [ "$rc" -ne 0 ] && grep -q "kernel module 'nosuchmod' is not loaded" err.nosuchmod &&
   grep -q "kprobe:dummy:dummy_setup" err.nosuchmod && [ -z "$leftovers" ] && [ ! -s out.nosuchmod ]; then
  vm_result kprobe-module/no-such-module PASS "exit $rc: $(head -n 1 err.nosuchmod)"
else
  vm_result kprobe-module/no-such-module FAIL "exit $rc, stderr: $(head -c 300 err.nosuchmod); stdout: $(head -c 100 out.nosuchmod); left: $leftovers"
fi
