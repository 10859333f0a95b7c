// Private to the semantic pass (semantic*.cpp): the checker's state and its parts.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/dwarf/function_params.h"
#include "engine/lang/semantic.h"
#include "engine/output/printf_format.h"
#include "engine/probes/probe_types.h"

namespace rawprobe::lang {

// What the surrounding code does with an expression's value.
enum class Use : uint8_t {
  Statement,  // discarded: calls without a value are fine
  Value,      // read: must produce a value
  MapValue,   // assigned straight to a map: aggregations (count(), sum(x)...) are fine
};

// The value of an expression of literals (sizeof, offsetof and arithmetic on them), as the
// program would compute it, or nothing when it is known only at run time
// (semantic_asserts.cpp).
std::optional<int64_t> constant_of(const Expr& e);

class Checker {
 public:
  Checker(Program& prog, const SemanticOptions& opts, Diagnostics& diags)
      : prog_(prog), opts_(opts), diags_(diags) {}

  // One pass over the program. Map types found persist across passes, so a second pass sees
  // maps assigned later in the text than where they are read.
  void run_pass(bool final_pass);
  // Lays out every map (MapInfo::layout), after the final pass.
  void plan_layouts();
  ProgramInfo take_info() { return std::move(info_); }

 private:
  // statements
  void block(std::vector<StmtPtr>& body);
  void statement(Stmt& s);
  void assign(Stmt& s);
  void assign_variable(Stmt& s);
  void assign_map(Stmt& s);
  void condition(Expr& e, const char* what);
  // semantic_fail.cpp: an if's branches, either left out when its condition is known
  void if_branches(Stmt& s);
  // semantic_loops.cpp
  void for_statement(Stmt& s);
  Type range_type(Stmt& s);
  Type map_entry_type(Expr& m);

  // expressions
  void check(Expr& e, Use use);
  void unary(Expr& e);
  void binary(Expr& e);
  void pointer_binary(Expr& e);
  bool array_binary(Expr& e);  // semantic_arrays.cpp: true when both sides are arrays
  void ternary(Expr& e);
  void ternary_type(Expr& e);       // the value's type, once both branches are checked
  void ternary_statement(Expr& e);  // semantic_ternary.cpp: `c ? printf("a") : exit();`
  void element_of_tuple(Expr& e);   // semantic_tuples.cpp: `$t.0`
  bool record_element(Expr& e);     // semantic_records.cpp: `$r.name`, true when e is one
  void reorder_record(Expr& value, const Type& stored);  // `(b=1, a=2)` stored as (a, b)
  void incdec(Expr& e);
  void cast(Expr& e);
  void cast_to_bool(Expr& e);  // semantic_bool.cpp: (bool)x
  void cast_to_array(Expr& e);    // semantic_array_casts.cpp: (int8[8])x, (bool[])x
  void cast_from_array(Expr& e);  // and (uint64)$array
  void variable(Expr& e);
  void tuple(Expr& e);

  // maps
  MapInfo* map_for(Expr& m, bool defining);
  // The map itself, not an element: print(@m), clear(@m), zero(@m) name a keyed map without
  // its keys, so no key check applies.
  MapInfo* whole_map(Expr& m);
  void check_map_keys(Expr& m);
  void merge_map_value(Expr& target, MapInfo& info, const Type& value);
  void note_lhist(const Stmt& s);

  // C types in expressions (semantic_ctypes.cpp)
  ctypes::ScriptTypes& c_types();
  bool user_memory() const;  // the probe type reads the traced process's memory
  Type c_value(ctypes::CTypeRef type, bool user, Span where);
  ctypes::CTypeRef resolve_type(const TypeName& name);
  void cast_to_c(Expr& e);
  void deref(Expr& e);
  void index(Expr& e);
  void string_index(Expr& e);  // semantic_strings.cpp: `s[i]`, a string's byte
  void record_field(Expr& e);
  void size_of(Expr& e);
  void offset_of(Expr& e);

  // builtins and tracepoint fields (semantic_builtins.cpp)
  void builtin(Expr& e);
  void field(Expr& e);
  // fentry/fexit/iter (semantic_btf_args.cpp): args.NAME and retval typed from the function's
  // BTF prototype, and an iterator's `ctx`
  void btf_arg(Expr& e);
  Type btf_retval(Span where);
  void iter_ctx(Expr& e);
  bool all_specs(bool (*pred)(ProbeKind)) const;
  const char* shared_hint(const char* probes::ContextTraits::*hint) const;
  std::string probe_kinds_text() const;
  void note_builtin(BuiltinId id);
  // sargN (semantic_stack_args.cpp): true when e is one, checked.
  bool stack_argument(Expr& e);
  // uprobe args->NAME from DWARF (semantic_uprobe_args.cpp): true when e was one, checked.
  bool uprobe_field(Expr& e);
  const std::vector<dwarf::FunctionParam>* uprobe_params(const ProbeSpec& spec, bool& mixed);

