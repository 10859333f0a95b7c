/* A shared library with one USDT probe, for dynamic USDT: dynamic_usdt.c loads it from places
 * that have no file name (a memfd, a deleted file), as JIT runtimes and libstapsdt do.
 *   rawprobe_dyn:fire  arg0 = the caller's tag, arg1 = the round */
#include <sys/sdt.h>

void usdt_lib_fire(long tag, long round) {
  DTRACE_PROBE2(rawprobe_dyn, fire, tag, round);
}
