#include "bpfasm/decode.h"

#include <cstdio>
#include <string>

#include "bpfasm/form.h"

namespace rawprobe::bpf {
namespace {

std::string hex_bytes(std::span<const Insn> slots) {
  std::string out;
  char buf[4];
  for (uint8_t b : to_bytes(slots)) {
    std::snprintf(buf, sizeof buf, "%s%02x", out.empty() ? "" : " ", b);
    out += buf;
  }
  return out;
}

Error undecodable(std::span<const Insn> insns, size_t index, size_t width, const std::string& why) {
  width = std::min(width, insns.size() - index);
  Error e = make_error("decode instruction", "instruction " + std::to_string(index) + " (" +
                                                  hex_bytes(insns.subspan(index, width)) + ")");
  e.detail = why;
  return e;
}

// Which field keeps a slot whose opcode is known from matching any row, for the message.
std::string reason(const Instruction& insn) {
  char buf[96];
  bool known = false;
  for (const Form& f : forms()) known = known || f.code == insn.code;
  if (!known) {
    std::snprintf(buf, sizeof buf, "unknown opcode 0x%02x", insn.code);
    return buf;
  }
  if (insn.dst > kMaxReg || insn.src > kMaxReg) {
    std::snprintf(buf, sizeof buf, "register r%d does not exist (r0..r10)",
                  insn.dst > kMaxReg ? insn.dst : insn.src);
    return buf;
  }
  std::snprintf(buf, sizeof buf,
                "opcode 0x%02x has no form with dst=r%d src=r%d off=%d imm=%lld", insn.code,
                insn.dst, insn.src, insn.off, static_cast<long long>(insn.imm));
  return buf;
}

}  // namespace

Result<Instruction> decode_at(std::span<const Insn> insns, size_t index) {
  const Insn& s = insns[index];
  Instruction insn{s.code, s.dst_reg, s.src_reg, s.off, s.imm};
  if (insn.is_wide()) {
    if (index + 1 >= insns.size())
      return undecodable(insns, index, 1, "64-bit immediate load is missing its second slot");
    const Insn& hi = insns[index + 1];
    if (hi.code != 0 || hi.dst_reg != 0 || hi.src_reg != 0 || hi.off != 0)
      return undecodable(insns, index, 2,
                         "second slot of a 64-bit immediate load must have only imm set");
    insn.imm = static_cast<int64_t>((static_cast<uint64_t>(static_cast<uint32_t>(hi.imm)) << 32) |
                                    static_cast<uint32_t>(s.imm));
  }
  if (!find_form(insn)) return undecodable(insns, index, insn.width(), reason(insn));
  return insn;
}

Result<std::vector<Instruction>> decode(std::span<const Insn> insns) {
  std::vector<Instruction> out;
  for (size_t i = 0; i < insns.size();) {
    Result<Instruction> one = decode_at(insns, i);
    if (!one) return one.error();
    i += one->width();
    out.push_back(*one);
  }
  return out;
}

Result<std::vector<Insn>> slots_from_bytes(std::span<const uint8_t> bytes) {
  if (bytes.size() % 8 != 0) {
    return make_error("read BPF instructions",
                      std::to_string(bytes.size()) + " bytes",
                      "the length must be a multiple of 8 (one struct bpf_insn each); " +
                          std::to_string(bytes.size() % 8) + " trailing bytes");
  }
  return from_bytes(bytes);
}

}  // namespace rawprobe::bpf
