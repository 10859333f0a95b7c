// Module BTF: split BTF whose ids and string offsets continue vmlinux's, read through a
// fixture /sys/kernel/btf (engine/sys/host_root.h). Blobs come from tests/unit/btf_builder.h.
// The real kernel's module BTF is compared with bpftool in tests/kernel/btf_module_test.cpp.
#include <doctest/doctest.h>

#include "engine/btf/kernel_types.h"
#include "tests/unit/btf_builder.h"
#include "tests/unit/sys_fixture.h"

using namespace rawprobe;
using rawprobe::btf::testing::BtfBuilder;
using rawprobe::ctypes::CKind;
using rawprobe::ctypes::CTypeRef;

TEST_CASE("btf split: module types continue vmlinux's ids and strings, and forwards resolve across") {
  BtfBuilder base;
  uint32_t i32 = base.add_int("int", 4, BTF_INT_SIGNED);
  base.add_record(BTF_KIND_STRUCT, "task", 4, {{"pid", i32, 0}});
  uint32_t fwd = base.add_fwd("mod_state", false);
  uint32_t fwd_ptr = base.add_ref(BTF_KIND_PTR, fwd);
  base.add_record(BTF_KIND_STRUCT, "holder", 8, {{"state", fwd_ptr, 0}});
  base.add_fwd("nowhere", false);

  BtfBuilder mod(base.last_id(), base.string_end());
  uint32_t task_fwd = mod.add_fwd("task", false);  // the module's view of a vmlinux struct
  uint32_t task_ptr = mod.add_ref(BTF_KIND_PTR, task_fwd);
  std::vector<BtfBuilder::Member> members = {{"count", i32, 0}, {"owner", task_ptr, 64}};
  uint32_t state = mod.add_record(BTF_KIND_STRUCT, "mod_state", 16, members);
  uint32_t state_ptr = mod.add_ref(BTF_KIND_PTR, state);
  uint32_t proto = mod.add_proto(i32, {{"st", state_ptr}});
  uint32_t mod_func = mod.add_func("mod_func", proto);
  mod.add_enum("mod_mode", 4, false, {{"MOD_ON", 3}});
  CHECK(state > base.last_id());

  sys::testing::TempTree tree;
  tree.write("/sys/kernel/btf/vmlinux", base.blob());
  tree.write("/sys/kernel/btf/mymod", mod.blob());
  tree.write("/sys/kernel/btf/broken", "not BTF at all, and long enough for a header");
  tree.activate();
  Result<btf::KernelTypes> kt = btf::KernelTypes::open();
  REQUIRE_MESSAGE(kt.ok(), (kt.ok() ? "" : kt.error().message()));
  CHECK(kt->module_names() == std::vector<std::string>{"broken", "mymod"});
  CHECK(kt->vmlinux_types() == base.last_id());

  // vmlinux names need no module.
  CTypeRef task = kt->find(CKind::Struct, "task");
  REQUIRE(task);
  CHECK(kt->modules_read() == 0);

  // A module's struct: names from its own strings, ids into vmlinux, its forward resolved to
  // vmlinux's definition.
  CTypeRef s = kt->find(CKind::Struct, "mod_state");
  REQUIRE(s);
  CHECK(kt->modules_read() == 1);  // "broken" was tried and failed; "mymod" read
  CHECK(s->size == 16);
  REQUIRE(s->members.size() == members.size());
  CHECK(s->members[0].name == members[0].name);
  CHECK(s->members[0].type->name == "int");
  CHECK(s->members[1].bit_offset == members[1].bit_offset);
  CHECK(s->members[1].type->target == task);

  // vmlinux's forward declaration resolves to the module's definition.
  CTypeRef holder = kt->find(CKind::Struct, "holder");
  REQUIRE(holder);
  CHECK(holder->members[0].type->target == s);
  Result<CTypeRef> nowhere = kt->lookup(CKind::Struct, "nowhere");
  CHECK_FALSE(nowhere.ok());  // only a forward declaration exists: not a definition

  Result<CTypeRef> f = kt->function_prototype("mod_func", "mymod");
  REQUIRE(f.ok());
  CHECK(ctypes::spell(*f) == "int (struct mod_state *)");
  CHECK((*f)->params[0].name == "st");
  CHECK_FALSE(kt->function_prototype("mod_func", "vmlinux").ok());
  Result<btf::KernelFunction> fn = kt->function("mod_func");
  REQUIRE(fn.ok());
  CHECK(fn->btf_id == mod_func);  // an id of the module's split BTF, after vmlinux's
  CHECK(fn->module == "mymod");

  Result<btf::Enumerator> on = kt->enumerator("MOD_ON");
  REQUIRE(on.ok());
  CHECK(on->value == 3);

  // The broken module is named in the error of a lookup that had to search it.
  Result<CTypeRef> missing = kt->lookup(CKind::Struct, "missing");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().message().find("broken") != std::string::npos);
  CHECK(missing.error().message().find("bad magic") != std::string::npos);
}

TEST_CASE("btf split: no /sys/kernel/btf says why") {
  sys::testing::TempTree tree;
  tree.mkdir("/sys/kernel");
  tree.activate();
  Result<btf::KernelTypes> kt = btf::KernelTypes::open();
  REQUIRE_FALSE(kt.ok());
  CHECK(kt.error().message().find("/sys/kernel/btf/vmlinux") != std::string::npos);
  CHECK(kt.error().message().find("ENOENT") != std::string::npos);
  CHECK(kt.error().message().find("CONFIG_DEBUG_INFO_BTF") != std::string::npos);
}
