// bpftool's reading of a BTF file, as the oracle for rawprobe's BTF reader:
// `bpftool btf dump file F [-B BASE] format raw` parsed into one entry per type id. Lines look
// like
//   [114] STRUCT 'task_struct' size=3264 vlen=248
//   	'thread_info' type_id=97 bits_offset=0
//   	'__state' type_id=... bits_offset=... bitfield_size=...
//   [39] ENUM '(anon)' encoding=UNSIGNED size=4 vlen=2
//   	'false' val=0
//   [44874] FUNC_PROTO '(anon)' ret_type_id=21 vlen=3
//   	'buf' type_id=2472
#pragma once
#include <cstdint>
#include <cstdio>
#include <map>
#include <string_view>
#include <string>
#include <vector>

namespace rawprobe::btf::testing {

struct OracleMember {  // a member, enumerator or parameter line
  std::string name;    // "" for '(anon)'
  long long type_id = -1;
  long long bits_offset = 0;
  long long bitfield_size = 0;
  std::string val;     // enumerators: as printed ("-1", "2ULL")
};

struct OracleType {
  long long id = 0;
  std::string kind;    // "STRUCT"
  std::string name;    // "" for '(anon)'
  std::map<std::string, std::string> fields;  // size=, type_id=, encoding=, nr_elems= ...
  std::vector<OracleMember> members;
  long long num(const std::string& key) const {
    auto it = fields.find(key);
    return it == fields.end() ? -1 : std::stoll(it->second);
  }
};

// An enumerator's value as bpftool prints it ("-1", "4294967295", "2ULL").
inline int64_t enumerator_value(const std::string& val) {
  std::string digits = val;
  while (!digits.empty() && (digits.back() == 'L' || digits.back() == 'U')) digits.pop_back();
  if (digits.empty()) return 0;
  return digits[0] == '-' ? std::stoll(digits) : static_cast<int64_t>(std::stoull(digits));
}

inline std::string run_command(const std::string& cmd) {
  std::string out;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    char buf[1 << 16];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    pclose(p);
  }
  return out;
}

inline std::string unquote(const std::string& s) {
  std::string v = s.size() >= 2 && s.front() == '\'' ? s.substr(1, s.size() - 2) : s;
  return v == "(anon)" ? "" : v;
}

class BpftoolRaw {
 public:
  // `file`, and with `base` the split BTF on top of it.
  explicit BpftoolRaw(const std::string& file, const std::string& base = {}) {
    std::string cmd = "bpftool btf dump file " + file + (base.empty() ? "" : " -B " + base) +
                      " format raw 2>/dev/null";
    std::string out = run_command(cmd);
    OracleType* cur = nullptr;
    size_t at = 0;
    while (at < out.size()) {
      size_t end = out.find('\n', at);
      if (end == std::string::npos) end = out.size();
      std::string_view line(out.data() + at, end - at);
      at = end + 1;
      if (line.size() > 1 && line[0] == '[') {
        size_t close = line.find(']');
        size_t kind_end = line.find(' ', close + 2);
        size_t q1 = line.find('\'', kind_end), q2 = line.find('\'', q1 + 1);
        if (close == line.npos || kind_end == line.npos || q2 == line.npos) continue;
        OracleType t;
        t.id = std::stoll(std::string(line.substr(1, close - 1)));
        t.kind = line.substr(close + 2, kind_end - close - 2);
        t.name = unquote(std::string(line.substr(q1, q2 - q1 + 1)));
        parse_fields(line.substr(q2 + 1), [&](const std::string& k, const std::string& v) { t.fields[k] = v; });
        cur = &types_[t.id];
        *cur = std::move(t);
        if (first_id_ == 0) first_id_ = cur->id;
      } else if (cur && line.size() > 2 && line[0] == '\t' && line[1] == '\'') {
        size_t q2 = line.find('\'', 2);
        if (q2 == line.npos) continue;
        OracleMember om;
        om.name = unquote(std::string(line.substr(1, q2)));
        parse_fields(line.substr(q2 + 1), [&](const std::string& k, const std::string& v) {
          if (k == "type_id") om.type_id = std::stoll(v);
          if (k == "bits_offset") om.bits_offset = std::stoll(v);
          if (k == "bitfield_size") om.bitfield_size = std::stoll(v);
          if (k == "val") om.val = v;
        });
        cur->members.push_back(std::move(om));
      }
    }
  }

  bool empty() const { return types_.empty(); }
  const std::map<long long, OracleType>& types() const { return types_; }
  long long first_id() const { return first_id_; }
  const OracleType* get(long long id) const {
    auto it = types_.find(id);
    return it == types_.end() ? nullptr : &it->second;
  }
  // The first type of this kind and name in id order.
  const OracleType* named(const std::string& kind, const std::string& name) const {
    for (const auto& [id, t] : types_)
      if (t.kind == kind && t.name == name) return &t;
    return nullptr;
  }

 private:
  // Calls f(key, value) for each " key=value" (a trailing comma dropped).
  template <class F>
  static void parse_fields(std::string_view rest, F f) {
    size_t at = 0;
    while (at < rest.size()) {
      size_t end = rest.find(' ', at);
      if (end == rest.npos) end = rest.size();
      std::string_view tok = rest.substr(at, end - at);
      at = end + 1;
      size_t eq = tok.find('=');
      if (eq == tok.npos) continue;
      std::string_view v = tok.substr(eq + 1);
      if (!v.empty() && v.back() == ',') v.remove_suffix(1);
      f(std::string(tok.substr(0, eq)), std::string(v));
    }
  }

  std::map<long long, OracleType> types_;
  long long first_id_ = 0;
};

}  // namespace rawprobe::btf::testing
