// for loops (bpftrace 0.26) with the kernel's own iterators: the body becomes a callback
// subprogram, placed after the program's exit, that the kernel calls once per element.
//
//   for ($kv : @m) { ... }    r1 = map; r2 = &callback; r3 = r10; r4 = 0
//                             call bpf_for_each_map_elem (5.13): callback(map, key, value, fp)
//   for ($i : a..b) { ... }   *(fp + start) = a; r1 = b > a ? b - a : 0; r2 = &callback; ...
//                             call bpf_loop (5.17): callback(index, fp), $i = start + index
//   if *(fp + stop) goto exit   `return` or exit() in the body ends the probe too
//
// A callback has a stack frame of its own, so the caller passes its frame pointer: the
// callback reads the start of the range, the probe's context (r6) and the scratch variables
// the body uses from the caller's frame, and writes the variables back when it returns
// (0: next element, 1: stop; `continue` and `break` jump to those two ends). The copies
// inside are values the verifier does not know (see copy_words), so it checks the body for
// any value of them, as it must for a body run many times.
//
//   callback:                  caller's frame (fp = the caller's r10)
//     *(fp' - 8) = fp           +------------------+
//     $kv / $i                  | $x, $y ...       | <- copied in, then back out
//     copy $x, $y in            | stop, start, ctx |
//     r6 = *(fp + ctx)          +------------------+
//     ...body...
//   next:  copy out; r0 = 0; exit
//   leave: *(fp + stop) = 1
//   stop:  copy out; r0 = 1; exit
//
// The verifier checks each callback once for any number of iterations (where a bounded
// `while` is walked iteration by iteration), and needs BTF func_info naming every subprogram
// static: the loader adds it (engine/driver/prepare.cpp).
#include <set>

#include "engine/codegen/gen.h"

