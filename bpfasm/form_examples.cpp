#include "bpfasm/form_examples.h"

#include <cstdint>
#include <initializer_list>

namespace rawprobe::bpf {
namespace {

constexpr int32_t kImms[] = {INT32_MIN, -1, 0, 42, INT32_MAX};
constexpr int16_t kOffs[] = {INT16_MIN, -8, 0, 7, INT16_MAX};
constexpr uint8_t kRegs[] = {0, 5, kMaxReg};
constexpr int64_t kImm64s[] = {0, 1, -1, 0x123456789abcdef0, INT64_MIN};

int64_t wide(int32_t lo, int32_t hi) {
  return static_cast<int64_t>((static_cast<uint64_t>(static_cast<uint32_t>(hi)) << 32) |
                              static_cast<uint32_t>(lo));
}

}  // namespace

std::vector<Instruction> examples(const Form& f) {
  Instruction base{f.code, f.dst.value_or(1), f.src.value_or(2), f.off.value_or(-8), 0};
  int32_t lo = f.imm.value_or(42), hi = f.imm_hi.value_or(7);
  bool is_wide = base.is_wide();
  base.imm = is_wide ? wide(lo, hi) : lo;

  std::vector<Instruction> out{base};
  auto vary = [&](auto&& set) {
    Instruction x = base;
    set(x);
    if (f.matches(x)) out.push_back(x);
  };
  if (!f.dst) for (uint8_t r : kRegs) vary([&](Instruction& x) { x.dst = r; });
  if (!f.src) for (uint8_t r : kRegs) vary([&](Instruction& x) { x.src = r; });
  if (!f.off) for (int16_t o : kOffs) vary([&](Instruction& x) { x.off = o; });
  if (!is_wide) {
    if (!f.imm) for (int32_t i : kImms) vary([&](Instruction& x) { x.imm = i; });
  } else if (!f.imm && !f.imm_hi && f.src.value_or(1) == 0) {
    for (int64_t i : kImm64s) vary([&](Instruction& x) { x.imm = i; });
  } else {
    if (!f.imm) for (int32_t i : kImms) vary([&](Instruction& x) { x.imm = wide(i, x.imm_hi()); });
    if (!f.imm_hi) for (int32_t i : kImms) vary([&](Instruction& x) { x.imm = wide(x.imm_lo(), i); });
  }
  return out;
}

}  // namespace rawprobe::bpf
