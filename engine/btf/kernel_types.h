// The kernel's C types, read from its BTF by rawprobe itself (no libbpf): vmlinux and the
// split BTF of each loaded module, from /sys/kernel/btf under sys::host_root() (so tests can
// point it at a fixture tree).
//
//   Result<btf::KernelTypes> kernel = btf::KernelTypes::open();
//   if (!kernel) ... kernel.error()               // no BTF (before 5.4), unreadable, malformed
//   ctypes::TypeSource& types = *kernel;          // find(CKind::Struct, "task_struct"), ...
//   Result<ctypes::CTypeRef> f = kernel->function_prototype("vfs_read");  // CKind::Function
//   Result<btf::Enumerator> e = kernel->enumerator("TCP_ESTABLISHED");    // value, enum type
//   Result<btf::KernelFunction> k = kernel->function("vfs_read");         // + BTF id, module
//
// Lazy: open() reads and checks vmlinux only and lists the modules. A module is read the
// first time a lookup misses in vmlinux. Names are indexed per kind on the first lookup of
// that kind, and C types are made only for what lookups return and what those types reach,
// once each; the returned CTypeRefs live as long as the KernelTypes (moving it keeps them
// valid). Lookups fill these caches, so one KernelTypes is for one thread at a time.
//
// Lookups search vmlinux first, then modules in name order. A forward declaration becomes the
// full struct or union of that name from vmlinux, its own module or another module, or stays
// CKind::Forward when none defines it. const/volatile/restrict and type tags are dropped,
// typedefs kept. Pointers are the size of this build's pointers.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/base/result.h"
#include "engine/btf/bytes.h"
#include "engine/ctypes/ctype.h"

namespace rawprobe::btf {

struct Enumerator {
  int64_t value = 0;                 // sign-extended for a signed enum; an unsigned 64-bit
                                     // value above INT64_MAX keeps its bits
  ctypes::CTypeRef type = nullptr;   // the enum that declares it
};

// A kernel function as fentry/fexit attach to it: BPF_PROG_LOAD's attach_btf_id is `btf_id`
// (an id of vmlinux, or of the module's split BTF, whose ids continue vmlinux's), and a module
// function also needs the module's BTF object (attach_btf_obj_fd).
struct KernelFunction {
  uint32_t btf_id = 0;                    // the FUNC's type id
  std::string module;                     // "vmlinux" or the module's name
  ctypes::CTypeRef prototype = nullptr;   // CKind::Function, with parameter names
};

// A BTF blob given by name, for tests and tools that do not read /sys/kernel/btf.
struct NamedBlob {
  std::string name;   // "vmlinux" or the module's name
  Bytes bytes;
};

class KernelTypes final : public ctypes::TypeSource {
 public:
  // vmlinux and the module list from host_path("/sys/kernel/btf").
  static Result<KernelTypes> open();
  // The same from blobs in memory: modules are split BTF on top of `vmlinux`.
  static Result<KernelTypes> from_blobs(NamedBlob vmlinux, std::vector<NamedBlob> modules);

  KernelTypes(KernelTypes&&) noexcept;
  KernelTypes& operator=(KernelTypes&&) noexcept;
  ~KernelTypes() override;

  // ctypes::TypeSource: nullptr when no blob has the type, or when making it failed (a
  // malformed blob); lookup() says which.
  ctypes::CTypeRef find(ctypes::CKind tag, std::string_view name) override;
  Result<ctypes::CTypeRef> lookup(ctypes::CKind tag, std::string_view name);

  // The prototype of the kernel function `name` (BTF FUNC -> FUNC_PROTO): CKind::Function
  // with the return type and the named parameters. With `module`, only that module's BTF
  // (or "vmlinux") is searched.
  Result<ctypes::CTypeRef> function_prototype(std::string_view name, std::string_view module = {});
  // The same with the FUNC's BTF id and the blob that has it.
  Result<KernelFunction> function(std::string_view name, std::string_view module = {});

  // Every FUNC of vmlinux and of each module whose name `want_module` accepts (reading those
  // modules' BTF), as {module, name} in blob order: what fentry wildcards and listings match.
  struct FunctionName {
    std::string module;  // "vmlinux" or the module's name
    std::string name;
  };
  std::vector<FunctionName> function_names(const std::function<bool(std::string_view module)>& want_module);

  // An enumerator of any enum, by name.
  Result<Enumerator> enumerator(std::string_view name);

  // For --info and the timing report: module names listed at open, how many of them have
  // been read, how many BTF types vmlinux has and how many became C types.
  const std::vector<std::string>& module_names() const;
  size_t modules_read() const;
  size_t vmlinux_types() const;
  size_t materialized() const;

 private:
  struct State;
  explicit KernelTypes(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace rawprobe::btf
