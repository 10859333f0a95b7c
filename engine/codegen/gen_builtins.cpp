// Builtins and the probe context.
//   pid, tid         gen_pid.cpp: as seen from rawprobe's pid namespace
//   uid, gid         bpf_get_current_uid_gid():  uid = (u32)r0, gid = r0 >> 32
//   nsecs            bpf_ktime_get_ns() (CLOCK_MONOTONIC)
//   elapsed          nsecs - the start time the runtime stored in `.start` (direct value load)
//   cpu, curtask, rand, cgroup   one helper each
//   comm             bpf_get_current_comm(dst, 16)
//   retval, argN     pt_regs slots of the point's arch table (r6 = ctx); argN past the
//                    argument registers from the stack where the ABI puts them
//   sargN            the N-th stack word at entry (arch::Table::stack_args_offset)
//   cpid             the -c child's pid, a constant (has_cpid: whether there is one);
//                    username: the uid, named in user space
//   numaid, jiffies  bpf_get_numa_node_id(), bpf_jiffies64() (5.5)
//   args->f          tracepoint record at the field's offset (the context itself)
//   argN (rawtracepoint)  u64 args[N] of the context: ctx + 8 * N
//   probe, func      the point id: an index into CompiledScript::point_names, a constant when
//                    the program serves one point, else first id + bpf_get_attach_cookie()
//                    (the point's index); user space prints the point's name or function
#include "engine/codegen/gen.h"
#include "engine/codegen/tracepoint_layouts.h"
#include "engine/probes/btf_functions.h"

