// Disassembly listing with named targets (see disasm_listing.h).
#include "elf/disasm_listing.h"

#include <capstone/capstone.h>
#include <elf.h>
#include <gelf.h>

#include <algorithm>
#include <map>

#include "elf/boundary.h"
#include "elf/hex.h"

namespace rawprobe::elf {
namespace {

const Section* section_holding(const ElfFile& file, uint64_t address) {
  for (const Section& s : file.sections())
    if ((s.flags & SHF_ALLOC) && s.addr <= address && address - s.addr < s.size) return &s;
  return nullptr;
}

// GOT slot -> imported name, from the dynamic relocations that fill slots (x86_64
// JUMP_SLOT for lazy calls, GLOB_DAT for the .plt.got stubs of -z now / address-taken imports).
std::map<uint64_t, std::string> got_slots(const ElfFile& file) {
  std::map<uint64_t, std::string> slots;
  for (const Section& rela : file.sections()) {
    if (rela.type != SHT_RELA || rela.entsize == 0 || rela.link >= file.sections().size()) continue;
    const Section& symtab = file.sections()[rela.link];
    if (symtab.entsize == 0 || symtab.link >= file.sections().size()) continue;
    Elf_Data* relocs = file.data(rela);
    Elf_Data* syms = file.data(symtab);
    std::span<const uint8_t> strings = file.bytes(file.sections()[symtab.link]);
    if (!relocs || !syms) continue;
    for (size_t i = 0; i < rela.size / rela.entsize; ++i) {
      GElf_Rela r;
      GElf_Sym sym;
      if (!gelf_getrela(relocs, static_cast<int>(i), &r)) break;
      uint32_t type = GELF_R_TYPE(r.r_info);
      if (type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT) continue;
      if (!gelf_getsym(syms, static_cast<int>(GELF_R_SYM(r.r_info)), &sym)) continue;
      if (auto name = cstring_at(strings, sym.st_name); name && !name->empty())
        slots[r.r_offset] = std::string(*name);
    }
  }
  return slots;
}

// PLT stub address -> "name@plt" on x86_64: the stub starts at its `jmp *slot(%rip)`, or at
// the endbr64 just before it (IBT's .plt.sec).
std::map<uint64_t, std::string> plt_stubs(const ElfFile& file) {
  std::map<uint64_t, std::string> stubs;
  if (file.machine() != EM_X86_64) return stubs;
  std::map<uint64_t, std::string> slots = got_slots(file);
  if (slots.empty()) return stubs;
  csh handle;
  if (cs_open(CS_ARCH_X86, CS_MODE_64, &handle) != CS_ERR_OK) return stubs;
  cs_option(handle, CS_OPT_DETAIL, CS_OPT_ON);
  cs_insn* insn = cs_malloc(handle);
  for (const Section& s : file.sections()) {
    if (s.name != ".plt" && s.name != ".plt.sec" && s.name != ".plt.got") continue;
    std::span<const uint8_t> code = file.bytes(s);
    const uint8_t* ptr = code.data();
    size_t left = code.size();
    uint64_t address = s.addr, previous = 0;
    bool previous_endbr = false;
    while (left > 0 && cs_disasm_iter(handle, &ptr, &left, &address, insn)) {
      const cs_x86& x86 = insn->detail->x86;
      if (insn->id == X86_INS_JMP && x86.op_count == 1 && x86.operands[0].type == X86_OP_MEM &&
          x86.operands[0].mem.base == X86_REG_RIP) {
        uint64_t slot = insn->address + insn->size + static_cast<uint64_t>(x86.operands[0].mem.disp);
        if (auto it = slots.find(slot); it != slots.end())
          stubs[previous_endbr ? previous : insn->address] = it->second + "@plt";
      }
      previous_endbr = insn->id == X86_INS_ENDBR64;
      previous = insn->address;
    }
  }
  cs_free(insn, 1);
  cs_close(&handle);
  return stubs;
}

// Data objects for rip-relative operands: name the object whose bytes hold the address.
std::string object_label(const ElfFile& file, uint64_t address) {
  for (const Section& sec : file.sections()) {
    if ((sec.type != SHT_SYMTAB && sec.type != SHT_DYNSYM) || sec.entsize == 0 ||
        sec.link >= file.sections().size())
      continue;
    Elf_Data* data = file.data(sec);
    std::span<const uint8_t> strings = file.bytes(file.sections()[sec.link]);
    if (!data) continue;
    for (size_t i = 1; i < sec.size / sec.entsize; ++i) {
      GElf_Sym sym;
      if (!gelf_getsym(data, static_cast<int>(i), &sym)) break;
      if (GELF_ST_TYPE(sym.st_info) != STT_OBJECT || sym.st_shndx == SHN_UNDEF) continue;
      if (address < sym.st_value || address - sym.st_value >= std::max<uint64_t>(sym.st_size, 1)) continue;
      auto name = cstring_at(strings, sym.st_name);
      if (!name || name->empty()) continue;
      uint64_t off = address - sym.st_value;
      return "<" + std::string(*name) + (off ? "+" + hex(off) : "") + ">";
    }
  }
  return {};
}

std::string label_with(const ElfFile& file, const SymbolTable& table,
                       const std::map<uint64_t, std::string>& stubs, uint64_t address) {
  if (auto it = stubs.find(address); it != stubs.end()) return "<" + it->second + ">";
  const Section* sec = section_holding(file, address);
  if (!sec) return {};
  std::span<const Symbol> fns = table.functions();
  // The last function at or before the address, in the same section.
  auto after = std::upper_bound(fns.begin(), fns.end(), address,
                                [](uint64_t a, const Symbol& s) { return a < s.address; });
  if (after == fns.begin()) return object_label(file, address);
  const Symbol& sym = *(after - 1);
  if (sym.address < sec->addr) return object_label(file, address);
  uint64_t off = address - sym.address;
  return "<" + std::string(sym.name) + (off ? "+" + hex(off) : "") + ">";
}

}  // namespace

std::string address_label(const ElfFile& file, const SymbolTable& table, uint64_t address) {
  return label_with(file, table, plt_stubs(file), address);
}

Result<std::vector<std::string>> disassembly_listing(const ElfFile& file, const SymbolTable& table,
                                                     const Symbol& function) {
  Result<Disassembly> dis = disassemble_function(file, function, DisassemblyDetail::Targets);
  if (!dis) return dis.error();
  std::map<uint64_t, std::string> stubs = plt_stubs(file);
  std::vector<std::string> lines;
  for (const Instruction& insn : dis->instructions) {
    std::string off = "+" + std::to_string(insn.offset);
    off.resize(std::max<size_t>(off.size() + 1, 7), ' ');
    std::string line = off + hex(function.address + insn.offset) + "  " + insn.text;
    if (insn.target) {
      std::string label = label_with(file, table, stubs, insn.target);
      // Calls, jumps and adrp show the address already: name it. A rip-relative operand
      // shows a displacement: give the address it reaches, as objdump's "# addr" does.
      if (insn.text.find(hex(insn.target)) != std::string::npos)
        line += label.empty() ? "" : " " + label;
      else
        line += "  # " + hex(insn.target) + (label.empty() ? "" : " " + label);
    }
    lines.push_back(line);
  }
  if (dis->decoded_up_to < dis->function_size)
    lines.push_back("(decoding stopped at +" + std::to_string(dis->decoded_up_to) + ": bytes " +
                    dis->undecodable_bytes + ")");
  return lines;
}

}  // namespace rawprobe::elf
