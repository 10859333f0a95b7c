// Passes pointers to structs to a function, for scripts that read them through a uprobe
// with a struct the script declares (tests/kernel/lang_ctypes_oracle_test.cpp). The records
// are globals of a non-PIE build, so their addresses (and the `next` pointer a script
// prints) are the same in every run, under bpftrace and rawprobe alike.
#include <stdio.h>

#include "struct_arg.h"

struct record second = {.id = 2, .name = "second", .where = {-3, 4}, .total = -5, .word = 0x01020304};
struct record first = {.id = 1, .name = "first", .where = {10, -20}, .path = {{1, 2}, {3, 4}}, .next = &second,
                       .flag = 1, .level = 5, .delta = -7, .total = 123456789012L, .tiny = 200, .neg = -100,
                       .word = 0xdeadbeef};

__attribute__((noinline)) int visit(struct record *r) {
  __asm__ volatile("" ::"r"(r) : "memory");
  return r->id;
}

int main(void) {
  int sum = 0;
  for (int i = 0; i < 2; ++i) sum += visit(&first) + visit(&second);
  printf("visited %d\n", sum);
  return 0;
}
