// Whether the kernel publishes its BTF. Only the header of vmlinux's file is read here: the
// full check of every record (engine/btf) costs tens of milliseconds, paid by the scripts that
// use kernel types and not by every `--info`. What a broken blob would do is said by the
// reader's own error when a script needs a type.
#include <filesystem>
#include <fstream>

#include "engine/btf/format.h"
#include "engine/sys/feature_probes.h"
#include "engine/sys/host_root.h"

namespace rawprobe::sys {

FeatureState probe_kernel_btf() {
  std::string dir = host_path("/sys/kernel/btf");
  std::ifstream in(dir + "/vmlinux", std::ios::binary);
  if (!in) return {false, "no /sys/kernel/btf/vmlinux"};
  btf::Header h;
  if (!in.read(reinterpret_cast<char*>(&h), sizeof h)) return {false, "vmlinux BTF header truncated"};
  std::error_code ec;
  uintmax_t size = std::filesystem::file_size(dir + "/vmlinux", ec);
  if (h.magic != btf::kMagic || h.version != btf::kVersion) return {false, "vmlinux is not BTF v1"};
  size_t modules = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    modules += entry.path().filename() != "vmlinux";
  return {true, "vmlinux " + std::to_string(ec ? 0 : size >> 10) + " KiB, " + std::to_string(modules) +
                    (modules == 1 ? " module" : " modules")};
}

}  // namespace rawprobe::sys
