// Reading .note.stapsdt.
#include "elf/usdt_notes.h"

#include <elf.h>

#include <map>

#include "elf/byte_order.h"
#include "elf/hex.h"
#include "elf/notes.h"

namespace rawprobe::elf {
namespace {

constexpr uint32_t kNtStapsdt = 3;

}  // namespace

Result<std::vector<UsdtNote>> parse_stapsdt_notes(std::span<const uint8_t> bytes,
                                                  bool little_endian, uint8_t elf_class) {
  auto raw = split_notes(bytes, little_endian, ".note.stapsdt");
  if (!raw) {
    raw.error().what = "parse USDT " + raw.error().what.substr(std::string("parse ").size());
    return raw.error();
  }
  std::vector<UsdtNote> notes;
  const size_t addr = elf_class == ELFCLASS64 ? 8 : 4;
  for (const RawNote& r : *raw) {
    if (r.type != kNtStapsdt || r.owner != "stapsdt") continue;
    auto fail = [&](const std::string& why) {
      return make_error("parse USDT note #" + std::to_string(r.index),
                        ".note.stapsdt offset " + hex(r.offset),
                        why + "; the note section is malformed (was the file truncated or "
                              "post-processed?)");
    };
    std::span<const uint8_t> desc = r.desc;
    if (desc.size() < 3 * addr)
      return fail("descriptor of " + std::to_string(desc.size()) +
                  " bytes is too short for three " + std::to_string(addr) + "-byte addresses");
    UsdtNote note;
    note.index = r.index;
    note.pc = read_uint(&desc[0], addr, little_endian);
    note.base = read_uint(&desc[addr], addr, little_endian);
    note.semaphore = read_uint(&desc[2 * addr], addr, little_endian);
    std::string* fields[] = {&note.provider, &note.name, &note.args};
    const char* field_names[] = {"provider", "name", "argument"};
    uint64_t at = 3 * addr;
    for (int f = 0; f < 3; ++f) {
      auto s = cstring_at(desc, at);
      if (!s)
        return fail(std::string(field_names[f]) + " string is not NUL-terminated inside the note");
      *fields[f] = std::string(*s);
      at += s->size() + 1;
    }
    if (note.provider.empty() || note.name.empty()) return fail("empty provider or probe name");
    note.address = note.pc;
    note.semaphore_address = note.semaphore;
    notes.push_back(std::move(note));
  }
  return notes;
}

Result<std::vector<UsdtNote>> read_usdt_notes(const ElfFile& file) {
  const Section* section = file.section(".note.stapsdt");
  if (!section) return std::vector<UsdtNote>{};
  if (section->type != SHT_NOTE)
    return file.error(".note.stapsdt is not of type SHT_NOTE");
  auto notes = parse_stapsdt_notes(file.bytes(*section), file.little_endian(), file.elf_class());
  if (!notes) {
    notes.error().object = file.path() + " " + notes.error().object;
    return notes.error();
  }
  // The section's current address minus the address the note recorded is how far the file
  // was moved after the notes were written (0 unless prelinked).
  if (const Section* base = file.section(".stapsdt.base"); base) {
    for (UsdtNote& note : *notes) {
      if (note.base == 0) continue;
      uint64_t shift = base->addr - note.base;
      note.address = note.pc + shift;
      if (note.semaphore) note.semaphore_address = note.semaphore + shift;
    }
  }
  return notes;
}

std::vector<UsdtProbe> group_usdt_probes(std::span<const UsdtNote> notes) {
  std::vector<UsdtProbe> probes;
  std::map<std::pair<std::string, std::string>, size_t> where;
  for (const UsdtNote& note : notes) {
    auto [it, fresh] = where.try_emplace({note.provider, note.name}, probes.size());
    if (fresh) probes.push_back({note.provider, note.name, {}});
    probes[it->second].locations.push_back(note);
  }
  return probes;
}

}  // namespace rawprobe::elf
