/* CPU-bound, for profiling tests: spins for SECONDS (default 1), spending about 99% of its
 * time in spin_hot and the rest in spin_cold, both called from main, then reports how many
 * rounds it ran:
 *   cpu_spin rounds 1234
 * Built -O0 like the other samples, so both functions keep their symbols and frames. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

__attribute__((noinline)) void spin_hot(void) {
  for (unsigned long i = 0; i < 990000; i++) sink += i;
}

__attribute__((noinline)) void spin_cold(void) {
  for (unsigned long i = 0; i < 10000; i++) sink += i;
}

int main(int argc, char **argv) {
  double seconds = argc > 1 ? atof(argv[1]) : 1.0;
  struct timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  long rounds = 0;
  do {
    spin_hot();
    spin_cold();
    rounds++;
    clock_gettime(CLOCK_MONOTONIC, &now);
  } while ((now.tv_sec - start.tv_sec) + (now.tv_nsec - start.tv_nsec) / 1e9 < seconds);
  printf("cpu_spin rounds %ld\n", rounds);
  return 0;
}
