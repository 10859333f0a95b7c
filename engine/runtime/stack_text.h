// Stacks and symbols as text, the way bpftrace 0.17 prints them:
//
//   bpftrace mode (map keys indent 4, printf and print() 8)     perf mode
//   \n                                                           \n
//       bar+0\n                                                  \t5603e8a78169 bar+0 (/tmp/fun)\n
//       fun+42\n                                                 \tffffffff814c3fab perf_syscall_enter+475\n
//   an address no symbol holds: 0x7f3a...; a stack that was not taken (kstack in a uprobe):
//   the empty string. ksym/usym: the name alone. raw mode (ours): one hex address a line.
//
// Folded (flame graphs, Brendan Gregg's format): the frames root first, joined by ';', names
// without offsets, "[unknown]" for an address no symbol holds: "main;fun;foo;bar".
//
// Frames are read from the stack-trace maps when printed; user addresses are symbolized with
// the mappings their process had at its first event (symbols/user_symbols.h).
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/base/types.h"
#include "engine/codegen/compiled_script.h"
#include "engine/symbols/user_symbols.h"

namespace rawprobe::runtime {

struct StackStyle {
  uint8_t indent = 8;   // bpftrace mode: spaces before each frame
  bool folded = false;
};

class StackText {
 public:
  // `fds`: the script's map fds (CompiledScript::maps order).
  StackText(const codegen::CompiledScript& script, const std::vector<int>& fds, size_t budget_bytes);

  // Whether values of this type print through here (UStack, KStack, USym, KSym).
  static bool handles(const Type& type);
  void note_pid(uint32_t pid) { users_.note_pid(pid); }
  // The text of one value of a type handles() accepts.
  const std::string& text(const Type& type, const uint8_t* value, StackStyle style);
  // Drops the texts kept since the last call (they are kept so that measuring a batch of
  // values and then writing them symbolizes each once).
  void forget_texts() { texts_.clear(); }
  const symbols::UserSymbols& user_symbols() const { return users_; }

 private:
  std::vector<uint64_t> frames(const Type& type, uint64_t stack_id);
  std::string render(const Type& type, const uint8_t* value, StackStyle style);

  const codegen::CompiledScript* script_;
  std::vector<int> fds_;
  symbols::UserSymbols users_;
  std::unordered_map<std::string, std::string> texts_;
};

}  // namespace rawprobe::runtime
