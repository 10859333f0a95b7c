// rawprobe's command line (engine/driver/options.h): each option lands in its field, short
// options group as in bpftrace (-lv, -qe PROG), and every kind of bad usage is an error
// that names the option (main() exits 2 on it).
#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <unistd.h>
#include <vector>

#include "engine/driver/options.h"

using namespace rawprobe;
using namespace rawprobe::driver;

namespace {

Result<Options> parse(std::initializer_list<const char*> args) {
  std::vector<const char*> argv{"rawprobe"};
  argv.insert(argv.end(), args);
  return parse_options(int(argv.size()), argv.data());
}

std::string error_of(std::initializer_list<const char*> args) {
  Result<Options> r = parse(args);
  return r ? std::string("(accepted)") : r.error().message();
}

}  // namespace

TEST_CASE("-I DIR and --include FILE, in the order given, as bpftrace takes them") {
  Result<Options> r = parse({"-I", "one", "-Itwo", "--include", "a.h", "--include=b.h", "tool.bt"});
  REQUIRE(r);
  CHECK(r->include_dirs == std::vector<std::string>{"one", "two"});
  CHECK(r->forced_includes == std::vector<std::string>{"a.h", "b.h"});
  CHECK(r->program_file == "tool.bt");
  CHECK(error_of({"-e", "BEGIN {}", "-I"}).find("-I needs a value") == 0);
  CHECK(error_of({"-e", "BEGIN {}", "--include"}).find("--include needs a value") == 0);
  CHECK(error_of({"-e", "BEGIN {}", "--include="}).find("--include needs a file") == 0);
}

TEST_CASE("a program inline or from a file, with the run options") {
  Result<Options> r = parse({"-e", "BEGIN { exit(); }", "-c", "build/samples/fun 3", "-o", "out.txt", "-q",
                             "-f", "json", "--unsafe", "--dry-run", "--attach-mode=legacy"});
  REQUIRE(r);
  CHECK(r->mode == Mode::Run);
  CHECK(r->inline_program);
  CHECK(r->program == "BEGIN { exit(); }");
  CHECK(r->source_name() == "-e");
  CHECK(r->command == "build/samples/fun 3");
  CHECK(r->output_file == "out.txt");
  CHECK(r->quiet);
  CHECK(r->format == OutputFormat::Json);
  CHECK(r->unsafe);
  CHECK(r->dry_run);
  CHECK(r->attach_mode == probes::AttachMode::Legacy);
  CHECK(r->event_buffer == EventBuffer::Auto);
  CHECK(parse({"--event-buffer=perf", "-e", "BEGIN {}"})->event_buffer == EventBuffer::Perf);
  CHECK(parse({"--event-buffer", "ringbuf", "-e", "BEGIN {}"})->event_buffer == EventBuffer::Ringbuf);

  Result<Options> f = parse({"-p", "1", "script.bt"});
  REQUIRE(f);
  CHECK(f->program_file == "script.bt");
  CHECK(f->source_name() == "script.bt");
  CHECK(f->pid == 1);
  CHECK(!f->inline_program);

  // Words after the program are its positional parameters $1, $2, ...
  Result<Options> with_params = parse({"script.bt", "42", "foo", "-q"});
  REQUIRE(with_params);
  CHECK(with_params->program_file == "script.bt");
  CHECK(with_params->params == std::vector<std::string>{"42", "foo"});
  CHECK(with_params->quiet);
  Result<Options> inline_params = parse({"-e", "BEGIN {}", "x.bt", "--", "-5"});
  REQUIRE(inline_params);
  CHECK(inline_params->params == std::vector<std::string>{"x.bt", "-5"});

  Result<Options> grouped = parse({"-qe", "BEGIN {}", "-p123"});
  REQUIRE(grouped);
  CHECK(grouped->quiet);
  CHECK(grouped->program == "BEGIN {}");
  CHECK(grouped->pid == 123);
}

