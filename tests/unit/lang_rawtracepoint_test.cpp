// rawtracepoint:NAME in the front end: the spec forms (name, alias, wildcard, refused
// category), and the builtins a raw tracepoint has (argN: u64 args[N], at most 12 of them
// per the verifier's raw_tp_prog_is_valid_access) and has not (args, retval, func), each
// refused with the reason.
#include <doctest/doctest.h>

#include "engine/lang/probe_spec.h"
#include "tests/unit/lang_fixture.h"

using namespace rawprobe;
using namespace rawprobe::lang;

namespace {

struct Parsed {
  bool ok = false;
  ProbeSpec spec;
  std::string error;
};

Parsed parse(const std::string& text) {
  Parsed p;
  Status parsed = parse_probe_spec(text, {0, 0}, p.spec);
  p.ok = parsed.ok();
  if (!parsed) p.error = parsed.error().what;
  return p;
}

// The front end's first error line for a one-block script, or "" when it passes.
std::string first_error(const std::string& script) {
  FrontEndResult r = test::front_end(script);
  if (r.ok) return "";
  return test::error_text(r).substr(0, test::error_text(r).find('\n'));
}

}  // namespace

TEST_CASE("rawtracepoint specs: NAME, the rt alias, wildcards; no category part") {
  Parsed p = parse("rawtracepoint:sched_switch");
  REQUIRE(p.ok);
  CHECK(p.spec.kind == ProbeKind::RawTracepoint);
  CHECK(p.spec.name == "sched_switch");
  CHECK(!p.spec.wildcard);
  CHECK(p.spec.canonical() == "rawtracepoint:sched_switch");

  p = parse("rt:sched_*");
  REQUIRE(p.ok);
  CHECK(p.spec.kind == ProbeKind::RawTracepoint);
  CHECK(p.spec.wildcard);
  CHECK(p.spec.canonical() == "rawtracepoint:sched_*");
  CHECK(std::string(probe_kind_name(ProbeKind::RawTracepoint)) == "rawtracepoint");

  for (const char* bad : {"rawtracepoint:sched:sched_switch", "rawtracepoint:", "rt"}) {
    CAPTURE(bad);
    p = parse(bad);
    CHECK(!p.ok);
    CHECK(p.error.find("rawtracepoint needs rawtracepoint:NAME") == 0);
    CHECK(p.error.find("-l 'rawtracepoint:*'") != std::string::npos);
  }
}

TEST_CASE("rawtracepoint builtins: argN up to arg11; args alone, retval and func refused with the reason") {
  CHECK(first_error("rawtracepoint:sys_enter { @[arg1] = count(); }") == "");
  CHECK(first_error("rt:sched_switch { printf(\"%d %s %d\\n\", pid, comm, arg11); }") == "");
  CHECK(first_error("rt:sys_enter { @[probe] = count(); }") == "");

  CHECK(first_error("rt:sys_enter { @ = arg12; }") ==
        "test.bt:1:20: error: rawtracepoint probes have at most 12 arguments (arg0..arg11): arg12 is past them");
  CHECK(first_error("rt:sys_exit { @ = retval; }") ==
        "test.bt:1:19: error: The retval builtin can only be used with 'kretprobe' and 'uretprobe' probes "
        "(a raw tracepoint has no return value; sys_exit's is arg1)");
  CHECK(first_error("rt:sys_enter { @[func] = count(); }") ==
        "test.bt:1:18: error: The func builtin can not be used with 'rawtracepoint' probes "
        "(a raw tracepoint is not a function; probe names it)");
  // args.NAME is typed from the kernel's BTF (tests/kernel/probes_fentry_test.cpp); args alone
  // is no value.
  CHECK(first_error("rt:sys_enter { print(args); }") ==
        "test.bt:1:22: error: The args builtin of 'rawtracepoint' probes must be followed by an argument's name: "
        "args.NAME, as -lv 'rawtracepoint:NAME' lists them (or read arg0, arg1, ...)");
}
