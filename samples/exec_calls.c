/* A traced process that outlives its own binary: it waits, calls a function, and then execs
 * another program in the same process. For the fault tests: the tracer follows a pid whose
 * binary is deleted, replaced or exec'd away during the run.
 *   usage: exec_calls CALLS [PROGRAM [ARG...]]
 * 1. prints "exec_calls pid N" on stdout and waits for SIGUSR1 (meanwhile a tracer attaches,
 *    or a test deletes or replaces this binary);
 * 2. calls counted() CALLS times;
 * 3. prints on stderr how many calls it made, counted here at run time, e.g.
 *      exec_calls: counted=5 before exec of /tmp/fun
 *    (a tracer's count of uprobe:exec_calls:counted must equal that number);
 * 4. execs PROGRAM with its ARGs (same pid), or exits 0 when none is given. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static long counted_calls;

__attribute__((noinline)) void counted(void) {
  counted_calls++;
  __asm__ volatile("" : : : "memory");
}

int main(int argc, char **argv) {
  char *end = NULL;
  long calls = argc > 1 ? strtol(argv[1], &end, 10) : -1;
  if (argc < 2 || *argv[1] == '\0' || *end != '\0' || calls < 0) {
    fprintf(stderr, "usage: exec_calls CALLS [PROGRAM [ARG...]]   (CALLS a non-negative integer)\n");
    return 2;
  }
  sigset_t usr1;
  sigemptyset(&usr1);
  sigaddset(&usr1, SIGUSR1);
  sigprocmask(SIG_BLOCK, &usr1, NULL);  /* before the pid line: no SIGUSR1 can be lost */
  printf("exec_calls pid %d\n", (int)getpid());
  fflush(stdout);
  int sig;
  sigwait(&usr1, &sig);
  for (long i = 0; i < calls; i++) counted();
  fprintf(stderr, "exec_calls: counted=%ld before exec of %s\n", counted_calls, argc > 2 ? argv[2] : "(none)");
  if (argc < 3) return 0;
  sigprocmask(SIG_UNBLOCK, &usr1, NULL);
  execv(argv[2], argv + 2);
  perror("exec_calls: execv");
  return 127;
}
