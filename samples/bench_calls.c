// Uprobe cost workload: calls bench_target() N times (default 10^6) and prints the mean
// nanoseconds per call measured with clock_gettime. The harness runs it untraced and traced
// and subtracts: the difference is what one uprobe hit costs.
//   usage: bench_calls [N]
#include "bench_clock.h"

// noinline + an empty asm: the call must stay a real call to a real symbol, or there is
// nothing for a uprobe to hit.
__attribute__((noinline)) long bench_target(long i) {
  __asm__ volatile("" : : "r"(i) : "memory");
  return i;
}

int main(int argc, char **argv) {
  long long n = argc > 1 ? bench_count_arg(argv[1], "call count") : 1000000;
  long sink = 0;
  long long start = bench_now_ns();
  for (long long i = 0; i < n; i++) sink += bench_target((long)i);
  long long elapsed = bench_now_ns() - start;
  printf("calls=%lld ns_per_call=%.2f sink=%ld\n", n, (double)elapsed / n, sink);
  return 0;
}
