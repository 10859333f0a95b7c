// Disassembly listing with named targets (see disasm_listing.h).
#include "elf/disasm_listing.h"

#include <elf.h>
#include <gelf.h>

#include <algorithm>
#include <map>

#include "elf/boundary.h"
#include "elf/hex.h"
#include "elf/plt_stubs.h"

namespace rawprobe::elf {
namespace {

const Section* section_holding(const ElfFile& file, uint64_t address) {
  for (const Section& s : file.sections())
    if ((s.flags & SHF_ALLOC) && s.addr <= address && address - s.addr < s.size) return &s;
  return nullptr;
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
  // Aliases (C++ C1/C2 constructors, weak/strong pairs): a global one, then the first by
  // name, which is the one objdump prints on the libraries we checked.
  auto first = after - 1;
  while (first != fns.begin() && (first - 1)->address == first->address) --first;
  auto pick = first;
  for (auto it = first; it != after; ++it)
    if (it->binding == STB_GLOBAL && pick->binding != STB_GLOBAL) pick = it;
  const Symbol& sym = *pick;
  if (sym.address < sec->addr) return object_label(file, address);
  uint64_t off = address - sym.address;
  return "<" + sym.versioned_name() + (off ? "+" + hex(off) : "") + ">";
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
