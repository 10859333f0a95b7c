# vm-modules: dummy
# fentry/fexit on a module's function through the module's own (split) BTF: BPF_PROG_LOAD
# needs attach_btf_obj_fd, the dummy module's BTF object. `ip link add NAME type dummy`
# calls dummy_setup once per link (drivers/net/dummy.c); the child's "added" lines are the
# oracle.
#   fentry-module/count       fentry:dummy:dummy_setup counts one call per link added, and
#                             args.dev is typed (struct net_device *): args.dev != 0 each time
#   fentry-module/obj-fd      --trace-syscalls shows BPF_PROG_LOAD with attach_btf_obj_fd set
#   fentry-module/wildcard    fentry:dummy:dummy_* with @[func] = count(): every function the
#                             child made the kernel call is there with one program each; the
#                             number of programs loaded equals the functions listed by
#                             -l 'fentry:dummy:dummy_*' (one per distinct function: the
#                             verifier checks each against its own prototype)
vm_require_module dummy fentry-module/load || exit 0
vm_dummy_links_child child.sh fm0 fm1 fm2

"$RAWPROBE" --trace-syscalls -o out.count \
  -e 'fentry:dummy:dummy_setup { @calls = count(); @nonnull = sum(args.dev != 0); }' \
  -c "sh $PWD/child.sh" >child.count 2>err.count
rc=$?
added=$(grep -c '^added ' child.count)
if vm_no_trampolines fentry-module/count "$rc" err.count; then :
elif [ "$rc" -eq 0 ] && [ "$added" -gt 0 ] && grep -qx "@calls: $added" out.count && grep -qx "@nonnull: $added" out.count; then
  vm_result fentry-module/count PASS "@calls and @nonnull $added for $added links added"
else
  vm_result fentry-module/count FAIL "exit $rc, added $added: $(tr '\n' ' ' <out.count) $(grep -v '^bpf(\|^perf_event_open(\|^ioctl(' err.count | head -c 300)"
fi
if ! vm_config_enabled CONFIG_DEBUG_INFO_BTF; then
  : # no BTF, no attach_btf_obj_fd: fentry-module/count checked rawprobe's refusal
elif grep -qE '^bpf\(BPF_PROG_LOAD, .*attach_btf_id=[1-9][0-9]*.*attach_btf_obj_fd=[1-9][0-9]*.*\) = [0-9]+$' err.count; then
  vm_result fentry-module/obj-fd PASS "$(grep -oE 'attach_btf_id=[0-9]+, attach_btf_obj_fd=[0-9]+' err.count | head -n 1)"
else
  vm_result fentry-module/obj-fd FAIL "$(grep 'PROG_LOAD' err.count | head -c 400)"
fi

"$RAWPROBE" -l 'fentry:dummy:dummy_*' >list.wild 2>/dev/null
listed=$(wc -l <list.wild)
"$RAWPROBE" --trace-syscalls -o out.wild -e 'fentry:dummy:dummy_* { @[func] = count(); }' \
  -c "sh $PWD/child.sh" >child.wild 2>err.wild
rc=$?
added=$(grep -c '^added ' child.wild)
loads=$(grep -cE '^bpf\(BPF_PROG_LOAD, .*BPF_TRACE_FENTRY.*\) = [0-9]+$' err.wild)
if vm_no_trampolines fentry-module/wildcard "$rc" err.wild; then :
elif [ "$rc" -eq 0 ] && grep -qx "@\[dummy_setup\]: $added" out.wild && [ "$loads" = "$listed" ] && [ "$listed" -gt 1 ]; then
  vm_result fentry-module/wildcard PASS "$loads programs for $listed functions; $(grep '^@' out.wild | tr '\n' ' ')"
else
  vm_result fentry-module/wildcard FAIL "exit $rc, loads $loads, listed $listed, added $added: $(tr '\n' ' ' <out.wild) $(grep -v '^bpf(\|^perf_event_open(\|^ioctl(' err.wild | head -c 300)"
fi
