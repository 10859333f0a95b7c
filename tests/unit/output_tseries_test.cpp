// tseries() maps printed as bpftrace 0.26.1 prints them. The oracle is docs/stdlib.md of
// bpftrace v0.26.1, "tseries", Example two: its zigzag over 20 intervals of 100ms, whose
// drawing (everything right of the timestamps) is quoted below. The map bytes are built the
// way gen_tseries.cpp writes them, one interval per 100ms epoch.
#include <doctest/doctest.h>

#include <cctype>
#include <cstring>
#include <sstream>

#include "engine/output/map_print.h"

using namespace rawprobe;

namespace {

// docs/stdlib.md (v0.26.1), tseries, Example two: the rows after "hh:mm:ss.ms", minus each
// row's timestamp, and the scale lines around them.
const char* const kDocExampleTwo = R"(             -5                                                  5
hh:mm:ss.ms  |___________________________________________________|
*                         .                         | -5
|    *                    .                         | -4
|         *               .                         | -3
|              *          .                         | -2
|                   *     .                         | -1
|                         *                         | 0
|                         .    *                    | 1
|                         .         *               | 2
|                         .              *          | 3
|                         .                   *     | 4
|                         .                         * 5
|                         .                   *     | 4
|                         .              *          | 3
|                         .         *               | 2
|                         .    *                    | 1
|                         *                         | 0
|                   *     .                         | -1
|              *          .                         | -2
|         *               .                         | -3
|    *                    .                         | -4
             v___________________________________________________v
             -5                                                  5
)";

struct Slot {
  uint64_t epoch;
  int64_t value;
  uint64_t count;
};

MapDesc tseries_map(uint32_t intervals, int64_t interval_ns, TSeriesAgg agg) {
  MapDesc m;
  m.name = "@";
  m.value = Type{TypeKind::TSeries, intervals * 24, true, {}};
  m.value.interval_ns = interval_ns;
  m.value.tseries_agg = agg;
  m.ncpus = 1;
  return m;
}

// The printed text with each row's leading timestamp ("12:49:44.900 ") cut off.
std::string without_timestamps(const std::string& text, size_t time_size) {
  std::stringstream in(text), out;
  for (std::string line; std::getline(in, line);) {
    bool row = line.size() > time_size && std::isdigit(static_cast<unsigned char>(line[0])) && line[2] == ':';
    out << (row ? line.substr(time_size + 1) : line) << '\n';
  }
  return out.str();
}

}  // namespace

TEST_CASE("the zigzag of docs/stdlib.md's tseries example two prints as the docs show it") {
  // Example two's values: @c from -5 up to 5 and down to -4, one per 100ms interval.
  std::vector<int64_t> values;
  for (int64_t v = -5; v <= 5; ++v) values.push_back(v);
  for (int64_t v = 4; v >= -4; --v) values.push_back(v);
  REQUIRE(values.size() == 20);
  MapDesc map = tseries_map(20, 100'000'000, TSeriesAgg::Last);
  // Slots are used epoch % 20 (gen_tseries.cpp); start at an epoch that is not a multiple.
  const uint64_t first = 17'965'600'000 + 7;
  std::vector<Slot> slots(20);
  for (size_t i = 0; i < values.size(); ++i) slots[(first + i) % 20] = Slot{first + i, values[i], 1};
  MapEntries entries(8, map_value_size(map));
  uint64_t key = 0;
  entries.add(&key, slots.data());
  std::string out;
  append_map(out, OutputFormat::Text, map, entries);
  REQUIRE(out.rfind("@:\n", 0) == 0);
  CHECK(without_timestamps(out.substr(3), 12) == std::string(kDocExampleTwo) + "\n");
}

TEST_CASE("an interval without a value prints '-', and intervals before a key's first are left out") {
  MapDesc map = tseries_map(6, 1'000'000'000, TSeriesAgg::Sum);
  std::vector<Slot> slots(6);
  const uint64_t e = 1'796'560'000;
  slots[(e + 2) % 6] = Slot{e + 2, 4, 2};  // the first interval with a value
  slots[(e + 4) % 6] = Slot{e + 4, 8, 1};  // e + 3 has none
  MapEntries entries(8, map_value_size(map));
  uint64_t key = 0;
  entries.add(&key, slots.data());
  std::string out;
  append_map(out, OutputFormat::Text, map, entries);
  std::string rows = without_timestamps(out, 8);
  // Three rows: e+2, e+3 (no value), e+4. The scale runs from 4 to 8: 4 at the left edge, 8
  // at the right one.
  std::string edge(51, ' ');
  CHECK(rows.find("\n*" + edge + "| 4\n|" + edge + "| -\n|" + edge + "* 8\n") != std::string::npos);
}
