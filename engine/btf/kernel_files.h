// Reading the BTF files the kernel publishes in /sys/kernel/btf (5.4+; module files 5.11+):
// "vmlinux" and one file per loaded module with BTF, named after the module.
#pragma once
#include <string>
#include <vector>

#include "engine/base/result.h"
#include "engine/btf/bytes.h"

namespace rawprobe::btf {

// The directory under sys::host_root().
std::string kernel_btf_dir();

// The whole file. sysfs reports the true size of these binary attributes, but the read loop
// goes to EOF anyway, as for any pseudo file.
Result<std::string> read_btf_file(const std::string& path);
// The file mapped read-only where the kernel allows it (vmlinux from Linux 6.16), else read
// as above.
Result<Bytes> load_btf_file(const std::string& path);

// File names in `dir` other than "vmlinux", sorted.
std::vector<std::string> module_btf_names(const std::string& dir);

}  // namespace rawprobe::btf
