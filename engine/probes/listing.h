// `rawprobe -l [PATTERN]`, `-lv` and `--explain PROBE` as library calls the CLI makes.
// Listing lines have bpftrace 0.17's form (`tracepoint:syscalls:sys_enter_read`,
// `uprobe:/bin/true:main`, `usdt:/usr/bin/python3.11:python:function__entry`,
// `software:cpu-clock:`), so `rawprobe -l | grep ...` pipelines give the same lines.
#pragma once
#include <sys/types.h>

#include <cstdio>
#include <string>
#include <string_view>

#include "engine/base/result.h"
#include "engine/probes/provider.h"

namespace rawprobe::probes {

struct ListOptions {
  std::string pattern;  // "" = every probe that needs no binary; "tracepoint:syscalls:*",
                        // "uprobe:/bin/true:*", "usdt:*" (with pid), "sys_enter_*" ...
  bool verbose = false; // -lv
  pid_t pid = -1;       // -p PID: usdt/uprobe listing over every object the process maps
};

// Prints the matching probes to `out`. Errors (missing binary, bad pattern, no match) are
// returned, for the driver to render.
Status list_probes(const ListOptions& options, FILE* out);

// Walks through how one probe spec would be attached, without attaching it: symbol ->
// address -> segment -> file offset -> boundary check; or USDT note -> base adjustment ->
// semaphore offset -> argument decoding; or tracepoint id and format; or the perf event.
// The options that change how a probe is attached are honoured (ExplainOptions, provider.h),
// so it tells what a run with the same options does.
Status explain_probe(std::string_view spec, const ExplainOptions& options, FILE* out);

}  // namespace rawprobe::probes
