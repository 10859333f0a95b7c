# Sourced by the guest's init and by every tests/vm/guest.d/*.sh (busybox sh).
#
# The one function a guest test needs:
#   vm_result NAME PASS|FAIL|SKIP DETAIL...
# prints
#   RAWPROBE-VM-RESULT <kernel release> <NAME> <STATUS> <DETAIL>
# on the console (for people reading the log) and on the second serial port, /dev/ttyS1, which
# carries nothing else: kernel messages on the console can land in the middle of a line, so
# the host parses only the ttyS1 copy. Fields are split on spaces, so NAME gets '_' for any
# character outside [A-Za-z0-9_.:/+=-] and DETAIL is flattened onto one line.
#
# Also vm_config_enabled CONFIG_X, vm_load_module NAME, vm_require_module NAME RESULT,
# vm_dummy_links_child FILE LINK..., vm_rawprobe_events, vm_result_clean NAME RC,
# vm_report_value FILE KEY and vm_no_trampolines NAME RC ERRFILE, below.
#
# Environment a test can use (set by init):
#   RAWPROBE          the static rawprobe binary
#   RAWPROBE_SAMPLES  directory of the statically built samples (may be empty)
#   VM_KERNEL         `uname -r`
#   VM_KCONFIG        the booted kernel's config file, as shipped in its Debian package
#   VM_DATA           directory of facts the host derived from the programs under test
#   VM_TEST_TIMEOUT   seconds this test has before the harness kills it

VM_RESULTS_CHANNEL=${VM_RESULTS_CHANNEL:-/dev/ttyS1}
VM_RESULTS_LOG=${VM_RESULTS_LOG:-/tmp/vm-results}

vm_result() {
  _vm_name=$(printf '%s' "$1" | tr ' \t\r\n' '____')
  _vm_status=$2
  shift 2
  case "$_vm_status" in
    PASS|FAIL|SKIP) _vm_detail=$* ;;
    *) _vm_detail="test reported unknown status '$_vm_status': $*"; _vm_status=FAIL ;;
  esac
  _vm_detail=$(printf '%s' "$_vm_detail" | tr '\r\n\t' '   ')
  _vm_line="RAWPROBE-VM-RESULT $VM_KERNEL $_vm_name $_vm_status $_vm_detail"
  echo "$_vm_line" >>"$VM_RESULTS_LOG"
  echo "$_vm_line" >"$VM_RESULTS_CHANNEL"
  echo "$_vm_line"
}

# vm_config_enabled CONFIG_FOO: true when the booted kernel's config has it =y or =m.
vm_config_enabled() {
  grep -qE "^$1=(y|m)$" "$VM_KCONFIG"
}

# vm_load_module NAME: insmods NAME and the modules it depends on. The test file must declare
# it in a line "# vm-modules: NAME ..." so that tests/vm/add-modules puts it in the initramfs.
# Fails, saying why on stderr, when this kernel's package has no such module.
vm_load_module() {
  _vm_dir=/lib/modules/$VM_KERNEL
  _vm_order=$_vm_dir/$(printf '%s' "$1" | tr - _).order
  if [ ! -f "$_vm_order" ]; then
    echo "vm_load_module: $1 is not in the initramfs for $VM_KERNEL (declare '# vm-modules: $1'; is it in the kernel package?)" >&2
    return 1
  fi
  for _vm_mod in $(cat "$_vm_order"); do
    [ -d "/sys/module/$_vm_mod" ] || insmod "$_vm_dir/$_vm_mod.ko" || return 1
  done
}

# vm_require_module NAME RESULT: vm_load_module NAME, or a FAIL under RESULT saying why and a
# false return, for `vm_require_module dummy mytest/load || exit 0`.
vm_require_module() {
  if ! _vm_err=$(vm_load_module "$1" 2>&1); then
    vm_result "$2" FAIL "$1: $_vm_err"
    return 1
  fi
}

