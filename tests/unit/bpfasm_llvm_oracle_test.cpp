// External oracle: LLVM 14's BPF target (package llvm, installed by tests/install-packages).
// For every table row LLVM 14 knows (cpu v1..v3), each example instruction is printed in
// LLVM's syntax, and
//   - llvm-mc assembles that text to the same bytes our assembler makes of it, or, for the
//     instructions LLVM 14's asm parser cannot read back (atomics with a comma, ld_pseudo,
//     LD_ABS/LD_IND, '%='),
//   - llvm-objdump disassembles our bytes to text that our assembler turns into those bytes.
// Every such instruction must pass one of the two; labels are checked against llvm-mc too.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bpfasm/builder.h"
#include "bpfasm/form.h"
#include "bpfasm/form_examples.h"
#include "bpfasm/parse.h"
#include "bpfasm/print.h"

using namespace rawprobe;
using namespace rawprobe::bpf;

namespace {

struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/bpfasm-llvm-XXXXXX";
    path = mkdtemp(tmpl);
  }
  ~TempDir() { (void)!std::system(("rm -rf '" + path + "'").c_str()); }
  std::string operator/(const std::string& name) const { return path + "/" + name; }
};

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

void spit(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

int run(const std::string& cmd) { return std::system(cmd.c_str()); }

std::vector<uint8_t> assemble_bytes(const std::string& text) {
  Result<Program> p = assemble(text);
  CHECK_MESSAGE(p.ok(), text, "\n", p.error().message());
  return p ? to_bytes(p->slots()) : std::vector<uint8_t>{};
}

struct Case {
  Instruction insn;
  std::string text;  // in LLVM's syntax
  std::vector<uint8_t> bytes;
  bool verified = false;
};

std::vector<Case> llvm_cases() {
  std::vector<Case> cases;
  for (const Form& f : forms()) {
    if (!f.llvm14) continue;
    for (const Instruction& insn : examples(f))
      cases.push_back({insn, print(insn, Dialect::Llvm), to_bytes(encode(std::span(&insn, 1)))});
  }
  return cases;
}

// llvm-mc's "# encoding: [0xb7,0x01,...]" lists, in order.
std::vector<std::vector<uint8_t>> encodings(const std::string& out) {
  std::vector<std::vector<uint8_t>> all;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    size_t at = line.find("# encoding: [");
    if (at == std::string::npos) continue;
    std::vector<uint8_t> bytes;
    std::istringstream list(line.substr(at + 13));
    for (std::string b; std::getline(list, b, ',');) bytes.push_back(std::stoi(b, nullptr, 16));
    all.push_back(bytes);
  }
  return all;
}

}  // namespace