namespace rawprobe::codegen {

using bpf::Helper;
using bpf::Reg;
using bpf::Size;
using lang::BuiltinId;
using lang::Expr;

const arch::Table& ProgramGen::arch_table(lang::Span) {
  const arch::Table* t = target_.points.front()->arch;
  return t ? *t : arch::host();
}

IntVal ProgramGen::context_reg(const arch::RegSlot& slot) {
  Temp t = regs_.take();
  Reg r = target_reg(t, bpf::R1);
  b_.load(size_for(slot.size), r, ctx(), static_cast<int16_t>(slot.offset));
  set(t, r);
  return IntVal::in_temp(t);
}

IntVal ProgramGen::cookie() {
  if (Reg c = ctx(); c != bpf::R1) b_.mov(bpf::R1, c);
  b_.call(Helper::get_attach_cookie);
  return IntVal::r0();
}

IntVal ProgramGen::point_id() {
  if (target_.points.size() == 1) return IntVal::constant(static_cast<int64_t>(target_.first_point_id));
  IntVal id = cookie();
  if (target_.first_point_id) b_.alu(bpf::Op::Add, bpf::R0, static_cast<int32_t>(target_.first_point_id));
  return id;
}

IntVal ProgramGen::builtin_int(const Expr& e) {
  auto helper_value = [&](Helper h) {
    b_.call(h);
    return IntVal::r0();
  };
  switch (e.builtin) {
    case BuiltinId::Pid:
    case BuiltinId::Tid: return task_id(e.builtin == BuiltinId::Pid, false, e.span);
    case BuiltinId::Gid:
      b_.call(Helper::get_current_uid_gid);
      b_.alu(bpf::Op::Rsh, bpf::R0, 32);
      return IntVal::r0();
    case BuiltinId::Uid:
      b_.call(Helper::get_current_uid_gid);
      b_.mov32(bpf::R0, bpf::R0);
      return IntVal::r0();
    case BuiltinId::Nsecs: return helper_value(Helper::ktime_get_ns);
    case BuiltinId::Elapsed:
      b_.call(Helper::ktime_get_ns);
      b_.load_map_value(bpf::R1, bpf::MapHandle{script_.start_time_map()}, 0);
      b_.load(Size::DW, bpf::R1, bpf::R1, 0);
      b_.alu(bpf::Op::Sub, bpf::R0, bpf::R1);
      return IntVal::r0();
    case BuiltinId::Cpu: return helper_value(Helper::get_smp_processor_id);
    case BuiltinId::Curtask: return helper_value(Helper::get_current_task);
    case BuiltinId::Rand: return helper_value(Helper::get_prandom_u32);
    case BuiltinId::Cgroup: return helper_value(Helper::get_current_cgroup_id);
    case BuiltinId::Ctx: {
      // The iterator's context pointer itself: ctx->task reads through it.
      Temp t = regs_.take();
      Reg r = target_reg(t, bpf::R1);
      b_.mov(r, ctx());
      set(t, r);
      return IntVal::in_temp(t);
    }
    case BuiltinId::Retval: {
      // fentry/fexit: the return value's slot follows the arguments' (btf_functions.h).
      const probes::AttachPoint& point = *target_.points.front();
      if (probes::probe_type(point.kind).context.btf_args) return slot_value(e, probes::kRetvalSlot);
      const arch::Table& t = arch_table(e.span);
      auto slot = arch::find_slot(t, t.ret_reg);
      if (!slot) break;
      return context_reg(*slot);
    }
    case BuiltinId::Arg: return arg(e);
    case BuiltinId::Sarg: return stack_arg(e);
    case BuiltinId::Cpid: return IntVal::constant(script_.options().child_pid);
    case BuiltinId::Username:
      b_.call(Helper::get_current_uid_gid);
      b_.mov32(bpf::R0, bpf::R0);
      return IntVal::r0();
    case BuiltinId::Numaid: return helper_value(Helper::get_numa_node_id);
    case BuiltinId::Jiffies:
      if (!helper_available(Helper::jiffies64, e.span,
                            "jiffies needs the kernel's bpf_jiffies64 helper (Linux 5.5), which this kernel does not have"))
        return IntVal::constant(0);
      return helper_value(Helper::jiffies64);
    case BuiltinId::Probe:
    case BuiltinId::Func: return point_id();
    default: break;
  }
  fail(e.span, "the " + e.name + " builtin has no integer value here");
  return IntVal::constant(0);
}

// has_cpid: whether cpid has a value, i.e. a -c child was started (a constant, as cpid is).
IntVal ProgramGen::has_cpid_int(const Expr&) { return IntVal::constant(script_.options().child_pid != 0); }

void ProgramGen::builtin_into(const Expr& e, Place dst) {
  if (e.builtin == BuiltinId::Comm) {
    place_address(bpf::R1, dst);
    b_.mov(bpf::R2, 16);  // TASK_COMM_LEN
    b_.call(Helper::get_current_comm);
    check_helper(Helper::get_current_comm, e.span);
    return;
  }
  IntVal v = builtin_int(e);
  store_int(v, 8, dst);
  release(v);
}

IntVal ProgramGen::arg(const Expr& e) {
  const probes::AttachPoint& point = *target_.points.front();
  probes::ArgSource source = probes::probe_type(point.kind).context.args;
  if (source == probes::ArgSource::UsdtOperands) return usdt_arg(e);
  // A raw tracepoint's context is the tracepoint's arguments, u64 args[]: argN at 8 * N.
  if (source == probes::ArgSource::RawArgs)
    return context_reg(arch::RegSlot{"args", static_cast<uint16_t>(8 * e.arg_index), 8});
  const arch::Table& t = arch_table(e.span);
  uint32_t n = e.arg_index;
  if (t.stack_args != arch::StackArgs::All && n < t.arg_regs.size()) {
    auto slot = arch::find_slot(t, t.arg_regs[n]);
    if (!slot) {
      fail(e.span, "register " + std::string(t.arg_regs[n]) + " is not in the " + std::string(t.name) + " pt_regs table");
      return IntVal::constant(0);
    }
    return context_reg(*slot);
  }
  // Past the registers: at function entry the caller's stack holds the rest, where the
  // table's stack-argument rule says (arch::Table::stack_args_offset).
  uint32_t word = t.elf_class == 1 ? 4 : 8;
  int64_t offset;
  if (t.stack_args != arch::StackArgs::Unknown) {
    uint32_t first_stacked = t.stack_args == arch::StackArgs::All ? 0 : static_cast<uint32_t>(t.arg_regs.size());
    offset = t.stack_args_offset + int64_t{word} * (n - first_stacked);
  } else {
    fail(e.span, "arg" + std::to_string(n) + " is passed on the stack on " + std::string(t.name) +
                     ", where rawprobe reads only the " + std::to_string(t.arg_regs.size()) +
                     " register arguments (arg0..arg" + std::to_string(t.arg_regs.size() - 1) + ")");
    return IntVal::constant(0);
  }
  return stack_word(e.span, offset);
}

// sargN: the N-th word of the stack at entry, past the return address where the architecture
// has one on the stack (bpftrace 0.17: x86_64 sp + 8 + 8 * N, aarch64 sp + 8 * N).
IntVal ProgramGen::stack_arg(const Expr& e) {
  const arch::Table& t = arch_table(e.span);
  uint32_t word = t.elf_class == 1 ? 4 : 8;
  return stack_word(e.span, t.stack_args_offset + int64_t{word} * e.arg_index);
}

// The word at sp + offset, read from the probed task's stack.
IntVal ProgramGen::stack_word(lang::Span span, int64_t offset) {
  const arch::Table& t = arch_table(span);
  uint32_t word = t.elf_class == 1 ? 4 : 8;
  auto sp = arch::find_slot(t, t.sp_reg);
  if (!sp) {
    fail(span, "the " + std::string(t.name) + " table has no stack pointer");
    return IntVal::constant(0);
  }
  Place buf{frame_.alloc(8), {}};
  b_.store_imm(Size::DW, bpf::R10, static_cast<int16_t>(buf.off), 0);
  b_.load(size_for(sp->size), bpf::R3, ctx(), static_cast<int16_t>(sp->offset));
  b_.alu(bpf::Op::Add, bpf::R3, static_cast<int32_t>(offset));
  read_memory(buf, word, bpf::R3, is_user_probe(), span);
  Temp tmp = regs_.take();
  Reg r = target_reg(tmp, bpf::R1);
  b_.load(size_for(word), r, bpf::R10, static_cast<int16_t>(buf.off));
  set(tmp, r);
  return IntVal::in_temp(tmp);
}

IntVal ProgramGen::field_int(const Expr& e) { return slot_value(e, e.name); }

// A context field (tracepoint record) or argument slot (fentry/fexit) named `name`, read at
// its offset at this program's point with the expression's size and sign.
IntVal ProgramGen::slot_value(const Expr& e, const std::string& name) {
  Temp t = regs_.take();
  Reg r = target_reg(t, bpf::R1);
  const probes::AttachPoint& point = *target_.points.front();
  uint32_t size = field_load_size(point, name, e.type);
  b_.load(size_for(size), r, ctx(), static_cast<int16_t>(field_offset_at(point, name, e.field_offset)));
  extend(r, size, e.type.is_signed);
  set(t, r);
  return IntVal::in_temp(t);
}

void ProgramGen::field_into(const Expr& e, uint32_t slot, Place dst) {
  if (!e.type.is_string() && e.type.kind != TypeKind::Array) {
    IntVal v = field_int(e);
    store_int(v, 8, dst);
    release(v);
    return;
  }
  uint32_t n = std::min(slot, e.type.size);
  b_.mov(bpf::R3, ctx());
  b_.alu(bpf::Op::Add, bpf::R3, static_cast<int32_t>(field_offset_at(*target_.points.front(), e.name, e.field_offset)));
  read_memory(dst, n, bpf::R3, false, e.span);
  if (slot > n) zero(dst.at(static_cast<int32_t>(n)), slot - n);
}

}  // namespace rawprobe::codegen
