// C++ sample for the ELF symbol tests: mangled names to demangle and match ("ns::f(int)",
// overloads, templates, methods, operators), a GNU indirect function, and a function with a
// weak alias, so symbol listing and matching can be checked against nm -C and readelf.
//
// Run: cxx_names prints the sum of every function's result.
#include <cstdio>

namespace ns {

__attribute__((noinline)) int f(int x) { return x + 1; }
__attribute__((noinline)) int f(double x) { return static_cast<int>(x * 2); }

template <typename T>
__attribute__((noinline)) T twice(T v) { return v + v; }

struct Widget {
  int value = 3;
  __attribute__((noinline)) int method() const { return value * 7; }
  __attribute__((noinline)) Widget& operator+=(int v) { value += v; return *this; }
};

}  // namespace ns

// An indirect function: the dynamic linker calls the resolver to pick the implementation.
extern "C" {
__attribute__((noinline)) int add_plain(int a, int b) { return a + b; }
typedef int (*add_fn)(int, int);
add_fn resolve_add() { return add_plain; }
int add(int, int) __attribute__((ifunc("resolve_add")));

// Two names for one address.
__attribute__((noinline)) int original_name(int v) { return v * 5; }
int alias_name(int v) __attribute__((weak, alias("original_name")));
}

int main() {
  ns::Widget w;
  w += 2;
  long sum = ns::f(1) + ns::f(2.5) + ns::twice(4) + static_cast<long>(ns::twice(1.5)) +
             w.method() + add(2, 3) + alias_name(2);
  std::printf("cxx_names sum %ld\n", sum);
  return 0;
}
