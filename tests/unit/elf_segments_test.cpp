// Virtual address -> file offset for every function of an ET_EXEC, a PIE, a shared library and
// a library linked at a nonzero base (as prelink leaves them), against objdump -dF's
// "(File Offset: 0x...)"; and refusals for addresses outside executable segments.
#include "tests/unit/elf_test_support.h"

#include <elf.h>

#include <map>

#include "elf/binary.h"
#include "elf/listing.h"
#include "elf/resolve.h"
#include "elf/segments.h"

using namespace rawprobe::elf;
using namespace rawprobe::elf::test;

TEST_CASE("function file offsets equal objdump -F for ET_EXEC, PIE, shared and based libraries") {
  for (const std::string& path :
       {elf_sample("usdt_args_nopie"), elf_sample("usdt_args_O2"), seed_sample("hello"),
        elf_sample("libusdt_based.so"), system_library("libstdc++.so.6")}) {
    CAPTURE(path);
    std::map<uint64_t, uint64_t> oracle;  // address -> file offset
    std::regex head(R"(^([0-9a-f]+) <[^>]+> \(File Offset: 0x([0-9a-f]+)\):)");
    for (const std::string& line : lines(run("objdump -dF --no-show-raw-insn '" + path + "' | grep 'File Offset'"))) {
      std::smatch m;
      if (std::regex_search(line, m, head))
        oracle[std::stoull(m[1], nullptr, 16)] = std::stoull(m[2], nullptr, 16);
    }
    REQUIRE(oracle.size() > 3);
    auto binary = Binary::open(path);
    REQUIRE(binary);
    auto listing = list_functions(*binary, "*");
    REQUIRE(listing);
    size_t compared = 0;
    // objdump also labels sections and PLT entries; every function of ours must be among its
    // labels, at the same file offset.
    for (const FunctionListing& f : *listing) {
      CAPTURE(f.symbol->name);
      auto it = oracle.find(f.symbol->address);
      REQUIRE(it != oracle.end());
      CHECK(f.placed);
      CHECK(f.file_offset == it->second);
      ++compared;
    }
    CHECK(compared > 3);
    MESSAGE(path << ": " << compared << " functions compared");
  }
}

TEST_CASE("addresses outside executable segments are refused, naming the segments") {
  auto binary = Binary::open(elf_sample("usdt_args_O2"));
  REQUIRE(binary);
  const ElfFile& file = binary->file();
  // The first non-executable PT_LOAD (rodata or data) and an address beyond every segment.
  const Segment* data = nullptr;
  uint64_t end = 0;
  for (const Segment& s : file.segments())
    if (s.type == PT_LOAD) {
      if (!s.executable() && !data) data = &s;
      end = std::max(end, s.vaddr + s.memsz);
    }
  REQUIRE(data);
  auto in_data = code_offset(file, data->vaddr, "address");
  REQUIRE(!in_data);
  CHECK(in_data.error().message().find("non-executable segment") != std::string::npos);
  ResolveOptions unsafe;
  unsafe.unsafe = true;
  auto outside = resolve_address(*binary, end + 0x1000, unsafe);
  REQUIRE(!outside);
  CHECK(outside.error().message().find("outside every loadable segment") != std::string::npos);
}

TEST_CASE("--explain walks symbol, address, segment, file offset and boundary check") {
  auto binary = Binary::open(elf_sample("usdt_args_O2"));
  REQUIRE(binary);
  Explain explain;
  // The second instruction of fire_constant, from objdump.
  std::regex insn(R"(^\s+([0-9a-f]+):)");
  std::vector<uint64_t> starts;
  for (const std::string& line : lines(run("objdump -d --no-show-raw-insn --disassemble=fire_scalars '" +
                                           elf_sample("usdt_args_O2") + "'"))) {
    std::smatch m;
    if (std::regex_search(line, m, insn)) starts.push_back(std::stoull(m[1], nullptr, 16));
  }
  REQUIRE(starts.size() > 2);
  uint64_t offset = starts[1] - starts[0];
  auto sites = resolve_function(*binary, "fire_scalars", offset, {}, &explain);
  REQUIRE(sites);
  std::string text = explain.text();
  CAPTURE(text);
  CHECK(explain.steps.size() == 4);
  CHECK(text.find("symbol 'fire_scalars'") != std::string::npos);
  CHECK(text.find("PT_LOAD[") != std::string::npos);
  CHECK(text.find("file offset = ") != std::string::npos);
  CHECK(text.find("starts an instruction") != std::string::npos);
}
