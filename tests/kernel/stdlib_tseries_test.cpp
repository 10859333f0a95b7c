// tseries(), bpftrace 0.26.1 (docs/stdlib.md, "tseries"), run for real. The values recorded
// are the test's own: what each aggregation must print is computed here from them, and the
// zigzag of the docs' example two, run as the docs run it, must draw the rows the docs show.
// Interval start times must be this machine's wall clock during the run.
#include <doctest/doctest.h>

#include <time.h>

#include <algorithm>
#include <numeric>
#include <sstream>

#include "tests/kernel/cli_run.h"

using namespace rawprobe::cli_test;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

// The rows of the graph printed under `header` ("@s:"): lines that start with a time.
std::vector<std::string> rows_under(const std::string& out, const std::string& header) {
  std::vector<std::string> lines = lines_of(out), rows;
  auto at = std::find(lines.begin(), lines.end(), header);
  if (at == lines.end()) return rows;
  for (auto it = at + 3; it != lines.end() && !it->empty() && std::isdigit(static_cast<unsigned char>((*it)[0])); ++it)
    rows.push_back(*it);
  return rows;
}

std::string value_of(const std::string& row) { return row.substr(row.rfind(' ') + 1); }

}  // namespace

TEST_CASE("tseries keeps an interval's last value, or its avg, max, min or sum, as docs/stdlib.md lists") {
  const std::vector<int64_t> values = {7, -3, 12, 5};
  std::string script = "BEGIN {";
  for (const char* agg : {"", "avg", "max", "min", "sum"})
    for (int64_t v : values)
      script += std::string(" @") + (*agg ? agg : "last") + " = tseries(" + std::to_string(v) + ", 1s, 3" +
                (*agg ? std::string(", \"") + agg + "\"" : std::string()) + ");";
  script += " exit(); }";
  RunResult r = run_rawprobe({"-e", script});
  INFO(r.err);
  REQUIRE(r.status == 0);
  INFO(r.out);
  int64_t sum = std::accumulate(values.begin(), values.end(), int64_t{0});
  const std::vector<std::pair<std::string, int64_t>> expected = {
      {"@last:", values.back()},
      {"@avg:", sum / int64_t(values.size())},
      {"@max:", *std::max_element(values.begin(), values.end())},
      {"@min:", *std::min_element(values.begin(), values.end())},
      {"@sum:", sum}};
  for (const auto& [header, want] : expected) {
    CAPTURE(header);
    // One probe firing: all four values fall in one 1s interval, unless it straddled a
    // second's boundary (then the later interval holds the last of them).
    std::vector<std::string> rows = rows_under(r.out, header);
    REQUIRE(!rows.empty());
    if (rows.size() == 1) CHECK(value_of(rows[0]) == std::to_string(want));
  }
}

TEST_CASE("docs/stdlib.md's tseries example two draws the docs' rows, at this run's wall-clock times") {
  // docs/stdlib.md (v0.26.1), tseries, Example two, its script with an exit after its 20th
  // interval, and its output's rows without their times.
  const std::vector<std::string> doc_rows = {
      "*                         .                         | -5", "|    *                    .                         | -4",
      "|         *               .                         | -3", "|              *          .                         | -2",
      "|                   *     .                         | -1", "|                         *                         | 0",
      "|                         .    *                    | 1",  "|                         .         *               | 2",
      "|                         .              *          | 3",  "|                         .                   *     | 4",
      "|                         .                         * 5",  "|                         .                   *     | 4",
      "|                         .              *          | 3",  "|                         .         *               | 2",
      "|                         .    *                    | 1",  "|                         *                         | 0",
      "|                   *     .                         | -1", "|              *          .                         | -2",
      "|         *               .                         | -3", "|    *                    .                         | -4"};
  const std::string script =
      "BEGIN { @dir = 1; @c = -5; }"
      " interval:ms:100 { @ = tseries(@c, 100ms, 20); @c += @dir;"
      " if (@c > 5) { @dir = -1; @c = 4 } else if (@c < -5) { @dir = 1; @c = -4; }"
      " @n++; if (@n == 20) { exit(); } }"
      " END { clear(@c); clear(@dir); clear(@n); }";
  // A timer tick can land in the interval after the one it belongs to when its phase sits on
  // an interval's edge: two values in one interval and none in the next. Such a run is retried.
  bool clean = false;
  for (int attempt = 0; attempt < 3 && !clean; ++attempt) {
    time_t before = time(nullptr);
    RunResult r = run_rawprobe({"-e", script});
    time_t after = time(nullptr);
    INFO(r.err);
    REQUIRE(r.status == 0);
    std::vector<std::string> rows = rows_under(r.out, "@:");
    if (rows.size() != 20 || std::any_of(rows.begin(), rows.end(), [](const std::string& s) { return s.back() == '-'; }))
      continue;
    clean = true;
    INFO(r.out);
    std::vector<std::string> drawn;
    for (const std::string& row : rows) drawn.push_back(row.substr(13));
    CHECK(drawn == doc_rows);
    // Times: hh:mm:ss.mmm of consecutive 100ms intervals, within the run.
    auto ms_of_day = [](const std::string& row) {
      return ((std::stoi(row.substr(0, 2)) * 60 + std::stoi(row.substr(3, 2))) * 60 + std::stoi(row.substr(6, 2))) * 1000 +
             std::stoi(row.substr(9, 3));
    };
    for (size_t i = 1; i < rows.size(); ++i) CHECK((ms_of_day(rows[i]) - ms_of_day(rows[i - 1]) + 86'400'000) % 86'400'000 == 100);
    struct tm lo {}, hi {};
    localtime_r(&before, &lo);
    localtime_r(&after, &hi);
    int first = ms_of_day(rows.front()) / 1000, last = ms_of_day(rows.back()) / 1000;
    int lo_s = (lo.tm_hour * 60 + lo.tm_min) * 60 + lo.tm_sec, hi_s = (hi.tm_hour * 60 + hi.tm_min) * 60 + hi.tm_sec;
    if (hi_s >= lo_s) {  // not across midnight
      CHECK(first >= lo_s);
      CHECK(last <= hi_s);
    }
  }
  CHECK_MESSAGE(clean, "three runs each had a timer tick on an interval's edge");
}
