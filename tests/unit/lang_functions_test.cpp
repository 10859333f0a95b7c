// The function registry (engine/lang/functions.def): every name resolves to its own row, and
// what a row says (its role, its arity) is what the semantic pass enforces.
#include <doctest/doctest.h>

#include <string>

#include "engine/lang/functions.h"
#include "tests/unit/lang_fixture.h"

using namespace rawprobe;
using namespace rawprobe::lang;

namespace {

// The whole error text the front end gives for a one-line `-e` script.
std::string errors_of(const std::string& script) { return test::error_text(test::front_end(script, "-e")); }

// One error as rawprobe renders it: position, message, the line, a caret of `width` under
// column `col`.
std::string one_error(const std::string& script, int col, int width, const std::string& message) {
  return "-e:1:" + std::to_string(col) + ": error: " + message + "\n" + script + "\n" + std::string(col - 1, ' ') +
         "^" + std::string(width - 1, '~') + "\n";
}

}  // namespace

TEST_CASE("every function name resolves to the row that carries it") {
  REQUIRE_FALSE(function_names().empty());
  for (const std::string& name : function_names()) {
    CAPTURE(name);
    const FunctionInfo* f = find_function(name);
    REQUIRE(f);
    CHECK(function_info(f->id).name == name);
  }
  CHECK(find_function("prinft") == nullptr);
}

TEST_CASE("aggregations are the rows whose role says so") {
  for (const std::string& name : function_names()) {
    const FunctionInfo& f = *find_function(name);
    CAPTURE(name);
    CHECK(is_aggregation(f.result) == (f.role == FunctionRole::Aggregation));
  }
  CHECK_FALSE(is_aggregation(TypeKind::Integer));
  CHECK_FALSE(is_aggregation(TypeKind::None));
}

// bpftrace 0.17 accepts any aggregation as a key and then aborts in its code generator
// ("ERROR: invalid mapkey argument type", exit 134) for min, max and sum alike; rawprobe
// refused sum but let min and max through, and END then read one CPU's { value, set } slot
// as the key. Every aggregation is now refused the same way.
TEST_CASE("no aggregation's value can be a map key") {
  CHECK(errors_of("BEGIN { @m = min(1); } END { @x[@m] = 1; }") ==
        one_error("BEGIN { @m = min(1); } END { @x[@m] = 1; }", 33, 2, "a map key cannot be a min value"));
  CHECK(errors_of("BEGIN { @m = max(1); } END { @x[@m] = 1; }") ==
        one_error("BEGIN { @m = max(1); } END { @x[@m] = 1; }", 33, 2, "a map key cannot be a max value"));
  for (const std::string& name : function_names()) {
    const FunctionInfo& f = *find_function(name);
    if (f.role != FunctionRole::Aggregation) continue;
    std::string args = f.min_args == 0 ? "" : f.min_args == 1 ? "1" : f.min_args == 3 ? "1, 1, 10" : "1, 0, 10, 1";
    auto r = test::front_end("BEGIN { @m = " + name + "(" + args + "); } END { @x[@m] = 1; $y = 0; @z[$y, @m] = 2; }");
    CAPTURE(name);
    CHECK(r.diagnostics.size() == 2);
    CHECK(test::error_text(r).find("a map key cannot be a " + name + " value") != std::string::npos);
  }
}

// The map's buckets are laid out from lhist()'s literals when the program is checked; a step
// below 1 (which crashed the layout with a division by zero) or an empty range (which asked
// the kernel for a map of ~2^32 buckets) is refused in bpftrace 0.17's words.
TEST_CASE("lhist() parameters that give no buckets are refused") {
  CHECK(errors_of("BEGIN { @ = lhist(1, 0, 10, 0); exit(); }") ==
        one_error("BEGIN { @ = lhist(1, 0, 10, 0); exit(); }", 13, 18, "lhist() step must be >= 1 (0 provided)"));
  CHECK(errors_of("BEGIN { @ = lhist(1, 10, 0, 1); exit(); }") ==
        one_error("BEGIN { @ = lhist(1, 10, 0, 1); exit(); }", 13, 18,
                  "lhist() min must be less than max (provided min 10 and max 0)"));
  auto r = test::front_end("BEGIN { @ = lhist(1, 0, 10, 3); exit(); }", "-e");
  CHECK_MESSAGE(r.ok, test::error_text(r));
  CHECK(r.program.info.maps.at(0).layout.lhist == LHistParams{0, 10, 3});
  CHECK(r.program.info.maps.at(0).layout.slot_size == (10 / 3 + 2) * 8);
}

// A function with no check hook gets the generic one: arity, then each argument's kind, in
// bpftrace 0.17's words (its "a integer" included); spans as bpftrace's (whole call).
TEST_CASE("strncmp() is checked by its row alone") {
  CHECK(errors_of("BEGIN { printf(\"%d\\n\", strncmp(\"abc\",\"abd\")); }") ==
        one_error("BEGIN { printf(\"%d\\n\", strncmp(\"abc\",\"abd\")); }", 24, 20,
                  "strncmp() requires 3 arguments (2 provided)"));
  CHECK(errors_of("BEGIN { printf(\"%d\\n\", strncmp(1,\"abd\",2)); }") ==
        one_error("BEGIN { printf(\"%d\\n\", strncmp(1,\"abd\",2)); }", 24, 18,
                  "strncmp() only supports string arguments (integer provided)"));
  CHECK(errors_of("BEGIN { $n = 2; printf(\"%d\\n\", strncmp(\"abc\",\"abd\",$n)); }") ==
        one_error("BEGIN { $n = 2; printf(\"%d\\n\", strncmp(\"abc\",\"abd\",$n)); }", 32, 23,
                  "strncmp() expects a integer literal (integer provided)"));
  auto r = test::front_end("BEGIN { $x = strncmp(comm, \"bash\", 4); @m[strncmp(\"a\", \"b\", 1)] = $x; }");
  REQUIRE_MESSAGE(r.ok, test::error_text(r));
  CHECK(r.program.info.maps.at(0).key.at(0) == Type::integer(8, false));  // bpftrace: uint64
}
