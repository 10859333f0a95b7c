/* A process whose second thread makes one getppid() call while SIGUSR1 has a handler, for
 * signal_thread(): a tracer that signals the calling thread at that syscall sends SIGUSR1 to
 * the worker, not to the process. The handler notes which thread ran it; at the end the
 * program prints on stdout
 *   thread_signals worker=TID handled_by=TID handled=N
 * (handled_by=0 handled=0 when no signal came). */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile sig_atomic_t handled_by, handled;
static pid_t worker_tid;

static void on_usr1(int sig) {
  (void)sig;
  handled_by = (sig_atomic_t)syscall(SYS_gettid);
  handled++;
}

static void *worker(void *arg) {
  (void)arg;
  worker_tid = (pid_t)syscall(SYS_gettid);
  syscall(SYS_getppid);
  return NULL;
}

int main(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_usr1;
  sigaction(SIGUSR1, &sa, NULL);
  pthread_t t;
  if (pthread_create(&t, NULL, worker, NULL) != 0) return 1;
  pthread_join(t, NULL);
  printf("thread_signals worker=%d handled_by=%d handled=%d\n", (int)worker_tid, (int)handled_by, (int)handled);
  return 0;
}
