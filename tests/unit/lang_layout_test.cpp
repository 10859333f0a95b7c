// The front end's record layouts against the decoder that reads them: bytes written at the
// offsets ProgramInfo gives (as code generation writes them) must come back out of output's
// map printer and printf formatter as the values that went in. And the semantic pass must
// accept exactly the printf calls output's formatter accepts, so none fails at run time.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "engine/output/map_print.h"
#include "engine/output/printf_format.h"
#include "tests/unit/lang_fixture.h"

using namespace rawprobe;
using namespace rawprobe::lang;

namespace {

// One part's bytes alone: the value at the start of a buffer of exactly its size.
std::vector<uint8_t> value_bytes(const Type& t, const std::string& text, int64_t number) {
  std::vector<uint8_t> bytes(t.size, 0);
  if (t.is_string()) std::memcpy(bytes.data(), text.data(), std::min<size_t>(text.size(), t.size));
  else std::memcpy(bytes.data(), &number, t.size);  // little endian: the low bytes
  return bytes;
}

}  // namespace

TEST_CASE("map keys: bytes at ProgramInfo's key offsets print as output decodes them") {
  auto r = test::front_end(R"(BEGIN { @m[comm, "ab", 1, (uint8)2, "xyz"] = 5; })");
  REQUIRE_MESSAGE(r.ok, test::error_text(r));
  const MapInfo& m = r.program.info.maps.at(0);
  REQUIRE(m.key.size() == 5);
  REQUIRE(m.layout.key.offsets.size() == m.key.size());

  MapDesc desc{m.name, m.key, m.value, 1, {}, false, {}};
  CHECK(map_key_size(desc) == m.layout.key.size);

  // The key as code generation builds it, and each part printed on its own.
  const std::vector<std::string> texts = {"rawprobe", "ab", "", "", "xyz"};
  const std::vector<int64_t> numbers = {0, 0, 1, 2, 0};
  std::vector<uint8_t> key(m.layout.key.size, 0xee);  // unwritten padding must not matter
  std::string parts;
  for (size_t i = 0; i < m.key.size(); ++i) {
    std::vector<uint8_t> part = value_bytes(m.key[i], texts[i], numbers[i]);
    REQUIRE(m.layout.key.offsets[i] + part.size() <= key.size());
    std::memcpy(key.data() + m.layout.key.offsets[i], part.data(), part.size());
    if (i) parts += ", ";
    append_value(parts, OutputFormat::Text, m.key[i], part.data());
  }
  int64_t value = 5;
  MapEntries entries(map_key_size(desc), map_value_size(desc));
  entries.add(key.data(), &value);
  std::string printed;
  append_map(printed, OutputFormat::Text, desc, entries);
  CHECK(printed.substr(0, printed.find(':')) == m.name + "[" + parts + "]");
}

TEST_CASE("printf records: ProgramInfo's argument offsets are where the formatter reads") {
  const char* format = "%s|%d|%s|%hhu|%c|%s|%lx\n";
  std::string script = "BEGIN { printf(\"%s|%d|%s|%hhu|%c|%s|%lx\\n\", \"ab\", (int16)-3, comm, "
                       "(uint8)200, 65, \"xyzzy\", (uint32)48879); }";
  auto r = test::front_end(script);
  REQUIRE_MESSAGE(r.ok, test::error_text(r));
  const PrintfInfo& p = r.program.info.printfs.at(0);
  REQUIRE(p.format == format);
  REQUIRE(p.args.size() == 7);

  std::vector<Type> types;
  for (const PrintfArg& a : p.args) types.push_back(a.type);
  auto formatter = PrintfFormatter::make(p.format, types);
  REQUIRE_MESSAGE(formatter.ok(), (formatter.ok() ? "" : formatter.error().message()));
  for (size_t i = 0; i < p.args.size(); ++i)
    CHECK(p.args[i].offset == kEventHeaderSize + formatter->arg_offsets()[i]);
  CHECK(p.record_size >= kEventHeaderSize + formatter->args_size());

  // The record as code generation writes it: id, then each argument at its offset.
  const std::vector<std::string> texts = {"ab", "", "rawprobe", "", "", "xyzzy", ""};
  const std::vector<int64_t> numbers = {0, -3, 0, 200, 65, 0, 48879};
  std::vector<uint8_t> record(p.record_size, 0);
  for (size_t i = 0; i < p.args.size(); ++i) {
    std::vector<uint8_t> arg = value_bytes(p.args[i].type, texts[i], numbers[i]);
    REQUIRE(p.args[i].offset + arg.size() <= record.size());
    std::memcpy(record.data() + p.args[i].offset, arg.data(), arg.size());
  }
  std::string ours;
  formatter->append(ours, record.data() + kEventHeaderSize, record.size() - kEventHeaderSize);
  char want[128];
  std::snprintf(want, sizeof want, format, "ab", -3, "rawprobe", 200, 65, "xyzzy", 48879L);
  CHECK(ours == want);
}

TEST_CASE("the semantic pass accepts a printf exactly when output's formatter does") {
  struct Case {
    std::string format;  // as written in the script
    std::string args;
    std::vector<Type> types;  // as stored (integers widened)
  };
  const Type i64 = Type::integer(8, true), str3 = Type::string(3);
  const std::vector<Case> cases = {
      {"%d %s\\n", "1, \"ab\"", {i64, str3}},
      {"%-5lx|%05d\\n", "1, 2", {i64, i64}},
      {"%+d %d\\n", "1, 2", {i64, i64}},  // C reads "%+d"; bpftrace's regex skips it
      {"% d %s\\n", "1, \"ab\"", {i64, str3}},
      {"%#x %x\\n", "1, 2", {i64, i64}},
      {"%+d\\n", "", {}},  // no conversion bpftrace sees: printed as written
      {"%d %d\\n", "1", {i64}},
      {"%d\\n", "1, 2", {i64, i64}},
      {"%s\\n", "1", {i64}},
      {"%ld\\n", "\"ab\"", {str3}},
  };
  for (const Case& c : cases) {
    std::string call = "printf(\"" + c.format + "\"" + (c.args.empty() ? "" : ", " + c.args) + ")";
    std::string script = "BEGIN { " + call + "; }";
    std::string unescaped = c.format.substr(0, c.format.size() - 2) + "\n";
    auto verdict = PrintfFormatter::make(unescaped, c.types);
    auto r = test::front_end(script);
    INFO(script);
    CHECK(r.ok == verdict.ok());
    if (verdict.ok()) {
      if (r.ok) CHECK(r.program.info.printfs.at(0).args.size() == c.types.size());
      continue;
    }
    // Count and type errors point at the call (as bpftrace does), format errors at the format.
    const Error& err = verdict.error();
    bool format_error = !err.hint.empty();
    size_t column = (format_error ? script.find('"') : script.find("printf")) + 1;
    std::string head = "test.bt:1:" + std::to_string(column) + ": error: " + err.what;
    CHECK(test::error_text(r).substr(0, head.size()) == head);
  }
}
