// The traced process changes under the run: it execs another binary, or its binary is
// deleted or replaced while it runs. With -c and with -p, in every uprobe attach mode,
// rawprobe follows the pid to its exit (the pid outlives an exec, and a running binary's
// inode outlives its name), counts exactly the calls the process reports, prints its maps,
// and leaves no link or uprobe_events entry behind.
#include <doctest/doctest.h>
#include <stdlib.h>

#include <cstdio>
#include <regex>

#include "tests/kernel/cli_run.h"
#include "tests/kernel/fault_support.h"

using namespace rawprobe;
using namespace rawprobe::cli_test;

namespace {

enum class Change { Exec, Delete, Replace };
const char* change_name(Change c) { return c == Change::Exec ? "exec" : c == Change::Delete ? "delete" : "replace"; }

// The first match of `re`'s group 1 in `text`, "?" when none.
std::string first(const std::string& text, const std::string& re) {
  std::smatch m;
  return std::regex_search(text, m, std::regex(re)) ? std::string(m[1]) : "?";
}

// A private copy of the exec_calls sample (deleting or replacing it must not touch the build's).
struct SampleCopy {
  std::string dir, path;
  SampleCopy() {
    char tmpl[] = "/tmp/rawprobe-tracee-XXXXXX";
    REQUIRE(mkdtemp(tmpl));
    dir = tmpl;
    path = dir + "/exec_calls";
    REQUIRE(run({"cp", sample("exec_calls"), path}).status == 0);
  }
  ~SampleCopy() { run({"rm", "-rf", dir}); }
};

void apply(Change change, const SampleCopy& copy) {
  if (change == Change::Delete) REQUIRE(std::remove(copy.path.c_str()) == 0);
  if (change == Change::Replace) {  // another program renamed over the name, as an upgrade does
    REQUIRE(run({"cp", sample("fun"), copy.path + ".new"}).status == 0);
    REQUIRE(std::rename((copy.path + ".new").c_str(), copy.path.c_str()) == 0);
  }
}

void check_run(Change change, bool child, const std::string& mode) {
  CAPTURE(change_name(change));
  CAPTURE(child);
  CAPTURE(mode);
  SampleCopy copy;
  std::string fun = sample("fun");
  std::string calls = "5";
  std::vector<std::string> target_argv{copy.path, calls};
  if (change == Change::Exec) target_argv.insert(target_argv.end(), {fun, "2"});
  // After an exec the pid runs fun: its bar is counted too, through the same pid filter.
  std::string script = "BEGIN { printf(\"attached\\n\"); } uprobe:" + copy.path + ":counted { @counted = count(); } "
                       "uprobe:" + fun + ":bar { @bar = count(); }";
  std::vector<std::string> tracer_argv{rawprobe_path(), "--attach-mode=" + mode};
  std::optional<Process> target;
  if (child) {
    std::string command;
    for (const std::string& w : target_argv) command += (command.empty() ? "" : " ") + w;
    tracer_argv.insert(tracer_argv.end(), {"-c", command, "-e", script});
  } else {
    target.emplace(target_argv);
    REQUIRE(target->wait_for_output("\n", 10));
    tracer_argv.insert(tracer_argv.end(), {"-p", std::to_string(target->pid()), "-e", script});
  }
  Process tracer(tracer_argv);
  // -c: the child prints its pid once released, after every probe is attached.
  std::string wait_for = child ? "exec_calls pid " : "attached\n";
  REQUIRE_MESSAGE(tracer.wait_for_output(wait_for, 30), tracer.so_far().err);
  if (child) REQUIRE(tracer.wait_for_output("\n", 10));
  pid_t pid = child ? std::stoi(first(tracer.so_far().out, "exec_calls pid ([0-9]+)\n")) : target->pid();
  std::set<std::string> links = ids_in(fdinfo_of(tracer.pid(), "anon_inode:bpf_link"), "link_id");
  std::string own_event = "rawprobe_" + std::to_string(tracer.pid()) + "_";
  CHECK((uprobe_events().find(own_event) != std::string::npos) == (mode == "legacy"));

  apply(change, copy);
  kill(pid, SIGUSR1);
  RunResult t = target ? target->finish(20) : RunResult{};
  RunResult r = tracer.finish(30);
  std::string reports = r.err + t.err;  // the process's stderr: rawprobe's with -c, its own with -p
  CHECK_MESSAGE(r.status == 0, r.err);
  CHECK_MESSAGE(r.out.find("@counted: " + first(reports, "exec_calls: counted=([0-9]+) ") + "\n") != std::string::npos,
                r.out << reports);
  if (change == Change::Exec)
    CHECK_MESSAGE(r.out.find("@bar: " + first(reports, "fun\\.c calls: fun=[0-9]+ foo=[0-9]+ bar=([0-9]+)") + "\n") !=
                      std::string::npos,
                  r.out << reports);
  CHECK(still_there("link", links).empty());
  // Read once: a failed check stringifies its message inside doctest's lock, where
  // uprobe_events()'s own REQUIRE would wait on that lock forever.
  std::string events_after = uprobe_events();
  CHECK_MESSAGE(events_after.find(own_event) == std::string::npos, events_after);
}

}  // namespace

TEST_SUITE_BEGIN("host-only");

TEST_CASE("The traced process execs another binary: its maps print at its exit, both images counted") {
  for (bool child : {true, false})
    for (const char* mode : {"auto", "pmu", "legacy"}) check_run(Change::Exec, child, mode);
}

TEST_CASE("The traced binary is deleted or replaced during the run: counted to the exit, nothing left") {
  for (bool child : {true, false}) {
    check_run(Change::Delete, child, "legacy");
    check_run(Change::Delete, child, "auto");
    check_run(Change::Replace, child, "pmu");
    check_run(Change::Replace, child, "legacy");
  }
}

TEST_SUITE_END();
