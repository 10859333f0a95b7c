#!/usr/bin/env python3
"""Writes a C++ program whose calls of gen::target(int) come by OUTER x INNER distinct stacks,
for the stacks row of `make bench`: main -> run(i) -> outer_i (through a table) -> inner_j
(through a table) -> target. PADDING further functions make the symbol table large, as a real
C++ binary's is. The program announces its pid, waits until the file named by argv[1]
exists (the tracer is attached), makes every call once, prints `calls=N`, then sleeps until
killed, so its mappings live until the tracer has printed.

  gen_stacks.py OUT.cpp [OUTER INNER PADDING]    (default 100 100 5000)"""
import sys


def main():
    out = sys.argv[1]
    outer, inner, padding = (int(a) for a in (sys.argv[2:5] if len(sys.argv) >= 5 else (100, 100, 5000)))
    lines = ["#include <cstdio>", "#include <unistd.h>", "#include <sys/stat.h>", "",
             "namespace gen {",
             "__attribute__((noinline)) int target(int v) { asm volatile(\"\" ::: \"memory\"); return v + 1; }"]
    for j in range(inner):
        lines.append(f"__attribute__((noinline)) int inner_{j}(int v) {{ return target(v) + {j}; }}")
    lines.append("typedef int (*fn)(int);")
    lines.append("fn inner_table[] = {" + ", ".join(f"inner_{j}" for j in range(inner)) + "};")
    for i in range(outer):
        lines.append(f"__attribute__((noinline)) int outer_{i}(int j) {{ return inner_table[j](j) + {i}; }}")
    lines.append("typedef int (*outer_fn)(int);")
    lines.append("outer_fn outer_table[] = {" + ", ".join(f"outer_{i}" for i in range(outer)) + "};")
    for k in range(padding):
        lines.append(f"__attribute__((noinline, used)) int pad_{k}(int v) {{ return v * {k + 3}; }}")
    lines.append("}  // namespace gen")
    lines += ["", "int main(int argc, char** argv) {",
              "  std::printf(\"pid=%d\\n\", (int)getpid());",
              "  std::fflush(stdout);",
              "  struct stat st;",
              "  while (argc > 1 && stat(argv[1], &st) != 0) usleep(1000);",
              "  long sum = 0, calls = 0;",
              f"  for (int i = 0; i < {outer}; ++i)",
              f"    for (int j = 0; j < {inner}; ++j) {{ sum += gen::outer_table[i](j); ++calls; }}",
              "  std::printf(\"calls=%ld sum=%ld\\n\", calls, sum);",
              "  std::fflush(stdout);",
              "  for (;;) pause();",
              "}"]
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
