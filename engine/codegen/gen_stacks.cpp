// Stacks and symbols (the value layouts are in compiled_script.h).
//
//   kstack, ustack   r1 = ctx; r2 = the stack map of the value's (mode, limit);
//                    r3 = BPF_F_USER_STACK for ustack, else 0; call bpf_get_stackid
//                    -EEXIST and -ENOMEM add one to `.stacklost`; ustack then packs the
//                    thread id above the stack id as bpftrace 0.17 does and adds the pid
//   usym(a)          { a; pid }        ksym(a)   a
//   kaddr, uaddr     the address the semantic pass resolved, a constant
// ustack and usym announce the process to user space on its first such event, so its
// mappings are read while it lives (kAsyncNewPid): one hash lookup per event after that.
#include <linux/bpf.h>

#include <cerrno>

#include "engine/codegen/gen.h"

namespace rawprobe::codegen {

using bpf::Helper;
using bpf::Reg;
using bpf::Size;
using lang::Expr;

namespace {

// bpftrace's sizes: 128K stacks per map, whatever the limit.
constexpr uint32_t kStackMapEntries = 128 * 1024;
// Processes remembered as announced; a forgotten one is announced again, which costs user
// space one more read of its maps, nothing more.
constexpr uint32_t kAnnouncedPids = 64 * 1024;

}  // namespace

uint32_t ScriptState::stack_map(StackMode mode, uint16_t limit) {
  for (const StackMapDef& s : out_.stack_maps)
    if (s.mode == mode && s.limit == limit) return s.map;
  uint32_t index = static_cast<uint32_t>(out_.maps.size());
  const char* names[] = {".stack", ".stack_perf", ".stack_raw"};
  std::string name = names[static_cast<int>(mode)];
  if (limit != 127) name += "_" + std::to_string(limit);
  out_.maps.push_back(MapDef{name, BPF_MAP_TYPE_STACK_TRACE, 4, 8u * limit, kStackMapEntries, 0, -1});
  out_.stack_maps.push_back({mode, limit, index});
  return index;
}

uint32_t ScriptState::stack_lost_map() {
  return internal_map(out_.stack_lost_map, MapDef{".stacklost", BPF_MAP_TYPE_ARRAY, 4, 8, 1, 0, -1});
}

uint32_t ScriptState::pids_map() {
  return internal_map(out_.pids_map, MapDef{".pids", BPF_MAP_TYPE_LRU_HASH, 4, 4, kAnnouncedPids, 0, -1});
}

void ProgramGen::stack_into(const Expr& e, uint32_t, Place dst) {
  bool user = e.type.kind == TypeKind::UStack;
  uint32_t map = script_.stack_map(e.type.stack_mode, e.type.stack_limit);
  if (Reg c = ctx(); c != bpf::R1) b_.mov(bpf::R1, c);
  b_.load_map_fd(bpf::R2, bpf::MapHandle{map});
  b_.mov(bpf::R3, user ? static_cast<int32_t>(BPF_F_USER_STACK) : 0);
  b_.call(Helper::get_stackid);
  check_helper(Helper::get_stackid, e.span);
  store_int(IntVal::r0(), 8, dst);
  bpf::Label lost = b_.new_label("stack_lost"), stored = b_.new_label("stack_stored");
  b_.jump(bpf::Cond::Eq, bpf::R0, -EEXIST, lost);
  b_.jump(bpf::Cond::Ne, bpf::R0, -ENOMEM, stored);
  b_.bind(lost);
  b_.load_map_value(bpf::R1, bpf::MapHandle{script_.stack_lost_map()}, 0);
  b_.mov(bpf::R2, 1);
  b_.atomic(bpf::Atomic::Add, Size::DW, bpf::R1, 0, bpf::R2);
  b_.bind(stored);
  if (!user) return;
  b_.call(Helper::get_current_pid_tgid);
  b_.mov(bpf::R1, bpf::R0);
  b_.alu(bpf::Op::Lsh, bpf::R1, 32);
  Reg base = place_base(dst, bpf::R3);
  b_.load(Size::DW, bpf::R2, base, static_cast<int16_t>(dst.off));
  b_.alu(bpf::Op::Or, bpf::R2, bpf::R1);
  base = place_base(dst, bpf::R3);
  b_.store(Size::DW, base, static_cast<int16_t>(dst.off), bpf::R2);
  b_.alu(bpf::Op::Rsh, bpf::R0, 32);
  store_int(IntVal::r0(), 8, dst.at(8));
  int32_t key = frame_.alloc(8);
  b_.store(Size::DW, bpf::R10, static_cast<int16_t>(key), bpf::R0);
  announce_process(key);
}

void ProgramGen::usym_into(const Expr& e, uint32_t, Place dst) {
  IntVal address = gen_int(*e.operands[0]);
  store_int(address, 8, dst);
  release(address);
  b_.call(Helper::get_current_pid_tgid);
  b_.alu(bpf::Op::Rsh, bpf::R0, 32);
  store_int(IntVal::r0(), 8, dst.at(8));
  int32_t key = frame_.alloc(8);
  b_.store(Size::DW, bpf::R10, static_cast<int16_t>(key), bpf::R0);
  announce_process(key);
}

IntVal ProgramGen::ksym_int(const Expr& e) { return gen_int(*e.operands[0]); }

IntVal ProgramGen::address_int(const Expr& e) { return IntVal::constant(static_cast<int64_t>(e.int_value)); }

void ProgramGen::announce_process(int32_t tgid_slot) {
  uint32_t pids = script_.pids_map();
  bpf::Label done = b_.new_label("pid_known");
  b_.load_map_fd(bpf::R1, bpf::MapHandle{pids});
  b_.mov(bpf::R2, bpf::R10);
  b_.alu(bpf::Op::Add, bpf::R2, tgid_slot);
  b_.call(Helper::map_lookup_elem);
  b_.jump(bpf::Cond::Ne, bpf::R0, 0, done);
  // Only the update that inserts the pid announces it: of two CPUs racing, one wins.
  b_.load_map_fd(bpf::R1, bpf::MapHandle{pids});
  b_.mov(bpf::R2, bpf::R10);
  b_.alu(bpf::Op::Add, bpf::R2, tgid_slot);
  b_.mov(bpf::R3, bpf::R10);
  b_.alu(bpf::Op::Add, bpf::R3, tgid_slot);
  b_.mov(bpf::R4, static_cast<int32_t>(BPF_NOEXIST));
  b_.call(Helper::map_update_elem);
  b_.jump(bpf::Cond::Ne, bpf::R0, 0, done);
  Place rec{frame_.alloc(16), {}};
  store_int(IntVal::constant(static_cast<int64_t>(kAsyncNewPid)), 8, rec);
  b_.load(Size::DW, bpf::R1, bpf::R10, static_cast<int16_t>(tgid_slot));
  b_.store(Size::DW, bpf::R10, static_cast<int16_t>(rec.off + 8), bpf::R1);
  // Woken at once rather than when the reader next catches up: the process may be about to
  // exit, and its mappings go with it.
  output_event(rec, 16, true, BPF_RB_FORCE_WAKEUP);
  b_.bind(done);
}

}  // namespace rawprobe::codegen