TEST_CASE("listing, explain and the informational modes") {
  Result<Options> lv = parse({"-lv", "tracepoint:syscalls:sys_enter_read"});
  REQUIRE(lv);
  CHECK(lv->mode == Mode::List);
  CHECK(lv->verbose);
  CHECK(lv->list_pattern == "tracepoint:syscalls:sys_enter_read");
  Result<Options> all = parse({"-l"});
  REQUIRE(all);
  CHECK(all->mode == Mode::List);
  CHECK(all->list_pattern.empty());
  Result<Options> ex = parse({"--explain", "uprobe:/bin/true:main", "-p", "42"});
  REQUIRE(ex);
  CHECK(ex->mode == Mode::Explain);
  CHECK(ex->explain == "uprobe:/bin/true:main");
  CHECK(ex->pid == 42);
  CHECK(parse({"--version"})->mode == Mode::Version);
  CHECK(parse({"-V"})->mode == Mode::Version);
  CHECK(parse({"--help"})->mode == Mode::Help);
  CHECK(parse({"-h"})->mode == Mode::Help);
  CHECK(parse({"--info"})->mode == Mode::Info);
  CHECK(parse({"--trace-syscalls", "--info"})->trace_syscalls);
}

TEST_CASE("dumps: -d is bpf, --dump takes each kind once") {
  Result<Options> r = parse({"-d", "--dump=ast", "--dump", "bpf", "--dump=xlated", "--dump=jited-size", "-e", "BEGIN {}"});
  REQUIRE(r);
  std::vector<DumpKind> want{DumpKind::Bpf, DumpKind::Ast, DumpKind::Xlated, DumpKind::JitedSize};
  CHECK(r->dumps == want);
  for (DumpKind k : want) CHECK(*parse_dump_kind(dump_kind_name(k)) == k);
}

TEST_CASE("bad usage names the option and what to write instead") {
  CHECK(error_of({"-x", "-e", "BEGIN {}"}).find("invalid option -- 'x'") != std::string::npos);
  CHECK(error_of({"--frobnicate"}).find("unrecognized option '--frobnicate'") != std::string::npos);
  CHECK(error_of({}).find("no program given") != std::string::npos);
  CHECK(error_of({"-B", "some", "-e", "BEGIN {}"}).find("-B must be either") != std::string::npos);
  CHECK(error_of({"-e"}).find("-e needs a value") != std::string::npos);
  CHECK(error_of({"-p", "abc", "-e", "BEGIN {}"}).find("-p needs a process id") != std::string::npos);
  CHECK(error_of({"-p", "0", "-e", "BEGIN {}"}).find("-p needs a process id") != std::string::npos);
  CHECK(error_of({"-f", "xml", "-e", "BEGIN {}"}).find("valid formats: text, json, folded, openmetrics, prometheus") != std::string::npos);
  CHECK(error_of({"--dump=llvm", "-e", "BEGIN {}"}).find("unknown dump 'llvm'") != std::string::npos);
  CHECK(error_of({"--attach-mode=fast", "-e", "BEGIN {}"}).find("unknown attach mode 'fast'") != std::string::npos);
  CHECK(error_of({"-e", "a", "-e", "b"}).find("more than one program") != std::string::npos);
  CHECK(error_of({"-c", "ls", "-p", "1", "-e", "BEGIN {}"}).find("-c and -p cannot be combined") != std::string::npos);
  CHECK(error_of({"-l", "-e", "BEGIN {}"}).find("-l lists probes") != std::string::npos);
  CHECK(error_of({"-l", "a", "b"}).find("-l takes one pattern") != std::string::npos);
  CHECK(error_of({"--unsafe=yes", "-e", "BEGIN {}"}).find("--unsafe takes no value") != std::string::npos);
  CHECK(error_of({"--event-buffer=pipe", "-e", "BEGIN {}"}).find("unknown event buffer 'pipe'") != std::string::npos);
  CHECK(error_of({"--explain"}).find("--explain needs a value") != std::string::npos);
}

TEST_CASE("read_program reads the script file, and names a missing one") {
  char path[] = "/tmp/rawprobe-cli-XXXXXX";
  int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  const std::string text = "BEGIN { printf(\"hi\\n\"); exit(); }\n";
  REQUIRE(write(fd, text.data(), text.size()) == ssize_t(text.size()));
  close(fd);
  Result<Options> r = parse({path});
  REQUIRE(r);
  REQUIRE(read_program(*r));
  CHECK(r->program == text);
  unlink(path);
  Status missing = read_program(*r);
  REQUIRE(!missing);
  CHECK(missing.error().message().find(path) != std::string::npos);
  // bpftrace 0.17's words: "failed to open file 'PATH': No such file or directory".
  CHECK(missing.error().message().rfind("failed to open file '" + std::string(path) + "': " + std::strerror(ENOENT), 0) == 0);
}

