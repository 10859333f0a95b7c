#include "engine/output/test_report.h"

#include <algorithm>

namespace rawprobe {
namespace {

constexpr const char* kGreen = "\033[32m";
constexpr const char* kRed = "\033[31m";
constexpr const char* kReset = "\033[0m";

std::string banner(const char* color, const char* label) { return std::string(color) + label + kReset + " "; }

const char* tests_word(size_t n) { return n == 1 ? "test" : "tests"; }

std::string pad(const std::string& text, size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

}  // namespace

std::string duration_text(uint64_t ns) {
  struct Unit {
    const char* name;
    uint64_t scale;
  };
  static constexpr Unit kUnits[] = {{"s", 1000000000}, {"ms", 1000000}, {"us", 1000}, {"ns", 1}};
  for (const Unit& u : kUnits)
    if (ns >= u.scale || u.scale == 1) return std::to_string(ns / u.scale) + " " + u.name;
  return "0 ns";
}

std::string test_report_entry(const std::vector<std::string>& names, size_t index, uint64_t duration_ns,
                              const std::vector<bool>& passed, const std::string& output) {
  std::string out;
  // "tests" even for one: 0.26.1 writes the plural here unconditionally.
  if (index == 0) out += banner(kGreen, "[==========]") + "Running " + std::to_string(names.size()) + " tests.\n";
  out += banner(kGreen, "[ RUN      ]") + names[index] + "\n";
  if (passed[index]) {
    out += banner(kGreen, "[       OK ]") + names[index];
  } else {
    // A failed test's output, its empty lines dropped; a passing test's is not shown.
    size_t at = 0;
    while (at < output.size()) {
      size_t end = output.find('\n', at);
      if (end == std::string::npos) end = output.size();
      if (end > at) out += output.substr(at, end - at) + "\n";
      at = end + 1;
    }
    out += banner(kRed, "[  FAILED  ]") + names[index];
  }
  out += " (" + duration_text(duration_ns) + ")\n";
  if (index + 1 != names.size()) return out;

  size_t ran = names.size();
  size_t ok = size_t(std::count(passed.begin(), passed.begin() + ran, true));
  size_t failed = ran - ok;
  out += banner(kGreen, "[==========]") + std::to_string(ran) + " " + tests_word(ran) + " ran.\n";
  out += banner(kGreen, "[  PASSED  ]") + std::to_string(ok) + " " + tests_word(ok) + ".\n";
  if (failed) {
    out += banner(kRed, "[  FAILED  ]") + std::to_string(failed) + " " + tests_word(failed) + ", listed below:\n";
    for (size_t i = 0; i < ran; ++i)
      if (!passed[i]) out += banner(kRed, "[  FAILED  ]") + names[i] + "\n";
  }
  return out;
}

std::string bench_report_row(const std::vector<std::string>& names, size_t index, uint64_t average_ns,
                             uint64_t iterations) {
  const std::string kBenchmark = "Benchmark", kTime = "Time(ns)", kIterations = "Iterations";
  constexpr size_t kTimeWidth = 15;
  size_t name_width = std::max<size_t>(40, kBenchmark.size());
  for (const std::string& n : names) name_width = std::max(name_width, n.size());
  std::string out;
  if (index == 0) {
    out += pad(kBenchmark, name_width + 1) + pad(kTime, kTimeWidth) + kIterations + "\n";
    out += std::string(name_width + 1 + kTimeWidth + kIterations.size(), '-') + "\n";
  }
  out += pad(names[index], name_width + 1) + pad(std::to_string(average_ns), kTimeWidth) +
         std::to_string(iterations) + "\n";
  return out;
}

}  // namespace rawprobe
