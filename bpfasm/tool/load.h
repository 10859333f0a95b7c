// bpfasm --load: assemble a file, load it into the kernel, print the verifier's verdict.
#pragma once
#include <string>
#include <vector>

// args[0] is "--load"; the rest: --type socket_filter|kprobe|tracepoint FILE.s
// [--log] (print the verifier log on acceptance too) [--trace-syscalls].
int load_command(const std::vector<std::string>& args);
