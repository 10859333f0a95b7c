// ElfFile: maps the file, hands it to libelf and checks every header against the file size
// before anything else reads through them.
#include "elf/elf_file.h"

#include <fcntl.h>
#include <gelf.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <mutex>

#include "elf/hex.h"
#include "engine/base/fd.h"

namespace rawprobe::elf {

class Image {
 public:
  ~Image() {
    if (elf) elf_end(elf);
    if (mapped) munmap(const_cast<uint8_t*>(data), size);
  }
  std::string path;
  const uint8_t* data = nullptr;
  uint64_t size = 0;
  bool mapped = false;
  std::vector<uint8_t> owned;  // from_bytes
  Elf* elf = nullptr;
};

namespace {

// True when [offset, offset+size) lies inside a file of `file_size` bytes, without overflow.
bool fits(uint64_t offset, uint64_t size, uint64_t file_size) {
  return offset <= file_size && size <= file_size - offset;
}

const char* segment_type_name(uint32_t type) {
  switch (type) {
    case PT_LOAD: return "PT_LOAD";
    case PT_DYNAMIC: return "PT_DYNAMIC";
    case PT_INTERP: return "PT_INTERP";
    case PT_NOTE: return "PT_NOTE";
    case PT_PHDR: return "PT_PHDR";
    case PT_TLS: return "PT_TLS";
    case PT_GNU_EH_FRAME: return "PT_GNU_EH_FRAME";
    default: return "segment";
  }
}

}  // namespace

bool Segment::executable() const { return type == PT_LOAD && (flags & PF_X); }

std::optional<std::string_view> cstring_at(std::span<const uint8_t> bytes, uint64_t offset) {
  if (offset >= bytes.size()) return std::nullopt;
  const void* nul = memchr(bytes.data() + offset, 0, bytes.size() - offset);
  if (!nul) return std::nullopt;
  return std::string_view(reinterpret_cast<const char*>(bytes.data() + offset),
                          static_cast<const uint8_t*>(nul) - (bytes.data() + offset));
}

Result<ElfFile> ElfFile::open(const std::string& path) {
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) return syscall_error("open ELF file", "open", errno, path);
  return open_fd(fd.get(), path);  // the mapping stays valid once fd is closed
}

Result<ElfFile> ElfFile::open_fd(int fd, const std::string& path) {
  struct stat st;
  if (fstat(fd, &st) != 0) return syscall_error("open ELF file", "fstat", errno, path);
  if (!S_ISREG(st.st_mode))
    return make_error("open ELF file", path, "not a regular file; give the path of a binary");
  auto image = std::make_shared<Image>();
  image->path = path;
  image->size = static_cast<uint64_t>(st.st_size);
  if (image->size > 0) {
    // Private and writable: libelf may convert foreign-endian headers in place; our pages
    // stay copy-on-write and the file is never changed.
    void* p = mmap(nullptr, image->size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) return syscall_error("map ELF file", "mmap", errno, path);
    image->data = static_cast<const uint8_t*>(p);
    image->mapped = true;
  }
  return validate(std::move(image));
}

Result<ElfFile> ElfFile::from_bytes(std::span<const uint8_t> bytes, std::string name) {
  auto image = std::make_shared<Image>();
  image->path = std::move(name);
  image->owned.assign(bytes.begin(), bytes.end());
  image->data = image->owned.data();
  image->size = image->owned.size();
  return validate(std::move(image));
}

