// The front end's checks of signal_thread(), signal_name(), fail() and comm(pid) (bpftrace
// 0.26.1's docs/stdlib.md): what each refuses, with file:line:col, and fail()'s message,
// formatted from the script's own literals. tests/kernel/cli_stdlib_v026b_test.cpp runs them.
#include <doctest/doctest.h>

#include "tests/unit/lang_fixture.h"

using namespace rawprobe;

namespace {

std::string refusal(const std::string& script) {
  lang::FrontEndResult r = test::front_end(script, "t.bt");
  CHECK_FALSE(r.ok);
  return test::error_text(r);
}

bool accepted(const std::string& script) {
  lang::FrontEndResult r = test::front_end(script, "t.bt");
  INFO(test::error_text(r));
  return r.ok;
}

}  // namespace

TEST_CASE("fail() stops the script at the call with its message formatted from its literals") {
  std::string text = refusal("BEGIN {\n  fail(\"want %d more, of %s\", 3 + 4, \"apples\");\n}\n");
  CHECK_MESSAGE(text.find("t.bt:2:3: error: want 7 more, of apples") != std::string::npos, text);
  // Arguments must be known when the script is checked.
  text = refusal("BEGIN { fail(\"pid %d\", pid); }");
  CHECK_MESSAGE(text.find("t.bt:1:24: error: fail()'s arguments are formatted when the script is checked, so each "
                          "must be an integer literal for its %d; this one is known only when the probe runs") !=
                    std::string::npos,
                text);
  text = refusal("BEGIN { fail(\"%s\", 1); }");
  CHECK_MESSAGE(text.find("t.bt:1:20: error: fail()'s arguments are formatted when the script is checked, so each "
                          "must be a string literal for its %s (integer given)") != std::string::npos,
                text);
  text = refusal("BEGIN { fail(\"%d %d\", 1); }");
  CHECK_MESSAGE(text.find("t.bt:1:9: error: fail(): the format takes 2 argument(s), 1 given") != std::string::npos, text);
  text = refusal("BEGIN { $f = \"x\"; fail($f); }");
  CHECK_MESSAGE(text.find("t.bt:1:24: error: fail()'s format must be a string literal") != std::string::npos, text);
}

TEST_CASE("fail() in a branch that a known condition leaves out is not reached") {
  CHECK(accepted("BEGIN { if (1 > 2) { fail(\"never\"); } exit(); }"));
  CHECK(accepted("BEGIN { if (sizeof(uint32) == 4) { exit(); } else { fail(\"never\"); } }"));
  // A condition known only at run time reaches both branches, as in bpftrace.
  std::string text = refusal("BEGIN { if (pid > 1) { fail(\"reached\"); } }");
  CHECK_MESSAGE(text.find("t.bt:1:24: error: reached") != std::string::npos, text);
  text = refusal("BEGIN { if (1 < 2) { fail(\"taken\"); } }");
  CHECK_MESSAGE(text.find("t.bt:1:22: error: taken") != std::string::npos, text);
}

TEST_CASE("signal_thread is refused as signal() is: safe mode, BEGIN, names and numbers") {
  std::string text = refusal("tracepoint:syscalls:sys_enter_getppid { signal_thread(\"USR1\"); }");
  CHECK_MESSAGE(text.find("t.bt:1:41: error: signal_thread() is an unsafe function being used in safe mode") !=
                    std::string::npos,
                text);
}

TEST_CASE("signal_name takes an integer and prints as a string") {
  std::string text = refusal("BEGIN { print(signal_name(\"INT\")); }");
  CHECK_MESSAGE(text.find("t.bt:1:15: error: signal_name() only supports integer arguments (string provided)") !=
                    std::string::npos,
                text);
  CHECK(accepted("BEGIN { printf(\"%s\\n\", signal_name(2)); @[signal_name(15)] = count(); exit(); }"));
}

TEST_CASE("comm(pid) is refused where the kernel lets no program call bpf_task_from_pid") {
  // BEGIN is a uprobe on rawprobe itself: a kprobe program.
  std::string text = refusal("BEGIN { print(comm(1)); }");
  CHECK_MESSAGE(text.find("t.bt:1:15: error: comm(pid) works in tracepoint, profile, interval, software, fentry, "
                          "fexit and iter probes") != std::string::npos,
                text);
  text = refusal("tracepoint:syscalls:sys_enter_getppid { print(comm(\"init\")); }");
  CHECK_MESSAGE(text.find("t.bt:1:52: error: comm()'s argument is a pid, an integer (string given)") !=
                    std::string::npos,
                text);
  // comm() is the comm builtin, anywhere.
  CHECK(accepted("BEGIN { printf(\"%s\\n\", comm()); exit(); }"));
}

TEST_CASE("array casts need the same size on both sides and an integer to take bytes from") {
  std::string text = refusal("BEGIN { $a = (int8[4])(uint64)1; }");
  CHECK_MESSAGE(text.find("t.bt:1:14: error: Cannot cast from 'unsigned int64' to 'int8[4]': the array has 4 bytes, "
                          "the integer 8; both sides of an array cast must have the same size") != std::string::npos,
                text);
  text = refusal("BEGIN { $a = (bool[])\"abc\"; }");
  CHECK_MESSAGE(text.find("t.bt:1:14: error: Cannot cast from 'string[4]' to 'bool[]': only an integer's bytes make an "
                          "array") != std::string::npos,
                text);
  text = refusal("BEGIN { $a = (uint16)pton(\"1.2.3.4\"); }");
  CHECK_MESSAGE(text.find("t.bt:1:14: error: Cannot cast from 'unsigned int8[4]' to 'unsigned int16': an array (4 "
                          "bytes) casts only to an integer of its size") != std::string::npos,
                text);
  text = refusal("BEGIN { $a = (int8[0])(uint64)1; }");
  CHECK_MESSAGE(text.find("t.bt:1:20: error: an array cast's count must be from 1 to 4294967295, or left out") !=
                    std::string::npos,
                text);
  CHECK(accepted("BEGIN { $a = (int16[4])(uint64)1; $b = (bool[8])(uint64)1; $c = (uint32)$a[0]; exit(); }"));
}

TEST_CASE("kfunc_exist and kfunc_allowed take the kfunc's name as a string literal") {
  std::string text = refusal("BEGIN { $n = \"bpf_task_from_pid\"; print(kfunc_allowed($n)); }");
  CHECK_MESSAGE(text.find("t.bt:1:55: error: kfunc_allowed() takes the kfunc's name as a string literal") !=
                    std::string::npos,
                text);
}
