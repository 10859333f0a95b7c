// Stacks and symbols: kstack/ustack with their mode and frame limit, ksym/usym of an address,
// and kaddr/uaddr of a name (resolved here, once, into a constant). bpftrace 0.17's wording for
// the errors it shares with us.
//
//   kstack  kstack(N)  kstack(perf)  kstack(perf, N)        modes: bpftrace (default), perf, raw
#include "engine/base/type_names.h"
#include "engine/lang/semantic_internal.h"
#include "engine/symbols/kernel_symbols.h"
#include "engine/symbols/user_symbols.h"

namespace rawprobe::lang {
namespace {

// bpftrace's limits: 127 frames unless told (the kernel's default perf_event_max_stack), at
// most 1024.
constexpr uint64_t kDefaultStackLimit = 127;
constexpr uint64_t kMaxStackLimit = 1024;

bool stack_mode(const Expr& e, StackMode& mode) {
  if (e.kind != ExprKind::Builtin) return false;
  if (e.name == "bpftrace") mode = StackMode::Bpftrace;
  else if (e.name == "perf") mode = StackMode::Perf;
  else if (e.name == "raw") mode = StackMode::Raw;
  else return false;
  return true;
}

}  // namespace

void Checker::call_stack(Expr& e) {
  if (!arg_count(e)) return;
  StackMode mode = opts_.stack_mode;  // config variable stack_mode; bpftrace unless set
  uint64_t limit = kDefaultStackLimit;
  size_t n = e.operands.size();
  size_t next = 0;
  if (n > 0 && stack_mode(*e.operands[0], mode)) {
    next = 1;
  } else if (n == 2) {
    check(*e.operands[0], Use::Value);
    if (e.operands[0]->type.kind != TypeKind::None)
      error(e.span, e.name + "() expects a stack mode literal (" + argument_type_name(e.operands[0]->type) +
                        " provided); the modes are bpftrace, perf and raw");
    return;
  }
  if (next < n) {
    Expr& a = *e.operands[next];
    check(a, Use::Value);
    if (a.type.kind == TypeKind::None) return;
    if (a.kind != ExprKind::Integer) {
      error(e.span, e.name + "() expects a integer literal (" + argument_type_name(a.type) + " provided)");  // sic
      return;
    }
    limit = a.int_value;
    if (limit > kMaxStackLimit) {
      error(e.span, e.name + "([int limit]): limit shouldn't exceed " + std::to_string(kMaxStackLimit) + ", " +
                        std::to_string(limit) + " given");
      return;
    }
    if (limit == 0) {
      error(e.span, e.name + "([int limit]): limit must be at least 1 (0 given): a stack of no frames is empty");
      return;
    }
  }
  bool user = e.function == FunctionId::UStack;
  // kstack: the stack id; ustack: bpftrace's (tid << 32 | stack id), then the process id that
  // symbolizes it (codegen/compiled_script.h).
  e.type = Type{user ? TypeKind::UStack : TypeKind::KStack, user ? 16u : 8u, false, {}};
  e.type.stack_mode = mode;
  e.type.stack_limit = static_cast<uint16_t>(limit);
}

void Checker::call_symbol(Expr& e) {
  if (!arg_count(e)) return;
  check(*e.operands[0], Use::Value);
  if (e.operands[0]->type.kind != TypeKind::None && !e.operands[0]->type.is_integer()) {
    error(e.span, e.name + "() expects an integer or pointer argument (" + argument_type_name(e.operands[0]->type) +
                      " provided)");
    return;
  }
  e.type = e.function == FunctionId::USym ? Type{TypeKind::USym, 16, false, {}} : Type{TypeKind::KSym, 8, false, {}};
}

// kaddr("name"), uaddr("name") in a uprobe's binary, uaddr("/path:name"): the address, a
// constant from here on (kept in the call's int_value).
void Checker::call_address(Expr& e) {
  call_generic(e);
  if (e.type.kind == TypeKind::None) return;
  const std::string& name = e.operands[0]->str;
  Result<uint64_t> address = make_error("resolve");
  if (e.function == FunctionId::KAddr) {
    address = symbols::kernel_symbol_address(name);
  } else {
    std::string path, symbol = name;
    size_t colon = name.rfind(':');
    if (colon != std::string::npos && !name.empty() && name[0] == '/') {
      path = name.substr(0, colon);
      symbol = name.substr(colon + 1);
    } else if (probe_ && !probe_->specs.empty() && probes::probe_type(probe_->specs[0].kind).context.user_space &&
               !probe_->specs[0].target.empty() && probe_->specs[0].target[0] == '/') {
      path = probe_->specs[0].target;
    } else {
      error(e.span, "uaddr() needs the binary: write uaddr(\"/path/to/binary:" + name +
                        "\"), or use it in a uprobe or usdt probe of that binary");
      return;
    }
    address = symbols::UserSymbols::symbol_address(path, symbol);
  }
  if (!address) {
    const Error& err = address.error();
    error(e.span, e.name + "(\"" + name + "\"): " + err.what + " '" + err.object + "': " + err.hint);
    return;
  }
  e.int_value = *address;
}

}  // namespace rawprobe::lang
