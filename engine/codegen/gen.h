// Code generation of one BPF program (one probe block, or one program type / one point of
// it), private to engine/codegen. The parts live in gen_*.cpp by job:
//   gen_program.cpp   prologue, predicate, statements, epilogue
//   gen_int.cpp       integer expressions (operators, casts, ternary, ++/--)
//   gen_cond.cpp      conditions as jumps (comparisons, && || !, string ==)
//   gen_place.cpp     aggregates written to memory (strings, tuples), copies, compares
//   gen_maps.cpp      map keys, reads, writes, aggregations, delete
//   gen_builtins.cpp  pid, comm, argN, args->field, probe, func, ...
//   gen_usdt.cpp      USDT arguments from their specs
//   gen_tuples.cpp    tuple elements ($t.0)
//   gen_bytes.cpp     bswap, kptr, uptr, strerror, ntop, pton, macaddr
//   gen_effects.cpp   signal, override
//   gen_time_debug.cpp  strftime, debugf
//   gen_join.cpp      join
//   gen_strcontains.cpp  strcontains
//   gen_buf.cpp       buf
//   gen_ternary.cpp   a ternary whose branches are statements
//   gen_loops.cpp     for loops: bodies as callbacks of bpf_loop and bpf_for_each_map_elem
//   gen_calls.cpp     calls through the function registry; printf, time, print, clear,
//                     zero, exit, str
//   gen_stacks.cpp    kstack, ustack, ksym, usym, kaddr, uaddr
//   gen_helper_errors.cpp  -k, -kk: helper results checked, failures sent to user space
//
// Integers live in 64-bit registers, already extended by their type (signed: sign-extended,
// unsigned: zero-extended), so a 64-bit operation is always right.
#pragma once
#include <array>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bpfasm/builder.h"
#include "engine/base/layout.h"
#include "engine/codegen/codegen.h"
#include "engine/codegen/frame.h"

namespace rawprobe::codegen {

// An integer operand: an immediate or a temporary.
// A variable's stack slot is used in place (not owned: releasing it does nothing). A value
// in r0 (a helper's result) is valid only until the next instruction that writes r0: the
// code that produced it hands it straight to its consumer, and a consumer that generates
// more code first must pin() it into a temporary.
struct IntVal {
  bool is_imm = false;
  int64_t imm = 0;
  Temp temp;
  bool is_slot = false;
  int32_t slot = 0;
  bool in_r0 = false;
  static IntVal constant(int64_t v) { return {true, v, {}, false, 0, false}; }
  static IntVal stack_slot(int32_t off) { return {false, 0, {}, true, off, false}; }
  static IntVal r0() { return {false, 0, {}, false, 0, true}; }
  static IntVal in_temp(Temp t) { return {false, 0, t, false, 0, false}; }
};

// Where an aggregate is written: r10 + off, or (*ptr) + off with the pointer in a temporary
// (a per-CPU scratch map value for records too big for the stack).
struct Place {
  int32_t off = 0;
  Temp ptr;  // invalid: on the stack
  bool on_stack() const { return !ptr.valid(); }
  Place at(int32_t delta) const { return {off + delta, ptr}; }
};

// The load/store size of a 1-, 2-, 4- or 8-byte value.
inline bpf::Size size_for(uint32_t bytes) {
  switch (bytes) {
    case 1: return bpf::Size::B;
    case 2: return bpf::Size::H;
    case 4: return bpf::Size::W;
    default: return bpf::Size::DW;
  }
}

// What every program of the script shares: the maps being defined and the tables that grow
// as programs are generated.
class ScriptState {
 public:
  ScriptState(const lang::CheckedProgram& program, const CompileOptions& options, CompiledScript& out);
  const lang::ProgramInfo& info() const { return program_.info; }
  const CompileOptions& options() const { return options_; }
  CompiledScript& out() { return out_; }

  // MapDef index of user map `id` (ProgramInfo::maps).
  uint32_t user_map(int id) const { return user_maps_[id]; }
  // How user map `id` is laid out (the semantic pass decided: engine/base/map_layout.h).
  const MapLayout& layout(int id) const { return program_.info.maps[size_t(id)].layout; }

