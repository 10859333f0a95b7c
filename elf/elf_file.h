// An ELF file opened for inspection: the file mapped copy-on-write, libelf on top, and the
// headers checked against the file's size once, at open, so that nothing read later can point
// past the end of the file. Every other elf/ module reads through this class.
#pragma once
#include <libelf.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/base/result.h"

namespace rawprobe::elf {

// One program header, class-independent.
struct Segment {
  uint32_t type = 0;   // PT_LOAD, PT_NOTE, ...
  uint32_t flags = 0;  // PF_X | PF_W | PF_R
  uint64_t offset = 0, vaddr = 0, filesz = 0, memsz = 0;
  size_t index = 0;
  bool executable() const;
};

// One section header with its name, class-independent.
struct Section {
  std::string_view name;
  uint32_t type = 0;  // SHT_*
  uint64_t flags = 0, addr = 0, offset = 0, size = 0, entsize = 0;
  uint32_t link = 0, info = 0;
  size_t index = 0;
};

// The mapped bytes and the libelf handle; shared by everything that keeps string_views into
// the file (symbol names, note strings), so those stay valid as long as any holder lives.
class Image;

class ElfFile {
 public:
  // Opens and validates `path`.
  static Result<ElfFile> open(const std::string& path);
  // Validates the file open on `fd` (not closed, not kept), named `name` in path() and errors:
  // what is read is that open file, whatever its name reaches by now.
  static Result<ElfFile> open_fd(int fd, const std::string& name);
  // Validates an in-memory image (the fuzzers' entry point); the bytes are copied.
  static Result<ElfFile> from_bytes(std::span<const uint8_t> bytes, std::string name);

  const std::string& path() const;
  uint16_t machine() const { return machine_; }
  uint8_t elf_class() const { return class_; }  // ELFCLASS32 or ELFCLASS64
  uint16_t type() const { return type_; }       // ET_EXEC, ET_DYN, ...
  uint32_t flags() const { return flags_; }     // e_flags
  uint64_t entry() const { return entry_; }
  bool little_endian() const { return little_endian_; }

  std::span<const Segment> segments() const { return segments_; }
  std::span<const Section> sections() const { return sections_; }
  // The first section of that name, if any.
  const Section* section(std::string_view name) const;
  // A section's bytes (empty for SHT_NOBITS); bounds were checked at open.
  std::span<const uint8_t> bytes(const Section& section) const;
  // `size` bytes at file offset `offset`, or an error naming what was asked for.
  Result<std::span<const uint8_t>> bytes_at(uint64_t offset, uint64_t size,
                                            std::string_view what) const;
  // The section's data converted to host byte order by libelf (symbol tables, versions).
  Elf_Data* data(const Section& section) const;
  Elf* handle() const;
  // The shared image, for types that keep views into the file.
  std::shared_ptr<const Image> image() const { return image_; }
  uint64_t file_size() const;

  // Error about this file: what went wrong and a hint.
  Error error(std::string what, std::string hint = {}) const;

 private:
  static Result<ElfFile> validate(std::shared_ptr<Image> image);

  std::shared_ptr<Image> image_;
  uint16_t machine_ = 0, type_ = 0;
  uint8_t class_ = 0;
  bool little_endian_ = true;
  uint32_t flags_ = 0;
  uint64_t entry_ = 0;
  std::vector<Segment> segments_;
  std::vector<Section> sections_;
};

// Reads a NUL-terminated string at `offset` inside `bytes`; nullopt when no NUL before the end.
std::optional<std::string_view> cstring_at(std::span<const uint8_t> bytes, uint64_t offset);

}  // namespace rawprobe::elf
