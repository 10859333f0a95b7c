// Instruction boundaries: `uprobe:BIN:func+OFF` and raw addresses inside a function must land
// on the first byte of an instruction, or the kernel plants its breakpoint in the middle of
// one (the process then crashes or computes garbage). The function is disassembled from its
// start with Capstone in the TARGET's architecture and mode (e_machine, e_flags, and on arm
// the symbol's Thumb bit), never the host's. Capstone 4 has no riscv or loongarch decoder;
// for those the instruction lengths come from the ISA's length encoding (riscv: 2 bytes when
// the low two bits are not 11, else 4; loongarch: always 4). On arm and aarch64 the ELF
// mapping symbols ($a ARM, $t Thumb, $x A64, $d data) split a function into code and literal
// pools, as objdump does, so data words are never taken for instructions.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "elf/elf_file.h"
#include "elf/symbols.h"

namespace rawprobe::elf {

struct Instruction {
  uint64_t offset = 0;  // from the function start
  uint16_t size = 0;
  std::string text;     // "mov rbp, rsp"
  bool data = false;    // arm/aarch64 literal pool ($d mapping symbol), not code
  // With DisassemblyDetail::Targets: the absolute link-time address a call or jump goes to,
  // an aarch64 adr/adrp computes, or an x86 rip-relative operand points at; 0 = none.
  uint64_t target = 0;
};

struct Disassembly {
  std::vector<Instruction> instructions;  // in order, from offset 0
  // Where decoding stopped early (bytes Capstone cannot decode), or the function size.
  uint64_t decoded_up_to = 0;
  uint64_t function_size = 0;
  std::string undecodable_bytes;  // hex of the first bytes that failed, when it stopped early
};

struct MappingRegion {
  uint64_t offset;  // from `start`
  char kind;        // 'a', 't', 'x' or 'd'
};

// Mapping symbols ("$t", "$d.1", ...) of .symtab inside [start, start+size), sorted by offset.
std::vector<MappingRegion> mapping_regions(const ElfFile& file, uint64_t start, uint64_t size);

// Targets costs Capstone's per-instruction detail, which only listings need.
enum class DisassemblyDetail { Boundaries, Targets };

// Disassembles `function` (its whole size) from the file. Capstone is given the function's
// link-time address, so the text's branch targets are absolute, as in objdump -d.
Result<Disassembly> disassemble_function(const ElfFile& file, const Symbol& function,
                                         DisassemblyDetail detail = DisassemblyDetail::Boundaries);

// Checks that `offset` bytes into `function` start an instruction. `display` names the
// function in messages. Refuses offsets past the end, inside an instruction (naming it and
// the nearest valid offsets), and offsets Capstone could not reach (suggests --unsafe).
Status check_instruction_boundary(const ElfFile& file, const Symbol& function, uint64_t offset,
                                  std::string_view display);

}  // namespace rawprobe::elf
