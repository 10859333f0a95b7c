// The BTF of every module the running kernel publishes in /sys/kernel/btf, which the kernel
// itself checked when it loaded the module: rawprobe must read all of it, and every named
// type and function in it must resolve through KernelTypes to what its record says. This host
// loads no module with BTF; in the VM guests tests/vm/guest.d/kernel-modules.sh has loaded
// `dummy` before the kernel suite runs. (bpftool compares module types on the host in
// btf_module_test.cpp.)
#include <doctest/doctest.h>

#include <set>

#include "engine/btf/blob.h"
#include "engine/btf/kernel_files.h"
#include "engine/btf/kernel_types.h"
#include "tests/kernel/btf_absent.h"

using namespace rawprobe;
using rawprobe::ctypes::CKind;

TEST_CASE("btf module: the running kernel's module BTF reads and its types resolve") {
  Result<btf::KernelTypes> kt = btf::KernelTypes::open();
  if (btf::checked_btf_absent(kt)) return;
  REQUIRE_MESSAGE(kt.ok(), (kt.ok() ? "" : kt.error().message()));
  std::string dir = btf::kernel_btf_dir();
  Result<std::string> vmlinux_bytes = btf::read_btf_file(dir + "/vmlinux");
  REQUIRE(vmlinux_bytes.ok());
  Result<std::unique_ptr<btf::Blob>> vmlinux = btf::Blob::parse(std::move(*vmlinux_bytes), "vmlinux");
  REQUIRE(vmlinux.ok());
  MESSAGE("modules with BTF on this kernel: " << kt->module_names().size());

  std::set<std::pair<int, std::string>> earlier;  // names vmlinux or an earlier module defines
  for (uint32_t id = 1; id < (*vmlinux)->end_id(); ++id) {
    btf::Record r = (*vmlinux)->record(id);
    earlier.emplace(static_cast<int>(r.kind), std::string((*vmlinux)->string(r.name_off)));
  }
  size_t structs = 0, functions = 0;
  for (const std::string& name : kt->module_names()) {
    CAPTURE(name);
    Result<std::string> bytes = btf::read_btf_file(dir + "/" + name);
    REQUIRE(bytes.ok());
    Result<std::unique_ptr<btf::Blob>> module = btf::Blob::parse(std::move(*bytes), name, vmlinux->get());
    REQUIRE_MESSAGE(module.ok(), (module.ok() ? "" : module.error().message()));
    const btf::Blob& m = **module;
    std::vector<std::pair<int, std::string>> defined;
    for (uint32_t id = m.first_id(); id < m.end_id(); ++id) {
      btf::Record r = m.record(id);
      std::string type_name(m.string(r.name_off));
      if (type_name.empty() || !earlier.emplace(static_cast<int>(r.kind), type_name).second) continue;
      CAPTURE(type_name);
      if (r.kind == btf::Kind::Struct || r.kind == btf::Kind::Union) {
        Result<ctypes::CTypeRef> t =
            kt->lookup(r.kind == btf::Kind::Struct ? CKind::Struct : CKind::Union, type_name);
        REQUIRE_MESSAGE(t.ok(), (t.ok() ? "" : t.error().message()));
        CHECK((*t)->size == r.size_or_type);
        CHECK((*t)->members.size() == r.vlen);
        ++structs;
      } else if (r.kind == btf::Kind::Func) {
        Result<btf::KernelFunction> f = kt->function(type_name, name);
        REQUIRE_MESSAGE(f.ok(), (f.ok() ? "" : f.error().message()));
        CHECK(f->btf_id == id);
        CHECK(f->module == name);
        ++functions;
      }
    }
  }
  MESSAGE("module structs and unions resolved: " << structs << ", functions: " << functions);
  CHECK(kt->modules_read() <= kt->module_names().size());
}
