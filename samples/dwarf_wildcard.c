/* Functions for uprobe wildcards that read args->NAME (tests/kernel/dwarf_args_wildcard_test.cpp),
 * built by the tests with `gcc -g -O1`. The pair_* functions have parameters of the same
 * names, one of them of another type (bpftrace 0.17 compares names only); the other_*
 * functions differ from them and from each other by name and count. Argument: how many
 * rounds; each round calls every function once, in this order, with the round number. It
 * prints nothing, so a tracer's output is only the tracer's. */
#include <stdlib.h>

__attribute__((noinline)) long pair_first(long a, int b) { return a + b + 1; }
__attribute__((noinline)) long pair_second(long a, int b) { return a + b + 2; }
__attribute__((noinline)) long pair_wide(long a, long b) { return a + b + 3; }
__attribute__((noinline)) long other_renamed(long a, int c) { return a + c + 4; }
__attribute__((noinline)) long other_more(long a, int b, int c) { return a + b + c; }

int main(int argc, char **argv) {
  long rounds = argc > 1 ? atol(argv[1]) : 1;
  volatile long total = 0;
  for (long i = 0; i < rounds; i++)
    total += pair_first(i, 10) + pair_second(i, 20) + pair_wide(i, 30) + other_renamed(i, 40) + other_more(i, 1, 2);
  return 0;
}
