// The template language of the opcode table: how each placeholder prints and parses. Used by
// print.cpp (render) and parse.cpp (match); nothing else needs it.
//
// Placeholders (field they carry, how they print):
//   {rd} {wd}    dst as r1 / w1          {rs} {ws}  src as r2 / w2
//   {off}        off, verifier style +4 / -8      {soff}  off, LLVM style "+ 4" / "- 8"
//   {joff}       off as jump distance +3 (parses a label too)
//   {imm}        imm decimal                      {immx}  imm as 0x%x of its u32 value
//   {jimm}       imm as distance +5 (parses a label too; LD_IMM64: the low half)
//   {imm64}      LD_IMM64's 64 bits as 0x%llx     {lo} {hi}  LD_IMM64's halves, decimal
//   {helper}     imm as a helper: bpf_map_lookup_elem#1 (unknown#300 when not in the table)
// Text between placeholders is literal; a space in a template is optional in the input, and
// every placeholder and literal may be preceded by spaces.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "bpfasm/form.h"

namespace rawprobe::bpf {

enum class Dialect { Verifier, Llvm };

// The template of `form` in `dialect` (falls back to the verifier's when LLVM has none).
const std::string& syntax_of(const Form& form, Dialect dialect);

// Prints `insn`, which must match `form`, with `tmpl`.
std::string render(const std::string& tmpl, const Instruction& insn);

// A label named where a jump distance or call target goes; resolved by the assembler.
struct LabelUse {
  std::string name;
  bool in_imm = false;  // {jimm} (gotol, call, subprog) rather than {joff}
  size_t col = 0;       // 0-based position in the line
};

// Why a template did not match: at `col` (0-based), what was expected; `hard` marks a
// definite error in a value that was recognised (register r11, unknown helper, out of range).
struct MatchFailure {
  size_t col = 0;
  std::string expected;  // "'goto'", "register", or, when hard, the whole message
  bool hard = false;
};

struct MatchInput {
  std::string_view line;  // the whole source line (columns count from its start)
  size_t begin = 0, end = 0;  // the instruction text within it
  // Names that are labels in this file: `call name` then means a bpf-to-bpf call.
  std::function<bool(std::string_view)> is_label;
};

struct Matched {
  Instruction insn;
  std::optional<LabelUse> label;
};

// Reads the instruction text as `form` written with `tmpl`; on failure fills *why.
std::optional<Matched> match(const Form& form, const std::string& tmpl, const MatchInput& in,
                             MatchFailure* why);

}  // namespace rawprobe::bpf