Result<ElfFile> ElfFile::validate(std::shared_ptr<Image> image) {
  static std::once_flag version_once;
  std::call_once(version_once, [] { elf_version(EV_CURRENT); });

  ElfFile file;
  file.image_ = image;
  const uint8_t* d = image->data;
  if (image->size < EI_NIDENT || memcmp(d, ELFMAG, SELFMAG) != 0)
    return file.error("not an ELF file (no \\x7fELF magic)", "give the path of a binary or .so");
  if (d[EI_CLASS] != ELFCLASS32 && d[EI_CLASS] != ELFCLASS64)
    return file.error("unknown ELF class " + std::to_string(d[EI_CLASS]));
  if (d[EI_DATA] != ELFDATA2LSB && d[EI_DATA] != ELFDATA2MSB)
    return file.error("unknown ELF byte order " + std::to_string(d[EI_DATA]));
  size_t ehdr_size = d[EI_CLASS] == ELFCLASS64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
  if (image->size < ehdr_size)
    return file.error("truncated: " + std::to_string(image->size) +
                      " bytes, smaller than the ELF header");

  image->elf = elf_memory(reinterpret_cast<char*>(const_cast<uint8_t*>(d)), image->size);
  if (!image->elf || elf_kind(image->elf) != ELF_K_ELF)
    return file.error(std::string("libelf cannot read it: ") + elf_errmsg(-1));
  GElf_Ehdr ehdr;
  if (!gelf_getehdr(image->elf, &ehdr))
    return file.error(std::string("bad ELF header: ") + elf_errmsg(-1));
  file.machine_ = ehdr.e_machine;
  file.class_ = d[EI_CLASS];
  file.little_endian_ = d[EI_DATA] == ELFDATA2LSB;
  file.type_ = ehdr.e_type;
  file.flags_ = ehdr.e_flags;
  file.entry_ = ehdr.e_entry;

  // Program headers: the table itself, then every segment's bytes, inside the file.
  size_t phnum = 0;
  if (elf_getphdrnum(image->elf, &phnum) != 0)
    return file.error(std::string("bad program header count: ") + elf_errmsg(-1));
  if (phnum > 0) {
    size_t phent = file.class_ == ELFCLASS64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
    if (!fits(ehdr.e_phoff, uint64_t(phnum) * phent, image->size))
      return file.error("program header table (offset " + hex(ehdr.e_phoff) + ", " +
                        std::to_string(phnum) + " entries) extends past the end of the file (" +
                        std::to_string(image->size) + " bytes); the file is truncated or corrupt");
  }
  for (size_t i = 0; i < phnum; ++i) {
    GElf_Phdr ph;
    if (!gelf_getphdr(image->elf, static_cast<int>(i), &ph))
      return file.error("cannot read program header " + std::to_string(i) + ": " + elf_errmsg(-1));
    Segment seg{ph.p_type, ph.p_flags, ph.p_offset, ph.p_vaddr, ph.p_filesz, ph.p_memsz, i};
    if (ph.p_type != PT_NULL && !fits(ph.p_offset, ph.p_filesz, image->size))
      return file.error(std::string(segment_type_name(ph.p_type)) + " segment " +
                        std::to_string(i) + " (offset " + hex(ph.p_offset) + ", size " +
                        hex(ph.p_filesz) + ") extends past the end of the file (" +
                        std::to_string(image->size) + " bytes); the file is truncated or corrupt");
    file.segments_.push_back(seg);
  }

  // Section headers: the table, the name table, then every section's bytes.
  size_t shnum = 0, shstrndx = 0;
  // Checked from the header itself: libelf quietly reports no sections when e_shoff points
  // past the end, which would make a corrupt file look merely stripped.
  size_t shent = file.class_ == ELFCLASS64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
  if (ehdr.e_shoff != 0 && !fits(ehdr.e_shoff, std::max<uint64_t>(ehdr.e_shnum, 1) * shent, image->size))
    return file.error("section header table (offset " + hex(ehdr.e_shoff) + ", " +
                      std::to_string(ehdr.e_shnum) + " entries) extends past the end of the file (" +
                      std::to_string(image->size) + " bytes); the file is truncated or corrupt");
  if (elf_getshdrnum(image->elf, &shnum) != 0)
    return file.error(std::string("bad section header count: ") + elf_errmsg(-1));
  if (shnum > 0) {
    if (!fits(ehdr.e_shoff, uint64_t(shnum) * shent, image->size))
      return file.error("section header table (offset " + hex(ehdr.e_shoff) + ", " +
                        std::to_string(shnum) + " entries) extends past the end of the file (" +
                        std::to_string(image->size) + " bytes); the file is truncated or corrupt");
    if (elf_getshdrstrndx(image->elf, &shstrndx) != 0 || shstrndx >= shnum)
      return file.error("bad section name table index");
  }
  file.sections_.reserve(shnum);
  for (size_t i = 0; i < shnum; ++i) {
    Elf_Scn* scn = elf_getscn(image->elf, i);
    GElf_Shdr sh;
    if (!scn || !gelf_getshdr(scn, &sh))
      return file.error("cannot read section header " + std::to_string(i) + ": " + elf_errmsg(-1));
    Section sec;
    sec.type = sh.sh_type;
    sec.flags = sh.sh_flags;
    sec.addr = sh.sh_addr;
    sec.offset = sh.sh_offset;
    sec.size = sh.sh_size;
    sec.entsize = sh.sh_entsize;
    sec.link = sh.sh_link;
    sec.info = sh.sh_info;
    sec.index = i;
    if (sh.sh_type != SHT_NOBITS && sh.sh_type != SHT_NULL &&
        !fits(sh.sh_offset, sh.sh_size, image->size))
      return file.error("section " + std::to_string(i) + " (offset " + hex(sh.sh_offset) +
                        ", size " + hex(sh.sh_size) + ") extends past the end of the file (" +
                        std::to_string(image->size) + " bytes); the file is truncated or corrupt");
    file.sections_.push_back(sec);
  }
  // Names last: the name table's own bounds are checked above.
  if (shnum > 0) {
    std::span<const uint8_t> names = file.bytes(file.sections_[shstrndx]);
    for (Section& sec : file.sections_) {
      GElf_Shdr sh;
      gelf_getshdr(elf_getscn(image->elf, sec.index), &sh);
      sec.name = cstring_at(names, sh.sh_name).value_or(std::string_view{});
    }
  }
  return file;
}

const std::string& ElfFile::path() const { return image_->path; }
Elf* ElfFile::handle() const { return image_->elf; }
uint64_t ElfFile::file_size() const { return image_->size; }

const Section* ElfFile::section(std::string_view name) const {
  for (const Section& sec : sections_)
    if (sec.name == name) return &sec;
  return nullptr;
}

std::span<const uint8_t> ElfFile::bytes(const Section& section) const {
  if (section.type == SHT_NOBITS || section.type == SHT_NULL) return {};
  // The loader checked that the section lies inside the mapped file, so its size fits in
  // size_t also where that is 32 bits (arm).
  return {image_->data + section.offset, static_cast<size_t>(section.size)};
}

Result<std::span<const uint8_t>> ElfFile::bytes_at(uint64_t offset, uint64_t size,
                                                   std::string_view what) const {
  if (!fits(offset, size, image_->size))
    return error(std::string(what) + " (file offset " + hex(offset) + ", " + std::to_string(size) +
                 " bytes) lies past the end of the file (" + std::to_string(image_->size) +
                 " bytes)");
  return std::span<const uint8_t>(image_->data + offset, size);
}

Elf_Data* ElfFile::data(const Section& section) const {
  Elf_Scn* scn = elf_getscn(image_->elf, section.index);
  return scn ? elf_getdata(scn, nullptr) : nullptr;
}

Error ElfFile::error(std::string what, std::string hint) const {
  return make_error(std::move(what), image_ ? image_->path : std::string{}, std::move(hint));
}

}  // namespace rawprobe::elf
