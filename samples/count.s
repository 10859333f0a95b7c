; count to three (README, "bpfasm: the assembler")
  r0 = 0
loop:
  r0 += 1
  if r0 < 3 goto loop
  exit