// -k and -kk: how many times -k is given, alone, grouped with other short options or repeated,
// is the level of helper checks; a third -k is bad usage, as in bpftrace 0.17
// (tests/kernel/cli_helper_errors_test.cpp compares the message with its).
TEST_CASE("-k counts: none 0, -k 1, -kk or -k -k 2, also grouped with other short options") {
  struct Case {
    std::initializer_list<const char*> args;
    uint32_t level;
  };
  const Case cases[] = {
      {{"-e", "BEGIN {}"}, 0},
      {{"-k", "-e", "BEGIN {}"}, 1},
      {{"-kk", "-e", "BEGIN {}"}, 2},
      {{"-k", "-k", "-e", "BEGIN {}"}, 2},
      {{"-qk", "-e", "BEGIN {}"}, 1},
      {{"-kke", "BEGIN {}"}, 2},
      {{"-e", "BEGIN {}", "-k"}, 1},
  };
  for (const Case& c : cases) {
    Result<Options> r = parse(c.args);
    REQUIRE(r);
    CAPTURE(*c.args.begin());
    CHECK(r->helper_checks == c.level);
    CHECK(r->program == "BEGIN {}");
  }
  CHECK(parse({"-qk", "-e", "BEGIN {}"})->quiet);
}

TEST_CASE("a third -k is bad usage that says how many are allowed") {
  for (auto args : {std::initializer_list<const char*>{"-kkk", "-e", "BEGIN {}"},
                    std::initializer_list<const char*>{"-kk", "-k", "-e", "BEGIN {}"}}) {
    Result<Options> r = parse(args);
    REQUIRE(!r);
    CHECK(r.error().what.rfind("USAGE: -k may be given at most twice", 0) == 0);
    CHECK(r.error().hint.find("-kk") != std::string::npos);
  }
}

TEST_CASE("--help lists -k and -kk") {
  std::string help = usage_text();
  CHECK(help.find("\n  -k ") != std::string::npos);
  CHECK(help.find("\n  -kk ") != std::string::npos);
}

TEST_CASE("--test, --bench and --probe-filter land in their fields; --test and --bench exclude each other") {
  Result<Options> t = parse({"--test", "tests.bt"});
  REQUIRE(t);
  CHECK(t->blocks == BlockSet::Tests);
  CHECK(t->program_file == "tests.bt");
  Result<Options> b = parse({"--bench", "-e", "bench:x {}"});
  REQUIRE(b);
  CHECK(b->blocks == BlockSet::Benches);
  CHECK(parse({"-e", "BEGIN {}"})->blocks == BlockSet::Ordinary);
  CHECK(parse({"--test", "--test", "-e", "test:x {}"})->blocks == BlockSet::Tests);
  CHECK(error_of({"--test", "--bench", "-e", "x"}).find("--bench conflicts with --test") == 0);
  CHECK(error_of({"--bench", "--test", "-e", "x"}).find("--test conflicts with --bench") == 0);
  CHECK(error_of({"--test=1", "-e", "x"}).find("--test takes no value") == 0);

  Result<Options> f = parse({"--probe-filter", "sys_enter_(read|write)", "-e", "BEGIN {}"});
  REQUIRE(f);
  CHECK(f->has_probe_filter);
  CHECK(f->probe_filter == "sys_enter_(read|write)");
  Result<Options> eq = parse({"--probe-filter=", "-e", "BEGIN {}"});
  REQUIRE(eq);
  CHECK(eq->has_probe_filter);
  CHECK(eq->probe_filter.empty());
  CHECK_FALSE(parse({"-e", "BEGIN {}"})->has_probe_filter);
  CHECK(error_of({"-e", "BEGIN {}", "--probe-filter"}).find("--probe-filter needs a value") == 0);
}
