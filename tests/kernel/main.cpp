// doctest's main for the kernel suite: real attachments on this machine's kernel, as root.
// Not root: every case is skipped (and counted as skipped), except under CI=true, where a skip
// hides missing coverage and so counts as a failure.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

#include <string>

#include "engine/sys/tracefs.h"
#include "tests/kernel/cli_run.h"

namespace {

// Keeps the source file of the case running now, for cli_test::current_case_file(); every
// other event is of no interest here.
std::string running_case_file;

struct CaseFileListener : doctest::IReporter {
  explicit CaseFileListener(const doctest::ContextOptions&) {}
  void test_case_start(const doctest::TestCaseData& in) override { running_case_file = in.m_file.c_str(); }
  void test_case_end(const doctest::CurrentTestCaseStats&) override { running_case_file.clear(); }
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats&) override {}
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};
REGISTER_LISTENER("case_file", 1, CaseFileListener);

}  // namespace

const std::string& rawprobe::cli_test::current_case_file() { return running_case_file; }

int main(int argc, char** argv) {
  if (geteuid() != 0) {
    const char* ci = std::getenv("CI");
    doctest::Context count_ctx;
    count_ctx.applyCommandLine(argc, argv);
    count_ctx.setOption("count", true);
    count_ctx.setOption("no-version", true);
    count_ctx.run();
    if (ci && std::strcmp(ci, "true") == 0) {
      std::printf("kernel suite needs root; under CI=true this is a failure\n");
      std::printf("suite kernel: 0 passed, 1 failed, 0 skipped\n");
      return 1;
    }
    std::printf("kernel suite needs root: skipping every case (run as root to test)\n");
    std::printf("[rawprobe] kernel cases skipped: not root\n");
    return 0;
  }
  // Cases read tracefs themselves (formats, available_events, kprobe_events) to compare with
  // rawprobe: find it, or on a machine booted without it, mount it as rawprobe itself does.
  (void)rawprobe::sys::tracefs_dir();
  doctest::Context ctx;
  ctx.applyCommandLine(argc, argv);
  return ctx.run();
}
