// One Capstone disassembler, closed when it goes out of scope: the handle and the instruction
// buffer cs_disasm_iter fills, for the instruction-boundary check and the PLT stub walk.
#pragma once
#include <capstone/capstone.h>

#include <optional>

namespace rawprobe::elf {

class Capstone {
 public:
  // cs_open with this arch and mode (arch::Table::capstone_arch / capstone_mode plus the
  // file's endianness); nullopt when this Capstone build cannot disassemble it. `detail`
  // turns on operand details (branch targets, rip-relative operands).
  static std::optional<Capstone> open(int arch, int mode, bool detail);
  Capstone(Capstone&& other) noexcept : handle_(other.handle_), insn_(other.insn_) {
    other.handle_ = 0;
    other.insn_ = nullptr;
  }
  Capstone(const Capstone&) = delete;
  Capstone& operator=(const Capstone&) = delete;
  Capstone& operator=(Capstone&&) = delete;
  ~Capstone();

  csh handle() const { return handle_; }
  // The next instruction at *code (advancing code, left and address), as cs_disasm_iter;
  // nullptr where the bytes do not decode.
  const cs_insn* next(const uint8_t*& code, size_t& left, uint64_t& address);

 private:
  Capstone(csh handle, cs_insn* insn) : handle_(handle), insn_(insn) {}
  csh handle_ = 0;
  cs_insn* insn_ = nullptr;
};

}  // namespace rawprobe::elf
