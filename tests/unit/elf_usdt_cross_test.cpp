// USDT notes that Debian's cross gcc (-O0, -O2, and ppc -mregnames, i386 -no-pie and
// -static-pie) and clang -O2 wrote for riscv64, s390x (big-endian), ppc64le, mips64el and i386
// (mk/usdt_cross.mk builds samples/usdt_args.c), parsed on this host:
//   1. every note equals what `readelf -n` prints (provider, name, location, base, semaphore,
//      argument string), and its address and semaphore lie in the file's segments;
//   2. every argument's structured form, written back as an assembler operand, encodes like
//      the note's own operand text under llvm-mc. Registers are written from the pt_regs slot
//      the parser picked (riscv64 x<offset/8>, s390x %r<N> of gprs[N], ppc64le N of gpr[N],
//      mips $N of regs[N], i386 %e<slot>), not from the note's spelling, so equal encodings
//      mean the slot holds the very register the compiler named; tests/unit/arch_layout_test
//      checks those slots' offsets against each architecture's <asm/ptrace.h>.
//   3. symbols the arguments name resolve to nm's addresses (i386's GOT-relative globals to
//      the symbol minus _GLOBAL_OFFSET_TABLE_).
#include <elf.h>

#include <map>
#include <set>

#include "elf/resolve.h"
#include "elf/segments.h"
#include "elf/usdt_args.h"
#include "elf/usdt_describe.h"
#include "elf/usdt_notes.h"
#include "tests/unit/elf_readelf_notes.h"

using namespace rawprobe::elf;
using namespace rawprobe::elf::test;

