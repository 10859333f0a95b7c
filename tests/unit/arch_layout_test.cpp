// Every arch/ table against the kernel's published headers for its architecture, as laid out
// by a real compiler: pt_regs slot offsets and sizes, the uapi struct's size, and the syscall
// numbers of bpf and perf_event_open. Headers come from Debian's linux-libc-dev-<arch>-cross
// packages (and linux-source-6.1 for loongarch64, which Debian 12 has no cross package for);
// slots marked kernel_only are not in any uapi header and are checked by tests/unit/
// arch_tables_test.cpp's invariants only.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "arch/arch.h"
#include "tests/unit/arch_oracle.h"

namespace rawprobe::arch {
namespace {

struct Oracle {
  std::string compiler;  // command line that compiles for the architecture with its headers
  std::string missing;   // what is absent when it cannot run, and which package brings it
};

Oracle foreign_headers(const std::string& triple, const std::string& package,
                       const std::string& target_macros) {
  std::string dir = "/usr/" + triple + "/include";
  if (!std::filesystem::exists(dir + "/asm/ptrace.h"))
    return {"", dir + "/asm/ptrace.h is missing: install " + package + " (make test-deps)"};
  // The host compiler lays out these LP64 structs exactly as the target's would (every field
  // is a naturally aligned 8-byte word); the macros select the target's branches.
  return {"gcc -nostdinc -I" + dir + " " + target_macros, ""};
}

Oracle cross_compiler(const std::string& compiler, const std::string& package) {
  if (test::run_command("command -v " + compiler).status != 0)
    return {"", compiler + " is missing: install " + package + " (make test-deps)"};
  return {compiler, ""};
}

// loongarch64 from the kernel source: its uapi dir plus the generic headers that Kbuild's
// headers_install would generate as one-line wrappers (asm/types.h, ...). Linux 6.1's generic
// bitsperlong.h still defaulted to 32 for loongarch (unified in 6.5), so the word size is
// given the way the 6.5 header derives it. headers_install also strips the include of
// linux/compiler_types.h (kernel-only annotations), which an empty file stands in for.
Oracle loongarch_from_kernel_source(const test::ScratchDir& scratch) {
  std::string error;
  auto root = test::linux_source_uapi(error);
  if (!root) return {"", error};
  std::filesystem::create_directories(scratch.path() / "asm");
  for (const char* generic : {"types.h", "posix_types.h", "bitsperlong.h"})
    std::ofstream(scratch.path() / "asm" / generic)
        << "#include <asm-generic/" << generic << ">\n";
  std::filesystem::create_directories(scratch.path() / "linux");
  std::ofstream(scratch.path() / "linux" / "compiler_types.h") << "\n";
  std::string gcc_include = test::run_command("gcc -print-file-name=include", false).output;
  gcc_include.erase(gcc_include.find_last_not_of('\n') + 1);
  return {"gcc -nostdinc -ffreestanding -isystem " + gcc_include + " -I" +
              scratch.path().string() + " -I" + (*root / "arch/loongarch/include/uapi").string() +
              " -I" + (*root / "include/uapi").string() +
              " -D__loongarch__ -D__loongarch64 -D__loongarch_grlen=64 -D__BITS_PER_LONG=64 -D__EXPORTED_HEADERS__",
          ""};
}

Oracle oracle_for(const Table& table, const test::ScratchDir& scratch) {
  std::string name(table.name);
  if (name == "x86_64") return {"gcc", ""};  // this machine's own headers
  if (name == "i386") {
    Oracle oracle = foreign_headers("i686-linux-gnu", "linux-libc-dev-i386-cross", "");
    if (!oracle.compiler.empty()) oracle.compiler = "gcc -m32" + oracle.compiler.substr(3);
    return oracle;
  }
  if (name == "aarch64") return cross_compiler("aarch64-linux-gnu-gcc", "gcc-aarch64-linux-gnu");
  if (name == "arm") return cross_compiler("arm-linux-gnueabihf-gcc", "gcc-arm-linux-gnueabihf");
  if (name == "riscv64")
    return foreign_headers("riscv64-linux-gnu", "linux-libc-dev-riscv64-cross",
                           "-D__riscv -D__riscv_xlen=64");
  if (name == "ppc64le")
    return foreign_headers("powerpc64le-linux-gnu", "linux-libc-dev-ppc64el-cross",
                           "-D__powerpc__ -D__powerpc64__ -D__PPC64__");
  if (name == "s390x")
    return foreign_headers("s390x-linux-gnu", "linux-libc-dev-s390x-cross",
                           "-D__s390__ -D__s390x__");
  if (name == "mips64")
    return foreign_headers("mips64el-linux-gnuabi64", "linux-libc-dev-mips64el-cross",
                           "-D__mips__ -D__mips=64 -D__mips64 -D_MIPS_SZLONG=64 "
                           "-D_MIPS_SIM_ABI32=1 -D_MIPS_SIM_NABI32=2 -D_MIPS_SIM_ABI64=3 "
                           "-D_MIPS_SIM=_MIPS_SIM_ABI64");
  if (name == "loongarch64") return loongarch_from_kernel_source(scratch);
  return {"", "no header oracle is known for table " + name};
}

std::string member_of(const RegSlot& slot) {
  return std::string(slot.uapi_name.empty() ? slot.name : slot.uapi_name);
}

void check_against_headers(const Table& table) {
  INFO("table ", table.name, " checked against ", table.uapi_struct);
  test::ScratchDir scratch;
  Oracle oracle = oracle_for(table, scratch);
  REQUIRE_MESSAGE(oracle.compiler != "", oracle.missing);

  std::string type(table.uapi_struct), body;
  for (size_t i = 0; i < table.pt_regs.size(); ++i) {
    const RegSlot& slot = table.pt_regs[i];
    if (slot.kernel_only) continue;
    body += test::emit_constant("off" + std::to_string(i),
                                "__builtin_offsetof(" + type + ", " + member_of(slot) + ")");
    body += test::emit_constant("size" + std::to_string(i),
                                "sizeof(((" + type + " *)0)->" + member_of(slot) + ")");
  }
  body += test::emit_constant("sizeof", "sizeof(" + type + ")");
  body += test::emit_constant("nr_bpf", "__NR_bpf");
  body += test::emit_constant("nr_perf_event_open", "__NR_perf_event_open");
  test::Constants found = test::compile_constants(
      oracle.compiler, "#include <asm/ptrace.h>\n#include <asm/unistd.h>\n", body);
  REQUIRE_MESSAGE(found.error.empty(), found.error);

  bool every_slot_published = true;
  for (size_t i = 0; i < table.pt_regs.size(); ++i) {
    const RegSlot& slot = table.pt_regs[i];
    if (slot.kernel_only) {
      every_slot_published = false;
      continue;
    }
    INFO("slot ", slot.name, " (", member_of(slot), ")");
    REQUIRE(found.values.count("off" + std::to_string(i)) == 1);
    CHECK(slot.offset == found.values["off" + std::to_string(i)]);
    CHECK(slot.size == found.values["size" + std::to_string(i)]);
    CHECK(slot.offset + slot.size <= found.values["sizeof"]);
  }
  // With nothing kernel-internal, the whole described prefix lies inside the uapi struct.
  if (every_slot_published) CHECK(table.pt_regs_size <= found.values["sizeof"]);
  CHECK(table.nr_bpf == found.values.at("nr_bpf"));
  CHECK(table.nr_perf_event_open == found.values.at("nr_perf_event_open"));
}

TEST_CASE("arch tables match each architecture's kernel headers") {
  for (const Table* table : all()) {
    SUBCASE(std::string(table->name).c_str()) { check_against_headers(*table); }
  }
}

// The compat views reuse the 64-bit kernel's slots; their syscalls must be that kernel's.
TEST_CASE("compat views use the 64-bit kernel's layout and syscalls") {
  for (auto entry : {std::pair{"i386", "x86_64"}, std::pair{"arm", "aarch64"}}) {
    const char* binary = entry.first;
    const char* kernel = entry.second;
    INFO(binary, " on ", kernel);
    const Table* view = for_process(*by_name(binary), *by_name(kernel));
    REQUIRE(view != nullptr);
    CHECK(view->pt_regs.data() == by_name(kernel)->pt_regs.data());
    CHECK(view->pt_regs_size == by_name(kernel)->pt_regs_size);
    CHECK(view->nr_bpf == by_name(kernel)->nr_bpf);
    CHECK(view->nr_perf_event_open == by_name(kernel)->nr_perf_event_open);
    CHECK(view->e_machine == by_name(binary)->e_machine);
  }
}

}  // namespace
}  // namespace rawprobe::arch
