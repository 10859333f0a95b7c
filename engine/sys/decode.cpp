#include "engine/sys/decode.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/mount.h>

#include "engine/base/result.h"
#include "engine/sys/decode_format.h"
#include "engine/sys/names.h"

namespace rawprobe::sys {

namespace decode_detail {

FieldList& FieldList::add(std::string_view name, const std::string& value) {
  if (!text_.empty()) text_ += ", ";
  text_ += name;
  text_ += '=';
  text_ += value;
  return *this;
}

FieldList& FieldList::num(std::string_view name, uint64_t value) {
  return add(name, std::to_string(value));
}

FieldList& FieldList::snum(std::string_view name, int64_t value) {
  return add(name, std::to_string(value));
}

FieldList& FieldList::hex(std::string_view name, uint64_t value) {
  return add(name, hex_string(value));
}

FieldList& FieldList::ptr(std::string_view name, uint64_t value) {
  return add(name, value ? hex_string(value) : "NULL");
}

FieldList& FieldList::str(std::string_view name, uint64_t value) {
  return add(name, quote_user_string(value));
}

std::string hex_string(uint64_t value) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%" PRIx64, value);
  return buf;
}

std::string named_bits(uint64_t value, std::initializer_list<NamedBit> names) {
  std::string out;
  for (const NamedBit& bit : names) {
    if (!(value & bit.mask)) continue;
    if (!out.empty()) out += '|';
    out += bit.name;
    value &= ~bit.mask;
  }
  if (value) out += (out.empty() ? "" : "|") + hex_string(value);
  return out.empty() ? "0" : out;
}

std::string quote(std::string_view s, size_t limit) {
  std::string out = "\"";
  for (size_t i = 0; i < s.size() && i < limit; ++i) {
    unsigned char ch = static_cast<unsigned char>(s[i]);
    switch (ch) {
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      default:
        if (ch < 0x20 || ch >= 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02x", ch);
          out += buf;
        } else {
          out += static_cast<char>(ch);
        }
    }
  }
  out += '"';
  if (s.size() > limit) out += "...";
  return out;
}

std::string quote_user_string(uint64_t ptr) {
  if (ptr == 0) return "NULL";
  const char* s = reinterpret_cast<const char*>(static_cast<uintptr_t>(ptr));
  return quote(std::string_view(s, ::strnlen(s, 4097)));
}

std::string result_text(const Outcome& outcome) {
  if (outcome.ok()) return "= " + std::to_string(outcome.ret);
  return "= -1 " + errno_name(outcome.err) + " (" + std::strerror(outcome.err) + ")";
}

}  // namespace decode_detail

using namespace decode_detail;

