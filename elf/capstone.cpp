#include "elf/capstone.h"

namespace rawprobe::elf {

std::optional<Capstone> Capstone::open(int arch, int mode, bool detail) {
  csh handle;
  if (cs_open(static_cast<cs_arch>(arch), static_cast<cs_mode>(mode), &handle) != CS_ERR_OK)
    return std::nullopt;
  if (detail) cs_option(handle, CS_OPT_DETAIL, CS_OPT_ON);
  cs_insn* insn = cs_malloc(handle);
  if (!insn) {
    cs_close(&handle);
    return std::nullopt;
  }
  return Capstone(handle, insn);
}

Capstone::~Capstone() {
  if (insn_) cs_free(insn_, 1);
  if (handle_) cs_close(&handle_);
}

const cs_insn* Capstone::next(const uint8_t*& code, size_t& left, uint64_t& address) {
  return cs_disasm_iter(handle_, &code, &left, &address, insn_) ? insn_ : nullptr;
}

}  // namespace rawprobe::elf
