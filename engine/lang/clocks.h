// The clocks nsecs(CLOCK) reads, as bpftrace 0.26.1 names them; the checker keeps the one a
// call names in Expr::int_value, and codegen reads it from there.
#pragma once
#include <cstdint>
#include <string_view>

namespace rawprobe::lang {

enum class Clock : uint8_t {
  Monotonic,  // CLOCK_MONOTONIC: bpf_ktime_get_ns, what bare nsecs reads
  Boot,       // CLOCK_BOOTTIME: bpf_ktime_get_boot_ns (5.8), counts suspended time too
  Tai,        // CLOCK_TAI: bpf_ktime_get_tai_ns (6.1)
  SwTai,      // CLOCK_BOOTTIME plus TAI's offset from it, measured once in user space
};

inline constexpr struct {
  std::string_view name;
  Clock clock;
} kClockNames[] = {{"monotonic", Clock::Monotonic}, {"boot", Clock::Boot}, {"tai", Clock::Tai}, {"sw_tai", Clock::SwTai}};

}  // namespace rawprobe::lang
