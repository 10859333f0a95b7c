/* Dynamic USDT: loads the library LIB (built from usdt_lib.c) twice, from places a tracer
 * cannot reach by name:
 *   memfd     its bytes copied into memfd "rawprobe-dyn", dlopen'ed as /proc/self/fd/N
 *             (/proc/PID/maps then shows "/memfd:rawprobe-dyn (deleted)")
 *   deleted   its bytes copied to a temporary file, dlopen'ed, then unlinked
 *             (/proc/PID/maps shows "PATH (deleted)")
 * Usage: dynamic_usdt LIB ROUNDS [LINGER]. It prints what a tracer needs, then waits for SIGUSR1
 * (attach first), then calls each copy's probe ROUNDS times, with tag 1 (memfd) and tag 2
 * (deleted), and reports what it did:
 *   dynamic_usdt pid 4242 memfd /memfd:rawprobe-dyn deleted /tmp/usdt-dyn-Ab12Cd.so
 *   fired memfd 3 deleted 3
 * then, given LINGER, stays LINGER more seconds before exiting (a tracer that reads the
 * process's mappings when its first event arrives has that long to do it). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

typedef void (*fire_fn)(long tag, long round);

static int copy_file(const char *from, int to_fd) {
  FILE *in = fopen(from, "rb");
  if (!in) return -1;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, in)) > 0)
    if (write(to_fd, buf, n) != (ssize_t)n) { fclose(in); return -1; }
  fclose(in);
  return 0;
}

static fire_fn load(const char *path) {
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) { fprintf(stderr, "dynamic_usdt: dlopen %s: %s\n", path, dlerror()); exit(1); }
  fire_fn f = (fire_fn)dlsym(handle, "usdt_lib_fire");
  if (!f) { fprintf(stderr, "dynamic_usdt: no usdt_lib_fire in %s\n", path); exit(1); }
  return f;
}

int main(int argc, char **argv) {
  if ((argc != 3 && argc != 4) || atol(argv[2]) <= 0) {
    fprintf(stderr, "usage: dynamic_usdt LIB ROUNDS [LINGER]   (LIB: the usdt_lib.c shared library)\n");
    return 2;
  }
  long rounds = atol(argv[2]);

  int mfd = memfd_create("rawprobe-dyn", 0);
  if (mfd < 0 || copy_file(argv[1], mfd) != 0) { perror("dynamic_usdt: memfd copy"); return 1; }
  char mpath[64];
  snprintf(mpath, sizeof mpath, "/proc/self/fd/%d", mfd);
  fire_fn from_memfd = load(mpath);

  char dpath[] = "/tmp/usdt-dyn-XXXXXX.so";
  int dfd = mkstemps(dpath, 3);
  if (dfd < 0 || copy_file(argv[1], dfd) != 0) { perror("dynamic_usdt: temporary copy"); return 1; }
  close(dfd);
  fire_fn from_deleted = load(dpath);
  unlink(dpath);

  /* Block SIGUSR1 before saying we are ready, so a signal sent right after is not lost. */
  sigset_t go;
  sigemptyset(&go);
  sigaddset(&go, SIGUSR1);
  sigprocmask(SIG_BLOCK, &go, NULL);
  printf("dynamic_usdt pid %d memfd /memfd:rawprobe-dyn deleted %s\n", (int)getpid(), dpath);
  fflush(stdout);
  int sig;
  sigwait(&go, &sig);

  for (long i = 0; i < rounds; i++) {
    from_memfd(1, i);
    from_deleted(2, i);
  }
  printf("fired memfd %ld deleted %ld\n", rounds, rounds);
  fflush(stdout);
  if (argc == 4) sleep((unsigned)atoi(argv[3]));
  return 0;
}