  uint32_t events_map();                    // created on first use
  uint32_t start_time_map();                // created on first use
  uint32_t lost_events_map();               // created on first use
  uint32_t failed_updates_map();            // created on first use
  uint32_t scratch_map(uint32_t size);      // grown to the largest record
  uint32_t zero_map(uint32_t size);         // an all-zero value, grown to the largest need
  uint64_t add_print_value(const Type& type);
  // gen_stacks.cpp: the stack-trace map of one (mode, limit), the count of stacks the maps
  // refused, and the set of processes already announced to user space.
  uint32_t stack_map(StackMode mode, uint16_t limit);
  uint32_t stack_lost_map();
  uint32_t pids_map();
  // gen_helper_errors.cpp: the index in CompiledScript::helper_errors of a call to h at span.
  uint64_t helper_error_site(bpf::Helper h, lang::Span span);

 private:
  // The internal map whose index is kept in `index` (-1: not made yet), made from `def` on
  // first use.
  uint32_t internal_map(int& index, const MapDef& def);

  const lang::CheckedProgram& program_;
  const CompileOptions& options_;
  CompiledScript& out_;
  std::vector<uint32_t> user_maps_;
};

// The points one program serves, in cookie order.
struct ProgramTarget {
  size_t block = 0;
  std::vector<const probes::AttachPoint*> points;
  probes::LoadPlan plan;
  uint64_t first_point_id = 0;  // point_names index of points[0]; the rest follow in order
};

class ProgramGen {
 public:
  // ctx_in_r6: keep the context in r6 for the whole program. Without it, the context can only
  // be read before the first instruction (r1 still holds it); needs_context_register() then
  // says whether the program must be generated again with it.
  ProgramGen(ScriptState& script, const lang::ProbeBlock& block, const ProgramTarget& target, bpf::Builder& b,
             bool ctx_in_r6);
  // Generates the whole program; the first error found, if any.
  Status generate();
  bool needs_context_register() const { return needs_r6_; }

  // A call's generate hooks, from its row in engine/lang/functions.def: the one its
  // signature fits is set.
  struct GenerateHooks {
    void (ProgramGen::*action)(const lang::Expr& call) = nullptr;
    IntVal (ProgramGen::*int_value)(const lang::Expr& call) = nullptr;
    void (ProgramGen::*into)(const lang::Expr& call, uint32_t slot, Place dst) = nullptr;
    void (ProgramGen::*aggregate)(const lang::Expr& map, const lang::Expr& call) = nullptr;
  };

 private:
  // --- gen_program.cpp
  void statements(const std::vector<lang::StmtPtr>& body);
  void statement(const lang::Stmt& s);
  void assign(const lang::Stmt& s);
  void expr_statement(const lang::Expr& e);  // an expression whose value is dropped
  void annotate(lang::Span span);
  void fail(lang::Span span, std::string message);
  bpf::Reg ctx();  // the register holding the context right now
  bool is_user_probe() const;

  // --- gen_int.cpp
  IntVal gen_int(const lang::Expr& e);
  IntVal binary(const lang::Expr& e);
  IntVal unary(const lang::Expr& e);
  IntVal cast(const lang::Expr& e);
  IntVal ternary_int(const lang::Expr& e);
  IntVal incdec(const lang::Expr& e);
  IntVal bool_value(const lang::Expr& e);
  // 1 when the branch that emit_jump generates to its label is taken, else 0: the value of
  // a condition, or of a function that answers yes or no.
  IntVal jumped_value(const std::function<void(bpf::Label)>& emit_jump);
  // a op b with bpftrace 0.17's semantics (see gen_int.cpp); consumes a and b.
  IntVal apply(lang::Op op, IntVal& a, IntVal& b, bool is_signed);
  // Registers and temporaries.
  bpf::Reg use(const IntVal& v, bpf::Reg scratch);  // the value in a register
  IntVal to_temp(bpf::Reg r);                        // copies r into a new temporary
  Temp own(IntVal& v);                               // a temporary holding v (v moved)
  void pin(IntVal& v);                               // v survives code generated next
  void set(Temp t, bpf::Reg r);                      // t = r
  bpf::Reg target_reg(Temp t, bpf::Reg scratch) const;  // where to compute t's new value
  bpf::Reg acquire(Temp t, bpf::Reg scratch);           // t's value in a register
  void release(IntVal& v);
  void load_imm(bpf::Reg r, int64_t v);
  // Extends the low `bytes` of r to 64 bits (signed or not).
  void extend(bpf::Reg r, uint32_t bytes, bool is_signed);
  IntVal variable_int(const lang::Expr& e);

