// Monotonic nanoseconds for the benchmark workloads: each workload times itself, so the
// tracer's own start-up and output never enter the per-call numbers.
#ifndef RAWPROBE_BENCH_CLOCK_H
#define RAWPROBE_BENCH_CLOCK_H
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline long long bench_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

// Parses a positive count argument; exits with a message naming the bad text.
static inline long long bench_count_arg(const char *text, const char *what) {
  char *end = NULL;
  long long n = strtoll(text, &end, 10);
  if (end == text || *end != '\0' || n <= 0) {
    fprintf(stderr, "bad %s '%s': expected a positive integer\n", what, text);
    exit(2);
  }
  return n;
}
#endif
