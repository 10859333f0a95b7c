// Tracepoint cost workload: N getppid() system calls (default 10^6), mean nanoseconds per
// call from clock_gettime. getppid is the cheapest syscall glibc never caches, so the
// tracepoint's cost is a large, measurable share of each call.
//   usage: bench_getppid [N]
#include <sys/syscall.h>
#include <unistd.h>
#include "bench_clock.h"

int main(int argc, char **argv) {
  long long n = argc > 1 ? bench_count_arg(argv[1], "call count") : 1000000;
  long sink = 0;
  long long start = bench_now_ns();
  // syscall() rather than getppid(): no libc is allowed to answer from a cache.
  for (long long i = 0; i < n; i++) sink += syscall(SYS_getppid);
  long long elapsed = bench_now_ns() - start;
  printf("calls=%lld ns_per_call=%.2f sink=%ld\n", n, (double)elapsed / n, sink);
  return 0;
}
