// Kinds of values that the kernel side stores as numbers or bytes and that output prints as
// text made in user space (engine/runtime/value_text.h): they print as strings everywhere, so
// printf's %s takes them and bpftrace's messages call them strings.
#pragma once
#include "engine/base/types.h"

namespace rawprobe {

inline bool is_user_text(TypeKind k) {
  return k == TypeKind::Username || k == TypeKind::Strerror || k == TypeKind::Inet || k == TypeKind::MacAddr ||
         k == TypeKind::CgroupPath || k == TypeKind::Timestamp || k == TypeKind::SyscallName ||
         k == TypeKind::SignalName;
}

// buf()'s values, { u8 length; u8 data[size - 1] }: text too, but printed by printf's %r and
// %rx, never by %s (bpftrace: "%s specifier expects a value of type string (buffer supplied)").
inline bool is_buffer(TypeKind k) { return k == TypeKind::Buffer || k == TypeKind::BufferHex; }

}  // namespace rawprobe