  // --- gen_cond.cpp
  // Jumps to `target` when e's truth equals `when`; falls through otherwise.
  void branch(const lang::Expr& e, bool when, bpf::Label target);
  void compare_branch(const lang::Expr& e, bool when, bpf::Label target);

  // --- gen_place.cpp
  void write(const lang::Expr& e, const Type& slot, Place dst);  // e into a slot of type `slot`
  void store_int(const IntVal& v, uint32_t size, Place dst);
  bpf::Reg place_base(Place p, bpf::Reg scratch);              // register to address p from
  void place_address(bpf::Reg dst, Place p);                    // dst = address of p
  void zero(Place dst, uint32_t size);
  // Copies n bytes; `src_base` holds the source address (a register not clobbered: r10 or a
  // pointer register), `src_off` the offset from it.
  void copy(Place dst, bpf::Reg src_base, int32_t src_off, uint32_t n);
  void string_literal(const std::string& text, uint32_t slot, Place dst);
  // An aggregate value on the stack (a fresh slot), for comparing or copying.
  Place materialize(const lang::Expr& e);
  IntVal array_bytes_int(const lang::Expr& array);  // (uint64)$a: an array's bytes as one integer
  // Compares two arrays of one size byte for byte (gen_array_compare.cpp).
  void array_compare_branch(const lang::Expr& a, const lang::Expr& b, bool equal_when, bpf::Label target);
  // Compares the strings up to a NUL in both, and at most `limit` bytes.
  void string_compare_branch(const lang::Expr& a, const lang::Expr& b, bool equal_when, bpf::Label target,
                             uint32_t limit = UINT32_MAX);
  IntVal strncmp_int(const lang::Expr& call);
  int32_t variable_slot(const lang::Expr& var);

  // --- gen_maps.cpp
  Place map_key(const lang::Expr& map);
  void key_address(bpf::Reg dst, Place key);
  void lookup(const lang::Expr& map, Place key);          // r0 = value pointer or null
  IntVal map_read_int(const lang::Expr& map, lang::Span span);  // span: where -kk points
  void map_read_into(const lang::Expr& map, uint32_t size, Place dst);
  void map_write(const lang::Expr& map, const lang::Expr& value, lang::Span span);
  // `span`: the value written or the aggregation, where -k points when the update fails.
  void map_write_int(const lang::Expr& map, Place key, const IntVal& v, lang::Span span);
  void map_update(const lang::Expr& map, Place key, Place value, lang::Span span);
  void add_to_slot(int16_t off, const IntVal& v);  // *(u64 *)(r0 + off) += v, for a per-CPU value
  void count_failed_update(const lang::Expr& map);  // after map_update_elem: r0 < 0 is counted
  void aggregate(const lang::Expr& map, const lang::Expr& call);
  void map_delete(const lang::Expr& map, lang::Span span);

  // --- gen_builtins.cpp
  IntVal builtin_int(const lang::Expr& e);
  void builtin_into(const lang::Expr& e, Place dst);          // comm
  IntVal field_int(const lang::Expr& e);
  IntVal slot_value(const lang::Expr& e, const std::string& name);
  void field_into(const lang::Expr& e, uint32_t slot, Place dst);
  IntVal context_reg(const arch::RegSlot& slot);
  IntVal arg(const lang::Expr& e);
  IntVal stack_arg(const lang::Expr& e);              // sargN
  IntVal stack_word(lang::Span span, int64_t offset);  // *(sp + offset) at entry
  IntVal point_id();  // `probe` and `func`
  IntVal cookie();
  const arch::Table& arch_table(lang::Span span);

  // --- gen_memory.cpp
  bool reads_memory(const lang::Expr& e);            // *p, p->f, r.f, p[i]
  IntVal address_of(const lang::Expr& e, bool& user); // where a C value lies; user: its space
  IntVal base_address(const lang::Expr& base, bool& user);
  IntVal offset_by(IntVal base, int64_t offset);
  IntVal memory_int(const lang::Expr& e);            // an integer or pointer read from memory
  IntVal string_byte_int(const lang::Expr& e);       // gen_strings.cpp: `s[i]` on a string
  void memory_into(const lang::Expr& e, uint32_t slot, Place dst);  // a struct, array or char[]

  // --- gen_usdt.cpp
  IntVal usdt_arg(const lang::Expr& e);
  void usdt_arg_into(const probes::AttachPoint& point, uint32_t index, lang::Span span, Temp dst);