namespace {

struct CrossArch {
  std::string name;      // mk/usdt_cross.mk's <arch>
  uint16_t machine;      // what the file's e_machine must be
  std::string triple;    // llvm-mc -triple
  // Instructions with the operand as "{}": a load (memory forms), a register move, and an
  // immediate move. Each only needs to encode its operand's every field.
  std::string memory, reg, constant;
  std::vector<std::string> variants;  // usdt_args_<name>_<variant>, see mk/usdt_cross.mk
};

const std::vector<CrossArch>& cross_arches() {
  static const std::vector<CrossArch> arches = {
      {"riscv64", EM_RISCV, "riscv64", "ld a0, {}", "mv a0, {}", "li a0, {}", {"O0", "O2"}},
      {"s390x", EM_S390, "s390x", "lg %r0, {}", "lgr %r0, {}", "lghi %r0, {}", {"O0", "O2", "clang"}},
      {"ppc64le", EM_PPC64, "powerpc64le", "ld 3, {}", "mr 3, {}", "li 3, {}",
       {"O0", "O2", "clang", "regnames"}},
      {"mips64el", EM_MIPS, "mips64el", "ld $2, {}", "move $2, {}", "li $2, {}", {"O0", "O2", "clang"}},
      {"i386", EM_386, "i386", "lea {}, %eax", "inc {}", "mov {}, %eax",
       {"O0", "O2", "clang", "nopie", "static_pie"}},
  };
  return arches;
}

std::vector<std::string> cross_samples(const CrossArch& a) {
  std::vector<std::string> paths;
  for (const std::string& v : a.variants) paths.push_back(elf_sample("usdt_args_" + a.name + "_" + v));
  return paths;
}

std::string fill(const std::string& pattern, const std::string& operand) {
  std::string out = pattern;
  return out.replace(out.find("{}"), 2, operand);
}

// N of a slot designated "gprs[N]", "gpr[N]" or "regs[N]".
std::string slot_index(const UsdtReg& r) {
  std::string_view name = r.slot.name;
  size_t open = name.find('['), close = name.find(']');
  if (open == std::string_view::npos || close == std::string_view::npos) return "?" + std::string(name);
  return std::string(name.substr(open + 1, close - open - 1));
}

// The register of a pt_regs slot, spelled for the target's assembler.
std::string asm_reg(const UsdtReg& r, uint16_t machine) {
  switch (machine) {
    // struct user_regs_struct is pc, then x1..x31 in order, 8 bytes each: x<N> at 8*N.
    case EM_RISCV: return "x" + std::to_string(r.slot.offset / 8);
    case EM_S390: return "%r" + slot_index(r);
    case EM_PPC64: return slot_index(r);
    case EM_MIPS: return "$" + slot_index(r);
    case EM_386: {
      std::string s(r.slot.name);  // "ax", "bp", ...: the 16-bit name
      if (r.width_bits == 32) return "%e" + s;
      if (r.width_bits == 16) return "%" + s;
      if (r.width_bits == 8 && s.size() == 2 && s[1] == 'x') return "%" + s.substr(0, 1) + (r.bit_offset ? "h" : "l");
      return "%?" + s;
    }
  }
  return "?";
}

// An x86 displacement: "counter@GOTOFF", "counter+8", "-20", or "" for none.
std::string x86_displacement(const UsdtArg& a) {
  std::string d = a.symbol + (a.got_relative ? "@GOTOFF" : "");
  if (a.offset || d.empty()) d += (a.offset >= 0 && !d.empty() ? "+" : "") + std::to_string(a.offset);
  return d;
}

// Our parsed form as an operand in the target's syntax; empty for a kind with no rendering.
std::string render(const UsdtArg& a, uint16_t machine) {
  const std::string off = std::to_string(a.offset);
  switch (a.kind) {
    case UsdtArgKind::Constant: return (machine == EM_386 ? "$" : "") + std::to_string(a.constant);
    case UsdtArgKind::Register: return asm_reg(a.base, machine);
    case UsdtArgKind::Memory:
      if (machine == EM_386) return x86_displacement(a) + "(" + asm_reg(a.base, machine) + ")";
      return off + "(" + asm_reg(a.base, machine) + ")";
    case UsdtArgKind::Indexed:
      // s390x D(X,B); i386 disp(base,index,scale)
      if (machine == EM_S390)
        return off + "(" + asm_reg(a.index, machine) + "," + asm_reg(a.base, machine) + ")";
      if (machine == EM_386)
        return x86_displacement(a) + "(" + (a.base.present() ? asm_reg(a.base, machine) : "") + "," +
               asm_reg(a.index, machine) + "," + std::to_string(a.scale) + ")";
      return {};
    // i386 non-PIE globals: an absolute address, "-4@counter".
    case UsdtArgKind::SymbolRelative: return machine == EM_386 ? x86_displacement(a) : std::string();
    default: return {};
  }
}

// The note's own operand text, as the assembler reads it. gcc marks ppc constants with 'i'
// ("4@i42"), which is sdt.h's convention, not assembler syntax.
std::string note_operand(const UsdtArg& a, uint16_t machine) {
  std::string op = a.text.substr(a.text.find('@') + 1);
  if (machine == EM_PPC64 && a.kind == UsdtArgKind::Constant && !op.empty() && op[0] == 'i') op.erase(0, 1);
  return op;
}

// llvm-mc's encoding (and fixups) of each labelled instruction: label -> text.
std::map<std::string, std::string> encodings(const std::string& triple,
                                             const std::vector<std::pair<std::string, std::string>>& insns) {
  std::string input;
  for (const auto& [label, insn] : insns) input += label + ":\n" + insn + "\n";
  std::string path = scratch_dir("usdt-cross-mc") + "/in.s";
  write_file(path, input);
  std::map<std::string, std::string> out;
  std::string label;
  static const std::regex label_line(R"(^(\w+):)");
  for (const std::string& line : lines(run("llvm-mc -triple=" + triple + " -show-encoding " + path + " 2>&1"))) {
    std::smatch m;
    if (std::regex_search(line, m, label_line)) label = m[1];
    else if (size_t at = line.find("encoding:"); at != std::string::npos) out[label] += line.substr(at) + "\n";
    else if (size_t fix = line.find("fixup"); fix != std::string::npos) out[label] += line.substr(fix) + "\n";
  }
  return out;
}

std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

}  // namespace

