/* A known workload for the metrics tests: one call of record_size(n) for each SIZE given, in
 * order, then a pause of HOLD seconds (so a scraper sees the maps while the tracer still runs),
 * e.g.
 *   sized_calls 30 1 2 100    -> record_size(1), record_size(2), record_size(100), sleep 30
 * It reports on stderr, once the calls are made, what it did, counted here at run time:
 *   sized_calls: calls=3 sizes=1,2,100
 * A tracer's count of uprobe:sized_calls:record_size must equal calls=, and a hist of its arg0
 * must hold exactly those sizes. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static long calls;

__attribute__((noinline)) long record_size(long n) {
  calls++;
  return n;
}

static long number(const char *text) {
  char *end;
  long v = strtol(text, &end, 10);
  if (*text == '\0' || *end != '\0' || v < 0) {
    fprintf(stderr, "sized_calls: '%s' is not a non-negative integer\nusage: sized_calls HOLD SIZE...\n", text);
    exit(2);
  }
  return v;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: sized_calls HOLD SIZE...\n");
    return 2;
  }
  long hold = number(argv[1]);
  long total = 0;
  for (int i = 2; i < argc; i++) total += record_size(number(argv[i]));
  fprintf(stderr, "sized_calls: calls=%ld sizes=", calls);
  for (int i = 2; i < argc; i++) fprintf(stderr, "%s%s", i > 2 ? "," : "", argv[i]);
  fprintf(stderr, "\n");
  if (hold) sleep((unsigned)hold);
  return total < 0;
}
