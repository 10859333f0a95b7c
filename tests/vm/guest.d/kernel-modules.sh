# vm-modules: dummy
# A module a guest test declares (the line above) is in the initramfs and loads, and its
# functions become what kprobe:MODULE:FUNC resolves against: text symbols tagged [dummy] in
# /proc/kallsyms and traceable functions tagged [dummy] in available_filter_functions.
# dummy (drivers/net/dummy.c) is a module on both stock kernels and has no hardware to need.
vm_require_module dummy modules:load || exit 0
if grep -q '^dummy ' /proc/modules; then
  vm_result modules:load PASS "dummy is in /proc/modules"
else
  vm_result modules:load FAIL "insmod succeeded but dummy is not in /proc/modules"
fi
syms=$(grep -cE ' [tT] [^[:space:]]+[[:space:]]+\[dummy\]$' /proc/kallsyms)
# One pass over each file: under TCG a scan of kallsyms takes seconds.
functions=$(grep ' \[dummy\]$' /sys/kernel/tracing/available_filter_functions)
traceable=$(printf '%s' "$functions" | grep -c .)
example=$(printf '%s\n' "$functions" | head -n 1)
if [ "$syms" -gt 0 ] && [ "$traceable" -gt 0 ]; then
  vm_result modules:symbols PASS "$syms text symbols in kallsyms, $traceable traceable (e.g. $example)"
else
  vm_result modules:symbols FAIL "dummy loaded, but kallsyms has $syms text symbols and available_filter_functions $traceable entries tagged [dummy]"
fi