TEST_CASE("cross-compiled USDT notes (riscv64, s390x, ppc64le, mips64el, i386) match readelf -n") {
  for (const CrossArch& arch : cross_arches()) {
    for (const std::string& path : cross_samples(arch)) {
      CAPTURE(path);
      auto file = ElfFile::open(path);
      REQUIRE_MESSAGE(file, (file ? "" : file.error().message()));
      CHECK(file->machine() == arch.machine);
      auto notes = read_usdt_notes(*file);
      REQUIRE_MESSAGE(notes, (notes ? "" : notes.error().message()));
      std::vector<OracleNote> oracle = readelf_notes(path);
      REQUIRE(!oracle.empty());
      REQUIRE(notes->size() == oracle.size());
      size_t with_semaphore = 0;
      for (size_t i = 0; i < oracle.size(); ++i) {
        const UsdtNote& n = (*notes)[i];
        CAPTURE(n.provider + ":" + n.name);
        check_note_matches(n, oracle[i]);
        CHECK(code_offset(*file, n.address, "probe"));
        if (n.semaphore) {
          ++with_semaphore;
          CHECK(data_offset(*file, n.semaphore_address, "semaphore"));
        }
        // One parsed argument per operand readelf shows, of the size and sign it prefixes.
        auto args = parse_usdt_args(n.args, file->machine(), file->elf_class());
        REQUIRE_MESSAGE(args, (args ? "" : args.error().message()));
        std::vector<std::string> shown = words(oracle[i].args);
        REQUIRE(args->size() == shown.size());
        for (size_t k = 0; k < shown.size(); ++k) {
          int prefix = std::stoi(shown[k].substr(0, shown[k].find('@')));
          CHECK((*args)[k].text == shown[k]);
          CHECK((*args)[k].size == std::abs(prefix));
          CHECK((*args)[k].is_signed == (prefix < 0));
        }
      }
      // sdt.h's probes carry semaphores (samples/usdt_args.c sets _SDT_HAS_SEMAPHORES).
      CHECK(with_semaphore > 0);
    }
  }
}

TEST_CASE("cross-compiled USDT operands decode to the registers and offsets llvm-mc encodes") {
  for (const CrossArch& arch : cross_arches()) {
    CAPTURE(arch.name);
    std::set<UsdtArgKind> kinds;
    for (const std::string& path : cross_samples(arch)) {
      CAPTURE(path);
      auto file = ElfFile::open(path);
      REQUIRE(file);
      auto notes = read_usdt_notes(*file);
      REQUIRE(notes);
      std::vector<std::pair<std::string, std::string>> insns;
      std::vector<std::string> texts;
      for (const UsdtNote& n : *notes) {
        auto args = parse_usdt_args(n.args, file->machine(), file->elf_class());
        REQUIRE(args);
        for (const UsdtArg& a : *args) {
          kinds.insert(a.kind);
          std::string ours = render(a, arch.machine);
          CHECK_MESSAGE(!ours.empty(), a.text << " parsed as " << kind_name(a.kind) << ", which has no rendering here");
          if (ours.empty()) continue;
          const std::string& pattern = a.kind == UsdtArgKind::Register ? arch.reg
                                       : a.kind == UsdtArgKind::Constant ? arch.constant
                                                                         : arch.memory;
          std::string id = std::to_string(texts.size());
          insns.push_back({"note" + id, fill(pattern, note_operand(a, arch.machine))});
          insns.push_back({"ours" + id, fill(pattern, ours)});
          texts.push_back(n.name + " " + a.text + " -> " + ours);
        }
      }
      std::map<std::string, std::string> enc = encodings(arch.triple, insns);
      for (size_t i = 0; i < texts.size(); ++i) {
        CAPTURE(texts[i]);
        std::string id = std::to_string(i);
        CHECK(!enc["note" + id].empty());
        CHECK(enc["ours" + id] == enc["note" + id]);
      }
      MESSAGE(path << ": " << texts.size() << " operands compared with llvm-mc");
    }
    // What the compilers emitted for samples/usdt_args.c (readelf -n of the samples):
    // constants, registers and base+offset memory everywhere; s390x's D(X,B) and i386's
    // (base,index,4) for table[idx & 15]; i386 -no-pie's absolute globals.
    CHECK(kinds.count(UsdtArgKind::Constant));
    CHECK(kinds.count(UsdtArgKind::Register));
    CHECK(kinds.count(UsdtArgKind::Memory));
    if (arch.machine == EM_S390 || arch.machine == EM_386) CHECK(kinds.count(UsdtArgKind::Indexed));
    if (arch.machine == EM_386) CHECK(kinds.count(UsdtArgKind::SymbolRelative));
  }
}

