// The text of a --test run's report and a --bench run's table, as bpftrace 0.26.1's
// src/output/text.cpp writes them (TextOutput::test_result and ::benchmark_result): googletest's
// banners, colored whatever the terminal, a failed test's output between its RUN and FAILED
// lines, and a table of bench names, average nanoseconds and iterations.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace rawprobe {

// The lines for test `index` once it has run: the "Running N tests." banner before the first,
// the summary after the last. `passed` holds the results so far (at least index + 1).
std::string test_report_entry(const std::vector<std::string>& names, size_t index, uint64_t duration_ns,
                              const std::vector<bool>& passed, const std::string& output);

// "12 us": the duration in the largest unit it holds one of (ns, us, ms, s), rounded down.
std::string duration_text(uint64_t ns);

// The row for bench `index`, after the heading and rule when it is the first.
std::string bench_report_row(const std::vector<std::string>& names, size_t index, uint64_t average_ns,
                             uint64_t iterations);

}  // namespace rawprobe