  // --- gen_tuples.cpp, gen_ternary.cpp
  IntVal tuple_element_int(const lang::Expr& e);
  void tuple_element_into(const lang::Expr& e, uint32_t slot, Place dst);
  Place tuple_element_place(const lang::Expr& e, Type& element);
  void ternary_statement(const lang::Expr& e);

  // --- gen_bytes.cpp, gen_effects.cpp: the registry's generate hooks
  IntVal bswap_int(const lang::Expr& e);
  IntVal first_arg_int(const lang::Expr& e);                             // kptr, uptr
  void number_into(const lang::Expr& e, uint32_t slot, Place dst);       // strerror
  void ntop_into(const lang::Expr& e, uint32_t slot, Place dst);
  void pton_into(const lang::Expr& e, uint32_t slot, Place dst);
  void macaddr_into(const lang::Expr& e, uint32_t slot, Place dst);
  void signal_call(const lang::Expr& e);
  void override_call(const lang::Expr& e);
  void strftime_into(const lang::Expr& e, uint32_t slot, Place dst);  // gen_time_debug.cpp
  void debugf_call(const lang::Expr& e);
  void join_call(const lang::Expr& e);  // gen_join.cpp
  IntVal strcontains_int(const lang::Expr& e);  // gen_strcontains.cpp
  IntVal strstr_int(const lang::Expr& e);       // gen_strcontains.cpp
  IntVal globmatch_int(const lang::Expr& e);    // gen_globmatch.cpp
  // Jumps to found_at(i) where needle first occurs at haystack byte i; falls through if nowhere.
  void string_search(const lang::Expr& hay, const lang::Expr& needle,
                     const std::function<bpf::Label(uint32_t)>& found_at);
  IntVal memcmp_int(const lang::Expr& e);       // gen_strings.cpp
  IntVal strlen_int(const lang::Expr& e);       // gen_strings.cpp
  IntVal len_int(const lang::Expr& e);          // gen_len.cpp
  IntVal stack_depth_int(const lang::Expr& stack);  // gen_len.cpp: len(ustack), len(kstack)
  void count_callback();  // gen_len.cpp: len(@m)'s callback, after the program, once used
  IntVal usermode_int(const lang::Expr& e);     // gen_usermode.cpp
  IntVal reg_int(const lang::Expr& e);          // gen_reg.cpp
  IntVal ncpus_int(const lang::Expr& e);        // gen_clocks.cpp
  // gen_pid.cpp: pid or tid (process false), as seen from rawprobe's pid namespace or the
  // initial one; pid(curr_ns|init) and tid(...) name which
  IntVal task_id(bool process, bool initial_ns, lang::Span span);
  IntVal task_id_int(const lang::Expr& e);
  IntVal nsecs_int(const lang::Expr& e);        // gen_clocks.cpp
  void assert_call(const lang::Expr& e);        // gen_asserts.cpp
  void no_code(const lang::Expr& e);            // gen_asserts.cpp: static_assert, done when checked
  void buf_into(const lang::Expr& e, uint32_t slot, Place dst);  // gen_buf.cpp
  // gen_path.cpp: path(), and the BTF-typed pointer chain it reads with direct loads
  void path_into(const lang::Expr& e, uint32_t slot, Place dst);
  void comm_of_into(const lang::Expr& e, uint32_t slot, Place dst);  // gen_comm.cpp: comm(pid)
  IntVal btf_pointer(const lang::Expr& e, bpf::Label on_null);
  // Whether the kernel has helper h (CompileOptions::has_helper); fails with `what` if not.
  bool helper_available(bpf::Helper h, lang::Span span, const std::string& what);

  // --- gen_loops.cpp
  struct LoopCallback {
    const lang::Stmt* loop = nullptr;
    bpf::Label entry;
    std::map<std::string, int32_t> outer;  // variables shared with the caller: its slots
    int32_t stop_slot = 0, start_slot = 0, ctx_slot = 0;  // in the caller's frame
  };
  void for_statement(const lang::Stmt& s);
  void loop_callbacks();  // every loop body, after the program's exit
  void loop_callback(const LoopCallback& cb);
  std::vector<bpf::Reg> temp_registers() const;
  // noise_slot (non-zero): a stack word the verifier knows nothing of, mixed in and out of
  // each word copied, so the verifier forgets the values (gen_loops.cpp).
  void copy_words(bpf::Reg dst_base, int32_t dst_off, bpf::Reg src_base, int32_t src_off, uint32_t bytes,
                  int32_t noise_slot);