TEST_CASE("our bytes equal LLVM 14's for every instruction LLVM knows") {
  REQUIRE_MESSAGE(run("command -v llvm-mc >/dev/null && command -v llvm-objdump >/dev/null") == 0,
                  "llvm-mc/llvm-objdump missing: run tests/install-packages test");
  TempDir dir;
  std::vector<Case> cases = llvm_cases();
  REQUIRE(!cases.empty());

  // Route 1: llvm-mc reads our LLVM-syntax text.
  std::string text;
  for (const Case& c : cases) text += c.text + "\n";
  spit(dir / "in.s", text);
  run("llvm-mc -triple bpfel -mcpu=v3 --show-encoding " + dir / "in.s" + " >" + dir / "out.txt" +
      " 2>" + dir / "err.txt");
  std::set<size_t> rejected;  // 0-based case indexes
  std::regex error_line(R"(in\.s:(\d+):\d+: error)");
  std::string err = slurp(dir / "err.txt");
  for (std::sregex_iterator it(err.begin(), err.end(), error_line), end; it != end; ++it)
    rejected.insert(std::stoul((*it)[1]) - 1);
  std::vector<std::vector<uint8_t>> enc = encodings(slurp(dir / "out.txt"));
  REQUIRE(enc.size() + rejected.size() == cases.size());
  size_t next = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    if (rejected.count(i)) continue;
    Case& c = cases[i];
    CAPTURE(c.text);
    CHECK(enc[next] == c.bytes);
    CHECK(assemble_bytes(c.text) == enc[next]);
    c.verified = enc[next] == c.bytes;
    ++next;
  }

  // Route 2: llvm-objdump prints our bytes; we read its text back.
  std::string dot_bytes;
  std::map<size_t, size_t> case_at_slot;
  size_t slot = 0;
  for (size_t i : rejected) {
    case_at_slot[slot] = i;
    slot += cases[i].insn.width();
    dot_bytes += ".byte ";
    for (size_t b = 0; b < cases[i].bytes.size(); ++b)
      dot_bytes += (b ? "," : "") + std::to_string(cases[i].bytes[b]);
    dot_bytes += "\n";
  }
  spit(dir / "bytes.s", dot_bytes);
  REQUIRE(run("llvm-mc -triple bpfel -mcpu=v3 -filetype=obj " + dir / "bytes.s" + " -o " +
              dir / "bytes.o") == 0);
  REQUIRE(run("llvm-objdump -d --no-show-raw-insn --mattr=+alu32 " + dir / "bytes.o" + " >" +
              dir / "dump.txt") == 0);
  std::istringstream dump(slurp(dir / "dump.txt"));
  std::regex insn_line(R"(^\s*(\d+):\s+(.*)$)");
  for (std::string line; std::getline(dump, line);) {
    std::smatch m;
    if (!std::regex_match(line, m, insn_line)) continue;
    auto it = case_at_slot.find(std::stoul(m[1]));
    if (it == case_at_slot.end()) continue;
    Case& c = cases[it->second];
    CAPTURE(c.text);
    CAPTURE(line);
    CHECK(m[2].str().find("<unknown>") == std::string::npos);
    std::vector<uint8_t> ours = assemble_bytes(line);
    CHECK(ours == c.bytes);
    c.verified = ours == c.bytes;
  }
  for (const Case& c : cases) CHECK_MESSAGE(c.verified, "neither llvm-mc nor llvm-objdump agreed: ", c.text);
  MESSAGE((cases.size() - rejected.size()), " instructions checked by llvm-mc, ", rejected.size(),
          " by llvm-objdump");
}

TEST_CASE("labels resolve as llvm-mc resolves them, in the assembler and the Builder") {
  const std::string text =
      "  r0 = 0\n"
      "  if r1 > 5 goto L1\n"
      "  r0 += 1\n"
      "  r2 = 0x1122334455667788 ll\n"
      "  goto L2\n"
      "L1:\n"
      "  r0 = 2\n"
      "  if w1 s< w2 goto L1\n"
      "L2:\n"
      "  exit\n";
  TempDir dir;
  spit(dir / "l.s", text);
  REQUIRE(run("llvm-mc -triple bpfel -mcpu=v3 -filetype=obj " + dir / "l.s" + " -o " + dir / "l.o") == 0);
  REQUIRE(run("llvm-objcopy -O binary --only-section=.text " + dir / "l.o" + " " + dir / "l.bin") == 0);
  std::string raw = slurp(dir / "l.bin");
  std::vector<uint8_t> llvm(raw.begin(), raw.end());
  CHECK(assemble_bytes(text) == llvm);

  Builder b;
  Label l1 = b.new_label("L1"), l2 = b.new_label("L2");
  b.mov(R0, 0);
  b.jump(Cond::Gt, R1, 5, l1);
  b.alu(Op::Add, R0, 1);
  b.ld_imm64(R2, 0x1122334455667788ull);
  b.jump(l2);
  b.bind(l1);
  b.mov(R0, 2);
  b.jump32(Cond::SLt, R1, R2, l1);
  b.bind(l2);
  b.exit();
  Result<Program> p = b.finish();
  REQUIRE_MESSAGE(p.ok(), p.error().message());
  CHECK(to_bytes(p->slots()) == llvm);
}
