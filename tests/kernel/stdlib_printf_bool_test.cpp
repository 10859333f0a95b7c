// printf's %s of a bool, run for real: the bools are facts about a child process (its exit
// status, as the kernel's sys_enter_exit_group tracepoint records it), and the expected words
// come from the status the test itself sees from waitpid(). bpftrace 0.22 on prints a bool
// under %s as true or false (src/format_string.cpp streams the value; tests/runtime/bool).
#include <doctest/doctest.h>

#include <cstdlib>
#include <sys/wait.h>

#include "tests/kernel/cli_run.h"

using namespace rawprobe::cli_test;

TEST_CASE("printf(\"%s\") of a bool prints true or false, %d prints 1 or 0, as the exit status says") {
  for (const char* program : {"/bin/true", "/bin/false"}) {
    CAPTURE(program);
    int status = std::system(program);
    REQUIRE(WIFEXITED(status));
    bool succeeded = WEXITSTATUS(status) == 0;
    RunResult r = run_rawprobe(
        {"-c", program, "-e",
         "tracepoint:syscalls:sys_enter_exit_group /pid == cpid/ { $ok = args.error_code == 0;"
         " printf(\"%s|%d|%-6s|%6s|\\n\", $ok, $ok, !$ok, $ok); }"});
    INFO(r.err);
    REQUIRE(r.status == 0);
    std::string yes = succeeded ? "true" : "false", no = succeeded ? "false" : "true";
    char expected[64];
    std::snprintf(expected, sizeof expected, "%s|%d|%-6s|%6s|", yes.c_str(), succeeded ? 1 : 0, no.c_str(), yes.c_str());
    CHECK(lines_starting(r.out, yes + "|") == std::vector<std::string>{expected});
  }
}
