// JSON string escaping exactly as bpftrace 0.17 does it: " \ \n \r \t get backslash escapes,
// other control bytes \u00XX, and (a bpftrace quirk, kept for identical output) every byte
// >= 0x80 is escaped as \uffffffXX, because bpftrace tests the byte as a signed char and
// prints it as a sign-extended int.
#pragma once
#include <string>
#include <string_view>

namespace rawprobe {

void append_json_escaped(std::string& out, std::string_view text);

}  // namespace rawprobe
