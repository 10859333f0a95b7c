/* For the VM harness's kprobe tests (tests/vm/guest.d/kprobe-*.sh): opens a file exactly N
 * times and reads a fixed number of bytes after each open, then says what it did, so a
 * tracer's counts (kprobe:do_sys_openat2, kretprobe:vfs_read retval) can be checked against
 * the program's own account rather than against numbers written into the test.
 *
 *   open_read N [PATH]     PATH defaults to /proc/self/exe (always there, always long enough)
 *
 * Output, one line per fact:
 *   pid 4242
 *   path /proc/self/exe
 *   read 1 returned 64
 *   ...
 *   opens 5
 *   reads 5
 *   bytes 320
 * The opens use open(2) (glibc: the openat syscall, do_sys_openat2 in the kernel); nothing
 * else in this static program opens or reads a file, so those are all of its opens. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define CHUNK 64

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: %s N [PATH]\n", argv[0]);
    return 2;
  }
  char* end = NULL;
  long n = strtol(argv[1], &end, 10);
  if (*argv[1] == '\0' || *end != '\0' || n < 0 || n > 100000) {
    fprintf(stderr, "%s: N must be a number from 0 to 100000, not '%s'\n", argv[0], argv[1]);
    return 2;
  }
  const char* path = argc == 3 ? argv[2] : "/proc/self/exe";
  char buf[CHUNK];
  long opens = 0, reads = 0, bytes = 0;
  printf("pid %d\npath %s\n", (int)getpid(), path);
  for (long i = 0; i < n; ++i) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      perror(path);
      return 1;
    }
    ++opens;
    ssize_t got = read(fd, buf, sizeof buf);
    if (got < 0) {
      perror("read");
      return 1;
    }
    ++reads;
    bytes += got;
    printf("read %ld returned %zd\n", reads, got);
    close(fd);
  }
  printf("opens %ld\nreads %ld\nbytes %ld\n", opens, reads, bytes);
  return 0;
}
