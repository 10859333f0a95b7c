/* For watchpoint:FUNC+argN: increment(_, p) adds one to *p, N times on each of two heap
 * integers, and the program says how often it wrote each, so a watchpoint set on the
 * address in increment's arg1 is checked against the program's own account. The integers
 * are never freed: nothing but increment() writes them.
 *
 *   watch_calls N [USEC]     USEC: a pause after each call (asyncwatchpoint, which lets the
 *                            process run on, needs the process alive a while)
 * Output:
 *   a 0x4052a0           where the first integer is
 *   b 0x4052c0           where the second is
 *   writes 2000          how many times increment() wrote (N to each) */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((noinline)) void increment(int unused, int* i) {
  (void)unused;
  (*i)++;
}

int main(int argc, char** argv) {
  long n = argc >= 2 && argc <= 3 ? strtol(argv[1], NULL, 10) : -1;
  long pause = argc == 3 ? strtol(argv[2], NULL, 10) : 0;
  if (n < 0 || n > 1000000 || pause < 0 || pause > 1000000) {
    fprintf(stderr, "usage: %s N (0..1000000) [USEC (0..1000000)]\n", argv[0]);
    return 2;
  }
  int* a = malloc(sizeof *a);
  int* b = malloc(sizeof *b);
  if (!a || !b) return 1;
  *a = *b = 0;
  printf("a %p\nb %p\n", (void*)a, (void*)b);
  fflush(stdout);
  long writes = 0;
  for (long k = 0; k < n; ++k, ++writes) {
    increment(0, a);
    if (pause) usleep((useconds_t)pause);
  }
  for (long k = 0; k < n; ++k, ++writes) {
    increment(1, b);
    if (pause) usleep((useconds_t)pause);
  }
  printf("writes %ld\n", writes);
  return 0;
}
