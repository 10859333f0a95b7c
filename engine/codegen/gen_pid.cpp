// pid and tid, as seen from a pid namespace.
//   initial namespace, or rawprobe runs in it:
//     call bpf_get_current_pid_tgid; pid = r0 >> 32, tid = (u32)r0
//   rawprobe's namespace when it is another (a container):
//     r1 = its dev, r2 = its inode, r3 = &info (struct bpf_pidns_info { u32 pid, tgid; }), r4 = 8
//     call bpf_get_ns_current_pid_tgid (5.7); pid = info.tgid, tid = info.pid, or 0 when it
//     fails: a task the namespace does not contain has no id there
#include "engine/codegen/gen.h"

namespace rawprobe::codegen {

IntVal ProgramGen::task_id(bool process, bool initial_ns, lang::Span span) {
  const CompileOptions& o = script_.options();
  if (initial_ns || o.pid_ns_ino == 0) {
    b_.call(bpf::Helper::get_current_pid_tgid);
    if (process) b_.alu(bpf::Op::Rsh, bpf::R0, 32);
    else b_.mov32(bpf::R0, bpf::R0);
    return IntVal::r0();
  }
  if (!helper_available(bpf::Helper::get_ns_current_pid_tgid, span,
                        "pid and tid inside a pid namespace (a container) need the kernel's "
                        "bpf_get_ns_current_pid_tgid helper (Linux 5.7), which this kernel does not have: "
                        "write pid(init) and tid(init) for the ids the initial namespace sees"))
    return IntVal::constant(0);
  int16_t info = static_cast<int16_t>(frame_.alloc(8));
  b_.ld_imm64(bpf::R1, o.pid_ns_dev);
  b_.ld_imm64(bpf::R2, o.pid_ns_ino);
  b_.mov(bpf::R3, bpf::R10);
  b_.alu(bpf::Op::Add, bpf::R3, info);
  b_.mov(bpf::R4, 8);
  b_.call(bpf::Helper::get_ns_current_pid_tgid);
  bpf::Label failed = b_.new_label("pidns_failed"), done = b_.new_label("pidns_end");
  b_.jump(bpf::Cond::Ne, bpf::R0, 0, failed);
  b_.load(bpf::Size::W, bpf::R0, bpf::R10, static_cast<int16_t>(info + (process ? 4 : 0)));
  b_.jump(done);
  b_.bind(failed);
  b_.mov(bpf::R0, 0);
  b_.bind(done);
  return IntVal::r0();
}

IntVal ProgramGen::task_id_int(const lang::Expr& e) { return task_id(e.name == "pid", e.int_value == 1, e.span); }

}  // namespace rawprobe::codegen