  // calls (semantic_calls.cpp): the registry's check hooks (engine/lang/functions.def),
  // each given a call whose `function` is resolved
  void call(Expr& e, Use use);
  void call_generic(Expr& e);
  void call_printf(Expr& e);
  // iter:NAME:PIN (semantic_pinned_iter.cpp): its program runs after rawprobe has ended, so
  // only what the kernel can format itself (printf through bpf_seq_printf) reaches a reader.
  bool in_pinned_iterator() const;
  void pinned_iterator_call(const Expr& e);
  void pinned_iterator_printf(const Expr& e, const std::vector<Type>& args);
  void call_print(Expr& e);
  void call_map_function(Expr& e);
  void call_aggregation(Expr& e);
  void call_lhist(Expr& e);
  void call_str(Expr& e);
  void call_time(Expr& e);
  // stacks and symbols (semantic_stacks.cpp)
  void call_stack(Expr& e);
  void call_symbol(Expr& e);
  void call_address(Expr& e);
  // semantic_bytes.cpp
  void call_same_integer(Expr& e);  // bswap, kptr, uptr: the argument's integer type
  void call_ntop(Expr& e);
  void call_pton(Expr& e);
  void call_cgroup_path(Expr& e);  // semantic_cgroup_path.cpp
  void call_macaddr(Expr& e);
  // semantic_effects.cpp
  void call_system(Expr& e);
  void call_signal(Expr& e);
  void call_override(Expr& e);
  bool unsafe_allowed(Expr& e);
  // semantic_time_debug.cpp
  void call_strftime(Expr& e);
  void call_debugf(Expr& e);
  void call_join(Expr& e);  // semantic_join.cpp
  // semantic_map_keys.cpp: delete(@m, k), has_key(@m, k), and @m[a, b] as @m[(a, b)]
  void call_delete(Expr& e);
  void call_has_key(Expr& e);
  void call_find(Expr& e);  // find(@m, k, $v)
  void call_tseries(Expr& e);  // semantic_tseries.cpp
  // semantic_kernel_helpers.cpp
  void call_socket_cookie(Expr& e);
  void call_percpu_kaddr(Expr& e);
  void call_write_user(Expr& e);
  bool reshape_key(Expr& m, const std::vector<Type>& want);
  // semantic_stdlib.cpp
  void call_task_field(Expr& e);  // ppid, pcomm
  void call_type_test(Expr& e);   // is_integer, is_str, ...
  void call_unavailable(Expr& e); // dw_ustack, skboutput: the reason they cannot be
  void call_probetype(Expr& e);
  // semantic_strings.cpp: strstr, strcap, memcmp
  void call_strstr(Expr& e);
  void call_strcontains(Expr& e);
  void call_strcap(Expr& e);
  void call_memcmp(Expr& e);
  void call_globmatch(Expr& e);  // semantic_globmatch.cpp
  void call_len(Expr& e);        // semantic_len.cpp
  void call_usermode(Expr& e);   // semantic_usermode.cpp
  void call_reg(Expr& e);        // semantic_reg.cpp
  // semantic_clocks.cpp: cgroupid("path") and nsecs(clock)
  void call_cgroupid(Expr& e);
  void call_nsecs(Expr& e);
  void call_task_id(Expr& e);  // pid(curr_ns|init), tid(...)
  // semantic_asserts.cpp
  void call_assert(Expr& e);
  void call_static_assert(Expr& e);
  void call_fail(Expr& e);  // semantic_fail.cpp
  void call_comm(Expr& e);  // semantic_comm.cpp: comm(pid)
  void call_constant(Expr& e);  // semantic_constants.cpp: default_str_length, kfunc_exist
  std::optional<bool> kfunc_allowed_here(const Expr& e, uint32_t btf_id);  // and kfunc_allowed
  void call_assert_str(Expr& e);

  // semantic_buf.cpp: buf(), and printf's %r/%rx arguments (false: reported)
  void call_buf(Expr& e);
  void call_path(Expr& e);  // semantic_path.cpp
  bool buffer_conversions(const Expr& call, const PrintfFormat& format, std::vector<Type>& stored);
  // The call's argument count is within its row's arity; reports it otherwise.
  bool arg_count(Expr& e);
  using CheckHook = void (Checker::*)(Expr&);
  static CheckHook check_hook(FunctionId id);

  void error(Span span, std::string message);

  Program& prog_;
  const SemanticOptions& opts_;
  Diagnostics& diags_;
  ProgramInfo info_;
  bool final_ = false;
  ProbeBlock* probe_ = nullptr;
  std::map<std::string, Type> vars_;
  std::vector<bool> key_known_;  // per map: its key shape has been seen
  // Per map: a value assigned to it failed its own check (and was reported), so an untyped
  // map is a consequence of that error, not a second one: no "Undefined map" for it.
  std::vector<bool> value_failed_;
  std::vector<bool> lhist_known_;  // per map: its lhist parameters have been seen
  int loop_depth_ = 0;
  int unvisited_depth_ = 0;  // inside a branch a known condition leaves out: fail() is quiet
  // Parameters read from DWARF, by "path\0function": read once for both passes.
  std::map<std::string, std::vector<dwarf::FunctionParam>> dwarf_params_;
  // Every function's parameters (spellings only) by file, for wildcard uprobes' args.
  std::map<std::string, std::map<std::string, std::vector<dwarf::FunctionParam>, std::less<>>> dwarf_all_params_;
};

}  // namespace rawprobe::lang
