#include "engine/probes/btf_functions.h"

#include <algorithm>
#include <sstream>

#include "elf/symbol_match.h"
#include "engine/btf/host_kernel_types.h"
#include "engine/probes/btf_trace_names.h"
#include "engine/sys/features.h"
#include "engine/sys/host_root.h"
#include "engine/sys/tracefs.h"

namespace rawprobe::probes {
namespace {

// BPF trampolines pass at most MAX_BPF_FUNC_ARGS u64 slots (include/linux/bpf.h).
constexpr uint32_t kMaxSlots = 12;

// "vfs_read" and "dummy_open [dummy]" lines into "vmlinux:vfs_read", "dummy:dummy_open".
std::set<std::string> parse_filter_functions(const std::string& text) {
  std::set<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream f(line);
    std::string name, module;
    f >> name >> module;
    if (name.empty()) continue;
    if (module.size() > 2 && module.front() == '[') module = module.substr(1, module.size() - 2);
    else module = "vmlinux";
    out.insert(module + ":" + name);
  }
  return out;
}

}  // namespace

const std::optional<std::set<std::string>>& traceable_functions() {
  return sys::once_per_host_root<std::optional<std::set<std::string>>>([]() -> std::optional<std::set<std::string>> {
    Result<std::string> dir = sys::tracefs_dir();
    std::string text;
    if (!dir || !sys::read_text_file(*dir + "/available_filter_functions", text)) return std::nullopt;
    return parse_filter_functions(text);
  });
}

Result<std::vector<BtfFunction>> btf_functions(const std::string& module_glob, const std::string& func_glob) {
  Result<btf::KernelTypes*> kernel = btf::host_kernel_types();
  if (!kernel)
    return make_error("read the kernel's BTF", "/sys/kernel/btf/vmlinux",
                      "fentry, fexit and iter need a kernel built with CONFIG_DEBUG_INFO_BTF (5.5 or later); "
                      "kprobe:FUNC works without BTF where the kernel has kprobes");
  bool wildcard = func_glob.find_first_of("*?[") != std::string::npos;
  std::vector<btf::KernelTypes::FunctionName> names = (*kernel)->function_names(
      [&](std::string_view module) { return module_glob.empty() || glob_match(module_glob, std::string(module)); });
  const std::optional<std::set<std::string>>& traceable = traceable_functions();
  std::vector<BtfFunction> out;
  std::set<std::string> seen;
  for (const btf::KernelTypes::FunctionName& n : names) {
    if (!glob_match(func_glob, n.name)) continue;
    std::string key = n.module + ":" + n.name;
    if (!seen.insert(key).second) continue;
    if (wildcard && traceable && !traceable->count(key)) continue;
    Result<btf::KernelFunction> f = (*kernel)->function(n.name, n.module);
    if (!f) return f.error();
    out.push_back({n.module, n.name, f->btf_id, f->prototype});
  }
  return out;
}

uint32_t vmlinux_function_id(const char* name) {
  Result<btf::KernelTypes*> kernel = btf::host_kernel_types();
  if (!kernel) return 0;
  Result<btf::KernelFunction> f = (*kernel)->function(name, "vmlinux");
  return f ? f->btf_id : 0;
}

std::vector<std::string> btf_function_names() {
  std::vector<std::string> out;
  Result<btf::KernelTypes*> kernel = btf::host_kernel_types();
  if (!kernel) return out;
  for (auto& n : (*kernel)->function_names([](std::string_view m) { return m == "vmlinux"; }))
    out.push_back(std::move(n.name));
  return out;
}

TypedArguments arguments_of(const BtfFunction& f) {
  return {f.name, f.prototype->params, f.prototype->target};
}

