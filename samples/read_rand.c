/* The seed's read_rand.c (EXAMPLES.md section 2), built with `gcc read_rand.c -lpthread`:
 * opens /dev/random and starts 4 threads; each thread_fun does one read() of 16 bytes and warns
 * when the read is short. (Since Linux 5.6 /dev/random no longer blocks once the pool is
 * initialised, so the reads return at once.)
 *
 * Added for tests: each thread also prints its kernel thread id and what its read() returned,
 *   thread 2 tid 4242 read 16 bytes
 * so a tracer's @ret[pid, tid, ...] from sys_exit_read can be checked against the program's
 * own account. */
#define _GNU_SOURCE
#include <unistd.h>
#include <stdio.h>
#include <fcntl.h>
#include <pthread.h>

#define FILE_PATH "/dev/random"
#define READ_NUM (1 << 4)
#define THREAD_NUM 4

int fd;
pthread_t threads[THREAD_NUM];
char buf[THREAD_NUM][READ_NUM + 1];
int thread_args[THREAD_NUM];

void *thread_fun(void *arg) {
  int n = *((int *)arg);
  int ret = 0;
  ret = read(fd, &(buf[n][0]), READ_NUM);
  if (ret != READ_NUM) {
    printf("WARNING : thread %d only read %d of %d bytes.\n", n, ret, READ_NUM);
  }
  printf("thread %d tid %d read %d bytes\n", n, (int)gettid(), ret);
  return NULL;
}

int main() {
  fd = open(FILE_PATH, O_RDONLY);
  if (fd < 0) {
    perror("ERROR : Fail to open file.\n");
    return 1;
  }
  for (int i = 0; i < THREAD_NUM; i++) {
    thread_args[i] = i;
    pthread_create(&threads[i], NULL, thread_fun, &thread_args[i]);
  }
  for (int i = 0; i < THREAD_NUM; i++) {
    pthread_join(threads[i], NULL);
  }
}
