// Event stream workload: makes getpgid(0) system calls (the event: the script traces
// sys_enter_getpgid) at a fixed RATE per second for SECONDS seconds, in 1 ms slices
// (RATE/1000 calls, then sleep to the next millisecond), so the offered rate is the same
// whichever tracer is consuming. Prints how many events it emitted and how long that took.
// A syscall tracepoint, not a uprobe, is the event source: a uprobe hit (an int3 trap) cost
// ~70 us on the VM this was written on, which caps the offered rate near 14,000/s whatever
// the tracer does with the events.
//   usage: bench_events RATE SECONDS
#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "bench_clock.h"

static void sleep_until_ns(long long deadline) {
  struct timespec ts = {deadline / 1000000000LL, deadline % 1000000000LL};
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {}
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s RATE SECONDS\n", argv[0]);
    return 2;
  }
  long long rate = bench_count_arg(argv[1], "rate");
  long long seconds = bench_count_arg(argv[2], "seconds");
  long long per_slice = rate / 1000 > 0 ? rate / 1000 : 1;
  long long slices = seconds * 1000;
  long long emitted = 0;
  long long start = bench_now_ns();
  for (long long s = 0; s < slices; s++) {
    // syscall(): getpgid(0) asks for our own group, always succeeds, and is never cached.
    for (long long k = 0; k < per_slice; k++, emitted++) syscall(SYS_getpgid, 0);
    sleep_until_ns(start + (s + 1) * 1000000LL);
  }
  long long elapsed = bench_now_ns() - start;
  printf("events=%lld seconds=%.3f rate=%.0f\n", emitted, elapsed / 1e9, emitted / (elapsed / 1e9));
  return 0;
}
