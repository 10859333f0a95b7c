/* For the watchpoint tests: writes a global variable exactly N times and says so, so a
 * watchpoint's count of writes is checked against the program's own account. Built
 * -no-pie (mk/samples.mk), so `watched` has the same address in every run: `watch_writes 0`
 * prints it without writing.
 *
 *   watch_writes N
 * Output:
 *   addr 0x4c6f30        where `watched` is (8-aligned)
 *   size 8               its size: a long, 4 bytes on 32-bit arm
 *   writes 5             how many times it was written */
#include <stdio.h>
#include <stdlib.h>

volatile long watched __attribute__((aligned(8)));

int main(int argc, char** argv) {
  long n = argc == 2 ? strtol(argv[1], NULL, 10) : -1;
  if (n < 0 || n > 1000000) {
    fprintf(stderr, "usage: %s N (0..1000000)\n", argv[0]);
    return 2;
  }
  printf("addr %p\n", (void*)&watched);
  printf("size %zu\n", sizeof watched);
  fflush(stdout);
  long writes = 0;
  for (long i = 0; i < n; ++i) {
    watched = i + 1;
    ++writes;
  }
  printf("writes %ld\n", writes);
  return 0;
}
