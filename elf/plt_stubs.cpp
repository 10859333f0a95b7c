// Decoding each architecture's PLT stub shape with Capstone (detail on) to its GOT slot.
#include "elf/plt_stubs.h"

#include <capstone/capstone.h>
#include <elf.h>
#include <gelf.h>

#include "arch/arch.h"
#include "elf/capstone.h"

namespace rawprobe::elf {
namespace {

bool fills_slot(const arch::Table& table, uint32_t type) {
  return type != 0 && (type == table.plt_jump_slot_reloc || type == table.plt_glob_dat_reloc);
}

// GOT slot -> imported name, from the dynamic relocations that fill slots: JUMP_SLOT for lazy
// calls, GLOB_DAT for x86_64's .plt.got stubs (-z now, address-taken imports). arm uses REL.
std::map<uint64_t, std::string> got_slots(const ElfFile& file, const arch::Table& table) {
  std::map<uint64_t, std::string> slots;
  for (const Section& rel : file.sections()) {
    if ((rel.type != SHT_RELA && rel.type != SHT_REL) || rel.entsize == 0 ||
        rel.link >= file.sections().size())
      continue;
    const Section& symtab = file.sections()[rel.link];
    if (symtab.entsize == 0 || symtab.link >= file.sections().size()) continue;
    Elf_Data* relocs = file.data(rel);
    Elf_Data* syms = file.data(symtab);
    std::span<const uint8_t> strings = file.bytes(file.sections()[symtab.link]);
    if (!relocs || !syms) continue;
    for (size_t i = 0; i < rel.size / rel.entsize; ++i) {
      GElf_Rela r;
      if (rel.type == SHT_RELA) {
        if (!gelf_getrela(relocs, static_cast<int>(i), &r)) break;
      } else {
        GElf_Rel plain;
        if (!gelf_getrel(relocs, static_cast<int>(i), &plain)) break;
        r = {plain.r_offset, plain.r_info, 0};
      }
      GElf_Sym sym;
      if (!fills_slot(table, static_cast<uint32_t>(GELF_R_TYPE(r.r_info))) ||
          !gelf_getsym(syms, static_cast<int>(GELF_R_SYM(r.r_info)), &sym))
        continue;
      if (auto name = cstring_at(strings, sym.st_name); name && !name->empty())
        slots[r.r_offset] = std::string(*name);
    }
  }
  return slots;
}

// Follows one architecture's stub shape through the instruction stream; on the instruction
// that jumps through the slot, `slot` and `start` (the stub's first instruction) are set.
struct StubWalker {
  int arch;  // cs_arch
  uint64_t start = 0, acc = 0, previous = 0;
  bool previous_endbr = false;

  bool step(const cs_insn& insn, uint64_t& slot, uint64_t& stub) {
    const cs_detail& d = *insn.detail;
    bool found = false;
    switch (arch) {
      // jmp qword ptr [rip + d], the stub starting there or at the endbr64 just before it
      // (IBT's .plt.sec).
      case CS_ARCH_X86:
        if (insn.id == X86_INS_JMP && d.x86.op_count == 1 && d.x86.operands[0].type == X86_OP_MEM &&
            d.x86.operands[0].mem.base == X86_REG_RIP) {
          slot = insn.address + insn.size + static_cast<uint64_t>(d.x86.operands[0].mem.disp);
          stub = previous_endbr ? previous : insn.address;
          found = true;
        }
        previous_endbr = insn.id == X86_INS_ENDBR64;
        previous = insn.address;
        return found;
      // adrp x16, PAGE; ldr x17, [x16, #OFF]; add x16, x16, #OFF; br x17
      case CS_ARCH_ARM64:
        if (insn.id == ARM64_INS_ADRP && d.arm64.op_count == 2 && d.arm64.operands[0].reg == ARM64_REG_X16) {
          start = insn.address;
          acc = static_cast<uint64_t>(d.arm64.operands[1].imm);
        } else if (insn.id == ARM64_INS_LDR && start && d.arm64.op_count == 2 &&
                   d.arm64.operands[1].type == ARM64_OP_MEM && d.arm64.operands[1].mem.base == ARM64_REG_X16) {
          slot = acc + static_cast<uint64_t>(static_cast<int64_t>(d.arm64.operands[1].mem.disp));
          stub = start;
          start = 0;
          return true;
        }
        return false;
      // add ip, pc, #A; add ip, ip, #B; ldr pc, [ip, #C]!   (pc reads as the address + 8)
      case CS_ARCH_ARM:
        // Capstone writes "#0, 12" (an 8-bit value and its rotation) as two immediates.
        if (insn.id == ARM_INS_ADD && d.arm.op_count >= 3 && d.arm.operands[0].reg == ARM_REG_R12 &&
            d.arm.operands[2].type == ARM_OP_IMM) {
          if (d.arm.operands[1].reg == ARM_REG_PC) {
            start = insn.address;
            acc = insn.address + 8;
          }
          uint32_t value = static_cast<uint32_t>(d.arm.operands[2].imm);
          if (d.arm.op_count == 4 && d.arm.operands[3].type == ARM_OP_IMM) {
            unsigned rotate = static_cast<unsigned>(d.arm.operands[3].imm) & 31;
            if (rotate) value = (value >> rotate) | (value << (32 - rotate));
          }
          acc += value;
        } else if (insn.id == ARM_INS_LDR && start && d.arm.op_count == 2 &&
                   d.arm.operands[1].type == ARM_OP_MEM && d.arm.operands[1].mem.base == ARM_REG_R12) {
          slot = static_cast<uint32_t>(acc + static_cast<uint32_t>(d.arm.operands[1].mem.disp));
          stub = start;
          start = 0;
          return true;
        }
        return false;
      default: return false;
    }
  }
};

}  // namespace

std::map<uint64_t, std::string> plt_stubs(const ElfFile& file) {
  std::map<uint64_t, std::string> stubs;
  // The architectures whose stub shapes StubWalker knows name their slot-filling relocations
  // in their table (x86_64, aarch64, arm); arm's stubs are A32 code, the table's base mode.
  const arch::Table* table = arch::by_machine(file.machine(), file.elf_class());
  if (!table || !table->plt_jump_slot_reloc || !file.little_endian()) return stubs;
  std::map<uint64_t, std::string> slots = got_slots(file, *table);
  if (slots.empty()) return stubs;
  std::optional<Capstone> cs = Capstone::open(table->capstone_arch, table->capstone_mode, true);
  if (!cs) return stubs;
  for (const Section& s : file.sections()) {
    if (s.name != ".plt" && s.name != ".plt.sec" && s.name != ".plt.got") continue;
    std::span<const uint8_t> code = file.bytes(s);
    const uint8_t* ptr = code.data();
    size_t left = code.size();
    uint64_t address = s.addr;
    StubWalker walker{table->capstone_arch};
    while (left > 0) {
      const cs_insn* insn = cs->next(ptr, left, address);
      if (!insn) {
        // arm's PLT header ends in a data word: step over what does not decode (x86 code is
        // byte-aligned, the others' 4-byte).
        size_t skip = std::min<size_t>(left, table->capstone_arch == CS_ARCH_X86 ? 1 : 4);
        ptr += skip, left -= skip, address += skip;
        continue;
      }
      uint64_t slot = 0, stub = 0;
      if (walker.step(*insn, slot, stub))
        if (auto it = slots.find(slot); it != slots.end()) stubs[stub] = it->second + "@plt";
    }
  }
  return stubs;
}

}  // namespace rawprobe::elf
