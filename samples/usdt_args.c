/* USDT sample for the ELF tests (elf/ usdt notes and argument specs). Built by mk/elf.mk at
 * -O0 (every argument in memory off the frame pointer) and -O2 (arguments in registers, in
 * rip-relative globals, in base+index*scale memory, constants), and cross-compiled for aarch64
 * and arm, so the same probes exercise every operand form the parsers know.
 *
 * Probes (provider usdt_args):
 *   scalars    one argument of each size and signedness
 *   globals    a global, an array element picked by a runtime index, a struct field
 *   constant   compile-time constants
 *   with_sema  fires only while its semaphore (usdt_args_with_sema_semaphore) is nonzero
 *   inlined    one probe emitted at two locations (an always-inline helper called twice)
 *   many       14 arguments, beyond sdt.h's 12, in a hand-written note
 *
 * Run: usdt_args [N] fires every probe N times (default 1) and prints what it passed. */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>
#include <stdio.h>
#include <stdlib.h>

/* With _SDT_HAS_SEMAPHORES every sdt.h probe of this file records a semaphore (the "many"
 * note, written by hand below, has none); only with_sema checks its own. */
#define SEMAPHORE(name) \
  unsigned short usdt_args_##name##_semaphore __attribute__((unused, section(".probes")))
SEMAPHORE(scalars);
SEMAPHORE(globals);
SEMAPHORE(constant);
SEMAPHORE(with_sema);
SEMAPHORE(inlined);

struct point { long x, y; };
long counter = 7;
long table[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
struct point origin = {3, 4};

/* The operand constraint sdt.h uses on this architecture ("g" on arm, "nor" elsewhere). */
#define ARG _SDT_ARG_CONSTRAINT_STRING(STAP_SDT_ARG_CONSTRAINT)

/* Address-size directive for the hand-written note. */
#if __SIZEOF_POINTER__ == 8
#define ADDR ".8byte"
#define LONG "8"
#else
#define ADDR ".4byte"
#define LONG "4"
#endif

__attribute__((noinline)) long fire_scalars(signed char c, unsigned short s, int i,
                                            unsigned long l, long n) {
  STAP_PROBE5(usdt_args, scalars, c, s, i, l, n);
  return c + s + i + (long)l + n;
}

__attribute__((noinline)) long fire_globals(int idx, struct point *p) {
  STAP_PROBE4(usdt_args, globals, counter, table[idx & 15], p->y, origin.x);
  return counter + table[idx & 15] + p->y;
}

__attribute__((noinline)) void fire_constant(void) {
  STAP_PROBE2(usdt_args, constant, 42, -1);
}

__attribute__((noinline)) void fire_sema(int v) {
  if (__builtin_expect(usdt_args_with_sema_semaphore, 0))
    STAP_PROBE1(usdt_args, with_sema, v);
}

static inline __attribute__((always_inline)) void inlined_site(long v) {
  STAP_PROBE1(usdt_args, inlined, v);
}

__attribute__((noinline)) void fire_inlined(long a, long b) {
  inlined_site(a);
  inlined_site(b * 3);
}

/* sdt.h stops at 12 arguments; the note format does not. This writes the same note sdt.h
 * would, with 14 operands, so a tracer must cope with more than 12. */
__attribute__((noinline)) void fire_many(long base) {
  __asm__ __volatile__(
      "990: nop\n"
      ".pushsection .note.stapsdt,\"?\",\"note\"\n"
      ".balign 4\n"
      ".4byte 992f-991f, 994f-993f, 3\n"
      "991: .asciz \"stapsdt\"\n"
      "992: .balign 4\n"
      "993: " ADDR " 990b\n"
      ADDR " _.stapsdt.base\n"
      ADDR " 0\n"
      ".asciz \"usdt_args\"\n"
      ".asciz \"many\"\n"
      ".asciz \"" LONG "@%[a0] " LONG "@%[a1] " LONG "@%[a2] " LONG "@%[a3] " LONG "@%[a4] "
      LONG "@%[a5] " LONG "@%[a6] " LONG "@%[a7] " LONG "@%[a8] " LONG "@%[a9] " LONG "@%[a10] "
      LONG "@%[a11] " LONG "@%[a12] " LONG "@%[a13]\"\n"
      "994: .balign 4\n"
      ".popsection\n"
      /* The base section sdt.h defines once per object (already present from the probes
       * above; .ifndef keeps this correct on its own too). */
      ".ifndef _.stapsdt.base\n"
      ".pushsection .stapsdt.base,\"aG\",\"progbits\",.stapsdt.base,comdat\n"
      ".weak _.stapsdt.base\n.hidden _.stapsdt.base\n_.stapsdt.base: .space 1\n"
      ".size _.stapsdt.base, 1\n.popsection\n.endif\n"
      :
      : [a0] ARG(base), [a1] ARG(base + 1), [a2] ARG(base + 2), [a3] ARG(base + 3),
        [a4] ARG(base + 4), [a5] ARG(base + 5), [a6] ARG(base + 6),
        [a7] ARG(base + 7), [a8] ARG(base + 8), [a9] ARG(base + 9),
        [a10] ARG(base + 10), [a11] ARG(base + 11), [a12] ARG(base + 12),
        [a13] ARG(base + 13));
}

int main(int argc, char **argv) {
  long rounds = argc > 1 ? strtol(argv[1], NULL, 10) : 1;
  struct point p = {5, 6};
  long sum = 0;
  for (long r = 0; r < rounds; r++) {
    sum += fire_scalars(-3, 65535, -100000, (unsigned long)-1 / 3, -5);
    sum += fire_globals((int)r + 2, &p);
    fire_constant();
    fire_sema((int)r);
    fire_inlined(r, r + 1);
    fire_many(r * 100);
  }
  printf("usdt_args rounds %ld sum %ld\n", rounds, sum);
  return 0;
}
