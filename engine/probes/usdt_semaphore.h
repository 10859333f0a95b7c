// USDT semaphores on kernels whose uprobes cannot count them (no ref_ctr_offset, before
// 4.20): the traced process's semaphore (a u16 in its .probes section) is incremented
// through /proc/PID/mem while the probe is attached and decremented when the handle dies,
// as bcc and bpftrace do. The address comes from /proc/PID/maps: the mapping of the binary
// whose file range holds the semaphore's file offset.
#pragma once
#include <sys/types.h>

#include <memory>
#include <string>

#include "engine/probes/provider.h"

namespace rawprobe::probes {

// Does process `pid` map the page of `path` that holds `file_offset` yet? (-c waits for this
// at each exec of the command, so a wrapper script that execs the real program works.)
bool maps_file_offset(pid_t pid, const std::string& path, uint64_t file_offset);

// `path` is the binary as the process maps it; `file_offset` the semaphore's file offset.
Result<std::unique_ptr<AttachmentSet::Part>> hold_semaphore(pid_t pid, const std::string& path,
                                                            uint64_t file_offset);

}  // namespace rawprobe::probes
