// The text of the values that print as text made in user space (engine/base/text_kinds.h):
//
//   kind        kernel bytes                         text
//   Username    u64 uid                              the user's name (/etc/passwd), else the uid
//   Strerror    u64 errno                            strerror(errno): "No such file or directory"
//   Inet        { u64 family; u8 addr[16] }          inet_ntop: "127.0.0.1", "::1"
//   MacAddr     u8[6]                                "00:1A:2B:3C:4D:5E"
//   CgroupPath  u64 cgroup id                        "unified:/user.slice,..." (cgroup_paths.h)
//   SyscallName u64 syscall number                   the host's name of it: "read" (0 on x86_64)
//   SignalName  u64 signal number                    strsignal(3)'s text: "Interrupt" (2)
//   Timestamp   { u64 format; u64 nsecs }            strftime(formats[format]) of the local
//                                                    time nsecs (CLOCK_MONOTONIC) stands for
//   Buffer      { u8 length; u8 data[size - 1] }     printable bytes as they are, others \xNN
//   BufferHex   the same                             every byte \xNN (printf's %rx)
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "engine/base/types.h"

namespace rawprobe::runtime {

// Whether values of this type print as text made here.
bool has_value_text(const Type& type);
// Bytes the text of a value of this type may take, its NUL included.
uint32_t value_text_bytes(const Type& type);
// Writes the text of the value at `from` into `to`, NUL-padded to value_text_bytes(type).
void write_value_text(const Type& type, const uint8_t* from, uint8_t* to);
// The strftime() formats of the script (lang::ProgramInfo::time_formats), before any
// Timestamp is printed.
void use_strftime_formats(std::vector<std::string> formats);

}  // namespace rawprobe::runtime