TEST_CASE("symbols in cross-compiled USDT operands resolve like nm (i386 GOTOFF: minus the GOT)") {
  size_t symbolic = 0;
  for (const CrossArch& arch : cross_arches()) {
    for (const std::string& path : cross_samples(arch)) {
      CAPTURE(path);
      auto binary = Binary::open(path);
      REQUIRE(binary);
      auto sites = resolve_usdt(*binary, "usdt_args", "*");
      REQUIRE_MESSAGE(sites, (sites ? "" : sites.error().message()));
      for (const UsdtSite& s : *sites) {
        REQUIRE(s.arg_symbol_addresses.size() == s.args.size());
        for (size_t i = 0; i < s.args.size(); ++i) {
          const UsdtArg& a = s.args[i];
          if (a.symbol.empty()) {
            CHECK(s.arg_symbol_addresses[i] == 0);
            continue;
          }
          CAPTURE(a.text);
          ++symbolic;
          auto nm = [&](const std::string& sym) {
            return std::stoull(run("nm '" + path + "' | grep ' " + sym + "$'"), nullptr, 16);
          };
          uint64_t expected = nm(a.symbol);
          if (a.got_relative) expected -= nm("_GLOBAL_OFFSET_TABLE_");
          CHECK(s.arg_symbol_addresses[i] == expected);
        }
      }
    }
  }
  // i386 -O2 reads counter and origin as counter@GOTOFF(%eax).
  CHECK(symbolic > 0);
}

TEST_CASE("i386 @GOTOFF globals are described as GOT-relative; other relocations are refused") {
  std::string path = elf_sample("usdt_args_i386_O2");
  auto file = ElfFile::open(path);
  REQUIRE(file);
  auto nm = [&](const std::string& sym) {
    return std::stoull(run("nm '" + path + "' | grep ' " + sym + "$'"), nullptr, 16);
  };
  char distance[32];
  snprintf(distance, sizeof distance, "0x%llx",
           static_cast<unsigned long long>(nm("counter") - nm("_GLOBAL_OFFSET_TABLE_")));
  bool described = false;
  for (const OracleNote& n : readelf_notes(path))
    for (const std::string& line : describe_usdt_args(*file, n.args))
      if (line.find("counter@GOTOFF") != std::string::npos) {
        CAPTURE(line);
        CHECK(line.find(std::string("counter@GOTOFF (GOT + ") + distance + ")") != std::string::npos);
        described = true;
      }
  CHECK(described);

  struct Bad {
    const char* spec;
    const char* says;
  };
  for (const Bad& b : {Bad{"-4@counter@GOT(%ebx)", "'@GOT' in 'counter@GOT' is not supported"},
                       Bad{"-4@v@NTPOFF(%eax)", "'@NTPOFF' in 'v@NTPOFF' is not supported"},
                       Bad{"4@counter@GOTOFF", "no register holding the GOT"},
                       Bad{"4@counter@GOTOFF(%eip)", "@GOTOFF is not rip-relative"}}) {
    CAPTURE(b.spec);
    auto r = parse_usdt_args(b.spec, EM_386, ELFCLASS32);
    REQUIRE(!r);
    CHECK(r.error().message().find(b.says) != std::string::npos);
  }
}
