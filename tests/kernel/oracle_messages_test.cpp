// The messages bpftrace users script against, against bpftrace 0.17 on this host: rawprobe's
// first line says what bpftrace's says (after each tool's own prefix, "rawprobe: " against
// "ERROR: " or "bpftrace: "), and whatever rawprobe adds comes on a hint line. Also the options
// that only change what is printed: -B, --no-warnings, --usdt-file-activation.
#include <doctest/doctest.h>

#include "tests/kernel/cli_run.h"
#include "tests/kernel/oracle_first_error.h"

using namespace rawprobe::cli_test;

namespace {

std::string first_line(const std::string& text) {
  size_t start = 0;
  // bpftrace 0.17 may first warn that it could not raise RLIMIT_MEMLOCK.
  while (text.compare(start, 6, "ERROR:") == 0 && text.find("RLIMIT_MEMLOCK", start) < text.find('\n', start))
    start = text.find('\n', start) + 1;
  return text.substr(start, text.find('\n', start) - start);
}

std::string without_prefix(std::string line) {
  for (const char* p : {"ERROR: ", "bpftrace: ", "rawprobe: "})
    if (line.rfind(p, 0) == 0) return line.substr(std::string(p).size());
  return line;
}

}  // namespace

TEST_SUITE_BEGIN("host-only");

TEST_CASE("usage errors begin with bpftrace 0.17's words and add a hint line") {
  const std::vector<std::vector<std::string>> cases = {
      {},
      {"/tmp/rawprobe-no-such-script.bt"},
      {"--bogus", "-e", "BEGIN { exit(); }"},
      {"-z", "-e", "BEGIN { exit(); }"},
      {"-p", "abc", "-e", "BEGIN { exit(); }"},
      {"-f", "xml", "-e", "BEGIN { exit(); }"},
      {"-B", "bogus", "-e", "BEGIN { exit(); }"},
  };
  for (const std::vector<std::string>& args : cases) {
    std::vector<std::string> bt_argv{"bpftrace"};
    bt_argv.insert(bt_argv.end(), args.begin(), args.end());
    RunResult bt = run(bt_argv);
    RunResult rp = run_rawprobe(args);
    std::string theirs = without_prefix(first_line(bt.err)), ours = without_prefix(first_line(rp.err));
    INFO("args: ", bt_argv.size() > 1 ? bt_argv[1] : "(none)", "\nbpftrace: ", bt.err, "\nrawprobe: ", rp.err);
    CHECK(bt.status != 0);
    CHECK(rp.status != 0);
    REQUIRE(!theirs.empty());
    CHECK(ours.rfind(theirs, 0) == 0);
    CHECK(rp.err.find("\nhint: ") != std::string::npos);
  }
}

TEST_CASE("a tracepoint that does not exist: bpftrace 0.17's words, then a suggestion") {
  std::string script = "tracepoint:syscalls:sys_enter_reed { exit(); }";
  RunResult bt = run({"bpftrace", "-e", script});
  RunResult rp = run_rawprobe({"-e", script});
  CHECK(first_error(bt.err) == "1:1: tracepoint not found: syscalls:sys_enter_reed");
  CHECK(first_error(rp.err).rfind(first_error(bt.err), 0) == 0);
  CHECK(rp.err.find("did you mean 'tracepoint:syscalls:sys_enter_read'") != std::string::npos);
  CHECK(rp.status == 1);
}

TEST_CASE("-B none, line and full are taken as bpftrace 0.17 takes them") {
  std::string script = "BEGIN { printf(\"a\\n\"); printf(\"b\"); @x = 3; exit(); }";
  for (const char* mode : {"none", "line", "full"}) {
    INFO(mode);
    RunResult bt = run({"bpftrace", "-B", mode, "-e", script});
    RunResult rp = run_rawprobe({"-B", mode, "-e", script});
    REQUIRE(bt.status == 0);
    CHECK(rp.status == 0);
    CHECK(rp.out == bt.out);
  }
}

