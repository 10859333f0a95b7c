# USDT arguments are read right in every operand form the compiler chose on this architecture:
# samples/usdt_args built -O0 (stack slots: 8@[sp, 16] on arm64, -4@-20(%rbp) on x86_64) and
# -O2 (usdt_args_O2: registers and base+offset memory, -4@x2 and -8@[x1, 8] on arm64,
# %rip-relative globals on x86_64). The oracle is the sample's own report: the "sum" it prints
# is what fire_scalars and fire_globals returned, and they return the sum of the scalars
# probe's five arguments and of the globals probe's first three; so a wrong size, sign
# extension, register or offset shows as a different sum. The "many" probe's 14 operands are
# base, base+1, ..., base+13 (samples/usdt_args.c), so arg13 - arg0 is 13 per round.
# One round: the scalars probe's unsigned 8-byte argument is ULONG_MAX/3, and two rounds'
# sums would overflow the sample's signed long.
for build in usdt_args usdt_args_O2; do
  sample=$RAWPROBE_SAMPLES/$build
  if [ ! -f "$sample" ]; then
    vm_result "usdt-operands/$build" FAIL "$sample is missing from the initramfs"
    continue
  fi
  # The notes' operand strings, for the record: busybox strings reads the note's text.
  forms=$(strings -n 6 "$sample" | grep -E '^-?[1248]@[-[%$(a-z0-9]' | head -n 2 | tr '\n' ';')
  "$RAWPROBE" -o "out.$build" -e "
usdt:$sample:usdt_args:scalars { @sum = sum(arg0 + arg1 + arg2 + arg3 + arg4); }
usdt:$sample:usdt_args:globals { @sum = sum(arg0 + arg1 + arg2); }
usdt:$sample:usdt_args:many { @spread = sum(arg13 - arg0); }" -c "$sample 1" >"sample.$build" 2>"err.$build"
  rc=$?
  want=$(awk '$1 == "usdt_args" && $3 == 1 && $4 == "sum" { print $5 }' "sample.$build")
  got=$(awk '$1 == "@sum:" { print $2 }' "out.$build")
  spread=$(awk '$1 == "@spread:" { print $2 }' "out.$build")
  if [ "$rc" -ne 0 ] || [ -z "$want" ]; then
    vm_result "usdt-operands/$build" FAIL "exit $rc, sample printed '$(head -c 200 "sample.$build")': $(head -c 400 "err.$build")"
  elif [ "$got" = "$want" ] && [ "$spread" = 13 ]; then
    vm_result "usdt-operands/$build" PASS "@sum: $got as the sample's own sum, @spread: 13 over 14 operands; operands: $forms"
  else
    vm_result "usdt-operands/$build" FAIL "the sample's sum is $want, @sum: '$got'; @spread: '$spread' (want 13); operands: $forms; output: $(tr '\n' ' ' <"out.$build" | head -c 400)"
  fi
  vm_result_clean "usdt-operands/clean:$build" "$rc"
done