  // --- gen_calls.cpp
  static const GenerateHooks& generate_hooks(lang::FunctionId id);
  void call_statement(const lang::Expr& e);
  IntVal call_int(const lang::Expr& e);
  void call_into(const lang::Expr& e, uint32_t slot, Place dst);
  void simple_event(uint64_t id, std::initializer_list<uint64_t> fields);
  // The registry's generate hooks (engine/lang/functions.def).
  void printf_call(const lang::Expr& e);
  // gen_watchpoint.cpp: the program of watchpoint:FUNC+argN's uprobe on FUNC
  bool is_watchpoint_setup() const;
  void watchpoint_setup();
  void unwatch_call(const lang::Expr& e);
  // gen_seq_printf.cpp: printf in a pinned iterator, through bpf_seq_printf
  bool in_pinned_iterator() const;
  void seq_printf_call(const lang::Expr& e);
  void print_call(const lang::Expr& e);
  // gen_map_keys.cpp: delete(@m[k]) and delete(@m, k), 1 when an element went; has_key(@m, k)
  IntVal delete_int(const lang::Expr& e);
  IntVal has_key_int(const lang::Expr& e);
  IntVal find_int(const lang::Expr& e);
  // gen_kernel_helpers.cpp
  IntVal socket_cookie_int(const lang::Expr& e);
  IntVal percpu_kaddr_int(const lang::Expr& e);
  IntVal write_user_int(const lang::Expr& e);
  // gen_tseries.cpp: the epoch (before the map lookup), then the interval's update (r0: the value)
  void tseries_epoch(const lang::Expr& call, int32_t slot);
  void tseries_update(const lang::Expr& call, int32_t epoch_slot, bpf::Reg value, bpf::Label done);
  IntVal has_cpid_int(const lang::Expr& e);  // gen_builtins.cpp
  void map_event_call(const lang::Expr& e);  // clear(@m), zero(@m)
  void time_call(const lang::Expr& e);
  void exit_call(const lang::Expr& e);
  // count_loss: a ring buffer's refused record adds 1 to `.lost` (compiled_script.h).
  // ringbuf_flags: BPF_RB_FORCE_WAKEUP for a record user space must act on at once.
  void output_event(Place record, uint32_t size, bool count_loss = true, int32_t ringbuf_flags = 0);
  void str_into(const lang::Expr& e, uint32_t slot, Place dst);
  Place scratch_record(uint32_t size, bpf::Label skip);  // a record in the scratch array
  // `span`: the expression read, where -kk points when the read fails.
  void read_memory(Place dst, uint32_t size, bpf::Reg addr, bool user, lang::Span span);

  // --- gen_stacks.cpp
  void stack_into(const lang::Expr& e, uint32_t slot, Place dst);
  void usym_into(const lang::Expr& e, uint32_t slot, Place dst);
  IntVal ksym_int(const lang::Expr& e);
  IntVal address_int(const lang::Expr& e);
  // Tells user space about the current process the first time one of its user addresses
  // is taken (kAsyncNewPid); `tgid_slot` holds its id.
  void announce_process(int32_t tgid_slot);

  // --- gen_helper_errors.cpp
  // Right after a call of helper h: with -k or -kk, when the call failed, tells user space
  // (kAsyncHelperError) that the call at `span` did. r0 is kept.
  void check_helper(bpf::Helper h, lang::Span span);

  ScriptState& script_;
  const lang::ProbeBlock& block_;
  const ProgramTarget& target_;
  bpf::Builder& b_;
  StackFrame frame_;
  RegPool regs_;
  bool ctx_in_r6_ = false;
  bool needs_r6_ = false;
  size_t body_start_ = 0;
  bpf::Label exit_label_;
  std::map<std::string, int32_t> variables_;   // $x -> stack offset
  std::map<std::string, Type> variable_types_;
  struct Loop {
    bpf::Label top, end;
  };
  std::vector<Loop> loops_;
  std::vector<LoopCallback> callbacks_;  // for loops whose bodies are still to generate
  bpf::Label count_callback_;            // len(@m)'s bpf_for_each_map_elem callback
  bool count_callback_used_ = false;
  std::optional<Error> error_;
};

}  // namespace rawprobe::codegen
