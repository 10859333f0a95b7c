// A fuzz target's property check: when a parser accepts an input, what it built must obey a
// rule (it prints back to the same thing, it stays inside the input, ...). A broken rule
// aborts, so libFuzzer saves the input as a crash, and the unit suite's replay of
// tests/fuzz/regressions/ fails on it too.
#pragma once
#include <cstdlib>
#include <iostream>
#include <string_view>

namespace rawprobe::fuzz {

inline void require(bool holds, std::string_view rule, std::string_view detail = {}) {
  if (holds) return;
  std::cerr << "fuzz property broken: " << rule << "\n" << detail << std::endl;
  std::abort();
}

}  // namespace rawprobe::fuzz
