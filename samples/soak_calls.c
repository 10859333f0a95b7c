/* A workload for the soak test: calls soaked() as fast as it can for a given number of
 * seconds, then prints on stderr how many calls it made, counted here at run time:
 *   soak_calls: calls=1234567
 * A tracer's count of uprobe:soak_calls:soaked must equal that number, and its printed plus
 * lost events too, one event a call.
 *   usage: soak_calls SECONDS */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

__attribute__((noinline)) long soaked(long i) {
  __asm__ volatile("" : : "r"(i) : "memory");
  return i;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  char *end = NULL;
  double seconds = argc == 2 ? strtod(argv[1], &end) : -1;
  if (argc != 2 || *argv[1] == '\0' || *end != '\0' || seconds <= 0) {
    fprintf(stderr, "usage: soak_calls SECONDS   (a positive number)\n");
    return 2;
  }
  long calls = 0;
  double stop = now() + seconds;
  /* The clock is read once every 1024 calls: the calls are the load, not clock_gettime. */
  while (now() < stop)
    for (int i = 0; i < 1024; i++) soaked(calls++);
  fprintf(stderr, "soak_calls: calls=%ld\n", calls);
  return 0;
}
