// Tracepoint record layouts from tracefs `format` files, and the interface through which the
// semantic pass asks for them. The probes layer implements TracepointCatalog on the real
// tracefs (expanding wildcards); tests implement it on format text read at test time.
//
// A format line looks like:
//   field:unsigned int fd;	offset:16;	size:8;	signed:0;
// The C type may be narrower than `size` (syscall arguments are stored as 8-byte longs);
// like bpftrace, the type follows `size` and `signed`, not the declared C type.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/base/result.h"
#include "engine/base/types.h"

namespace rawprobe::lang {

struct TracepointField {
  std::string name;
  std::string declaration;  // as in the format: "char * buf", "__data_loc char[] name"
  uint32_t offset = 0;
  uint32_t size = 0;
  bool is_signed = false;
  bool data_loc = false;    // __data_loc: a u32 (len << 16 | offset) locating the bytes
  Type type;                // Integer for scalars and pointers; String for char arrays
};

// Parses a whole `format` file. Errors name the offending line.
Result<std::vector<TracepointField>> parse_tracepoint_format(std::string_view text);

class TracepointCatalog {
 public:
  virtual ~TracepointCatalog() = default;
  // The tracepoints matching a CATEGORY:NAME pattern (may hold * and ?), as (category, name);
  // empty when none exists. An Error when the tracepoints could not be read at all (no
  // tracefs), so that is what gets reported, not a "not found".
  virtual Result<std::vector<std::pair<std::string, std::string>>> match(const std::string& category,
                                                                         const std::string& name) = 0;
  // The record fields of one tracepoint.
  virtual Result<std::vector<TracepointField>> fields(const std::string& category,
                                                      const std::string& name) = 0;
};

}  // namespace rawprobe::lang