# vm_dummy_links_child FILE LINK...: writes FILE, a script for `rawprobe -c "sh FILE"` that adds
# a dummy link (the dummy module) of each name, lists it, then deletes each, printing "added
# LINK" and "deleted LINK" for the steps that succeeded: the counts the kernel's calls of the
# module's functions (dummy_setup once per link added, ...) are checked against.
vm_dummy_links_child() {
  _vm_file=$1
  shift
  cat >"$_vm_file" <<EOF
for l in $*; do ip link add name \$l type dummy && ip link show \$l >/dev/null && echo added \$l; done
for l in $*; do ip link del \$l && echo deleted \$l; done
EOF
}

# vm_rawprobe_events: the rawprobe_* lines of kprobe_events and uprobe_events, as the kernel
# lists them ("r8:kprobes/rawprobe_123_0 vfs_read"); nothing when rawprobe left none.
vm_rawprobe_events() {
  cat /sys/kernel/tracing/kprobe_events /sys/kernel/tracing/uprobe_events 2>/dev/null | grep 'rawprobe_'
}

# vm_result_clean NAME RC: after a rawprobe run that exited with status RC, PASS when it left
# no rawprobe_* event in kprobe_events or uprobe_events, else FAIL naming what it left.
vm_result_clean() {
  _vm_left=$(vm_rawprobe_events)
  if [ -z "$_vm_left" ]; then
    vm_result "$1" PASS "no rawprobe_* event left after exit $2"
  else
    vm_result "$1" FAIL "left behind: $_vm_left"
  fi
}

# vm_report_value FILE KEY: VALUE from the line "KEY VALUE" of a sample's own report (e.g.
# samples/open_read.c prints "opens 5"); empty when there is no such line.
vm_report_value() {
  awk -v key="$2" '$1 == key { print $2; exit }' "$1"
}

# vm_refused NAME RC ERRFILE PATTERN LACK: the result NAME of a run that cannot work on this
# kernel, which lacks LACK: PASS if it exited 1 (RC) with an error matching PATTERN in ERRFILE.
vm_refused() {
  if [ "$2" -eq 1 ] && grep -q "$4" "$3"; then
    vm_result "$1" PASS "this kernel has no $5, and rawprobe says so: $(grep -m 1 "$4" "$3" | head -c 300)"
  else
    vm_result "$1" FAIL "this kernel has no $5, but rawprobe exited $2 without saying so: $(head -c 300 "$3")"
  fi
}

# vm_no_btf NAME RC ERRFILE: on a kernel built without CONFIG_DEBUG_INFO_BTF (Debian's armmp
# kernels), where fentry, fexit and iter cannot be typed, checks rawprobe's answer to such a run
# that exited with RC and wrote ERRFILE: exit 1 and the error naming that config, as result NAME;
# returns true then, so the caller checks nothing more. False on a kernel that has BTF.
vm_no_btf() {
  vm_config_enabled CONFIG_DEBUG_INFO_BTF && return 1
  vm_refused "$1" "$2" "$3" 'need a kernel built with CONFIG_DEBUG_INFO_BTF' \
    "BTF (CONFIG_DEBUG_INFO_BTF is not set)"
}

# vm_no_trampolines NAME RC ERRFILE: on a kernel that cannot attach BPF trampolines to its own
# functions (fentry/fexit go through ftrace direct calls, CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS,
# which Debian's arm64 6.1 kernel is built without), checks rawprobe's answer to a fentry run
# that exited with RC and wrote ERRFILE: exit 1 and the error naming that config, as result
# NAME; returns true then, so the caller checks nothing more. False on a kernel that has them.
vm_no_trampolines() {
  # Without BTF rawprobe refuses fentry before it asks for a trampoline.
  vm_no_btf "$@" && return 0
  vm_config_enabled CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS && return 1
  vm_refused "$1" "$2" "$3" 'cannot make BPF trampolines.*CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS' \
    "BPF trampolines on its functions (CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS is not set)"
}
