// SIGKILL of rawprobe while attached, in each uprobe attach mode: the kernel frees every
// program, map and link the process held (their ids, read from its fdinfo before the kill,
// stop resolving), and a legacy uprobe_events entry, which the kernel keeps, is removed by
// the next run, which says so.
#include <doctest/doctest.h>

#include <regex>
#include <set>

#include "tests/kernel/cli_run.h"
#include "tests/kernel/fault_support.h"

using namespace rawprobe;
using namespace rawprobe::cli_test;

TEST_SUITE_BEGIN("host-only");

TEST_CASE("SIGKILL while attached leaves no program, map or link, in every uprobe attach mode") {
  std::string fun = sample("fun");
  for (const char* mode : {"auto", "pmu", "legacy"}) {
    CAPTURE(mode);
    Process tracer({rawprobe_path(), "--attach-mode=" + std::string(mode), "-e",
                    "uprobe:" + fun + ":bar { @calls = count(); } uretprobe:" + fun +
                        ":bar { @ret[retval] = count(); } BEGIN { printf(\"attached\\n\"); }"});
    REQUIRE_MESSAGE(tracer.wait_for_output("attached\n", 30), tracer.so_far().err);
    pid_t pid = tracer.pid();
    std::set<std::string> progs = ids_in(fdinfo_of(pid, "anon_inode:bpf-prog"), "prog_id");
    std::set<std::string> maps = ids_in(fdinfo_of(pid, "anon_inode:bpf-map"), "map_id");
    std::set<std::string> links = ids_in(fdinfo_of(pid, "anon_inode:bpf_link"), "link_id");
    std::string events_before = uprobe_events();
    std::string own_event = "uprobes/rawprobe_" + std::to_string(pid) + "_";
    REQUIRE(progs.size() >= 2);  // the uprobe's and the uretprobe's (and BEGIN's)
    REQUIRE(!maps.empty());
    if (std::string(mode) == "auto") CHECK(!links.empty());  // uprobe_multi links
    for (const std::string& id : progs) CHECK(bpftool_finds("prog", id));
    CHECK((events_before.find(own_event) != std::string::npos) == (std::string(mode) == "legacy"));

    tracer.signal(SIGKILL);
    RunResult killed = tracer.finish(10);
    CHECK(killed.status == 128 + SIGKILL);
    CHECK(still_there("prog", progs).empty());
    CHECK(still_there("map", maps).empty());
    CHECK(still_there("link", links).empty());
    if (std::string(mode) != "legacy") continue;

    // The kernel keeps a legacy event after its owner dies; the next run removes it and says so.
    std::string events = uprobe_events();
    std::regex own_re("p:(uprobes/rawprobe_" + std::to_string(pid) + "_[0-9]+) ");
    std::smatch m;
    REQUIRE_MESSAGE(std::regex_search(events, m, own_re), events);
    std::string stale = m[1];
    RunResult next = run_rawprobe({"-e", "BEGIN { exit(); }"});
    CHECK(next.status == 0);
    CHECK_MESSAGE(next.err.find("rawprobe: removed " + stale + ", left by rawprobe process " + std::to_string(pid) +
                                ", which is gone\n") != std::string::npos,
                  next.err);
    CHECK(uprobe_events().find(own_event) == std::string::npos);
  }
}

TEST_SUITE_END();
