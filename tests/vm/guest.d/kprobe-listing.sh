# The seed's kernel listings, on kernels that have kprobes (the development machine has none):
#   rawprobe -l 'kprobe*'           every kprobe-able function, one "kprobe:NAME" line each
#   rawprobe -l | grep load_module  kprobe:load_module (a function no tracepoint covers)
#   rawprobe -l | grep init_module  the tracepoints of the init_module syscalls
# The oracle is the kernel's own files: available_filter_functions ("name [module]" per
# line) minus the names in the kprobe blacklist (debugfs, "start-end name" per line).
T=/sys/kernel/tracing
BL=/sys/kernel/debug/kprobes/blacklist

"$RAWPROBE" -l 'kprobe*' >listed 2>listed.err
rc=$?
awk 'NR == FNR { black[$2] = 1; next } !($1 in black) { print "kprobe:" $1 }' "$BL" \
  "$T/available_filter_functions" | sort >expected
grep -v '^kprobe:' listed >other
sort listed >listed.sorted
if [ "$rc" -ne 0 ]; then
  vm_result "listing:kprobe*" FAIL "exit $rc: $(head -c 300 listed.err)"
elif [ ! -s expected ]; then
  vm_result "listing:kprobe*" FAIL "the oracle is empty: no available_filter_functions to compare with"
elif [ -s other ]; then
  vm_result "listing:kprobe*" FAIL "lines that are not kprobe: $(head -n 3 other)"
elif cmp -s listed.sorted expected; then
  vm_result "listing:kprobe*" PASS "$(wc -l <expected) functions, equal to available_filter_functions minus $(wc -l <"$BL") blacklist lines"
else
  vm_result "listing:kprobe*" FAIL "$(wc -l <listed.sorted) listed, $(wc -l <expected) expected; first differences: $(diff listed.sorted expected | grep '^[-+]k' | head -n 4)"
fi

# The full listing, grepped as the seed does.
"$RAWPROBE" -l >all 2>all.err
rc=$?
if [ "$rc" -ne 0 ]; then
  vm_result "listing:grep_load_module" FAIL "rawprobe -l exited $rc: $(head -c 300 all.err)"
else
  got=$(grep load_module all | tr '\n' ' ')
  # What the kernel offers under that name: a kprobe line when load_module is probe-able, and
  # every tracepoint whose name mentions it (none on the stock kernels).
  want_kprobe=$(awk 'NR == FNR { black[$2] = 1; next } $1 == "load_module" && !("load_module" in black) { print "kprobe:load_module"; exit }' "$BL" "$T/available_filter_functions")
  if [ -n "$want_kprobe" ] && printf '%s\n' "$got" | grep -qw "$want_kprobe"; then
    vm_result "listing:grep_load_module" PASS "$got"
  else
    vm_result "listing:grep_load_module" FAIL "got '$got', the kernel offers '$want_kprobe'"
  fi
  got=$(grep init_module all | grep '^tracepoint:' | sort | tr '\n' ' ')
  want=$(ls "$T/events/syscalls" | grep init_module | sed 's/^/tracepoint:syscalls:/' | sort | tr '\n' ' ')
  if [ -n "$want" ] && [ "$got" = "$want" ]; then
    vm_result "listing:grep_init_module" PASS "$got"
  else
    vm_result "listing:grep_init_module" FAIL "got '$got', tracefs has '$want'"
  fi
fi
