/* Functions whose parameters a uprobe reads by name (args->NAME), from the DWARF of a -g
 * build: integers of every width and sign, pointers to text and to a struct, and types a
 * register does not hold whole (a double, a struct by value), plus typedefs, an enum, an
 * array parameter and a function pointer for -lv's spellings. Built by the tests with
 * `gcc -g -O1` (and without -g, for the "no DWARF" error). Argument: how many rounds. */
#include <stdio.h>
#include <stdlib.h>

struct point { int x; short y; };
typedef unsigned int count_t;
enum color { RED = 1, GREEN = 2 };

__attribute__((noinline)) long widths(signed char s8, short s16, int s32, long s64, unsigned char u8,
                                      unsigned short u16) {
  return s8 + s16 + s32 + s64 + u8 + u16;
}

__attribute__((noinline)) long pointers(const char *name, struct point *p, enum color c, count_t n) {
  return name[0] + p->x + p->y + c + n;
}

__attribute__((noinline)) int registers_cannot_hold(double d, struct point byval, int after) {
  return (int)d + byval.x + after;
}

__attribute__((noinline)) int spellings(char *const *argv, int table[4], int (*cb)(int), void *opaque,
                                        volatile unsigned long long *counter) {
  return argv != 0 && table[0] + cb(1) && opaque && *counter;
}

static int plus_one(int v) { return v + 1; }

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 1;
  struct point pt = {-4, 5};
  int table[4] = {1, 2, 3, 4};
  volatile unsigned long long counter = 1;
  char name[] = "dwarf";  /* on the stack, so a probe's read never meets an unmapped page */
  long total = 0;
  for (int i = 0; i < rounds; i++) {
    total += widths(-8, -16, -32 - i, -64, 200, 60000);
    total += pointers(name, &pt, GREEN, 4000000000u + i);
    total += registers_cannot_hold(2.5, pt, i);
    total += spellings(argv, table, plus_one, &pt, &counter);
  }
  printf("total %ld\n", total);
  return 0;
}
