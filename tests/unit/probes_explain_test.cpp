// --explain without privileges, through the same entry the CLI calls (explain_probe), on real
// samples, with binutils as the oracle: nm for symbol addresses, readelf -l for the segment
// that gives the file offset, objdump -d for the instruction boundary, readelf -n and -S for
// the USDT note and .stapsdt.base. The argument lines are the ones -lv prints, character for
// character. Misspelt names get the providers' did-you-mean.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

#include "engine/probes/listing.h"
#include "tests/unit/probes_capture.h"

using namespace rawprobe;

namespace {

std::string samples_dir() {
  const char* dir = std::getenv("RAWPROBE_SAMPLES");
  return dir ? dir : "build/samples";
}

struct Explained {
  std::string text;
  Status status;
};

Explained explain(const std::string& spec) {
  char* data = nullptr;
  size_t size = 0;
  FILE* out = ::open_memstream(&data, &size);
  Status st = probes::explain_probe(spec, {}, out);
  std::fclose(out);
  Explained e{std::string(data, size), st};
  std::free(data);
  return e;
}

std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

uint64_t hex_of(const std::string& command) {
  return std::strtoull(probes::test::command_output(command).c_str(), nullptr, 16);
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A PIE (text at vaddr == offset) and a non-PIE (0x400000-based) sample.
void check_uprobe_explain(const std::string& fun, const std::string& func) {
  CAPTURE(fun);
  REQUIRE_MESSAGE(::access(fun.c_str(), R_OK) == 0, "build the samples: make samples elf-samples");
  uint64_t bar = hex_of("nm " + fun + " | awk '$3 == \"" + func + "\" {print $1}'");
  REQUIRE(bar != 0);
  // The second and third instruction starts of the function, from objdump.
  std::string starts = probes::test::command_output(
      "objdump -d --no-show-raw-insn " + fun + " | awk '/<" + func + ">:/{f=1;next} f&&/^$/{exit} f{print $1}' | tr -d :");
  std::istringstream in(starts);
  std::string first, second, third;
  in >> first >> second >> third;
  uint64_t insn2 = std::strtoull(third.c_str(), nullptr, 16);
  uint64_t off = insn2 - bar, previous = std::strtoull(second.c_str(), nullptr, 16) - bar;
  REQUIRE(off > previous + 1);
  // The executable PT_LOAD holding the address, from readelf -l.
  std::string seg = probes::test::command_output(
      "readelf -lW " + fun + " | awk '$1 == \"LOAD\" && / E / {print $2, $3}'");
  uint64_t seg_offset = 0, seg_vaddr = 0;
  std::istringstream(seg) >> std::hex >> seg_offset >> seg_vaddr;

  Explained e = explain("uprobe:" + fun + ":" + func + "+" + std::to_string(off));
  REQUIRE_MESSAGE(e.status, (e.status ? "" : e.status.error().message()));
  CAPTURE(e.text);
  CHECK(has(e.text, "1. symbol '" + func + "' (symtab, GLOBAL FUNC"));
  CHECK(has(e.text, "at " + hex(bar) + " + " + std::to_string(off) + " = " + hex(insn2)));
  CHECK(has(e.text, "2. address " + hex(insn2) + " lies in PT_LOAD"));
  CHECK(has(e.text, "3. file offset = " + hex(insn2) + " - " + hex(seg_vaddr) + " + " + hex(seg_offset) +
                        " = " + hex(insn2 - seg_vaddr + seg_offset)));
  CHECK(has(e.text, "4. " + func + "+" + std::to_string(off) + " starts an instruction"));

  // One byte before the third instruction is inside the second: refused, naming both.
  Explained inside = explain("uprobe:" + fun + ":" + func + "+" + std::to_string(off - 1));
  REQUIRE_FALSE(inside.status);
  // The walk still shows where it would go, then the failed step.
  CHECK(has(inside.text, "3. file offset = " + hex(insn2 - 1) + " - "));
  CHECK(has(inside.text, "4. instruction-boundary check failed: " + func + "+" + std::to_string(off - 1) + " is inside"));
  CHECK(has(inside.status.error().message(),
            "valid: +" + std::to_string(previous) + ", +" + std::to_string(off)));
}

}  // namespace

TEST_CASE("--explain uprobe walks symbol, address, segment, file offset and boundary (nm, readelf, objdump)") {
  check_uprobe_explain(samples_dir() + "/fun", "bar");
  check_uprobe_explain(samples_dir() + "/elf/usdt_args_nopie", "fire_scalars");
}

TEST_CASE("--explain usdt walks note, base adjustment, semaphore and arguments as -lv decodes them") {
  std::string bin = samples_dir() + "/hello_usdt";
  REQUIRE(::access(bin.c_str(), R_OK) == 0);
  std::string notes = probes::test::command_output("readelf -n " + bin);
  uint64_t location = std::strtoull(notes.c_str() + notes.find("Location: ") + 10, nullptr, 16);
  uint64_t base = std::strtoull(notes.c_str() + notes.find("Base: ") + 6, nullptr, 16);
  uint64_t section = hex_of("readelf -SW " + bin + " | awk '$2 == \".stapsdt.base\" {print $4}'");
  REQUIRE(section != 0);
  Explained e = explain("usdt:" + bin + ":*:*");
  REQUIRE_MESSAGE(e.status, (e.status ? "" : e.status.error().message()));
  CAPTURE(e.text);
  CHECK(has(e.text, "note #0: pc " + hex(location) + ", base " + hex(base)));
  CHECK(has(e.text, "base adjustment: .stapsdt.base is at " + hex(section) + ", the note says " + hex(base) +
                        ", shift " + std::to_string(int64_t(section - base))));
  CHECK(has(e.text, "semaphore: none"));
  // The argument lines are -lv's, exactly.
  std::string listed = probes::test::listed("usdt:" + bin + ":*", true);
  size_t arg = listed.find("arg0: ");
  REQUIRE(arg != std::string::npos);
  std::string line = listed.substr(arg, listed.find('\n', arg) - arg);
  CHECK(has(line, "signed 64-bit, register rax (pt_regs+"));
  CHECK(has(e.text, "  " + line + "\n"));
}

TEST_CASE("--explain usdt with a semaphore: its segment and ref_ctr_offset (python3.11, readelf)") {
  const char* python = "/usr/bin/python3.11";
  REQUIRE_MESSAGE(::access(python, R_OK) == 0, "install python3.11 (make test-deps)");
  std::string notes = probes::test::command_output(std::string("readelf -n ") + python + " | grep -A2 'Name: function__entry'");
  uint64_t semaphore = std::strtoull(notes.c_str() + notes.find("Semaphore: ") + 11, nullptr, 16);
  REQUIRE(semaphore != 0);
  // ref_ctr_offset: the semaphore's file offset through the PT_LOAD that holds it.
  std::string segs = probes::test::command_output(std::string("readelf -lW ") + python + " | awk '$1 == \"LOAD\" {print $2, $3, $5}'");
  std::istringstream in(segs);
  uint64_t offset, vaddr, filesz, want = 0;
  while (in >> std::hex >> offset >> vaddr >> filesz)
    if (semaphore >= vaddr && semaphore < vaddr + filesz) want = semaphore - vaddr + offset;
  REQUIRE(want != 0);
  Explained e = explain(std::string("usdt:") + python + ":python:function__entry");
  REQUIRE_MESSAGE(e.status, (e.status ? "" : e.status.error().message()));
  CAPTURE(e.text);
  CHECK(has(e.text, "semaphore " + hex(semaphore) + " lies in PT_LOAD"));
  CHECK(has(e.text, "ref_ctr_offset = file offset " + hex(want)));
  CHECK(has(e.text, "3 argument(s) '"));
}

TEST_CASE("misspelt names get the closest real ones, and say what was searched") {
  std::string hello = samples_dir() + "/hello_usdt";
  std::string fun = samples_dir() + "/fun";
  // The only probe of hello_usdt, as readelf names it.
  std::string notes = probes::test::command_output("readelf -n " + hello);
  auto field = [&](const std::string& name) {
    size_t at = notes.find(name + ": ") + name.size() + 2;
    return notes.substr(at, notes.find('\n', at) - at);
  };
  std::string provider = field("Provider"), name = field("Name");
  std::string full = "usdt:" + hello + ":" + provider + ":" + name;
  for (std::string typo : {"usdt:" + hello + ":" + provider + ":" + name.substr(0, name.size() - 1),  // name
                           "usdt:" + hello + ":" + provider.substr(1) + ":" + name,                   // provider
                           "usdt:" + hello + ":foo:" + name,                                          // wrong provider
                           "usdt:" + hello + ":" + name + "x"}) {                                     // no provider
    CAPTURE(typo);
    Explained e = explain(typo);
    REQUIRE_FALSE(e.status);
    std::string message = e.status.error().message();
    CHECK(has(message, "did you mean '" + full + "'?"));
    CHECK(has(message, "searched .note.stapsdt of "));
    CHECK(has(message, "(1 note, 1 probe)"));
  }
  Explained far = explain("usdt:" + hello + ":foo:bar");
  REQUIRE_FALSE(far.status);
  CHECK(has(far.status.error().message(), "list them with -l 'usdt:" + hello + ":*'"));
  Explained function = explain("uprobe:" + fun + ":barr");
  REQUIRE_FALSE(function.status);
  CHECK(has(function.status.error().message(), "did you mean 'bar'?"));
  CHECK(has(function.status.error().message(), "searched .symtab"));
}

TEST_CASE("-lv of one function: every line's +OFF and address agree, and calls name their targets") {
  std::string fun = samples_dir() + "/fun";
  uint64_t bar = hex_of("nm " + fun + " | awk '$3 == \"bar\" {print $1}'");
  std::string text = probes::test::listed("uprobe:" + fun + ":bar", true);
  CAPTURE(text);
  CHECK(has(text, "    +0     " + hex(bar) + "  push rbp\n"));
  // objdump's text of bar's call (e.g. "call   1030 <printf@plt>").
  std::string call = probes::test::command_output(
      "objdump -d --no-show-raw-insn " + fun + " | awk '/<bar>:/{f=1;next} f&&/^$/{exit} f&&$2 == \"call\"{print $3, $4}'");
  REQUIRE_FALSE(call.empty());
  call.pop_back();
  CHECK(has(text, "call 0x" + call + "\n"));
}
