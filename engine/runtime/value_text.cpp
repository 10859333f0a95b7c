#include "engine/runtime/value_text.h"

#include <arpa/inet.h>
#include <sys/socket.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>

#include "engine/base/bytes.h"
#include "engine/runtime/passwd.h"
#include "engine/base/text_kinds.h"
#include "engine/runtime/cgroup_paths.h"
#include "arch/syscall_names.h"

namespace rawprobe::runtime {
namespace {

uint64_t u64_at(const uint8_t* p) { return load_unaligned<uint64_t>(p); }

std::string username(uint64_t uid) {
  if (std::optional<std::string> name = user_name(static_cast<uint32_t>(uid))) return *name;
  return std::to_string(uid);
}

std::string inet(const uint8_t* p) {
  uint64_t family = u64_at(p);
  char text[INET6_ADDRSTRLEN] = "";
  // An unknown family prints nothing, as in bpftrace.
  if (!inet_ntop(static_cast<int>(family), p + 8, text, sizeof text)) return "";
  return text;
}

// The running kernel's syscalls are the host architecture's; a number the table lacks (a
// syscall newer than its headers) prints as the number.
std::string syscall_name_text(uint64_t nr) {
  std::string_view name = arch::syscall_name(arch::host(), nr);
  return name.empty() ? std::to_string(nr) : std::string(name);
}

// bpftrace 0.26.1's signal_name() keeps strsignal(3)'s texts for 0 to 64 (SIGRTMAX) in a
// table and gives "N/A" outside it; glibc's own texts are the table's.
std::string signal_name_text(uint64_t nr) {
  constexpr uint64_t kLastSignal = 64;
  return nr <= kLastSignal ? std::string(strsignal(static_cast<int>(nr))) : std::string("N/A");
}

std::string mac(const uint8_t* p) {
  char text[18];
  std::snprintf(text, sizeof text, "%02X:%02X:%02X:%02X:%02X:%02X", p[0], p[1], p[2], p[3], p[4], p[5]);
  return text;
}

std::vector<std::string>& strftime_formats() {
  static std::vector<std::string> formats;
  return formats;
}

// bpftrace's strftime(): nsecs of CLOCK_MONOTONIC (the nsecs builtin) turned into the wall
// clock by the offset between the two clocks now, then formatted in local time.
std::string timestamp(const uint8_t* p) {
  uint64_t format = u64_at(p), ns = u64_at(p + 8);
  if (format >= strftime_formats().size()) return "";
  struct timespec real, mono;
  clock_gettime(CLOCK_REALTIME, &real);
  clock_gettime(CLOCK_MONOTONIC, &mono);
  int64_t offset = (int64_t(real.tv_sec) - int64_t(mono.tv_sec)) * 1000000000 + (real.tv_nsec - mono.tv_nsec);
  time_t seconds = static_cast<time_t>((int64_t(ns) + offset) / 1000000000);
  struct tm local;
  if (!localtime_r(&seconds, &local)) return "";
  char text[64];
  size_t n = strftime(text, sizeof text, strftime_formats()[format].c_str(), &local);
  return std::string(text, n);
}

// bpftrace's %r: printable bytes as they are, the others as \x01; %rx: every byte so.
std::string buffer(const Type& type, const uint8_t* p) {
  uint32_t length = std::min<uint32_t>(p[0], type.size ? type.size - 1 : 0);
  std::string text;
  for (uint32_t i = 0; i < length; ++i) {
    uint8_t c = p[1 + i];
    if (type.kind == TypeKind::Buffer && std::isprint(c)) {
      text += static_cast<char>(c);
      continue;
    }
    char hex[5];
    std::snprintf(hex, sizeof hex, "\\x%02x", c);
    text += hex;
  }
  return text;
}

}  // namespace

void use_strftime_formats(std::vector<std::string> formats) { strftime_formats() = std::move(formats); }

bool has_value_text(const Type& type) { return is_user_text(type.kind) || is_buffer(type.kind); }

uint32_t value_text_bytes(const Type& type) {
  switch (type.kind) {
    case TypeKind::Buffer:
    case TypeKind::BufferHex: return 4 * type.size + 1;
    case TypeKind::Inet: return INET6_ADDRSTRLEN;
    case TypeKind::MacAddr: return 18;
    case TypeKind::CgroupPath: return 1024;
    default: return 64;  // user names (32 at most on Linux), strerror texts
  }
}

void write_value_text(const Type& type, const uint8_t* from, uint8_t* to) {
  std::string text;
  uint32_t room = value_text_bytes(type);
  switch (type.kind) {
    case TypeKind::Buffer:
    case TypeKind::BufferHex: text = buffer(type, from); break;
    case TypeKind::Username: text = username(u64_at(from)); break;
    case TypeKind::Strerror: text = std::strerror(static_cast<int>(u64_at(from))); break;
    case TypeKind::Inet: text = inet(from); break;
    case TypeKind::MacAddr: text = mac(from); break;
    case TypeKind::Timestamp: text = timestamp(from); break;
    case TypeKind::CgroupPath: text = cgroup_path_text(u64_at(from), type.c_name); break;
    case TypeKind::SyscallName: text = syscall_name_text(u64_at(from)); break;
    case TypeKind::SignalName: text = signal_name_text(u64_at(from)); break;
    default: break;
  }
  std::memset(to, 0, room);
  std::memcpy(to, text.data(), std::min<size_t>(text.size(), room - 1));
}

}  // namespace rawprobe::runtime
