// ncpus and nsecs(CLOCK) (engine/lang/clocks.h).
//   ncpus            the possible CPUs, a constant: what sizes every per-CPU map
//   nsecs(monotonic) bpf_ktime_get_ns, as bare nsecs
//   nsecs(boot)      bpf_ktime_get_boot_ns (5.8)
//   nsecs(tai)       bpf_ktime_get_tai_ns (6.1)
//   nsecs(sw_tai)    bpf_ktime_get_boot_ns + (TAI - BOOTTIME), the offset measured here, when
//                    the program is made, between two reads of BOOTTIME (for kernels before
//                    6.1; it is off by the time between the reads, and by clock adjustments
//                    made while the script runs)
#include <time.h>

#include "engine/codegen/gen.h"
#include "engine/lang/clocks.h"

namespace rawprobe::codegen {
namespace {

int64_t nanoseconds(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

int64_t tai_minus_boottime() {
  int64_t before = nanoseconds(CLOCK_BOOTTIME);
  int64_t tai = nanoseconds(CLOCK_TAI);
  int64_t after = nanoseconds(CLOCK_BOOTTIME);
  return tai - (before + (after - before) / 2);
}

}  // namespace

IntVal ProgramGen::ncpus_int(const lang::Expr&) { return IntVal::constant(script_.options().ncpus); }

IntVal ProgramGen::nsecs_int(const lang::Expr& e) {
  switch (static_cast<lang::Clock>(e.int_value)) {
    case lang::Clock::Monotonic: b_.call(bpf::Helper::ktime_get_ns); return IntVal::r0();
    case lang::Clock::Boot:
    case lang::Clock::SwTai:
      if (!helper_available(bpf::Helper::ktime_get_boot_ns, e.span,
                            "nsecs(boot) and nsecs(sw_tai) need the kernel's bpf_ktime_get_boot_ns helper (Linux "
                            "5.8), which this kernel does not have: nsecs(monotonic) does not count suspended time"))
        return IntVal::constant(0);
      b_.call(bpf::Helper::ktime_get_boot_ns);
      if (static_cast<lang::Clock>(e.int_value) == lang::Clock::SwTai) {
        b_.ld_imm64(bpf::R1, static_cast<uint64_t>(tai_minus_boottime()));
        b_.alu(bpf::Op::Add, bpf::R0, bpf::R1);
      }
      return IntVal::r0();
    case lang::Clock::Tai:
      if (!helper_available(bpf::Helper::ktime_get_tai_ns, e.span,
                            "nsecs(tai) needs the kernel's bpf_ktime_get_tai_ns helper (Linux 6.1), which this kernel "
                            "does not have: nsecs(sw_tai) approximates it"))
        return IntVal::constant(0);
      b_.call(bpf::Helper::ktime_get_tai_ns);
      return IntVal::r0();
  }
  return IntVal::constant(0);
}

}  // namespace rawprobe::codegen
