// Kinds of values that the kernel side stores as numbers or bytes and that output prints as
// text made in user space (engine/runtime/value_text.h): they print as strings everywhere, so
// printf's %s takes them and bpftrace's messages call them strings.
#pragma once
#include "engine/base/types.h"

namespace rawprobe {

inline bool is_user_text(TypeKind k) {
  return k == TypeKind::Username || k == TypeKind::Strerror || k == TypeKind::Inet || k == TypeKind::MacAddr ||
         k == TypeKind::CgroupPath || k == TypeKind::Timestamp;
}

}  // namespace rawprobe
