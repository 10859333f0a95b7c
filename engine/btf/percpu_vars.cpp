#include "engine/btf/percpu_vars.h"

#include <memory>

#include "engine/btf/blob.h"
#include "engine/btf/format.h"
#include "engine/btf/kernel_files.h"

namespace rawprobe::btf {

namespace {

const Result<std::unique_ptr<Blob>>& vmlinux() {
  static Result<std::unique_ptr<Blob>> blob = []() -> Result<std::unique_ptr<Blob>> {
    Result<Bytes> bytes = load_btf_file(kernel_btf_dir() + "/vmlinux");
    if (!bytes) return bytes.error();
    return Blob::parse(std::move(*bytes), "vmlinux");
  }();
  return blob;
}

}  // namespace

Result<PerCpuVar> find_percpu_var(std::string_view name) {
  const Result<std::unique_ptr<Blob>>& blob = vmlinux();
  if (!blob)
    return make_error("percpu_kaddr() needs the kernel's BTF to find per-CPU variables: " + blob.error().message(),
                      {}, "a kernel built with CONFIG_DEBUG_INFO_BTF (Linux 5.7 on) has it");
  const Blob& b = **blob;
  bool is_var = false;
  for (uint32_t id = b.first_id(); id < b.end_id(); ++id) {
    Record r = b.record(id);
    if (r.kind == Kind::Var && b.string(r.name_off) == name) is_var = true;
    if (r.kind != Kind::Datasec || b.string(r.name_off) != ".data..percpu") continue;
    for (uint32_t i = 0; i < r.vlen; ++i) {
      uint32_t var = r.element(i, kSecinfoLen, 0);
      if (b.string(b.record(var).name_off) == name) return PerCpuVar{var, r.element(i, kSecinfoLen, 2)};
    }
  }
  std::string n(name);
  if (is_var)
    return make_error("'" + n + "' is a kernel variable but not a per-CPU one (it is not in the BTF's .data..percpu "
                      "section)", {}, "use kaddr(\"" + n + "\") for an ordinary kernel variable");
  return make_error("no per-CPU kernel variable named '" + n + "' in the kernel's BTF", {},
                    "per-CPU variables are those declared DEFINE_PER_CPU (process_counts, runqueues, ...)");
}

}  // namespace rawprobe::btf
