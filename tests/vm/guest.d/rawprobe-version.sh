# rawprobe-static runs in a root that holds nothing but itself and the kernel's own file
# systems (proc, sysfs, devtmpfs): no dynamic loader, no libraries, no /etc. Its output must be
# what the same binary printed on the build host (VM_DATA/rawprobe-version, recorded by
# tests/vm/make-initramfs).
bare=$(mktemp -d /tmp/bare.XXXXXX)
cp "$RAWPROBE" "$bare/rawprobe"
mkdir "$bare/proc" "$bare/sys" "$bare/dev"
mount -t proc proc "$bare/proc"
mount -t sysfs sysfs "$bare/sys"
mount -t devtmpfs devtmpfs "$bare/dev"
out=$(chroot "$bare" /rawprobe --version 2>&1)
rc=$?
umount "$bare/proc" "$bare/sys" "$bare/dev"
expected=$(cat "$VM_DATA/rawprobe-version")
if [ "$rc" -eq 0 ] && [ "$out" = "$expected" ]; then
  vm_result rawprobe-version PASS "bare root, printed '$out'"
else
  vm_result rawprobe-version FAIL "bare root: exit $rc, printed '$out', expected '$expected' (the build host's run)"
fi
