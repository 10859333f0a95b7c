// Helpers for the output oracle tests: run a BEGIN-only script under bpftrace 0.17 and
// capture its standard output; encode the same values into the byte layouts rawprobe's
// decoder reads; capture what rawprobe's Output prints for them.
#pragma once
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "engine/base/layout.h"
#include "engine/output/output.h"

namespace rawprobe::oracle {

// A script value: an integer (stored in its Type's width), a string or a tuple.
struct Val {
  bool is_str = false;
  int64_t i = 0;
  std::string s;
  std::vector<Val> items;  // tuple fields
};
inline Val I(int64_t v) { return Val{false, v, {}, {}}; }
inline Val S(std::string s) { return Val{true, 0, std::move(s), {}}; }
inline Val T(std::vector<Val> items) { return Val{false, 0, {}, std::move(items)}; }

// Encodes values by layout_of(types): what the code generator writes.
inline std::vector<uint8_t> pack(const std::vector<Type>& types, const std::vector<Val>& vals) {
  StructLayout layout = layout_of(types);
  std::vector<uint8_t> bytes(layout.size, 0);
  for (size_t k = 0; k < types.size(); k++) {
    uint8_t* p = bytes.data() + layout.offsets[k];
    if (types[k].is_string()) {
      std::memcpy(p, vals[k].s.data(), std::min<size_t>(vals[k].s.size(), types[k].size));
    } else if (types[k].kind == TypeKind::Tuple) {
      auto packed = pack(types[k].fields, vals[k].items);
      std::memcpy(p, packed.data(), packed.size());
    } else {
      std::memcpy(p, &vals[k].i, types[k].size);  // little endian: the low bytes
    }
  }
  return bytes;
}

// bpftrace's type name for a cast, e.g. "int8", "uint64".
inline std::string cast_name(const Type& t) {
  return (t.is_signed ? "int" : "uint") + std::to_string(t.size * 8);
}

// A string as a bpftrace string literal.
inline std::string quote(const std::string& raw) {
  std::string q = "\"";
  for (unsigned char c : raw) {
    if (c == '"' || c == '\\') {
      q += '\\';
      q += char(c);
    } else if (c == '\n') {
      q += "\\n";
    } else if (c == '\t') {
      q += "\\t";
    } else if (c < 0x20) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      q += hex;
    } else {
      q += char(c);
    }
  }
  return q + "\"";
}

// A value as a bpftrace expression of exactly this type.
inline std::string expr(const Type& t, const Val& v) {
  if (t.is_string()) return quote(v.s);
  if (t.kind == TypeKind::Tuple) {
    std::string e = "(";
    for (size_t k = 0; k < t.fields.size(); k++) e += (k ? ", " : "") + expr(t.fields[k], v.items[k]);
    return e + ")";
  }
  return "(" + cast_name(t) + ")(" + std::to_string(v.i) + ")";
}

// Runs `program` under bpftrace with -f `format`; returns its standard output (stderr, where
// its RLIMIT_MEMLOCK warning goes, is dropped).
inline std::string run_bpftrace(const std::string& program, const char* format) {
  char path[] = "/tmp/rawprobe-oracle-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return "mkstemp failed";
  (void)!write(fd, program.data(), program.size());
  close(fd);
  std::string cmd = std::string("bpftrace -f ") + format + " " + path + " 2>/dev/null";
  std::string out;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    pclose(p);
  }
  unlink(path);
  return out;
}

// An Output writing into memory, so tests see exactly the bytes it writes (both its output
// and its console stream go to the same place, as when bpftrace runs without -o).
class Capture {
 public:
  explicit Capture(OutputFormat format)
      : fd_(memfd_create("rawprobe-output", 0)), out_(format, fd_, fd_) {}
  ~Capture() { close(fd_); }
  Output& out() { return out_; }
  std::string text() {
    (void)out_.flush();
    std::string s(size_t(lseek(fd_, 0, SEEK_END)), '\0');
    (void)!pread(fd_, s.data(), s.size(), 0);
    return s;
  }

 private:
  int fd_;
  Output out_;
};

}  // namespace rawprobe::oracle
