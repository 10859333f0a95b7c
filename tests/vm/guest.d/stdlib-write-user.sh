# write_user(dst, src) with --unsafe (bpf_probe_write_user), on kernels that give tracing
# programs the helper (not under lockdown; the host's kernel is). The oracle is the traced
# program's own report: struct_arg's visit(r) returns r->id, which the script sets to 40 at
# each call's entry, so it prints "visited" 40 times the calls rawprobe counted.
#   stdlib-write-user/visited   struct_arg reports 40 x @calls; every write returned 0

target="$RAWPROBE_SAMPLES/struct_arg"
"$RAWPROBE" --unsafe -c "$target" \
  -e "uprobe:$target:visit { @rc[write_user(arg0, (int32)40)] = count(); @calls = count(); }" >out.write 2>err.write
rc=$?
calls=$(awk '$1 == "@calls:" { print $2 }' out.write)
visited=$(awk '$1 == "visited" { print $2 }' out.write)
ok_writes=$(awk '$1 == "@rc[0]:" { print $2 }' out.write)
if [ "$rc" -eq 0 ] && [ -n "$calls" ] && [ "$visited" = "$((40 * calls))" ] && [ "$ok_writes" = "$calls" ]; then
  vm_result stdlib-write-user/visited PASS "visited $visited after $calls calls, every write 0"
else
  vm_result stdlib-write-user/visited FAIL "exit $rc, visited '$visited', calls '$calls', @rc[0] '$ok_writes': $(head -c 300 err.write)"
fi