TEST_CASE("--no-warnings drops the WARNING lines, as bpftrace 0.17's does") {
  // A file without DWARF: -lv warns that it cannot show parameters.
  std::string bin = sample("fun");
  for (bool quiet : {false, true}) {
    std::vector<std::string> args{"-lv", "uprobe:" + bin + ":bar"};
    if (quiet) args.insert(args.begin(), "--no-warnings");
    std::vector<std::string> bt_argv{"bpftrace"};
    bt_argv.insert(bt_argv.end(), args.begin(), args.end());
    RunResult bt = run(bt_argv);
    RunResult rp = run_rawprobe(args);
    INFO("quiet ", quiet, "\nbpftrace: ", bt.err, "\nrawprobe: ", rp.err);
    CHECK((bt.err.find("WARNING: No DWARF found") != std::string::npos) == !quiet);
    CHECK((rp.err.find("WARNING: No DWARF found") != std::string::npos) == !quiet);
    CHECK(rp.status == 0);
  }
  // A full map: rawprobe counts the updates the kernel refused.
  std::string script = "BEGIN { $i = 0; while ($i < 5000) { @m[$i] = 1; $i++; } exit(); }";
  RunResult loud = run_rawprobe({"-e", script});
  RunResult quiet = run_rawprobe({"--no-warnings", "-e", script});
  CHECK(loud.err.find("WARNING: Failed to map_update_elem") != std::string::npos);
  CHECK(quiet.err.find("WARNING") == std::string::npos);
  CHECK(quiet.status == 0);
  CHECK(quiet.out == loud.out);
}

TEST_CASE("--usdt-file-activation is taken, and USDT probes fire with it as bpftrace 0.17's do") {
  std::string bin = sample("hello_usdt");
  std::string script = "usdt:" + bin + ":*:* { @hits = count(); }";
  RunResult bt = run({"bpftrace", "--usdt-file-activation", "-c", bin + " 3", "-e", script});
  RunResult rp = run_rawprobe({"--usdt-file-activation", "-c", bin + " 3", "-e", script});
  INFO("bpftrace: ", bt.out, bt.err, "\nrawprobe: ", rp.out, rp.err);
  REQUIRE(bt.status == 0);
  CHECK(rp.status == 0);
  CHECK(lines_starting(rp.out, "@hits") == lines_starting(bt.out, "@hits"));
  CHECK(!lines_starting(rp.out, "@hits").empty());
}

TEST_SUITE_END();

TEST_SUITE_BEGIN("host-only");

TEST_CASE("usdt::PROVIDER:NAME, usdt:*:NAME and quoted parts find the -p process's probes as bpftrace 0.17 does") {
  std::string bin = sample("hello_usdt");
  Process target({bin, "30"});
  usleep(300 * 1000);  // let it exec and map its libraries
  std::string pid = std::to_string(target.pid());
  for (std::string spec : {std::string("usdt::yeet-Im-a-USDT-probe:USDT-test-probe"), std::string("usdt:*:USDT-test-probe"),
                           "usdt:\"" + bin + "\":\"yeet-Im-a-USDT-probe\":\"USDT-test-probe\""}) {
    std::string script = spec + " { @hits = count(); exit(); }";
    RunResult bt = run({"bpftrace", "-p", pid, "-e", script});
    RunResult rp = run_rawprobe({"-p", pid, "-e", script});
    INFO(spec, "\nbpftrace: ", bt.out, bt.err, "\nrawprobe: ", rp.out, rp.err);
    REQUIRE(bt.status == 0);
    CHECK(rp.status == 0);
    CHECK(lines_starting(rp.out, "@hits") == lines_starting(bt.out, "@hits"));
    CHECK(lines_starting(rp.out, "@hits") == std::vector<std::string>{"@hits: 1"});
  }
  // Without a process there is nothing to search: bpftrace 0.17's words, then what to do.
  std::string script = "usdt::yeet-Im-a-USDT-probe:USDT-test-probe { exit(); }";
  RunResult bt = run({"bpftrace", "-e", script});
  RunResult rp = run_rawprobe({"--dry-run", "-e", script});
  CHECK(rp.status == 1);
  CHECK(first_error(rp.err).rfind(first_error(bt.err), 0) == 0);
  CHECK(first_error(bt.err) == "1:1: usdt probe must specify at least path or pid to probe");
}

TEST_SUITE_END();
