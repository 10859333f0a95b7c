/* The seed's fun.c (EXAMPLES.md section 2): main -> fun -> foo/bar, built with plain gcc at -O0
 * so every function keeps its own symbol and call.
 *
 * Added for tests, without changing the functions or their calls: an optional repeat count
 * (how many times main calls fun, default 1), and a closing line on stderr with how many times
 * each function actually ran, counted here at run time, e.g.
 *   fun.c calls: fun=1 foo=2 bar=3
 * A tracer's count for uprobe:fun:bar must equal the bar= number this program prints. */
#include <stdio.h>
#include <stdlib.h>

static long fun_calls, foo_calls, bar_calls;

int bar() { bar_calls++; printf("I'm bar"); return 'b'; }
int foo() { foo_calls++; return bar(); }
int fun() { fun_calls++; foo(); bar(); return foo(); }

static void report_calls(void) {
  fprintf(stderr, "fun.c calls: fun=%ld foo=%ld bar=%ld\n", fun_calls, foo_calls, bar_calls);
}

int main(int argc, char **argv) {
  long repeat = 1;
  if (argc > 1) {
    char *end;
    repeat = strtol(argv[1], &end, 10);
    if (*argv[1] == '\0' || *end != '\0' || repeat < 0) {
      fprintf(stderr, "fun: repeat count must be a non-negative integer, got '%s'\n"
                      "usage: fun [REPEAT]   (default 1)\n", argv[1]);
      return 2;
    }
  }
  atexit(report_calls);
  for (long i = 0; i < repeat; i++)
    fun();
}
