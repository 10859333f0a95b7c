// Module BTF against bpftool. This machine's kernel loads no module with BTF, so the test
// makes one as the kernel build does: gcc -g compiles a small module-like C file and pahole
// encodes its DWARF as split BTF on top of this kernel's vmlinux BTF (--btf_base), deduplicated
// against it. The fixture /sys/kernel/btf holds the real vmlinux and that module; bpftool's
// `-B vmlinux` dump of the module is the oracle. Modules the kernel does publish are checked
// too. Host-only: gcc, pahole and bpftool.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "engine/btf/kernel_types.h"
#include "engine/sys/host_root.h"
#include "tests/kernel/btf_oracle_compare.h"

using namespace rawprobe;
using rawprobe::btf::testing::BpftoolRaw;
using rawprobe::btf::testing::OracleCompare;
using rawprobe::btf::testing::OracleType;
using rawprobe::ctypes::CKind;
using rawprobe::ctypes::CTypeRef;

namespace {

constexpr const char* kModuleSource = R"(
struct task_struct;
struct rawprobe_opaque;
struct list_head { struct list_head *next, *prev; };
struct rawprobe_mod_stats {
  int hits;
  unsigned long bytes;
  struct task_struct *last;
  struct rawprobe_opaque *opaque;
  struct list_head link;
  unsigned int flag : 3, mode : 5;
  char name[8];
  unsigned char tail[];
};
enum rawprobe_mod_state { RAWPROBE_MOD_IDLE, RAWPROBE_MOD_BUSY = 7, RAWPROBE_MOD_NEG = -2 };
typedef struct rawprobe_mod_stats rawprobe_stats_t;
int rawprobe_mod_func(rawprobe_stats_t *st, enum rawprobe_mod_state s) { return st->hits + s; }
)";

struct Scratch {
  std::filesystem::path dir;
  Scratch() {
    std::string pattern = (std::filesystem::temp_directory_path() / "rawprobe-btfmod-XXXXXX").string();
    dir = ::mkdtemp(pattern.data()) ? pattern : std::string();
  }
  ~Scratch() {
    sys::set_host_root("");
    std::error_code ec;
    if (!dir.empty()) std::filesystem::remove_all(dir, ec);
  }
};

}  // namespace

TEST_SUITE_BEGIN("host-only");

TEST_CASE("btf module: split BTF made by pahole against this kernel matches bpftool") {
  Scratch s;
  REQUIRE_FALSE(s.dir.empty());
  std::string src = (s.dir / "rawprobe_mod.c").string(), obj = (s.dir / "rawprobe_mod.o").string();
  std::string btf_dir = (s.dir / "sys/kernel/btf").string();
  std::filesystem::create_directories(btf_dir);
  std::ofstream(src) << kModuleSource;
  std::string made = btf::testing::run_command(
      "gcc -g -O0 -c " + src + " -o " + obj + " 2>&1 && pahole --btf_base /sys/kernel/btf/vmlinux "
      "--btf_encode_detached=" + btf_dir + "/rawprobe_mod " + obj + " 2>&1 && echo made");
  REQUIRE_MESSAGE(made.find("made") != std::string::npos, "gcc or pahole failed: " << made);
  std::filesystem::copy_file("/sys/kernel/btf/vmlinux", btf_dir + "/vmlinux");

  BpftoolRaw vmlinux_dump("/sys/kernel/btf/vmlinux");
  BpftoolRaw module_dump(btf_dir + "/rawprobe_mod", "/sys/kernel/btf/vmlinux");
  REQUIRE_FALSE(module_dump.empty());
  OracleCompare compare({&module_dump, &vmlinux_dump});

  sys::set_host_root(s.dir.string());
  Result<btf::KernelTypes> kt = btf::KernelTypes::open();
  REQUIRE_MESSAGE(kt.ok(), (kt.ok() ? "" : kt.error().message()));
  CHECK(kt->module_names() == std::vector<std::string>{"rawprobe_mod"});
  // The module's ids continue vmlinux's.
  CHECK(module_dump.first_id() == static_cast<long long>(kt->vmlinux_types()) + 1);

  const OracleType* stats = module_dump.named("STRUCT", "rawprobe_mod_stats");
  REQUIRE(stats);
  CTypeRef t = kt->find(CKind::Struct, "rawprobe_mod_stats");
  compare.check_record(*stats, t, 3);
  CHECK(kt->modules_read() == 1);
  // Its task_struct pointer is vmlinux's full definition; the opaque one stays a forward.
  CHECK(t->members.at(2).type->target == kt->find(CKind::Struct, "task_struct"));
  CHECK(t->members.at(3).type->target->kind == CKind::Forward);
  CHECK(t->members.at(4).type == kt->find(CKind::Struct, "list_head"));

  const OracleType* state = module_dump.named("ENUM", "rawprobe_mod_state");
  REQUIRE(state);
  CTypeRef e = kt->find(CKind::Enum, "rawprobe_mod_state");
  REQUIRE(e);
  REQUIRE(e->enumerators.size() == state->members.size());
  for (size_t i = 0; i < state->members.size(); ++i) {
    CHECK(e->enumerators[i].name == state->members[i].name);
    CHECK(e->enumerators[i].value == btf::testing::enumerator_value(state->members[i].val));
    Result<btf::Enumerator> by_name = kt->enumerator(state->members[i].name);
    REQUIRE(by_name.ok());
    CHECK(by_name->type == e);
  }

  const OracleType* func = module_dump.named("FUNC", "rawprobe_mod_func");
  REQUIRE(func);
  Result<CTypeRef> proto = kt->function_prototype("rawprobe_mod_func", "rawprobe_mod");
  REQUIRE(proto.ok());
  CHECK(compare.diff(func->num("type_id"), *proto, 3) == "");
  CHECK(ctypes::spell(*proto) == "int (rawprobe_stats_t *, enum rawprobe_mod_state)");
  Result<btf::KernelFunction> k = kt->function("rawprobe_mod_func");
  REQUIRE(k.ok());
  CHECK(k->btf_id == func->id);
  CHECK(k->module == "rawprobe_mod");
}

TEST_CASE("btf module: every module the kernel publishes") {
  std::error_code ec;
  std::vector<std::string> modules;
  for (const auto& entry : std::filesystem::directory_iterator("/sys/kernel/btf", ec))
    if (entry.path().filename() != "vmlinux") modules.push_back(entry.path().filename().string());
  MESSAGE("modules with BTF on this kernel: " << modules.size());
  if (modules.empty()) return;  // none loaded here: the pahole-made module above stands in
  Result<btf::KernelTypes> kt = btf::KernelTypes::open();
  REQUIRE(kt.ok());
  BpftoolRaw vmlinux_dump("/sys/kernel/btf/vmlinux");
  for (const std::string& m : modules) {
    CAPTURE(m);
    BpftoolRaw dump("/sys/kernel/btf/" + m, "/sys/kernel/btf/vmlinux");
    OracleCompare compare({&dump, &vmlinux_dump});
    size_t checked = 0;
    for (const auto& [id, o] : dump.types()) {
      if (o.kind != "STRUCT" || o.name.empty() || checked == 20) continue;
      if (vmlinux_dump.named("STRUCT", o.name) || dump.named("STRUCT", o.name) != &o) continue;
      compare.check_record(o, kt->find(CKind::Struct, o.name), 1);
      ++checked;
    }
  }
}