namespace {

// A semaphore's read-modify-write in another process, as strace -y shows pread64/pwrite64,
// with the buffer shown as what it holds, an array of one u16 in hex:
//   pread64(4</proc/1234/mem>, [0x0], 2, 0x5566778899aa) = 2
//   pwrite64(4</proc/1234/mem>, [0x1], 2, 0x5566778899aa) = 2
// fd<path>, the buffer, its size, the file offset (= the address in that process). A write
// shows the value it writes; a read shows the value it read once it returned both bytes, and
// otherwise (before the call, on an error, or 0 bytes from a process that has exited) the
// buffer's address, as strace does for a read that filled nothing.
std::string proc_mem_text(const ProcMemCall& c, const Outcome* outcome) {
  bool read = c.op == ProcMemCall::Op::read;
  bool filled = !read || (outcome && outcome->ret == static_cast<long>(sizeof *c.value));
  std::string buffer = filled ? "[" + hex_string(*c.value) + "]"
                              : hex_string(reinterpret_cast<uintptr_t>(c.value));
  return std::string(read ? "pread64(" : "pwrite64(") + std::to_string(c.fd) + "<" + c.path + ">, " + buffer +
         ", " + std::to_string(sizeof *c.value) + ", " + hex_string(c.address) + ")";
}

// strace's spelling: mount("nodev", "/sys/kernel/tracing", "tracefs", MS_NOSUID|MS_NODEV|MS_NOEXEC, NULL)
std::string mount_text(const MountCall& c) {
  std::string flags = named_bits(c.flags, {{MS_RDONLY, "MS_RDONLY"},
                                           {MS_NOSUID, "MS_NOSUID"},
                                           {MS_NODEV, "MS_NODEV"},
                                           {MS_NOEXEC, "MS_NOEXEC"},
                                           {MS_REC, "MS_REC"},
                                           {MS_PRIVATE, "MS_PRIVATE"}});
  return "mount(" + quote(c.source) + ", " + quote(c.target) + ", " + quote(c.fstype) + ", " + flags + ", NULL)";
}

// The three calls as one nested expression, in strace's spellings of their arguments.
std::string detached_mount_text(const DetachedMountCall& c) {
  return "fsmount(fsopen(" + quote(c.fstype) +
         ", FSOPEN_CLOEXEC) + fsconfig(FSCONFIG_CMD_CREATE), FSMOUNT_CLOEXEC, "
         "MOUNT_ATTR_RDONLY|MOUNT_ATTR_NOSUID|MOUNT_ATTR_NODEV|MOUNT_ATTR_NOEXEC)";
}

// strace's spelling, with the directory fd shown as strace -y shows it:
//   openat2(3</proc/1234/root>, "/bin/app", {flags=O_RDONLY|O_CLOEXEC,
//           resolve=RESOLVE_NO_MAGICLINKS|RESOLVE_IN_ROOT}, 24)
std::string openat2_text(const Openat2Call& c) {
  std::string flags = named_bits(c.flags, {{O_WRONLY, "O_WRONLY"},
                                           {O_RDWR, "O_RDWR"},
                                           {O_CLOEXEC, "O_CLOEXEC"},
                                           {O_NOFOLLOW, "O_NOFOLLOW"},
                                           {O_PATH, "O_PATH"},
                                           {O_DIRECTORY, "O_DIRECTORY"}});
  if (!(c.flags & (O_WRONLY | O_RDWR))) flags = flags == "0" ? "O_RDONLY" : "O_RDONLY|" + flags;
  // include/uapi/linux/openat2.h
  std::string resolve = named_bits(c.resolve, {{0x01, "RESOLVE_NO_XDEV"},
                                               {0x02, "RESOLVE_NO_MAGICLINKS"},
                                               {0x04, "RESOLVE_NO_SYMLINKS"},
                                               {0x08, "RESOLVE_BENEATH"},
                                               {0x10, "RESOLVE_IN_ROOT"},
                                               {0x20, "RESOLVE_CACHED"}});
  return "openat2(" + std::to_string(c.dirfd) + "<" + c.dir + ">, " + quote(c.path) + ", {flags=" + flags +
         ", resolve=" + resolve + "}, 24)";
}

struct RequestText {
  std::string operator()(const BpfCall& c) const { return bpf_request(c); }
  std::string operator()(const PerfOpenCall& c) const { return perf_request(c); }
  std::string operator()(const IoctlCall& c) const {
    return "ioctl(" + std::to_string(c.fd) + ", " + perf_ioctl_name(c.request) + ", " +
           std::to_string(c.arg) + ")";
  }
  std::string operator()(const TracefsWrite& c) const {
    return "write(" + quote(c.path) + ", " + quote(c.line) + ")";
  }
  std::string operator()(const ProcMemCall& c) const { return proc_mem_text(c, nullptr); }
  std::string operator()(const MountCall& c) const { return mount_text(c); }
  std::string operator()(const DetachedMountCall& c) const { return detached_mount_text(c); }
  std::string operator()(const Openat2Call& c) const { return openat2_text(c); }
};

struct LabelText {
  std::string operator()(const BpfCall& c) const { return "bpf(" + bpf_cmd_name(c.cmd) + ")"; }
  std::string operator()(const PerfOpenCall&) const { return "perf_event_open"; }
  std::string operator()(const IoctlCall& c) const {
    return "ioctl(" + perf_ioctl_name(c.request) + ")";
  }
  std::string operator()(const TracefsWrite& c) const { return "write(" + c.path + ")"; }
  std::string operator()(const ProcMemCall& c) const {
    return (c.op == ProcMemCall::Op::read ? "pread64(" : "pwrite64(") + c.path + ")";
  }
  std::string operator()(const MountCall& c) const { return "mount(" + c.fstype + ", " + c.target + ")"; }
  std::string operator()(const DetachedMountCall& c) const { return "fsmount(" + c.fstype + ")"; }
  std::string operator()(const Openat2Call& c) const { return "openat2(" + c.dir + ")"; }
};

}  // namespace

std::string describe_request(const Call& call) { return std::visit(RequestText{}, call); }

std::string describe_call(const Call& call, const Outcome& outcome) {
  const ProcMemCall* mem = std::get_if<ProcMemCall>(&call);
  std::string line = (mem ? proc_mem_text(*mem, &outcome) : describe_request(call)) + " " + result_text(outcome);
  if (const BpfCall* bpf = std::get_if<BpfCall>(&call)) line += bpf_writeback(*bpf, outcome);
  return line;
}

std::string call_label(const Call& call) { return std::visit(LabelText{}, call); }

}  // namespace rawprobe::sys
