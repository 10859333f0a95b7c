/* The seed's hello_usdt.c (EXAMPLES.md section 2), built with plain gcc; needs <sys/sdt.h>
 * (Debian package systemtap-sdt-dev). Each round: gettimeofday, then the USDT probe
 * yeet-Im-a-USDT-probe:USDT-test-probe with tv.tv_sec as its one argument, then sleep(1).
 *
 * Added for tests: an optional round count (default: forever, as in the seed); the pid is
 * printed at start and every tv_sec passed to the probe is printed after it fired, so a
 * tracer's arg0 can be checked against the program's own values:
 *   hello_usdt pid 4242
 *   tv_sec 1700000000 */
#include <sys/sdt.h>
#include <sys/time.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
  struct timeval tv;
  long rounds = -1; /* forever */
  if (argc > 1) {
    char *end;
    rounds = strtol(argv[1], &end, 10);
    if (*argv[1] == '\0' || *end != '\0' || rounds < 0) {
      fprintf(stderr, "hello_usdt: round count must be a non-negative integer, got '%s'\n"
                      "usage: hello_usdt [ROUNDS]   (default: forever)\n", argv[1]);
      return 2;
    }
  }
  printf("hello_usdt pid %d\n", (int)getpid());
  fflush(stdout);
  for (long i = 0; rounds < 0 || i < rounds; i++) {
    gettimeofday(&tv, NULL);
    DTRACE_PROBE1(yeet-Im-a-USDT-probe, USDT-test-probe, tv.tv_sec);
    printf("tv_sec %ld\n", (long)tv.tv_sec);
    fflush(stdout);
    if (rounds < 0 || i + 1 < rounds) /* no pointless wait after the last round */
      sleep(1);
  }
  return 0;
}