Result<TypedArguments> raw_tracepoint_arguments(const std::string& name) {
  Result<btf::KernelTypes*> kernel = btf::host_kernel_types();
  if (!kernel) return kernel.error();
  // The typedef's prototype has no parameter names; the function the kernel's bpf_probe.h
  // generates for the tracepoint has the same prototype with names (__probestub_NAME since
  // 6.4 has them too).
  for (const char* prefix : {"__bpf_trace_", "__probestub_"}) {
    Result<btf::KernelFunction> f = (*kernel)->function(prefix + name);
    if (!f || f->prototype->params.empty()) continue;
    const std::vector<ctypes::CParam>& params = f->prototype->params;
    if (params.size() == 1 || !params[1].name.empty())
      return TypedArguments{name, {f->prototype->params.begin() + 1, f->prototype->params.end()}, nullptr};
  }
  Result<ctypes::CTypeRef> t = (*kernel)->lookup(ctypes::CKind::Typedef, "btf_trace_" + name);
  if (!t) return t.error();
  ctypes::CTypeRef pointer = ctypes::strip_typedefs(*t);
  ctypes::CTypeRef proto = pointer && pointer->kind == ctypes::CKind::Pointer ? pointer->target : nullptr;
  if (!proto || proto->kind != ctypes::CKind::Function || proto->params.empty())
    return make_error("read the arguments of raw tracepoint " + name, "btf_trace_" + name,
                      "its BTF typedef is not a pointer to a prototype whose first parameter is void *__data");
  TypedArguments out{name, {proto->params.begin() + 1, proto->params.end()}, nullptr};
  return out;
}

Result<std::vector<TypedArguments>> typed_arguments(const lang::ProbeSpec& spec) {
  std::vector<TypedArguments> out;
  if (spec.kind == lang::ProbeKind::RawTracepoint) {
    const std::vector<std::string>& names =
        sys::once_per_host_root<std::vector<std::string>>([] { return btf_trace_names(); });
    for (const std::string& n : names) {
      if (!glob_match(spec.name, n)) continue;
      Result<TypedArguments> a = raw_tracepoint_arguments(n);
      if (!a) return a.error();
      out.push_back(std::move(*a));
    }
    if (out.empty())
      return make_error("type the arguments of " + spec.canonical(), spec.raw,
                        sys::has(sys::Feature::kernel_btf)
                            ? "the kernel's BTF declares no btf_trace_" + spec.name + "; read arg0, arg1, ... instead"
                            : "this kernel has no BTF (built without CONFIG_DEBUG_INFO_BTF), which types a raw "
                              "tracepoint's arguments; read arg0, arg1, ... instead");
    return out;
  }
  Result<std::vector<BtfFunction>> functions = btf_functions(spec.target, spec.func);
  if (!functions) return functions.error();
  for (const BtfFunction& f : *functions) out.push_back(arguments_of(f));
  return out;
}

Status argument_slots(const TypedArguments& args, std::vector<lang::TracepointField>& fields) {
  uint32_t slot = 0;
  for (const ctypes::CParam& p : args.params) {
    uint32_t size = ctypes::size_of(p.type);
    uint32_t slots = size <= 8 ? 1 : 2;
    if (size > 16)
      return make_error("parameter '" + p.name + "' of " + args.owner + " is a " + std::to_string(size) +
                            "-byte struct passed by value",
                        args.owner, "BPF trampolines pass structs of at most 16 bytes by value");
    lang::TracepointField field;
    field.name = p.name;
    field.declaration = ctypes::spell(p.type);
    field.offset = 8 * slot;
    field.size = size;
    fields.push_back(field);
    slot += slots;
  }
  if (slot > kMaxSlots)
    return make_error(args.owner + " takes " + std::to_string(slot) + " argument slots", args.owner,
                      "BPF trampolines pass at most " + std::to_string(kMaxSlots) + " (MAX_BPF_FUNC_ARGS)");
  if (args.ret) {
    lang::TracepointField ret;
    ret.name = kRetvalSlot;
    ret.offset = 8 * slot;
    ret.size = ctypes::size_of(args.ret);
    fields.push_back(ret);
  }
  return {};
}

std::vector<std::string> prototype_lines(ctypes::CTypeRef prototype) {
  std::vector<std::string> out;
  for (const ctypes::CParam& p : prototype->params) out.push_back("    " + ctypes::spell(p.type) + " " + p.name);
  ctypes::CTypeRef ret = prototype->target;
  if (ret && ctypes::strip_typedefs(ret) && ctypes::strip_typedefs(ret)->kind != ctypes::CKind::Void)
    out.push_back("    " + ctypes::spell(ret) + " retval");
  return out;
}

}  // namespace rawprobe::probes
