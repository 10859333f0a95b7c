# bpftrace 0.17's kprobe tools run for real in the guests, where bpftrace itself cannot run,
# unchanged from Debian's package, each checked against what its workload says it did:
#   bpftrace-tools-run/vfscount    -c 'open_read 7': @[vfs_open] >= the sample's opens and
#                                  @[vfs_read] >= its reads (other processes may add some)
#   bpftrace-tools-run/vfsstat     open_read in a whole second of its per-second output: the
#                                  vfs_open counts printed add up to at least its opens
#   bpftrace-tools-run/tcpconnect  a busybox nc connecting over loopback to a listener on
#                                  port 9000: one line with comm nc, 127.0.0.1 both ends and
#                                  destination port 9000
tools=/rawprobe/data/tools-0.17
open_read="$RAWPROBE_SAMPLES/open_read"

"$RAWPROBE" -c "$open_read 7" "$tools/vfscount.bt" >out 2>err
rc=$?
opens=$(vm_report_value out opens)
reads=$(vm_report_value out reads)
vfs_open=$(sed -n 's/^@\[vfs_open\]: //p' out)
vfs_read=$(sed -n 's/^@\[vfs_read\]: //p' out)
if [ "$rc" -eq 0 ] && [ -n "$opens" ] && [ "${vfs_open:-0}" -ge "$opens" ] && [ "${vfs_read:-0}" -ge "$reads" ]; then
  vm_result bpftrace-tools-run/vfscount PASS "sample: $opens opens, $reads reads; vfscount: vfs_open $vfs_open, vfs_read $vfs_read"
else
  vm_result bpftrace-tools-run/vfscount FAIL "exit $rc; sample opens=$opens reads=$reads; vfs_open=$vfs_open vfs_read=$vfs_read; $(head -c 300 err)"
fi

# The opens fall between two of vfsstat's one-second prints, which then show them; its END
# clears the last, partial second.
"$RAWPROBE" -c "sh -c 'sleep 1.2; $open_read 5; sleep 2.2'" "$tools/vfsstat.bt" >out 2>err
rc=$?
opens=$(vm_report_value out opens)
printed=$(sed -n 's/^@\[vfs_open\]: //p' out | awk '{ s += $1 } END { print s + 0 }')
if [ "$rc" -eq 0 ] && [ -n "$opens" ] && [ "$printed" -ge "$opens" ]; then
  vm_result bpftrace-tools-run/vfsstat PASS "sample: $opens opens; vfsstat printed vfs_open counts adding to $printed"
else
  vm_result bpftrace-tools-run/vfsstat FAIL "exit $rc; sample opens=$opens; printed vfs_open sum $printed; $(head -c 300 err)"
fi

ip link set lo up 2>/dev/null
nc -l -p 9000 >/dev/null 2>&1 &
listener=$!
sleep 0.3
"$RAWPROBE" -c "sh -c 'echo hello | nc -w 1 127.0.0.1 9000'" "$tools/tcpconnect.bt" >out 2>err
rc=$?
kill "$listener" 2>/dev/null
line=$(awk '$3 == "nc" && $4 == "127.0.0.1" && $6 == "127.0.0.1" && $7 == "9000"' out)
# tcpconnect includes kernel headers, whose types come from the kernel's BTF.
if ! vm_config_enabled CONFIG_DEBUG_INFO_BTF; then
  vm_refused bpftrace-tools-run/tcpconnect "$rc" err 'CONFIG_DEBUG_INFO_BTF' "BTF (CONFIG_DEBUG_INFO_BTF is not set)"
elif [ "$rc" -eq 0 ] && [ -n "$line" ]; then
  vm_result bpftrace-tools-run/tcpconnect PASS "$line"
else
  vm_result bpftrace-tools-run/tcpconnect FAIL "exit $rc; no 'nc 127.0.0.1 ... 127.0.0.1 9000' line in: $(head -c 400 out) $(head -c 200 err)"
fi
vm_result_clean bpftrace-tools-run/clean 0
