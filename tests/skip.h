// A test that cannot run here says so, and under CI=true that is a failure: a skip there would
// hide a missing feature or a missing install step (DEVELOPERS.md: "Under CI, a skip fails").
#pragma once
#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>

namespace rawprobe::test {
inline bool under_ci() {
  const char* ci = std::getenv("CI");
  return ci && std::strcmp(ci, "true") == 0;
}
}  // namespace rawprobe::test

// Use as `RAWPROBE_SKIP("needs bpftrace"); return;`.
#define RAWPROBE_SKIP(reason)                                              \
  do {                                                                     \
    if (::rawprobe::test::under_ci()) FAIL("skipped under CI=true: " << reason); \
    MESSAGE("skipped: " << reason);                                        \
  } while (0)
