#include "engine/probes/perf_sampling.h"

#include <linux/perf_event.h>

#include <cctype>
#include <charconv>

#include "engine/lang/suggest.h"

#include "engine/base/cpu_list.h"
#include "engine/probes/providers.h"
#include "engine/sys/attach.h"
#include "engine/sys/host_root.h"
#include "engine/sys/perf.h"

namespace rawprobe::probes {
namespace {

Error no_hardware_pmu(const AttachPoint& p, const Error& cause) {
  Error e = cause;
  e.what = "this machine has no hardware PMU: the kernel has no hardware counters to sample";
  e.object = p.name;
  e.hint = "hardware:* probes need a CPU performance-monitoring unit the kernel can use (a "
           "VM often has none unless the hypervisor passes it through); sample time with "
           "profile:hz:99 or software:cpu-clock instead";
  return e;
}

// A PMU that counts cycles but not this event (qemu's arm64 CPUs count instructions only under
// -icount; many PMUs lack bus-cycles or ref-cycles): the kernel answers ENOENT alike, so the
// cycle counter, opened without sampling, tells the two apart.
bool pmu_counts_cycles(int cpu) {
  perf_event_attr attr{};
  attr.type = PERF_TYPE_HARDWARE;
  attr.config = PERF_COUNT_HW_CPU_CYCLES;
  attr.disabled = 1;
  return bool(sys::perf_event_open(attr, -1, cpu, -1, "hardware:cpu-cycles"));
}

Error event_not_counted(const AttachPoint& p, const Error& cause) {
  Error e = cause;
  e.what = "this CPU's PMU counts cpu-cycles but cannot count the event of";
  e.object = p.name;
  e.hint = "the events a PMU counts are listed in /sys/bus/event_source/devices/<pmu>/events; "
           "sample hardware:cpu-cycles, or time with profile:hz:99, instead";
  return e;
}

}  // namespace

Result<std::vector<int>> online_cpus() {
  std::string path = sys::host_path("/sys/devices/system/cpu/online");
  std::string text;
  if (!sys::read_text_file(path, text))
    return sys::read_file_error("read the online CPUs", path, "", errno, "rawprobe needs /sys mounted");
  return parse_cpu_list(text);
}

AttachPoint sampling_point(ProbeKind kind, std::string name, uint32_t type, uint64_t config,
                           uint64_t period, bool frequency, bool every_cpu) {
  AttachPoint p;
  p.kind = kind;
  p.name = std::move(name);
  p.arch = &arch::host();
  p.perf_type = type;
  p.perf_config = config;
  p.period = period;
  p.frequency = frequency;
  p.every_cpu = every_cpu;
  return p;
}

// bpftrace 0.26's `interval:1s`, `profile:100ms`, `interval:1000000000`: one duration, a bare
// number being nanoseconds. Kept as the UNIT:N form it equals (m, h and d become seconds).
static Status parse_short_timer_spec(const char* kind, const std::string& text, lang::ProbeSpec& out) {
  static const struct { const char* suffix; const char* unit; uint64_t times; } kUnits[] = {
      {"ns", "ns", 1}, {"us", "us", 1}, {"ms", "ms", 1}, {"s", "s", 1}, {"m", "s", 60}, {"h", "s", 3600}, {"d", "s", 86400},
  };
  size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  std::string suffix = text.substr(digits);
  uint64_t value = 0;
  bool known = suffix.empty();
  out.unit = "ns";
  uint64_t times = 1;
  for (const auto& u : kUnits)
    if (suffix == u.suffix) known = true, out.unit = u.unit, times = u.times;
  if (!known || !lang::parse_probe_number(text.substr(0, digits), value) || value == 0 || value > UINT64_MAX / times)
    return make_error("invalid " + std::string(kind) + " period '" + text + "': write a positive duration (" + kind +
                      ":1s, " + kind + ":100ms, " + kind + ":5us) or " + kind + ":UNIT:N with UNIT one of s, ms, us, hz");
  out.value = value * times;
  out.has_value = true;
  return {};
}

Status parse_timer_spec(const std::vector<std::string>& p, lang::ProbeSpec& out) {
  const char* kind = lang::probe_kind_name(out.kind);
  if (p.size() == 2) return parse_short_timer_spec(kind, p[1], out);
  if (p.size() != 3) {
    // bpftrace 0.17 says "interval probe type requires 2 arguments".
    return make_error(std::string(kind) + " probe type requires 2 arguments: " + kind + ":UNIT:N with UNIT one of s, ms, us, hz");
  }
  const std::string& unit = p[1];
  if (unit != "s" && unit != "ms" && unit != "us" && unit != "hz") {
    return make_error("invalid " + std::string(kind) + " unit '" + unit + "'" +
            lang::did_you_mean(unit, {"s", "ms", "us", "hz"}) + " (use s, ms, us or hz)");
  }
  out.unit = unit;
  if (!lang::parse_probe_number(p[2], out.value) || out.value == 0) {
    return make_error("invalid " + std::string(kind) + " count '" + p[2] + "': write a positive integer");
  }
  out.has_value = true;
  return {};
}

Result<AttachPoint> timer_point(const lang::ProbeSpec& spec, bool every_cpu) {
  const char* kind = lang::probe_kind_name(spec.kind);
  std::string name = std::string(kind) + ":" + spec.unit + ":" + std::to_string(spec.value);
  if (spec.value == 0) return make_error(std::string(kind) + " needs a positive count", spec.raw);
  uint64_t scale = spec.unit == "s" ? 1000000000ull : spec.unit == "ms" ? 1000000ull
                 : spec.unit == "us" ? 1000ull : spec.unit == "ns" ? 1 : 0;
  if (spec.unit == "hz") {
    if (every_cpu)  // profile:hz:N samples at a frequency, as perf record -F does
      return sampling_point(spec.kind, name, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK,
                            spec.value, true, every_cpu);
    // interval:hz:N fires N times a second in total: a fixed period on one CPU.
    return sampling_point(spec.kind, name, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK,
                          1000000000ull / spec.value, false, every_cpu);
  }
  if (scale == 0)
    return make_error("invalid " + std::string(kind) + " unit '" + spec.unit + "'", spec.raw,
                      "use s, ms, us or hz");
  if (spec.value > UINT64_MAX / scale)
    return make_error(std::string(kind) + " period too long", spec.raw);
  // cpu-clock counts nanoseconds, so the sample period is the interval in ns.
  return sampling_point(spec.kind, name, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK,
                        spec.value * scale, false, every_cpu);
}

Status explain_sampling(const lang::ProbeSpec& spec, const ExplainOptions& options, FILE* out) {
  return explain_points(spec, options, out, [&](const AttachPoint& p, std::span<const AttachPoint>) -> Status {
    std::fprintf(out, "perf_event_open(type %s, config %llu, %s %llu) on %s\n",
                 p.perf_type == PERF_TYPE_HARDWARE ? "PERF_TYPE_HARDWARE" : "PERF_TYPE_SOFTWARE",
                 (unsigned long long)p.perf_config, p.frequency ? "sample_freq" : "sample_period",
                 (unsigned long long)p.period, p.every_cpu ? "every online CPU" : "one CPU");
    return {};
  });
}

void list_timer_units(const ListRequest& request, ListSink& sink) {
  for (const char* unit : {"hz", "ms", "s", "us"}) sink.line(request.provider + ":" + unit + ":");
}

Result<std::unique_ptr<Attachment>> attach_sampling(std::span<const AttachPoint> points,
                                                    std::span<const int> prog_fds) {
  Result<std::vector<int>> cpus = online_cpus();
  if (!cpus) return cpus.error();
  return attach_each(points, prog_fds, [&](const AttachPoint& p, int prog_fd, uint64_t cookie,
                                           AttachmentSet& set) -> Status {
    std::vector<int> on = p.every_cpu ? *cpus : std::vector<int>{cpus->front()};
    for (int cpu : on) {
      perf_event_attr attr{};
      attr.type = p.perf_type;
      attr.config = p.perf_config;
      attr.sample_period = p.period;  // a union with sample_freq
      attr.freq = p.frequency;
      attr.disabled = 1;
      Result<sys::Fd> fd = sys::perf_event_open(attr, -1, cpu, -1, p.name);
      if (!fd) {
        int err = fd.error().err;
        if (p.perf_type == PERF_TYPE_HARDWARE && (err == ENOENT || err == EOPNOTSUPP || err == ENODEV)) {
          if (p.perf_config != PERF_COUNT_HW_CPU_CYCLES && pmu_counts_cycles(cpu))
            return event_not_counted(p, fd.error());
          return no_hardware_pmu(p, fd.error());
        }
        return fd.error();
      }
      Result<sys::PerfAttachment> a = sys::attach_perf_event(std::move(*fd), prog_fd, cookie);
      if (!a) return a.error();
      set.add_perf(std::move(*a), "perf event on cpu " + std::to_string(cpu) + " (" +
                                      sys::attach_mode_name(a->mode()) + "): " + p.name);
    }
    return {};
  });
}

}  // namespace rawprobe::probes
