# vm-modules: dummy
# kstack at a kprobe in a module function: kprobe:dummy:dummy_setup, which `ip link add NAME
# type dummy` makes the kernel call (see kprobe-module.sh). Results:
#   kstack-module/perf    @[kstack(perf)]: every frame "\tADDR NAME+OFF" is the guest's own
#                         /proc/kallsyms symbol NAME at ADDR - OFF, and the first frame is
#                         dummy_setup, which kallsyms tags [dummy]; the count is the number of
#                         links the child says it added
#   kstack-module/text    @[kstack]: the same frames as NAME+OFF lines, 4 spaces in, in the
#                         same order (bpftrace's text form)
#   kstack-module/clean   no rawprobe_* event left afterwards
vm_require_module dummy kstack-module/load || exit 0
vm_dummy_links_child child.sh h1stk0 h1stk1
"$RAWPROBE" -o out.stk -e 'kprobe:dummy:dummy_setup { @p[kstack(perf)] = count(); @t[kstack] = count(); }' \
  -c "sh $PWD/child.sh" >child.stk 2>err.stk
rc=$?
added=$(grep -c '^added ' child.stk)
# The @p block: its frame lines, then its count.
awk '/^@p\[/ { on = 1; next } on && /^\]: / { print "count " substr($0, 4); on = 0; exit } on { print }' out.stk >perf.frames
awk '/^@t\[/ { on = 1; next } on && /^\]: / { on = 0; exit } on { print }' out.stk >text.frames
# Each perf frame checked against kallsyms: "ok NAME [MODULE]" or "bad LINE". A name can be
# listed more than once (static functions): any of its addresses may match. Shell arithmetic
# wraps both sides alike, so kernel addresses compare as 64-bit integers.
: >perf.checked
# Only the lines of the frames' names, read once (kallsyms has ~100,000 lines).
awk '$1 != "count" { n = $2; sub(/\+[0-9]*$/, "", n); print n }' perf.frames | sort -u >frame.names
grep -wF -f frame.names /proc/kallsyms >kallsyms.frames
while read -r addr sym; do
  [ "$addr" = count ] && continue
  name=${sym%+*}
  off=${sym##*+}
  verdict="bad $addr $sym (not a text symbol in kallsyms)"
  while read -r kaddr ktype kname kmod; do
    [ "$kname" = "$name" ] || continue
    case $ktype in t|T) ;; *) continue ;; esac
    if [ $((0x$kaddr + off)) -eq $((0x$addr)) ]; then verdict="ok $name${kmod:+ $kmod}"; break; fi
    verdict="bad $addr $sym (kallsyms has $name at $kaddr)"
  done <kallsyms.frames
  echo "$verdict" >>perf.checked
done <perf.frames
first=$(head -n 1 perf.checked)
count=$(sed -n 's/^count //p' perf.frames)
# The text form: the perf frames' NAME+OFF, 4 spaces in.
grep -v '^count ' perf.frames | awk '{ print "    " $2 }' >want.text
if [ "$rc" -ne 0 ]; then
  vm_result kstack-module/perf FAIL "exit $rc: $(head -c 400 err.stk)"
elif [ "$added" -ne 2 ]; then
  vm_result kstack-module/perf FAIL "the child added $added of 2 links: $(head -c 300 err.stk)"
elif grep -q '^bad ' perf.checked || [ ! -s perf.checked ]; then
  vm_result kstack-module/perf FAIL "$(grep '^bad ' perf.checked | head -n 3 | tr '\n' ' ') output: $(head -c 400 out.stk)"
elif [ "$first" != "ok dummy_setup [dummy]" ] || [ "$count" != "$added" ]; then
  vm_result kstack-module/perf FAIL "first frame '$first' (want dummy_setup of [dummy]), count $count for $added links"
else
  vm_result kstack-module/perf PASS "$(wc -l <perf.checked) frames as kallsyms has them, first dummy_setup [dummy], count $count"
fi
if [ "$rc" -eq 0 ] && [ -s want.text ] && cmp -s want.text text.frames; then
  vm_result kstack-module/text PASS "$(wc -l <text.frames) frames: $(head -n 2 text.frames | tr -s ' ' | tr '\n' ' ')"
else
  vm_result kstack-module/text FAIL "want $(head -c 200 want.text | tr '\n' '|'), got $(head -c 200 text.frames | tr '\n' '|')"
fi
vm_result_clean kstack-module/clean "$rc"
