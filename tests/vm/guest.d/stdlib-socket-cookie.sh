# socket_cookie(sk) (bpftrace 0.26.1's docs/stdlib.md), which the kernel gives to fentry, fexit
# and iter programs only: the host cannot load fentry programs, so the guests load the docs'
# kind of use. The verifier is the oracle: it accepts bpf_get_socket_cookie only on a socket
# pointer it typed from BTF, as args.sk of fentry:tcp_sendmsg is.
#   stdlib-socket-cookie/fentry-load   --dry-run loads fentry:tcp_sendmsg keyed by the cookie
#   stdlib-socket-cookie/tracepoint    the same call in a tracepoint is refused before loading

"$RAWPROBE" --dry-run -e 'fentry:tcp_sendmsg { @sizes[socket_cookie(args.sk)] = hist(args.size); }' >out.load 2>err.load
rc=$?
if vm_no_btf stdlib-socket-cookie/fentry-load "$rc" err.load; then :
elif [ "$rc" -eq 0 ]; then
  vm_result stdlib-socket-cookie/fentry-load PASS "the verifier accepted bpf_get_socket_cookie(args.sk)"
else
  vm_result stdlib-socket-cookie/fentry-load FAIL "exit $rc: $(head -c 400 err.load)"
fi

"$RAWPROBE" --dry-run -e 'tracepoint:syscalls:sys_enter_close { @[socket_cookie(curtask)] = count(); }' >out.tp 2>err.tp
rc=$?
if [ "$rc" -eq 1 ] && grep -q "only to fentry, fexit and iter programs" err.tp; then
  vm_result stdlib-socket-cookie/tracepoint PASS "refused: $(head -n 1 err.tp | cut -c1-120)"
else
  vm_result stdlib-socket-cookie/tracepoint FAIL "exit $rc: $(head -c 300 err.tp)"
fi
