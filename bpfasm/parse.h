// Text -> instructions. Reads what print.h prints (the kernel verifier's syntax, including a
// verifier log's "12: (79) " prefixes), llvm-objdump's / llvm-mc's variant
// ("r1 = *(u64 *)(r10 - 8)", "if r1 > 5 goto +3", "call 1", "r1 = 4660 ll"), and labels:
//
//   start:                       a label definition (may share its line with an instruction)
//     if r1 == 0 goto done       a jump to a label (also "goto <done>")
//     call my_func               a bpf-to-bpf call when my_func is a label in the file
//   ; text                       a comment line: kept as an annotation of the next instruction
//   ... // text   or  ... # text  comments (dropped)
//
// Errors read "file:line:col: what", with the line and a caret under the column.
#pragma once
#include <string_view>

#include "bpfasm/program.h"
#include "engine/base/result.h"

namespace rawprobe::bpf {

Result<Program> assemble(std::string_view text, std::string_view file_name = "<input>");

// One instruction without labels, e.g. "r0 = 0" or "if r1 > 0x5 goto pc+3".
Result<Instruction> parse_instruction(std::string_view text);

}  // namespace rawprobe::bpf
