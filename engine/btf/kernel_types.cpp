#include "engine/btf/kernel_types.h"

#include <optional>

#include "engine/btf/blob.h"
#include "engine/btf/kernel_files.h"
#include "engine/btf/materialize.h"
#include "engine/btf/name_index.h"

namespace rawprobe::btf {

using ctypes::CKind;
using ctypes::CTypeRef;

namespace {

// One source of names: vmlinux, or a module read on first need.
struct Source {
  std::string name;
  std::string path;           // empty when the bytes were given in memory
  Bytes pending_bytes;        // from_blobs: the bytes until the module is parsed
  bool tried = false;
  std::unique_ptr<Blob> blob;
  std::unique_ptr<NameIndex> names;
  std::optional<Error> failed;
};

const char* tag_word(CKind tag) {
  switch (tag) {
    case CKind::Struct: return "struct ";
    case CKind::Union: return "union ";
    case CKind::Enum: return "enum ";
    case CKind::Function: return "function ";
    default: return "type ";
  }
}

}  // namespace

struct KernelTypes::State {
  ctypes::TypeArena arena;
  Source vmlinux;
  std::vector<Source> modules;
  std::vector<std::string> module_names;
  std::unique_ptr<Materializer> materializer;

  // The module's blob and index, reading and parsing it the first time; nullptr if it failed.
  Source* load(Source& m) {
    if (!m.tried) {
      m.tried = true;
      Bytes bytes = std::move(m.pending_bytes);
      if (!m.path.empty()) {
        Result<Bytes> read = load_btf_file(m.path);
        if (!read) {
          m.failed = read.error();
          return nullptr;
        }
        bytes = std::move(*read);
      }
      Result<std::unique_ptr<Blob>> blob =
          Blob::parse(std::move(bytes), m.path.empty() ? m.name : m.path, vmlinux.blob.get());
      if (!blob) {
        m.failed = blob.error();
        return nullptr;
      }
      m.blob = std::move(*blob);
      m.names = std::make_unique<NameIndex>(*m.blob);
    }
    return m.blob ? &m : nullptr;
  }

  // Calls try_source(Source&) on vmlinux, then each module, until it returns true.
  template <class Try>
  void search(Try try_source, std::string_view only = {}) {
    if ((only.empty() || only == "vmlinux") && try_source(vmlinux)) return;
    for (Source& m : modules)
      if ((only.empty() || only == m.name) && load(m) && try_source(m)) return;
  }

  std::optional<TypeId> resolve_forward(CKind tag, std::string_view name, const Blob& from) {
    std::optional<TypeId> found;
    auto in = [&](Source& s) {
      if (auto id = s.names->find(tag, name)) found = TypeId{s.blob.get(), *id};
      return found.has_value();
    };
    if (in(vmlinux)) return found;
    for (Source& m : modules)
      if (m.blob.get() == &from && in(m)) return found;
    search([&](Source& s) { return s.blob.get() != vmlinux.blob.get() && in(s); });
    return found;
  }

