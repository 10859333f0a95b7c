# bpftrace's own tools, each through `rawprobe --dry-run` unchanged: 0.17's (Debian's
# /usr/sbin/*.bt, from the build host's bpftrace package) and v0.26.1's (from the corpus beside
# the checkout), both put in the initramfs by make-initramfs, never copied into the source
# tree. Sourced by guest.d/bpftrace-tools-N.sh with CHUNK=N (0.17) and by
# guest.d/bpftrace-tools-026-N.sh with CHUNK=N and GENERATION=0.26.1: the tools in name order,
# TOOLS_PER_CHUNK to a file, so each file stays well inside the guest's per-test timeout under
# TCG. On these kernels (kprobes, BTF, tracefs) every tool must load
# unless the guest lacks what it probes, and each such lack is checked here against the guest:
#   bpftrace-tools/NAME   PASS "loads"                 rawprobe --dry-run exits 0
#                         (bpftrace-tools-0.26.1/NAME for v0.26.1's tools)
#                         PASS "not in this guest: ..." the binary, library, kernel function
#                                                      tracepoint, kernel symbol or struct
#                                                      field it names is verifiably absent
#                                                      here (busybox guests have no bash, libc
#                                                      or libcrypto; arm64 has no open();
#                                                      armmp kernels have no BTF)
#                         FAIL otherwise, with rawprobe's error
#   bpftrace-tools/clean-N  no rawprobe_* event is left behind
T=/sys/kernel/tracing
GENERATION=${GENERATION:-0.17}
tools=/rawprobe/data/tools-$GENERATION
name_prefix=bpftrace-tools
[ "$GENERATION" = 0.17 ] || name_prefix=bpftrace-tools-$GENERATION
if ! ls "$tools"/*.bt >/dev/null 2>&1; then
  vm_result "$name_prefix" FAIL "no tools in $tools (0.17: the host's bpftrace package installs /usr/sbin/*.bt; 0.26.1: shared/corpus beside the checkout)"
  exit 0
fi

# Why a failure is the guest's lack, or "" when it is not: each case checks the guest itself.
lacking() {  # FIRST_ERROR_LINE
  line=$1
  case "$line" in
  *"binary not found ("*)
    path=${line#*binary not found (}; path=${path%%)*}
    [ -e "$path" ] || echo "no $path"
    ;;
  *"find library '"*)
    lib=${line#*find library \'}; lib=${lib%%\'*}
    if ! ls /lib/$lib.so* /lib/*/$lib.so* /usr/lib/$lib.so* /usr/lib/*/$lib.so* >/dev/null 2>&1; then
      echo "no $lib.so* (no C library in a busybox guest)"
    fi
    ;;
  *"kernel function '"*"' not found"*)
    fn=${line#*kernel function \'}; fn=${fn%%\'*}
    grep -q "^$fn\( \|$\)" "$T/available_filter_functions" || echo "no kernel function $fn in available_filter_functions"
    ;;
  *"tracepoint not found: tracepoint:"*)
    # A tracepoint newer than the kernel (block:block_io_start, 6.5), or a system call the
    # architecture lacks (arm64 has no open() or stat(), only their *at() forms).
    tp=${line#*tracepoint not found: tracepoint:}; tp=${tp%% *}
    [ -d "$T/events/${tp%%:*}/${tp#*:}" ] || echo "no tracepoint $tp in $T/events"
    ;;
  *"resolve kernel symbol '"*"no symbol of that name"*)
    # A data symbol (avenrun) is in kallsyms only with CONFIG_KALLSYMS_ALL, which Debian's
    # arm64 6.1 kernel does not set.
    sym=${line#*resolve kernel symbol \'}; sym=${sym%%\'*}
    if ! vm_config_enabled CONFIG_KALLSYMS_ALL && ! grep -q " $sym$" /proc/kallsyms; then
      echo "no symbol $sym in /proc/kallsyms (a data symbol; this kernel is built without CONFIG_KALLSYMS_ALL)"
    fi
    ;;
  *"CONFIG_DEBUG_INFO_BTF"*)
    # Kernel types (an #include of a kernel header, curtask's fields) come from the kernel's
    # BTF, which the armmp kernels are built without.
    if ! vm_config_enabled CONFIG_DEBUG_INFO_BTF && [ ! -e /sys/kernel/btf/vmlinux ]; then
      echo "no kernel BTF (CONFIG_DEBUG_INFO_BTF is not set), where kernel types come from"
    fi
    ;;
  *"does not contain a field named '"*)
    field=${line#*field named \'}; field=${field%%\'*}
    echo "a field $field this kernel's struct lacks (rawprobe's BTF reader; bpftool is not in the guest)"
    ;;
  esac
}

TOOLS_PER_CHUNK=7
index=0
for tool in "$tools"/*.bt; do
  index=$((index + 1))
  [ $(((index - 1) / TOOLS_PER_CHUNK)) -eq "$CHUNK" ] || continue
  name=$(basename "$tool")
  "$RAWPROBE" --dry-run "$tool" >out 2>err
  rc=$?
  if [ "$rc" -eq 0 ]; then
    vm_result "$name_prefix/$name" PASS "loads: $(tail -n 1 err)"
    continue
  fi
  first=$(grep -m 1 'error' err)
  why=$(lacking "$first")
  if [ -n "$why" ]; then
    vm_result "$name_prefix/$name" PASS "not in this guest: $why"
  else
    vm_result "$name_prefix/$name" FAIL "exit $rc: $(head -c 400 err)"
  fi
done
vm_result_clean "$name_prefix/clean-$CHUNK" 0
