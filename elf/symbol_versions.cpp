// Symbol versions. .gnu.version holds one 16-bit index per .dynsym entry; the names behind
// the indexes come from version definitions (this file's own versions, "@@" unless the hidden
// bit 0x8000 is set) and version needs (versions required from other files, for imports).
#include "elf/symbol_versions.h"

#include <gelf.h>

#include <unordered_map>

namespace rawprobe::elf {
namespace {

const Section* linked_section(const ElfFile& file, uint32_t type, size_t dynsym_index) {
  for (const Section& sec : file.sections())
    if (sec.type == type && sec.link == dynsym_index) return &sec;
  for (const Section& sec : file.sections())
    if (sec.type == type) return &sec;
  return nullptr;
}

}  // namespace

Result<std::vector<SymbolVersion>> read_symbol_versions(const ElfFile& file,
                                                        const Section& dynsym) {
  std::vector<SymbolVersion> versions;
  const Section* versym = linked_section(file, SHT_GNU_versym, dynsym.index);
  if (!versym) return versions;
  const Section* strtab = dynsym.link < file.sections().size() ? &file.sections()[dynsym.link]
                                                                 : nullptr;
  if (!strtab) return file.error("the .dynsym's string table index is out of range");
  std::span<const uint8_t> strings = file.bytes(*strtab);

  std::unordered_map<uint16_t, std::string_view> names;
  // Version definitions: a linked list of Verdef, each with Verdaux names. Walks are bounded
  // by the section size, so a corrupt vd_next cannot loop forever.
  if (const Section* verdef = linked_section(file, SHT_GNU_verdef, SIZE_MAX); verdef) {
    Elf_Data* data = file.data(*verdef);
    size_t offset = 0;
    for (size_t n = 0; data && n < data->d_size; ++n) {
      GElf_Verdef def;
      GElf_Verdaux aux;
      if (!gelf_getverdef(data, static_cast<int>(offset), &def)) break;
      if (def.vd_cnt > 0 && gelf_getverdaux(data, static_cast<int>(offset + def.vd_aux), &aux))
        if (auto name = cstring_at(strings, aux.vda_name)) names[def.vd_ndx] = *name;
      if (def.vd_next == 0) break;
      offset += def.vd_next;
    }
  }
  // Version needs: for each needed file, a list of Vernaux with the version's index.
  if (const Section* verneed = linked_section(file, SHT_GNU_verneed, SIZE_MAX); verneed) {
    Elf_Data* data = file.data(*verneed);
    size_t offset = 0;
    for (size_t n = 0; data && n < data->d_size; ++n) {
      GElf_Verneed need;
      if (!gelf_getverneed(data, static_cast<int>(offset), &need)) break;
      size_t aux_offset = offset + need.vn_aux;
      for (size_t k = 0; k < need.vn_cnt && k < data->d_size; ++k) {
        GElf_Vernaux aux;
        if (!gelf_getvernaux(data, static_cast<int>(aux_offset), &aux)) break;
        if (auto name = cstring_at(strings, aux.vna_name)) names[aux.vna_other] = *name;
        if (aux.vna_next == 0) break;
        aux_offset += aux.vna_next;
      }
      if (need.vn_next == 0) break;
      offset += need.vn_next;
    }
  }

  Elf_Data* data = file.data(*versym);
  if (!data) return file.error("cannot read .gnu.version: " + std::string(elf_errmsg(-1)));
  size_t count = dynsym.entsize ? dynsym.size / dynsym.entsize : 0;
  versions.resize(count);
  for (size_t i = 0; i < count; ++i) {
    GElf_Versym v;
    if (!gelf_getversym(data, static_cast<int>(i), &v)) break;  // short table: rest unversioned
    uint16_t index = v & 0x7fff;
    if (index <= 1) continue;  // VER_NDX_LOCAL, VER_NDX_GLOBAL: no version string
    auto it = names.find(index);
    if (it == names.end()) continue;
    versions[i] = {it->second, (v & 0x8000) != 0};
  }
  return versions;
}

}  // namespace rawprobe::elf