  Error not_found(std::string what, std::string_view name) {
    std::string hint;
    for (Source& m : modules)
      if (m.failed) hint += (hint.empty() ? "" : "; ") + m.failed->message();
    return make_error("find " + what + std::string(name) + " in the kernel's BTF",
                      "vmlinux and " + std::to_string(modules.size()) + " module(s)",
                      hint.empty() ? "" : "module BTF that could not be read: " + hint);
  }
};

KernelTypes::KernelTypes(std::unique_ptr<State> state) : state_(std::move(state)) {}
KernelTypes::KernelTypes(KernelTypes&&) noexcept = default;
KernelTypes& KernelTypes::operator=(KernelTypes&&) noexcept = default;
KernelTypes::~KernelTypes() = default;

Result<KernelTypes> KernelTypes::from_blobs(NamedBlob vmlinux, std::vector<NamedBlob> modules) {
  auto state = std::make_unique<State>();
  Result<std::unique_ptr<Blob>> blob = Blob::parse(std::move(vmlinux.bytes), vmlinux.name);
  if (!blob) return blob.error();
  state->vmlinux.name = "vmlinux";  // what KernelFunction::module and `module` filters say
  state->vmlinux.blob = std::move(*blob);
  for (NamedBlob& m : modules) {
    Source s;
    s.name = m.name;
    s.pending_bytes = std::move(m.bytes);
    state->module_names.push_back(m.name);
    state->modules.push_back(std::move(s));
  }
  state->vmlinux.tried = true;
  state->vmlinux.names = std::make_unique<NameIndex>(*state->vmlinux.blob);
  State* raw = state.get();
  state->materializer = std::make_unique<Materializer>(
      state->arena,
      [raw](CKind tag, std::string_view name, const Blob& from) {
        return raw->resolve_forward(tag, name, from);
      },
      static_cast<uint32_t>(sizeof(void*)));
  return KernelTypes(std::move(state));
}

Result<KernelTypes> KernelTypes::open() {
  std::string dir = kernel_btf_dir();
  Result<Bytes> bytes = load_btf_file(dir + "/vmlinux");
  if (!bytes) return bytes.error();
  std::vector<NamedBlob> none;
  Result<KernelTypes> kernel = from_blobs({dir + "/vmlinux", std::move(*bytes)}, std::move(none));
  if (!kernel) return kernel;
  State& s = *kernel->state_;
  for (std::string& name : module_btf_names(dir)) {
    Source m;
    m.name = name;
    m.path = dir + "/" + name;
    s.module_names.push_back(name);
    s.modules.push_back(std::move(m));
  }
  return kernel;
}

Result<CTypeRef> KernelTypes::lookup(CKind tag, std::string_view name) {
  State& s = *state_;
  std::optional<Result<CTypeRef>> found;
  s.search([&](Source& src) {
    if (auto id = src.names->find(tag, name)) found = s.materializer->type(*src.blob, *id);
    return found.has_value();
  });
  if (found) return std::move(*found);
  return s.not_found(tag_word(tag), name);
}

CTypeRef KernelTypes::find(CKind tag, std::string_view name) {
  Result<CTypeRef> type = lookup(tag, name);
  return type ? *type : nullptr;
}

Result<KernelFunction> KernelTypes::function(std::string_view name, std::string_view module) {
  State& s = *state_;
  std::optional<Result<KernelFunction>> found;
  s.search(
      [&](Source& src) {
        std::optional<uint32_t> id = src.names->find(CKind::Function, name);
        if (!id) return false;
        Record func = src.blob->record(*id);
        const Blob& owner = owner_of(*src.blob, func.size_or_type);
        if (func.size_or_type == 0 || owner.record(func.size_or_type).kind != Kind::FuncProto) {
          found = make_error("read BTF: " + src.blob->describe(*id) + " does not refer to a FUNC_PROTO",
                             src.blob->origin());
        } else if (Result<CTypeRef> proto = s.materializer->type(*src.blob, func.size_or_type); !proto) {
          found = proto.error();
        } else {
          found = KernelFunction{*id, src.name, *proto};
        }
        return true;
      },
      module);
  if (found) return std::move(*found);
  if (!module.empty()) return s.not_found("function ", std::string(name) + " of module " + std::string(module));
  return s.not_found("function ", name);
}

std::vector<KernelTypes::FunctionName> KernelTypes::function_names(
    const std::function<bool(std::string_view module)>& want_module) {
  State& s = *state_;
  std::vector<FunctionName> out;
  auto scan = [&](Source& src) {
    const Blob& blob = *src.blob;
    for (uint32_t id = blob.first_id(); id < blob.end_id(); ++id) {
      Record r = blob.record(id);
      if (r.kind == Kind::Func) out.push_back({src.name, std::string(blob.string(r.name_off))});
    }
  };
  if (want_module("vmlinux")) scan(s.vmlinux);
  for (Source& m : s.modules)
    if (want_module(m.name) && s.load(m)) scan(m);
  return out;
}

Result<CTypeRef> KernelTypes::function_prototype(std::string_view name, std::string_view module) {
  Result<KernelFunction> f = function(name, module);
  if (!f) return f.error();
  return f->prototype;
}

Result<Enumerator> KernelTypes::enumerator(std::string_view name) {
  State& s = *state_;
  std::optional<Result<Enumerator>> found;
  s.search([&](Source& src) {
    auto at = src.names->find_enumerator(name);
    if (!at) return false;
    Result<CTypeRef> type = s.materializer->type(*src.blob, at->enum_id);
    if (!type)
      found = type.error();
    else
      found = Enumerator{(*type)->enumerators.at(at->index).value, *type};
    return true;
  });
  if (found) return std::move(*found);
  return s.not_found("enumerator ", name);
}

const std::vector<std::string>& KernelTypes::module_names() const { return state_->module_names; }

size_t KernelTypes::modules_read() const {
  size_t n = 0;
  for (const Source& m : state_->modules) n += m.blob != nullptr;
  return n;
}

size_t KernelTypes::vmlinux_types() const { return state_->vmlinux.blob->end_id() - 1; }

size_t KernelTypes::materialized() const { return state_->materializer->materialized(); }

}  // namespace rawprobe::btf
