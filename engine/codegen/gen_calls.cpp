// Calls, through the function registry (engine/lang/functions.def): the async events
// (compiled_script.h) and str().
//
//   printf(fmt, a, b)  record { u64 id; a; b } (output's layout_of) on the stack, or in the
//                      per-CPU `.scratch` array when the stack cannot hold it, then
//                      bpf_ringbuf_output(events, rec, size, 0)            (5.8+) or
//                      bpf_perf_event_output(ctx, events, BPF_F_CURRENT_CPU, rec, size)
//   exit([code])       { kAsyncExit[, code] }, then the program returns
//   time(f) clear(@m) zero(@m) print(@m, top, div) print(v)   their records, same path
//   str(p[, n])        zero the slot, then bpf_probe_read_user_str (user probes, uptr(p)),
//                      bpf_probe_read_kernel_str (kptr(p)) or bpf_probe_read_str (kernel and
//                      tracepoint probes: on x86_64 it reads a user pointer such as
//                      sys_enter_openat's filename as well as a kernel one); the size is
//                      min(n + 1, slot), as bpftrace 0.17 computes it
#include <type_traits>

#include "engine/codegen/gen.h"

namespace rawprobe::codegen {

using bpf::Helper;
using bpf::Reg;
using bpf::Size;
using lang::Expr;
using lang::ExprKind;

namespace {
// Records up to this size are built on the stack when the frame has room for them.
constexpr uint32_t kStackRecordLimit = 256;

using Hooks = ProgramGen::GenerateHooks;
// The hook's signature picks its slot.
template <class Hook>
Hooks hooks(Hook hook) {
  Hooks h;
  if constexpr (std::is_same_v<Hook, decltype(h.action)>) h.action = hook;
  else if constexpr (std::is_same_v<Hook, decltype(h.int_value)>) h.int_value = hook;
  else if constexpr (std::is_same_v<Hook, decltype(h.into)>) h.into = hook;
  else if constexpr (std::is_same_v<Hook, decltype(h.aggregate)>) h.aggregate = hook;
  else static_assert(std::is_same_v<Hook, std::nullptr_t>, "a generate hook of an unknown signature");
  return h;
}
}  // namespace

const ProgramGen::GenerateHooks& ProgramGen::generate_hooks(lang::FunctionId id) {
  static const GenerateHooks table[] = {
      {},  // FunctionId::None
#define FUNCTION(id, name, role, min, max, args, result, check, generate) hooks(generate),
#include "engine/lang/functions.def"
#undef FUNCTION
  };
  return table[static_cast<size_t>(id)];
}

void ProgramGen::call_statement(const Expr& e) {
  const GenerateHooks& h = generate_hooks(e.function);
  if (h.action) return (this->*h.action)(e);
  // An action that also gives a value (delete() says whether an element went) is run for its
  // effect; a pure value nobody reads has no side effect to keep.
  if (h.int_value && lang::function_info(e.function).role == lang::FunctionRole::Action) {
    IntVal v = (this->*h.int_value)(e);
    release(v);
    return;
  }
  if (h.int_value || h.into) return;
  fail(e.span, e.name + "() cannot be used as a statement here");
}

IntVal ProgramGen::call_int(const Expr& e) {
  if (auto hook = generate_hooks(e.function).int_value) return (this->*hook)(e);
  fail(e.span, "this expression does not give an integer here");
  return IntVal::constant(0);
}

void ProgramGen::call_into(const Expr& e, uint32_t slot, Place dst) {
  if (auto hook = generate_hooks(e.function).into) return (this->*hook)(e, slot, dst);
  fail(e.span, e.name + "() does not give a value that can be stored here");
}

// exit(code): { kAsyncExit, code }; the runtime makes the code its exit status.
void ProgramGen::exit_call(const Expr& e) {
  if (e.operands.empty()) {
    simple_event(kAsyncExit, {});
  } else {
    IntVal code = gen_int(*e.operands[0]);
    pin(code);
    Place rec{frame_.alloc(16), {}};
    store_int(IntVal::constant(static_cast<int64_t>(kAsyncExit)), 8, rec);
    store_int(code, 8, rec.at(8));
    release(code);
    output_event(rec, 16, false);
  }
  b_.jump(exit_label_);
}

void ProgramGen::time_call(const Expr& e) { simple_event(kAsyncTime, {static_cast<uint64_t>(e.call_id)}); }

void ProgramGen::map_event_call(const Expr& e) {
  uint64_t id = e.function == lang::FunctionId::Clear ? kAsyncClearMap : kAsyncZeroMap;
  simple_event(id, {static_cast<uint64_t>(e.operands[0]->map_id)});
}

void ProgramGen::read_memory(Place dst, uint32_t size, Reg addr, bool user, lang::Span span) {
  if (addr != bpf::R3) b_.mov(bpf::R3, addr);
  place_address(bpf::R1, dst);
  b_.mov(bpf::R2, static_cast<int32_t>(size));
  Helper h = !script_.options().probe_read_user ? Helper::probe_read
             : user                             ? Helper::probe_read_user
                                                : Helper::probe_read_kernel;
  b_.call(h);
  check_helper(h, span);
}

void ProgramGen::str_into(const Expr& e, uint32_t slot, Place dst) {
  const Expr& src = *e.operands[0];
  if (src.type.is_string()) {  // str("literal") or str(comm): the string itself, cut to n
    write(src, Type::string(slot), dst);
    return;
  }
  IntVal ptr = gen_int(src);
  pin(ptr);
  IntVal len;
  bool dynamic = false;
  uint32_t size = slot;
  if (e.operands.size() > 1) {
    len = gen_int(*e.operands[1]);
    pin(len);
    if (len.is_imm) size = static_cast<uint32_t>(std::min<uint64_t>(static_cast<uint64_t>(len.imm) + 1, slot));
    else dynamic = true;
  }
  zero(dst, slot);
  Reg rp = use(ptr, bpf::R3);
  if (rp != bpf::R3) b_.mov(bpf::R3, rp);
  if (dynamic) {
    bpf::Label ok = b_.new_label("strlen");
    Reg rl = use(len, bpf::R2);
    if (rl != bpf::R2) b_.mov(bpf::R2, rl);
    b_.alu(bpf::Op::Add, bpf::R2, 1);
    b_.jump(bpf::Cond::Le, bpf::R2, static_cast<int32_t>(slot), ok);
    b_.mov(bpf::R2, static_cast<int32_t>(slot));
    b_.bind(ok);
  } else {
    b_.mov(bpf::R2, static_cast<int32_t>(size));
  }
  place_address(bpf::R1, dst);
  // str(uptr(p)) and str(kptr(p)) read the address space they name, as bpftrace 0.17's do.
  bool uptr = src.kind == ExprKind::Call && src.function == lang::FunctionId::Uptr;
  bool kptr = src.kind == ExprKind::Call && src.function == lang::FunctionId::Kptr;
  Helper h = !script_.options().probe_read_user  ? Helper::probe_read_str
             : uptr || (!kptr && is_user_probe()) ? Helper::probe_read_user_str
             : kptr                               ? Helper::probe_read_kernel_str
                                                  : Helper::probe_read_str;
  b_.call(h);
  check_helper(h, e.span);
  release(ptr);
  release(len);
}

void ProgramGen::output_event(Place record, uint32_t size, bool count_loss, int32_t ringbuf_flags) {
  uint32_t events = script_.events_map();
  if (script_.options().ringbuf) {
    b_.load_map_fd(bpf::R1, bpf::MapHandle{events});
    place_address(bpf::R2, record);
    b_.mov(bpf::R3, static_cast<int32_t>(size));
    b_.mov(bpf::R4, ringbuf_flags);
    b_.call(Helper::ringbuf_output);
  } else {
    place_address(bpf::R4, record);
    if (Reg c = ctx(); c != bpf::R1) b_.mov(bpf::R1, c);
    b_.load_map_fd(bpf::R2, bpf::MapHandle{events});
    b_.mov32(bpf::R3, -1);  // BPF_F_CURRENT_CPU (0xffffffff)
    b_.mov(bpf::R5, static_cast<int32_t>(size));
    b_.call(Helper::perf_event_output);
  }
  if (!count_loss) return;
  // A full buffer refuses the record (r0 < 0) and the program is the first to know: count it
  // in `.lost` for the runtime's "Lost N events" (bpftrace does so since its ring buffer
  // output, with its ringbuf_loss_counter). A ring buffer tells user space nothing else; a
  // perf buffer writes PERF_RECORD_LOST, but only with the next record that fits, and
  // perf_event_output returns its error only since 5.4: the runtime takes the larger count.
  bpf::Label sent = b_.new_label("event_sent");
  b_.jump(bpf::Cond::SGe, bpf::R0, 0, sent);
  b_.load_map_value(bpf::R1, bpf::MapHandle{script_.lost_events_map()}, 0);
  b_.mov(bpf::R2, 1);
  b_.atomic(bpf::Atomic::Add, Size::DW, bpf::R1, 0, bpf::R2);
  b_.bind(sent);
}

void ProgramGen::simple_event(uint64_t id, std::initializer_list<uint64_t> fields) {
  uint32_t size = static_cast<uint32_t>(8 * (1 + fields.size()));
  Place rec{frame_.alloc(size), {}};
  store_int(IntVal::constant(static_cast<int64_t>(id)), 8, rec);
  int32_t off = 8;
  for (uint64_t f : fields) {
    store_int(IntVal::constant(static_cast<int64_t>(f)), 8, rec.at(off));
    off += 8;
  }
  // exit()'s record is not counted: a lost exit shows itself (the run goes on), and the 5
  // instructions would make `interval:s:N { exit(); }` longer than bpftrace 0.17's (which has
  // no ring buffer, so no count): codegen_size_test holds us to that.
  output_event(rec, size, id != kAsyncExit);
}

void ProgramGen::print_call(const Expr& e) {
  const Expr& what = *e.operands[0];
  if (what.kind == ExprKind::Map && what.operands.empty()) {
    uint64_t top = e.operands.size() > 1 ? e.operands[1]->int_value : 0;
    uint64_t div = e.operands.size() > 2 ? e.operands[2]->int_value : 0;
    return simple_event(kAsyncPrintMap, {static_cast<uint64_t>(what.map_id), top, div});
  }
  uint64_t value_id = script_.add_print_value(what.type);
  uint32_t size = 16 + (type_size(what.type) + 7) / 8 * 8;
  Place rec{frame_.alloc(size), {}};
  store_int(IntVal::constant(static_cast<int64_t>(kAsyncPrintValue)), 8, rec);
  store_int(IntVal::constant(static_cast<int64_t>(value_id)), 8, rec.at(8));
  uint32_t value_size = type_size(what.type);
  if (size > 16 + value_size) zero(rec.at(static_cast<int32_t>(16 + value_size)), size - 16 - value_size);
  write(what, what.type, rec.at(16));
  output_event(rec, size);
}

// Too big for the stack: this CPU's slot of the scratch array (programs do not nest on one
// CPU for these probe types, so the slot is ours until the output call). Jumps to `skip`
// when the lookup fails; the caller releases the pointer's temporary.
Place ProgramGen::scratch_record(uint32_t size, bpf::Label skip) {
  uint32_t map = script_.scratch_map(size);
  Place key{frame_.alloc(8), {}};
  b_.store_imm(Size::W, bpf::R10, static_cast<int16_t>(key.off), 0);
  b_.load_map_fd(bpf::R1, bpf::MapHandle{map});
  place_address(bpf::R2, key);
  b_.call(Helper::map_lookup_elem);
  b_.jump(bpf::Cond::Eq, bpf::R0, 0, skip);
  IntVal p = to_temp(bpf::R0);
  return Place{0, p.temp};
}

void ProgramGen::printf_call(const Expr& e) {
  if (in_pinned_iterator()) return seq_printf_call(e);
  const lang::PrintfInfo& info = script_.info().printfs[e.call_id];
  std::vector<Type> types;
  for (const lang::PrintfArg& a : info.args) types.push_back(a.type);
  StructLayout l = layout_of(types);
  uint32_t size = kEventHeaderSize + l.size;
  Place rec;
  bpf::Label skip = b_.new_label("printf_skip");
  bool on_stack = size <= kStackRecordLimit && frame_.mark() + size + 64 <= kMaxStack;
  if (on_stack) {
    rec = Place{frame_.alloc(size), {}};
  } else {
    rec = scratch_record(size, skip);
  }
  store_int(IntVal::constant(static_cast<int64_t>(e.call_id)), 8, rec);
  uint32_t end = kEventHeaderSize;
  for (size_t i = 0; i < types.size(); ++i) {
    uint32_t off = kEventHeaderSize + l.offsets[i];
    if (off > end) zero(rec.at(static_cast<int32_t>(end)), off - end);
    write(*e.operands[i + 1], types[i], rec.at(static_cast<int32_t>(off)));
    end = off + type_size(types[i]);
  }
  if (size > end) zero(rec.at(static_cast<int32_t>(end)), size - end);
  output_event(rec, size);
  b_.bind(skip);
  if (!on_stack) regs_.release(rec.ptr);
}

}  // namespace rawprobe::codegen
