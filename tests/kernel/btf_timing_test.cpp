// How long the BTF reader takes on this kernel, and that it stays lazy: opening vmlinux's BTF
// (read and check every record) and resolving `struct task_struct` (which indexes struct
// names and makes the C types task_struct reaches). The figures are printed, wall time and
// this thread's CPU time (on a shared machine the wall time is mostly waiting for a CPU), the
// best of 5 rounds, each from a fresh open. What is checked is the laziness: only a part of
// vmlinux's types becomes C types, and no module is read for a vmlinux type.
//   build/kernel-tests -tc='btf timing*' -s
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <ctime>

#include "engine/btf/kernel_types.h"
#include "tests/kernel/btf_absent.h"

using namespace rawprobe;
using Clock = std::chrono::steady_clock;

namespace {
double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}
double cpu_ms() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}
}  // namespace

TEST_CASE("btf timing: open vmlinux BTF and resolve struct task_struct") {
  double best_open = 1e9, best_find = 1e9, cpu_open = 1e9, cpu_find = 1e9;
  size_t made = 0, types = 0, modules_read = 0;
  for (int round = 0; round < 5; ++round) {
    Clock::time_point t0 = Clock::now();
    double c0 = cpu_ms();
    Result<btf::KernelTypes> kt = btf::KernelTypes::open();
    if (btf::checked_btf_absent(kt)) return;
    REQUIRE_MESSAGE(kt.ok(), (kt.ok() ? "" : kt.error().message()));
    best_open = std::min(best_open, ms_since(t0));
    cpu_open = std::min(cpu_open, cpu_ms() - c0);
    Clock::time_point t1 = Clock::now();
    double c1 = cpu_ms();
    ctypes::CTypeRef task = kt->find(ctypes::CKind::Struct, "task_struct");
    best_find = std::min(best_find, ms_since(t1));
    cpu_find = std::min(cpu_find, cpu_ms() - c1);
    REQUIRE(task);
    made = kt->materialized();
    types = kt->vmlinux_types();
    modules_read = kt->modules_read();
  }
  MESSAGE("open vmlinux BTF: " << best_open << " ms (CPU " << cpu_open << " ms); struct task_struct: "
                               << best_find << " ms (CPU " << cpu_find << " ms), " << made << " of "
                               << types << " BTF types made into C types");
  // A forward declaration task_struct reaches may be defined only in a module (the VM
  // guests' kernels), so reading modules is allowed; making most of vmlinux is not.
  MESSAGE(modules_read << " module BTF files read");
  CHECK(made < types / 2);
}
