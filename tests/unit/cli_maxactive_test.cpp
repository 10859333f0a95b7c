// --kretprobe-maxactive (engine/driver/options.h): the kernel's range 1..4096 only, documented
// in --help, and refused with --attach-mode=pmu, whose perf_event_attr cannot carry it.
#include <doctest/doctest.h>

#include <array>
#include <string>

#include "engine/driver/options.h"
#include "engine/sys/tracefs.h"

using namespace rawprobe;
using namespace rawprobe::driver;

TEST_CASE("--kretprobe-maxactive=N lands in the options, from 1 to the kernel's limit") {
  for (const char* value : {"1", "16", "4096"}) {
    CAPTURE(value);
    std::string arg = std::string("--kretprobe-maxactive=") + value;
    std::array<const char*, 4> argv = {"rawprobe", arg.c_str(), "-e", "kretprobe:vfs_read { }"};
    Result<Options> r = parse_options(int(argv.size()), argv.data());
    REQUIRE(r);
    CHECK(r->kretprobe_maxactive == std::stoul(value));
  }
  std::array<const char*, 5> separate = {"rawprobe", "--kretprobe-maxactive", "8", "-e", "kretprobe:vfs_read { }"};
  Result<Options> r = parse_options(int(separate.size()), separate.data());
  REQUIRE(r);
  CHECK(r->kretprobe_maxactive == 8);
  CHECK(sys::DynamicEvent::kMaxActiveLimit == 4096);
}

TEST_CASE("--kretprobe-maxactive outside 1..4096 or not a number is a usage error naming it") {
  for (const char* value : {"0", "4097", "-1", "", "8x", "x", "99999999999999999999"}) {
    CAPTURE(value);
    std::string arg = std::string("--kretprobe-maxactive=") + value;
    std::array<const char*, 4> argv = {"rawprobe", arg.c_str(), "-e", "kretprobe:vfs_read { }"};
    Result<Options> r = parse_options(int(argv.size()), argv.data());
    REQUIRE_FALSE(r);
    CHECK(r.error().message().find("--kretprobe-maxactive needs a number from 1 to 4096") != std::string::npos);
  }
}

TEST_CASE("--kretprobe-maxactive with --attach-mode=pmu is refused; auto and legacy take it") {
  for (const char* mode : {"pmu", "auto", "legacy"}) {
    CAPTURE(mode);
    std::string arg = std::string("--attach-mode=") + mode;
    std::array<const char*, 5> argv = {"rawprobe", arg.c_str(), "--kretprobe-maxactive=8", "-e",
                                       "kretprobe:vfs_read { }"};
    Result<Options> r = parse_options(int(argv.size()), argv.data());
    if (std::string(mode) == "pmu") {
      REQUIRE_FALSE(r);
      CHECK(r.error().message().find("--kretprobe-maxactive cannot be used with --attach-mode=pmu") !=
            std::string::npos);
      CHECK(r.error().hint.find("kprobe_events") != std::string::npos);
    } else {
      CHECK(r);
    }
  }
}

TEST_CASE("--help documents --kretprobe-maxactive and how it attaches") {
  std::string help = usage_text();
  CHECK(help.find("--kretprobe-maxactive=N") != std::string::npos);
  CHECK(help.find("r<N>:") != std::string::npos);
}
