// The sizes and alignments C gives its scalar types on one target ABI, and the few layout
// rules that differ between ABIs. Layout code reads only this table, so a 32-bit target
// (arm: 4-byte long and pointers) is another row, not another branch.
#pragma once
#include <cstdint>
#include <string_view>

namespace rawprobe::ctypes {

struct ScalarRule {
  uint8_t size = 0;
  uint8_t align = 0;
};

struct DataModel {
  const char* name;  // the architecture, as arch/ names it: "x86_64", "aarch64", "arm", ...
  ScalarRule char_type, short_type, int_type, long_type, long_long, pointer;
  ScalarRule float_type, double_type, long_double, bool_type;
  bool char_signed;  // plain `char`: signed on x86, unsigned on arm and aarch64
};

// The model of the architecture named as arch/ names it; nullptr when none is known.
const DataModel* data_model(std::string_view arch_name);
// The model of the machine rawprobe itself was built for.
const DataModel& host_data_model();

}  // namespace rawprobe::ctypes