namespace rawprobe::codegen {

using bpf::Helper;
using bpf::Reg;
using lang::Expr;
using lang::ExprKind;
using lang::Stmt;

namespace {

void variables_used(const std::vector<lang::StmtPtr>& body, std::set<std::string>& out);

void variables_used(const Expr& e, std::set<std::string>& out) {
  if (e.kind == ExprKind::Variable) out.insert(e.name);
  for (const lang::ExprPtr& o : e.operands) variables_used(*o, out);
}

void variables_used(const std::vector<lang::StmtPtr>& body, std::set<std::string>& out) {
  for (const lang::StmtPtr& s : body) {
    for (const lang::ExprPtr* e : {&s->target, &s->expr, &s->range_end})
      if (*e) variables_used(**e, out);
    variables_used(s->body, out);
    variables_used(s->else_body, out);
  }
}

uint32_t words(uint32_t bytes) { return (bytes + 7) / 8 * 8; }

}  // namespace

std::vector<Reg> ProgramGen::temp_registers() const {
  std::vector<Reg> pool = {bpf::R9, bpf::R8, bpf::R7};
  if (!ctx_in_r6_) pool.insert(pool.begin(), bpf::R6);
  return pool;
}

void ProgramGen::copy_words(Reg dst_base, int32_t dst_off, Reg src_base, int32_t src_off, uint32_t bytes,
                            int32_t noise_slot) {
  for (uint32_t done = 0; done < words(bytes); done += 8) {
    auto at = [&](int32_t off, uint32_t extra) { return static_cast<int16_t>(off + static_cast<int32_t>(done + extra)); };
    b_.load(bpf::Size::DW, bpf::R1, src_base, at(src_off, 0));
    if (noise_slot != 0) {
      // x ^ u ^ u is x, but the verifier, which knows nothing of u (a word of the map's value
      // or the loop's index), knows nothing of the result: a known value (a counter,
      // `$n++; if ($n == 5) break;`) would make it treat the branch as decided. Kernels before
      // 6.7 check a loop body once and drop the branch they never saw taken; later ones walk
      // the body until its states repeat, and a counter's never would.
      b_.load(bpf::Size::DW, bpf::R3, bpf::R10, static_cast<int16_t>(noise_slot));
      b_.alu(bpf::Op::Xor, bpf::R1, bpf::R3);
      b_.alu(bpf::Op::Xor, bpf::R1, bpf::R3);
    }
    b_.store(bpf::Size::DW, dst_base, at(dst_off, 0), bpf::R1);
  }
}

void ProgramGen::for_statement(const Stmt& s) {
  bool range = s.range_end != nullptr;
  if (range ? !helper_available(Helper::loop, s.span,
                                "a for loop over a range needs the kernel's bpf_loop helper (Linux 5.17), "
                                "which this kernel does not have; use a while loop")
            : !helper_available(Helper::for_each_map_elem, s.span,
                                "a for loop over a map needs the kernel's bpf_for_each_map_elem helper "
                                "(Linux 5.13), which this kernel does not have"))
    return;
  LoopCallback cb;
  cb.loop = &s;
  cb.entry = b_.new_label("for_body");
  std::set<std::string> shared;
  variables_used(s.body, shared);
  shared.erase(s.target->name);
  for (const std::string& name : shared) cb.outer[name] = variables_.at(name);
  cb.stop_slot = frame_.alloc(8);
  b_.store_imm(bpf::Size::DW, bpf::R10, static_cast<int16_t>(cb.stop_slot), 0);
  if (ctx_in_r6_) {
    cb.ctx_slot = frame_.alloc(8);
    b_.store(bpf::Size::DW, bpf::R10, static_cast<int16_t>(cb.ctx_slot), bpf::R6);
  }
  if (range) {
    cb.start_slot = frame_.alloc(8);
    IntVal start = gen_int(*s.expr);
    Reg r = use(start, bpf::R1);
    b_.store(bpf::Size::DW, bpf::R10, static_cast<int16_t>(cb.start_slot), r);
    release(start);
    IntVal end = gen_int(*s.range_end);
    r = use(end, bpf::R1);
    if (r != bpf::R1) b_.mov(bpf::R1, r);
    release(end);
    // Iterations: end - start, none when end <= start.
    b_.load(bpf::Size::DW, bpf::R2, bpf::R10, static_cast<int16_t>(cb.start_slot));
    bpf::Label none = b_.new_label("for_empty"), go = b_.new_label("for_count");
    b_.jump(s.target->type.is_signed ? bpf::Cond::SLe : bpf::Cond::Le, bpf::R1, bpf::R2, none);
    b_.alu(bpf::Op::Sub, bpf::R1, bpf::R2);
    b_.jump(go);
    b_.bind(none);
    b_.mov(bpf::R1, 0);
    b_.bind(go);
  } else {
    b_.load_map_fd(bpf::R1, bpf::MapHandle{script_.user_map(s.expr->map_id)});
  }
  b_.load_func(bpf::R2, cb.entry);
  b_.mov(bpf::R3, bpf::R10);
  b_.mov(bpf::R4, 0);
  b_.call(range ? Helper::loop : Helper::for_each_map_elem);
  b_.load(bpf::Size::DW, bpf::R1, bpf::R10, static_cast<int16_t>(cb.stop_slot));
  b_.jump(bpf::Cond::Ne, bpf::R1, 0, exit_label_);
  callbacks_.push_back(std::move(cb));
}

void ProgramGen::loop_callbacks() {
  // A callback's body may hold loops of its own: they join the queue as it is generated.
  for (size_t i = 0; i < callbacks_.size() && !error_; ++i) {
    LoopCallback cb = callbacks_[i];
    loop_callback(cb);
  }
}

void ProgramGen::loop_callback(const LoopCallback& cb) {
  const Stmt& s = *cb.loop;
  frame_ = StackFrame{};
  regs_.frame_released(0);
  regs_.set_registers(temp_registers());
  variables_.clear();
  int32_t parent = frame_.alloc(8);
  const std::string& var = s.target->name;
  int32_t var_slot = variables_[var] = frame_.alloc(type_size(variable_types_.at(var)));
  for (const auto& [name, off] : cb.outer) variables_[name] = frame_.alloc(type_size(variable_types_.at(name)));

  b_.bind(cb.entry, "for loop body");
  b_.annotate(std::string("subprogram: a for loop's body, called back by ") +
              (s.range_end ? "bpf_loop" : "bpf_for_each_map_elem"));
  annotate(s.span);
  if (s.range_end) {
    b_.store(bpf::Size::DW, bpf::R10, static_cast<int16_t>(parent), bpf::R2);
    b_.load(bpf::Size::DW, bpf::R3, bpf::R2, static_cast<int16_t>(cb.start_slot));
    b_.alu(bpf::Op::Add, bpf::R1, bpf::R3);
    b_.store(bpf::Size::DW, bpf::R10, static_cast<int16_t>(var_slot), bpf::R1);
  } else {
    // $kv = (key, value): the key's bytes are the map's key struct, laid out as the tuple's.
    b_.store(bpf::Size::DW, bpf::R10, static_cast<int16_t>(parent), bpf::R4);
    b_.mov(bpf::R4, bpf::R3);
    const MapLayout& layout = script_.layout(s.expr->map_id);
    StructLayout entry = layout_of(s.target->type.fields);
    copy(Place{var_slot + static_cast<int32_t>(entry.offsets[0]), {}}, bpf::R2, 0, layout.key.size);
    copy(Place{var_slot + static_cast<int32_t>(entry.offsets[1]), {}}, bpf::R4, 0, layout.slot_size);
  }
  // A word the verifier knows nothing of: the index (bpf_loop gives it as unknown) or the
  // first word of the map's value.
  int32_t noise_slot = s.range_end ? var_slot : var_slot + static_cast<int32_t>(layout_of(s.target->type.fields).offsets[1]);
  b_.load(bpf::Size::DW, bpf::R2, bpf::R10, static_cast<int16_t>(parent));
  for (const auto& [name, off] : cb.outer)
    copy_words(bpf::R10, variables_[name], bpf::R2, off, type_size(variable_types_.at(name)), noise_slot);
  if (ctx_in_r6_) b_.load(bpf::Size::DW, bpf::R6, bpf::R2, static_cast<int16_t>(cb.ctx_slot));

  Loop loop{b_.new_label("for_next"), b_.new_label("for_break")};
  exit_label_ = b_.new_label("for_exit");
  loops_ = {loop};
  statements(s.body);
  loops_.clear();
  auto copy_out = [&](int32_t result) {
    b_.load(bpf::Size::DW, bpf::R2, bpf::R10, static_cast<int16_t>(parent));
    for (const auto& [name, off] : cb.outer)
      copy_words(bpf::R2, off, bpf::R10, variables_[name], type_size(variable_types_.at(name)), 0);
    b_.mov(bpf::R0, result);
    b_.exit();
  };
  b_.bind(loop.top, "for: next element");
  copy_out(0);
  b_.bind(exit_label_, "for: return or exit()");
  b_.load(bpf::Size::DW, bpf::R2, bpf::R10, static_cast<int16_t>(parent));
  b_.store_imm(bpf::Size::DW, bpf::R2, static_cast<int16_t>(cb.stop_slot), 1);
  b_.bind(loop.end, "for: break");
  copy_out(1);
  if (!error_ && frame_.overflowed())
    fail(s.span, "this for loop's body needs " + std::to_string(frame_.high_water()) +
                     " bytes of BPF stack, more than the kernel's 512: use fewer or shorter strings");
}

}  // namespace rawprobe::codegen
