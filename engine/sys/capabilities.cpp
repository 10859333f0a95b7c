#include "engine/sys/capabilities.h"

#include <linux/capability.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cctype>
#include <cstdint>

namespace rawprobe::sys {

const char* capability_name(Capability cap) {
  switch (cap) {
    case Capability::dac_override: return "CAP_DAC_OVERRIDE";
    case Capability::dac_read_search: return "CAP_DAC_READ_SEARCH";
    case Capability::sys_ptrace: return "CAP_SYS_PTRACE";
    case Capability::sys_admin: return "CAP_SYS_ADMIN";
    case Capability::perfmon: return "CAP_PERFMON";
    case Capability::bpf: return "CAP_BPF";
  }
  return "CAP_?";
}

bool has_capability(Capability cap) {
  // Version 3: two 32-bit words per set, so capabilities above 31 (CAP_BPF is 39) are seen.
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};
  if (syscall(SYS_capget, &header, data) != 0) return false;
  int n = int(cap);
  return (data[n / 32].effective >> (n % 32)) & 1u;
}

bool bpf_capable() { return has_capability(Capability::bpf) || has_capability(Capability::sys_admin); }
bool perfmon_capable() { return has_capability(Capability::perfmon) || has_capability(Capability::sys_admin); }

Error missing_capability(Capability cap, const std::string& what, const std::string& grant) {
  return make_error(what + " needs " + capability_name(cap) + ", which this process lacks", "",
                    "run as root, or grant the capabilities to the binary: setcap " + grant +
                        "+ep rawprobe (or to the session: setpriv --ambient-caps)");
}

}  // namespace rawprobe::sys
