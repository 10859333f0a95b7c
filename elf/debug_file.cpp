// Locating separate debug files.
#include "elf/debug_file.h"

#include <elf.h>
#include <zlib.h>

#include <fstream>
#include <iterator>

#include "elf/byte_order.h"
#include "elf/hex.h"
#include "elf/notes.h"

namespace rawprobe::elf {
namespace {

// The GNU build-ID note of one note area, as hex.
std::optional<std::string> build_id_in(std::span<const uint8_t> area, bool little) {
  auto notes = split_notes(area, little, "note area");
  if (!notes) return std::nullopt;
  for (const RawNote& n : *notes) {
    if (n.type != NT_GNU_BUILD_ID || n.owner != "GNU") continue;
    return hex_bytes(n.desc, "");
  }
  return std::nullopt;
}

std::optional<uint32_t> file_crc(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  uLong crc = crc32(0, nullptr, 0);
  char buf[65536];
  while (in.read(buf, sizeof buf) || in.gcount() > 0)
    crc = crc32(crc, reinterpret_cast<const Bytef*>(buf), static_cast<uInt>(in.gcount()));
  return static_cast<uint32_t>(crc);
}

}  // namespace

std::optional<std::string> build_id(const ElfFile& file) {
  for (const Section& sec : file.sections())
    if (sec.type == SHT_NOTE)
      if (auto id = build_id_in(file.bytes(sec), file.little_endian())) return id;
  for (const Segment& seg : file.segments())
    if (seg.type == PT_NOTE)
      if (auto bytes = file.bytes_at(seg.offset, seg.filesz, "PT_NOTE"))
        if (auto id = build_id_in(*bytes, file.little_endian())) return id;
  return std::nullopt;
}

std::optional<DebugLink> debug_link(const ElfFile& file) {
  const Section* sec = file.section(".gnu_debuglink");
  if (!sec) return std::nullopt;
  std::span<const uint8_t> bytes = file.bytes(*sec);
  auto name = cstring_at(bytes, 0);
  if (!name || name->empty()) return std::nullopt;
  size_t crc_at = (name->size() + 1 + 3) & ~size_t{3};
  if (crc_at + 4 > bytes.size()) return std::nullopt;
  return DebugLink{std::string(*name),
                   static_cast<uint32_t>(read_uint(&bytes[crc_at], 4, file.little_endian()))};
}

std::optional<std::string> find_debug_file(const ElfFile& file, const FsRoots& roots,
                                           std::vector<std::string>* searched) {
  auto note = [&](const std::string& path) {
    if (searched) searched->push_back(path);
  };
  if (auto id = build_id(file); id && id->size() > 2) {
    std::string path = roots.root + "/usr/lib/debug/.build-id/" + id->substr(0, 2) + "/" +
                       id->substr(2) + ".debug";
    note(path);
    if (auto debug = ElfFile::open(path); debug && build_id(*debug) == id) return path;
  }
  if (auto link = debug_link(file)) {
    std::string dir = file.path().substr(0, file.path().rfind('/') + 1);
    if (dir.empty()) dir = "./";
    for (const std::string& candidate :
         {dir + link->name, dir + ".debug/" + link->name,
          roots.root + "/usr/lib/debug/" + (dir[0] == '/' ? dir.substr(1) : dir) + link->name}) {
      if (candidate == file.path()) continue;
      note(candidate);
      if (file_crc(candidate) == link->crc) return candidate;
    }
  }
  return std::nullopt;
}

}  // namespace rawprobe::elf
