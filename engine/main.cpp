// rawprobe command line entry point: parses the options (engine/driver/options.h) and hands
// the work to the listing, explain, info or run entry points.
#include <cstdio>

#include "engine/base/warnings.h"
#include "engine/driver/options.h"
#include "engine/driver/report.h"
#include "engine/driver/run_script.h"
#include "engine/probes/btf_functions.h"
#include "engine/probes/listing.h"
#include "engine/sys/call.h"
#include "engine/sys/features.h"

namespace {

// In bpftrace's form ("bpftrace v0.17.0"), for scripts that read it.
constexpr const char* kVersion = "rawprobe v0.1.0";

}  // namespace

int main(int argc, char** argv) {
  using namespace rawprobe;
  Result<driver::Options> parsed = driver::parse_options(argc, argv);
  if (!parsed) {
    driver::report(parsed.error());
    return 2;
  }
  driver::Options& options = *parsed;
  if (options.trace_syscalls) sys::trace_to_stderr();
  if (options.no_warnings) disable_warnings();
  // The kernel keeps USDT semaphores for every process that maps the file when uprobes take a
  // ref_ctr_offset; without it rawprobe sets them in the -p/-c process only.
  if (options.usdt_file_activation && options.mode == driver::Mode::Run &&
      !sys::feature_state(sys::Feature::uprobe_ref_ctr).available && options.pid <= 0 && options.command.empty()) {
    driver::report(make_error("--usdt-file-activation needs a kernel that counts USDT semaphores itself (uprobe "
                              "ref_ctr_offset, Linux 4.20), which this one does not",
                              {}, "give -p PID or -c CMD: rawprobe then sets the semaphores in that process"));
    return 1;
  }
  // The trampoline and iterator feature probes load against a function's BTF id.
  sys::set_btf_function_id_lookup(probes::vmlinux_function_id);
  switch (options.mode) {
    case driver::Mode::Version:
      std::printf("%s\n", kVersion);
      return 0;
    case driver::Mode::Help:
      std::fputs(driver::usage_text().c_str(), stdout);
      return 0;
    case driver::Mode::Info:
      std::fputs(sys::info_report().c_str(), stdout);
      return 0;
    case driver::Mode::List:
      return driver::exit_status(probes::list_probes({options.list_pattern, options.verbose, options.pid}, stdout));
    case driver::Mode::Explain:
      return driver::exit_status(probes::explain_probe(
          options.explain, {options.pid, options.attach_mode, options.kretprobe_maxactive}, stdout));
    case driver::Mode::Run:
      return driver::run_script(options);
  }
  return 2;
}
