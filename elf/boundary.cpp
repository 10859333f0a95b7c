// Capstone sweep over a function and the instruction-boundary verdict.
#include "elf/boundary.h"

#include <capstone/capstone.h>
#include <elf.h>
#include <gelf.h>

#include <algorithm>

#include "arch/arch.h"
#include "elf/capstone.h"
#include "elf/hex.h"
#include "elf/segments.h"

namespace rawprobe::elf {
namespace {

struct Mode {
  bool capstone = true;
  cs_arch arch = CS_ARCH_X86;
  int mode = 0;
  int fixed_length = 0;  // without Capstone: 4 (loongarch) or 0 = riscv length encoding
  bool mapping_symbols = false;
};

// The disassembler the target's arch table names, in the file's byte order.
Result<Mode> mode_for(const ElfFile& file, const Symbol& function) {
  const arch::Table* table = arch::by_machine(file.machine(), file.elf_class());
  if (!table)
    return file.error("no disassembler for e_machine " + std::to_string(file.machine()),
                      "use --unsafe to skip the instruction-boundary check");
  if (table->capstone_arch < 0) return Mode{false, CS_ARCH_X86, 0, table->fixed_insn_size, false};
  // x86 has no byte-order mode; s390 is big-endian only (its table's mode says so).
  int endian = table->capstone_arch == CS_ARCH_X86 || file.little_endian() ? 0 : CS_MODE_BIG_ENDIAN;
  int mode = table->capstone_mode | endian;
  // An arm symbol's bit 0 says Thumb; EF_ARM_EABI_MASK aside, e_flags carries no ISA mode.
  if (function.thumb) mode |= CS_MODE_THUMB;
  return Mode{true, static_cast<cs_arch>(table->capstone_arch), mode, 0, table->mapping_symbols};
}

// riscv (RVC) and loongarch: lengths only, no mnemonics.
void sweep_by_length(std::span<const uint8_t> code, int fixed, Disassembly& out) {
  uint64_t at = 0;
  while (at < code.size()) {
    uint16_t size = fixed ? fixed : ((code[at] & 3) != 3 ? 2 : 4);
    if (code.size() - at < size) break;
    uint64_t word = 0;
    for (uint16_t i = 0; i < size; ++i) word |= uint64_t(code[at + i]) << (8 * i);
    out.instructions.push_back({at, size, ".insn " + hex(word)});
    at += size;
  }
  out.decoded_up_to = at;
}

}  // namespace

std::vector<MappingRegion> mapping_regions(const ElfFile& file, uint64_t start, uint64_t size) {
  std::vector<MappingRegion> regions;
  const Section* symtab = nullptr;
  for (const Section& sec : file.sections())
    if (sec.type == SHT_SYMTAB) symtab = &sec;
  if (!symtab || symtab->entsize == 0 || symtab->link >= file.sections().size()) return regions;
  std::span<const uint8_t> strings = file.bytes(file.sections()[symtab->link]);
  Elf_Data* data = file.data(*symtab);
  if (!data) return regions;
  for (size_t i = 1; i < symtab->size / symtab->entsize; ++i) {
    GElf_Sym sym;
    if (!gelf_getsym(data, static_cast<int>(i), &sym)) break;
    if (GELF_ST_TYPE(sym.st_info) != STT_NOTYPE || sym.st_value < start ||
        sym.st_value - start >= size)
      continue;
    auto name = cstring_at(strings, sym.st_name);
    if (!name || name->size() < 2 || (*name)[0] != '$') continue;
    char kind = (*name)[1];
    if ((name->size() == 2 || (*name)[2] == '.') && std::string_view("atxd").find(kind) != std::string_view::npos)
      regions.push_back({sym.st_value - start, kind});
  }
  std::sort(regions.begin(), regions.end(),
            [](const MappingRegion& a, const MappingRegion& b) { return a.offset < b.offset; });
  return regions;
}

namespace {

// The address an instruction refers to, from Capstone's detail: a call or jump's immediate
// target, aarch64 adr/adrp's computed address, an x86 rip-relative operand's address.
uint64_t target_of(csh handle, const cs_insn& insn, cs_arch arch) {
  bool branch = cs_insn_group(handle, &insn, CS_GRP_JUMP) || cs_insn_group(handle, &insn, CS_GRP_CALL);
  const cs_detail& d = *insn.detail;
  switch (arch) {
    case CS_ARCH_X86:
      for (uint8_t i = 0; i < d.x86.op_count; ++i) {
        const cs_x86_op& op = d.x86.operands[i];
        if (branch && op.type == X86_OP_IMM) return static_cast<uint64_t>(op.imm);
        // The displacement counts from the end of the instruction.
        if (op.type == X86_OP_MEM && op.mem.base == X86_REG_RIP && op.mem.index == X86_REG_INVALID)
          return insn.address + insn.size + static_cast<uint64_t>(op.mem.disp);
      }
      return 0;
    case CS_ARCH_ARM64:
      if (!branch && insn.id != ARM64_INS_ADR && insn.id != ARM64_INS_ADRP) return 0;
      for (uint8_t i = 0; i < d.arm64.op_count; ++i)
        if (d.arm64.operands[i].type == ARM64_OP_IMM) return static_cast<uint64_t>(d.arm64.operands[i].imm);
      return 0;
    case CS_ARCH_ARM:
      if (!branch) return 0;
      for (uint8_t i = 0; i < d.arm.op_count; ++i)
        if (d.arm.operands[i].type == ARM_OP_IMM) return static_cast<uint32_t>(d.arm.operands[i].imm);
      return 0;
    default: return 0;
  }
}

// Capstone over code[from, to) of a function at link-time address `base`, appending
// instructions; returns the offset where it stopped.
Result<uint64_t> sweep(const ElfFile& file, const Mode& mode, std::span<const uint8_t> code,
                       uint64_t base, uint64_t from, uint64_t to, DisassemblyDetail detail,
                       Disassembly& out) {
  bool targets = detail == DisassemblyDetail::Targets;
  std::optional<Capstone> cs = Capstone::open(mode.arch, mode.mode, targets);
  if (!cs)
    return file.error("Capstone cannot open a disassembler for this architecture",
                      "use --unsafe to skip the instruction-boundary check");
  const uint8_t* ptr = code.data() + from;
  size_t left = to - from;
  uint64_t address = base + from;
  while (left > 0) {
    const cs_insn* insn = cs->next(ptr, left, address);
    if (!insn) break;
    std::string text = insn->mnemonic;
    if (insn->op_str[0]) text += std::string(" ") + insn->op_str;
    out.instructions.push_back({insn->address - base, insn->size, std::move(text), false,
                                targets ? target_of(cs->handle(), *insn, mode.arch) : 0});
  }
  return address - base;
}

}  // namespace

Result<Disassembly> disassemble_function(const ElfFile& file, const Symbol& function,
                                         DisassemblyDetail detail) {
  auto mode = mode_for(file, function);
  if (!mode) return mode.error();
  auto place = code_offset(file, function.address, "function '" + std::string(function.name) + "'");
  if (!place) return place.error();
  // Stay inside the segment even when the symbol's size claims more.
  uint64_t room = place->segment->offset + place->segment->filesz - place->file_offset;
  auto code = file.bytes_at(place->file_offset, std::min(function.size, room),
                            "code of '" + std::string(function.name) + "'");
  if (!code) return code.error();

  Disassembly out;
  out.function_size = function.size;
  if (!mode->capstone) {
    sweep_by_length(*code, mode->fixed_length, out);
  } else {
    std::vector<MappingRegion> regions;
    if (mode->mapping_symbols) regions = mapping_regions(file, function.address, code->size());
    if (regions.empty() || regions[0].offset != 0) regions.insert(regions.begin(), {0, '-'});
    out.decoded_up_to = code->size();
    for (size_t i = 0; i < regions.size(); ++i) {
      uint64_t from = regions[i].offset;
      uint64_t to = i + 1 < regions.size() ? regions[i + 1].offset : code->size();
      if (from >= to) continue;
      if (regions[i].kind == 'd') {
        out.instructions.push_back({from, static_cast<uint16_t>(std::min<uint64_t>(to - from, 0xffff)),
                                    "literal pool data", true});
        continue;
      }
      Mode region_mode = *mode;
      if (regions[i].kind == 't') region_mode.mode = (region_mode.mode & CS_MODE_BIG_ENDIAN) | CS_MODE_THUMB;
      if (regions[i].kind == 'a') region_mode.mode = region_mode.mode & CS_MODE_BIG_ENDIAN;
      auto stopped = sweep(file, region_mode, *code, function.address, from, to, detail, out);
      if (!stopped) return stopped.error();
      if (*stopped < to) {
        out.decoded_up_to = *stopped;
        break;
      }
    }
  }
  if (out.decoded_up_to < code->size())
    out.undecodable_bytes = hex_bytes(code->subspan(out.decoded_up_to), " ", 8);
  return out;
}

Status check_instruction_boundary(const ElfFile& file, const Symbol& function, uint64_t offset,
                                  std::string_view display) {
  std::string name(display);
  auto at = [&](uint64_t off) { return name + "+" + std::to_string(off); };
  if (offset == 0) return {};
  if (function.size == 0)
    return file.error(at(offset) + ": '" + name + "' has no size in the symbol table, so the "
                          "instruction boundary cannot be checked",
                      "use --unsafe to attach anyway");
  if (offset >= function.size)
    return file.error(at(offset) + " is past the end of '" + name + "' (" +
                          std::to_string(function.size) + " bytes)",
                      "pick an offset below " + std::to_string(function.size));
  auto dis = disassemble_function(file, function);
  if (!dis) return dis.error();
  const Instruction* before = nullptr;
  for (const Instruction& insn : dis->instructions) {
    if (insn.offset == offset && insn.data)
      return file.error(at(offset) + " is in a literal pool (data inside the function's code, "
                        "marked by a $d mapping symbol), not an instruction");
    if (insn.offset == offset) return {};
    if (insn.offset > offset) {
      // `before` covers the offset: name it and both valid neighbours.
      return file.error(at(offset) + " is inside '" + before->text + "' (" + at(before->offset) +
                            ".." + at(insn.offset) + "); valid: +" +
                            std::to_string(before->offset) + ", +" + std::to_string(insn.offset),
                        "uprobes must start on an instruction boundary");
    }
    before = &insn;
  }
  if (offset < dis->decoded_up_to && before)
    return file.error(at(offset) + " is inside '" + before->text + "' (" + at(before->offset) +
                          ".." + at(before->offset + before->size) + "); valid: +" +
                          std::to_string(before->offset),
                      "uprobes must start on an instruction boundary");
  return file.error("cannot decode '" + name + "' from " + at(dis->decoded_up_to) + " (bytes " +
                        dis->undecodable_bytes + "), so " + at(offset) +
                        " cannot be checked for an instruction boundary",
                    "if you are sure the offset starts an instruction, use --unsafe");
}

}  // namespace rawprobe::elf
