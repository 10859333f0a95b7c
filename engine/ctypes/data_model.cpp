#include "engine/ctypes/data_model.h"

#include "arch/arch.h"

namespace rawprobe::ctypes {
namespace {

// Rows from each psABI's table of fundamental types (System V x86-64 and i386, AAPCS64,
// AAPCS32); the unit tests compare them with what gcc for each target computes.
//                         name       char    short   int     long    llong   ptr
//                                    float   double  ldouble bool    char_signed
constexpr DataModel kModels[] = {
    {"x86_64", {1, 1}, {2, 2}, {4, 4}, {8, 8}, {8, 8}, {8, 8},
     {4, 4}, {8, 8}, {16, 16}, {1, 1}, true},
    {"aarch64", {1, 1}, {2, 2}, {4, 4}, {8, 8}, {8, 8}, {8, 8},
     {4, 4}, {8, 8}, {16, 16}, {1, 1}, false},
    // i386 aligns 8-byte scalars to 4 inside structs (the SysV i386 ABI).
    {"i386", {1, 1}, {2, 2}, {4, 4}, {4, 4}, {8, 4}, {4, 4},
     {4, 4}, {8, 4}, {12, 4}, {1, 1}, true},
    {"arm", {1, 1}, {2, 2}, {4, 4}, {4, 4}, {8, 8}, {4, 4},
     {4, 4}, {8, 8}, {8, 8}, {1, 1}, false},
    {"riscv64", {1, 1}, {2, 2}, {4, 4}, {8, 8}, {8, 8}, {8, 8},
     {4, 4}, {8, 8}, {16, 16}, {1, 1}, false},
    {"ppc64le", {1, 1}, {2, 2}, {4, 4}, {8, 8}, {8, 8}, {8, 8},
     {4, 4}, {8, 8}, {16, 16}, {1, 1}, false},
    {"s390x", {1, 1}, {2, 2}, {4, 4}, {8, 8}, {8, 8}, {8, 8},
     {4, 4}, {8, 8}, {16, 8}, {1, 1}, false},
    {"mips64", {1, 1}, {2, 2}, {4, 4}, {8, 8}, {8, 8}, {8, 8},
     {4, 4}, {8, 8}, {16, 16}, {1, 1}, true},
    {"loongarch64", {1, 1}, {2, 2}, {4, 4}, {8, 8}, {8, 8}, {8, 8},
     {4, 4}, {8, 8}, {16, 16}, {1, 1}, true},
};

}  // namespace

const DataModel* data_model(std::string_view arch_name) {
  for (const DataModel& m : kModels)
    if (arch_name == m.name) return &m;
  return nullptr;
}

const DataModel& host_data_model() {
  // Every architecture rawprobe builds for has a row (the unit tests check arch's tables).
  static const DataModel& host = *data_model(arch::host().name);
  return host;
}

}  // namespace rawprobe::ctypes
