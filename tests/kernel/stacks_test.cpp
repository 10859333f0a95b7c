// kstack, ustack, ksym and usym on real attachments, each checked against an oracle that does
// not share rawprobe's code: objdump's calls for the order of user frames, nm for names and
// offsets, /proc/kallsyms for kernel frames, the samples' own reports, and bpftrace 0.17's
// output for the same script on the same process (host-only).
#include <doctest/doctest.h>

#include <signal.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "elf/binary.h"
#include "elf/resolve.h"
#include "tests/kernel/cli_run.h"

namespace rawprobe::cli_test {
namespace {

// The entries of map `name` in text output: each key's text (between "@name[" and "]: ")
// with its count. Stack keys span lines.
std::vector<std::pair<std::string, uint64_t>> entries(const std::string& out, const std::string& name) {
  std::vector<std::pair<std::string, uint64_t>> found;
  std::string open = name + "[";
  for (size_t at = out.find(open); at != std::string::npos; at = out.find(open, at)) {
    if (at > 0 && out[at - 1] != '\n') {
      ++at;
      continue;
    }
    size_t key = at + open.size();
    size_t close = out.find("]: ", key);
    if (close == std::string::npos) break;
    size_t end = out.find('\n', close);
    found.emplace_back(out.substr(key, close - key), std::strtoull(out.c_str() + close + 3, nullptr, 10));
    at = end == std::string::npos ? out.size() : end;
  }
  return found;
}

std::multiset<std::string> keys_of(const std::vector<std::pair<std::string, uint64_t>>& e) {
  std::multiset<std::string> keys;
  for (const auto& [k, n] : e) keys.insert(k);
  return keys;
}

// The frames of one bpftrace-mode stack text: "\n    bar+0\n    foo+32\n" -> {"bar+0", "foo+32"}.
std::vector<std::string> frames_of(const std::string& stack) {
  std::vector<std::string> frames;
  std::istringstream in(stack);
  std::string line;
  while (std::getline(in, line)) {
    size_t b = line.find_first_not_of(" \t");
    if (b != std::string::npos) frames.push_back(line.substr(b));
  }
  return frames;
}

struct NmSymbol {
  uint64_t address = 0, size = 0;
};
// Function symbols of `path` by `nm -S --defined-only` (the oracle for names and sizes).
std::map<std::string, NmSymbol> nm_functions(const std::string& path) {
  RunResult r = run({"nm", "-S", "--defined-only", path});
  std::map<std::string, NmSymbol> out;
  std::istringstream in(r.out);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream l(line);
    std::string addr, size, type, name;
    if (!(l >> addr >> size >> type >> name) || (type != "T" && type != "t")) continue;
    out[name] = {std::stoull(addr, nullptr, 16), std::stoull(size, nullptr, 16)};
  }
  return out;
}

// objdump -d of `path`: for each instruction, the address just after it and the function it
// calls, if it is a call ("call 1189 <foo>").
std::map<uint64_t, std::string> calls_by_return_address(const std::string& path) {
  RunResult r = run({"objdump", "-d", "--no-show-raw-insn", path});
  std::map<uint64_t, std::string> calls;
  std::istringstream in(r.out);
  std::string line;
  std::string pending_target;
  while (std::getline(in, line)) {
    // "    11d7:\tcall   1189 <foo>"
    size_t colon = line.find(":\t");
    if (colon == std::string::npos) continue;
    char* end = nullptr;
    uint64_t address = std::strtoull(line.c_str(), &end, 16);
    if (end != line.c_str() + colon) continue;
    // The instruction after a call starts at the call's return address.
    if (!pending_target.empty()) calls[address] = pending_target;
    pending_target.clear();
    size_t lt = line.find(" <"), gt = line.rfind('>');
    if (line.find("\tcall ") != std::string::npos && lt != std::string::npos && gt > lt)
      pending_target = line.substr(lt + 2, gt - lt - 2);
  }
  return calls;
}

// A process running `argv` with its output sent to /dev/null (the fun sample prints on every
// call, and nobody reads it).
Process quiet(const std::string& command) { return Process({"sh", "-c", "exec " + command + " >/dev/null 2>&1"}); }

}  // namespace

TEST_CASE("ustack at a uprobe of bar: frames in the order objdump's calls give, named as nm names them" * doctest::test_suite("host-only")) {
  const std::string fun = sample("fun");
  RunResult r = run_rawprobe({"-c", "sh -c 'exec " + fun + " 20000 >/dev/null'", "-e",
                              "uprobe:" + fun + ":bar { @[ustack] = count(); }"});
  INFO(r.out, r.err);
  REQUIRE(r.status == 0);
  std::map<std::string, NmSymbol> nm = nm_functions(fun);
  std::map<uint64_t, std::string> calls = calls_by_return_address(fun);
  REQUIRE(nm.count("bar"));
  auto stacks = entries(r.out, "@");
  // fun calls foo (which calls bar), bar, foo: three call paths to bar.
  CHECK(stacks.size() == 3);
  uint64_t total = 0;
  for (const auto& [stack, count] : stacks) {
    total += count;
    std::vector<std::string> frames = frames_of(stack);
    REQUIRE(frames.size() >= 3);
    CHECK(frames[0] == "bar+0");  // the probe is at bar's entry
    // Each frame of the sample below `main` is a return address just after a call of the
    // frame above it, and its offset lies inside the function nm names.
    for (size_t i = 1; i < frames.size(); ++i) {
      size_t plus = frames[i].rfind('+');
      REQUIRE(plus != std::string::npos);
      std::string name = frames[i].substr(0, plus);
      uint64_t offset = std::stoull(frames[i].substr(plus + 1));
      if (!nm.count(name)) break;  // past main: libc, not the sample
      CHECK(offset < nm[name].size);
      std::string callee = frames[i - 1].substr(0, frames[i - 1].rfind('+'));
      CHECK_MESSAGE(calls[nm[name].address + offset] == callee,
                    frames[i] << " is not just after a call of " << callee << " in objdump -d");
      if (name == "main") break;
    }
  }
  // The sample's own count of bar's calls.
  CHECK(r.err.find("bar=" + std::to_string(total)) != std::string::npos);
}

TEST_CASE("a process that exited before the maps are printed still has its frames named" * doctest::test_suite("host-only")) {
  // -c: the maps print after the command has exited and been reaped. Its mappings were read
  // when its first event came, which a run of 60,000 uprobe hits leaves time for.
  const std::string fun = sample("fun");
  RunResult r = run_rawprobe({"-c", "sh -c 'exec " + fun + " 20000 >/dev/null'", "-e",
                              "uprobe:" + fun + ":bar { @[ustack(perf)] = count(); }"});
  INFO(r.out, r.err);
  REQUIRE(r.status == 0);
  auto stacks = entries(r.out, "@");
  REQUIRE(!stacks.empty());
  for (const auto& [stack, count] : stacks) {
    // perf mode: "\tADDR bar+0 (/path/fun)": named, with the file it came from.
    CHECK(stack.find(" bar+0 (" + fun + ")\n") != std::string::npos);
    CHECK(stack.find(" main+") != std::string::npos);
    CHECK(stack.find("[unknown]") == std::string::npos);
  }
}

TEST_CASE("kstack at sys_enter_read: every frame is the kallsyms symbol at its address" * doctest::test_suite("host-only")) {
  // The test's own reading of /proc/kallsyms: text symbols by name.
  std::map<std::string, uint64_t> kallsyms;
  {
    std::istringstream in(read_file("/proc/kallsyms"));
    std::string addr, type, name;
    std::string line;
    while (std::getline(in, line)) {
      std::istringstream l(line);
      if (!(l >> addr >> type >> name) || (type != "T" && type != "t")) continue;
      kallsyms.emplace(name, std::stoull(addr, nullptr, 16));
    }
  }
  REQUIRE(!kallsyms.empty());
  RunResult r = run_rawprobe({"-c", "/usr/bin/dd if=/dev/zero of=/dev/null bs=1 count=50", "-e",
                              "tracepoint:syscalls:sys_enter_read /comm == \"dd\"/ { @[kstack(perf)] = count(); }"});
  INFO(r.out, r.err);
  REQUIRE(r.status == 0);
  auto stacks = entries(r.out, "@");
  REQUIRE(!stacks.empty());
  size_t checked = 0;
  for (const auto& [stack, count] : stacks) {
    std::istringstream in(stack);
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      // "\tffffffff814c3fab perf_syscall_enter+475"
      std::istringstream l(line);
      std::string addr, sym;
      REQUIRE(static_cast<bool>(l >> addr >> sym));
      size_t plus = sym.rfind('+');
      REQUIRE(plus != std::string::npos);
      std::string name = sym.substr(0, plus);
      uint64_t offset = std::stoull(sym.substr(plus + 1));
      REQUIRE_MESSAGE(kallsyms.count(name), name << " is not a text symbol in /proc/kallsyms");
      CHECK(kallsyms[name] + offset == std::stoull(addr, nullptr, 16));
      ++checked;
    }
  }
  CHECK(checked >= 2);
}

TEST_CASE("profile:hz:99 names the CPU-bound sample's hot function first by count" * doctest::test_suite("host-only")) {
  const std::string spin = sample("cpu_spin");
  RunResult r = run_rawprobe({"-c", spin + " 1.5", "-e", "profile:hz:99 /comm == \"cpu_spin\"/ { @[ustack(1)] = count(); }"});
  INFO(r.out, r.err);
  REQUIRE(r.status == 0);
  REQUIRE(r.out.find("cpu_spin rounds ") != std::string::npos);
  auto stacks = entries(r.out, "@");
  REQUIRE(!stacks.empty());
  // Text output is ordered by count, ascending: the hottest stack is the last.
  auto hottest = std::max_element(stacks.begin(), stacks.end(),
                                  [](const auto& a, const auto& b) { return a.second < b.second; });
  std::vector<std::string> frames = frames_of(hottest->first);
  REQUIRE(frames.size() == 1);
  std::string name = frames[0].substr(0, frames[0].rfind('+'));
  uint64_t offset = std::stoull(frames[0].substr(frames[0].rfind('+') + 1));
  std::map<std::string, NmSymbol> nm = nm_functions(spin);
  CHECK(name == "spin_hot");
  REQUIRE(nm.count(name));
  CHECK(offset < nm[name].size);
}

// The probe on `function` of `path` (the sample's own -O0 code) whose user stack holds the
// function's caller. On x86_64 that is the function's first instruction: the kernel adds the
// return address the call just pushed. An arm64 or arm call leaves it in the link register
// until the prologue stores the frame record, and the kernel's frame-pointer walk reads only
// frame records, so there the probe goes on the instruction after the one that sets the frame
// pointer, found in the function's own bytes: arm64's `mov x29, sp` after
// `stp x29, x30, [sp, #-N]!`; arm's `sub fp, ip, #4` after `push {fp, ip, lr, pc}` (the APCS
// frame the armhf samples are built with, which the arm kernel's walk follows).
#if defined(__aarch64__) || defined(__arm__)
std::string probe_with_caller_frame(const std::string& path, const std::string& function) {
  auto binary = elf::Binary::open(path);
  REQUIRE_MESSAGE(binary.ok(), binary.error().message());
  auto sites = elf::resolve_function(*binary, function, 0, {});
  REQUIRE_MESSAGE(sites.ok(), sites.error().message());
  REQUIRE(sites->size() == 1);
  auto symbols = binary->symbols();
  REQUIRE(symbols.ok());
  uint64_t size = 0;
  for (const elf::Symbol& symbol : (*symbols)->functions())
    if (symbol.name == function) size = symbol.size;
  auto code = binary->file().bytes_at((*sites)[0].file_offset, size, function);
  REQUIRE_MESSAGE(code.ok(), code.error().message());
#if defined(__aarch64__)
  const uint32_t sets_frame = 0x910003fd;  // mov x29, sp
#else
  const uint32_t sets_frame = 0xe24cb004;  // sub fp, ip, #4
#endif
  for (uint64_t at = 0; at + 4 <= code->size(); at += 4) {
    uint32_t insn = 0;
    std::memcpy(&insn, code->data() + at, 4);
    if (insn == sets_frame) return function + "+" + std::to_string(at + 4);
  }
  FAIL("no instruction setting the frame pointer in " << function << " of " << path);
  return function;
}
#else
std::string probe_with_caller_frame(const std::string&, const std::string& function) { return function; }
#endif

TEST_CASE("-f folded: one 'frames count' line per stack, root first, counts from the sample's own report") {
  const std::string fun = sample("fun");
  // The sample's "I'm bar" lines are not the tracer's: sent away.
  RunResult r = run_rawprobe({"-f", "folded", "-c", "sh -c 'exec " + fun + " 20000 >/dev/null'", "-e",
                              "uprobe:" + fun + ":" + probe_with_caller_frame(fun, "bar") +
                                  " { @[ustack] = count(); }"});
  INFO(r.out, r.err);
  REQUIRE(r.status == 0);
  // "fun.c calls: fun=3 foo=6 bar=9": bar runs once from every foo, the rest from fun.
  size_t at = r.err.find("fun.c calls: ");
  REQUIRE(at != std::string::npos);
  unsigned funs = 0, foos = 0, bars = 0;
  REQUIRE(std::sscanf(r.err.c_str() + at, "fun.c calls: fun=%u foo=%u bar=%u", &funs, &foos, &bars) == 3);
  std::map<std::string, uint64_t> lines;
  std::istringstream in(r.out);
  std::string line;
  while (std::getline(in, line)) {
    size_t space = line.rfind(' ');
    if (line.find(';') == std::string::npos || space == std::string::npos) continue;
    // Above main are the C library's frames; the sample's own path is what is known.
    std::string frames = line.substr(0, space);
    size_t main_at = frames.find(";main;");
    REQUIRE(main_at != std::string::npos);
    lines[frames.substr(main_at + 1)] += std::stoull(line.substr(space + 1));
  }
  std::map<std::string, uint64_t> want = {{"main;fun;foo;bar", foos}, {"main;fun;bar", bars - foos}};
  CHECK(lines == want);
}

TEST_SUITE_BEGIN("host-only");

TEST_CASE("ustack, ustack(perf), usym and a stack in a tuple print as bpftrace 0.17's, text and json") {
  const std::string fun = sample("fun");
  // A long-running fun, so bpftrace too can read its mappings when it prints.
  Process target = quiet(fun + " 100000000");
  const std::string script = "uprobe:" + fun +
                             ":bar { @[ustack] = count(); @p[ustack(perf)] = count(); @e[ustack(perf, 3)] = count(); "
                             "@t[ustack(2), comm] = count(); @k[kstack] = count(); } interval:ms:400 { exit(); }";
  const std::string pid = std::to_string(target.pid());
  RunResult ours = run_rawprobe({"-p", pid, "-e", script});
  RunResult theirs = run({"bpftrace", "-p", pid, "-e", script});
  INFO(ours.out, ours.err, theirs.out, theirs.err);
  REQUIRE(ours.status == 0);
  REQUIRE(theirs.status == 0);
  for (const char* map : {"@", "@p", "@e", "@t", "@k"}) {
    auto mine = keys_of(entries(ours.out, map)), oracle = keys_of(entries(theirs.out, map));
    CHECK_MESSAGE(!mine.empty(), map);
    CHECK_MESSAGE(mine == oracle, map);
  }
  // JSON: the same keys, escaped as bpftrace escapes them.
  const std::string json_script = "uprobe:" + fun + ":bar { @[ustack] = count(); } interval:ms:400 { exit(); }";
  RunResult ours_json = run_rawprobe({"-f", "json", "-p", pid, "-e", json_script});
  RunResult theirs_json = run({"bpftrace", "-f", "json", "-p", pid, "-e", json_script});
  auto json_keys = [](const std::string& out) {
    std::set<std::string> keys;
    for (const std::string& l : lines_starting(out, "{\"type\": \"map\"")) {
      static const std::regex key("\"((?:[^\"\\\\]|\\\\.)*)\": [0-9]+");
      for (std::sregex_iterator it(l.begin(), l.end(), key), end; it != end; ++it) keys.insert((*it)[1]);
    }
    return keys;
  };
  std::set<std::string> a = json_keys(ours_json.out), b = json_keys(theirs_json.out);
  CHECK(a.size() == 3);
  CHECK(a == b);
  target.signal(SIGKILL);
}

TEST_CASE("kstack at sys_enter_read: the frames bpftrace 0.17 prints for the same event") {
  const std::string script = "tracepoint:syscalls:sys_enter_read /comm == \"dd\"/ { @[kstack] = count(); }";
  const std::string command = "/usr/bin/dd if=/dev/zero of=/dev/null bs=1 count=50";
  RunResult ours = run_rawprobe({"-c", command, "-e", script});
  RunResult theirs = run({"bpftrace", "-c", command, "-e", script});
  INFO(ours.out, ours.err, theirs.out, theirs.err);
  REQUIRE(ours.status == 0);
  REQUIRE(theirs.status == 0);
  auto mine = keys_of(entries(ours.out, "@")), oracle = keys_of(entries(theirs.out, "@"));
  CHECK(!mine.empty());
  CHECK(mine == oracle);
}

TEST_CASE("ustack in a library loaded from a memfd and from a deleted file: named through map_files") {
  const std::string lib = sample("libusdt_lib.so");
  std::map<std::string, NmSymbol> nm = nm_functions(lib);
  REQUIRE(nm.count("usdt_lib_fire"));
  // It exits 2 s after firing: the run ends then, and prints once the memfd is gone.
  Process target({sample("dynamic_usdt"), lib, "2", "2"});
  REQUIRE(target.wait_for_output("\n", 20));
  TracedRun run = trace_running(target, "usdt:*:rawprobe_dyn:fire { @[arg0, ustack(perf, 1)] = count(); }", SIGUSR1);
  INFO(run.tracer.out, run.tracer.err);
  REQUIRE(run.target.status == 0);
  CHECK(run.tracer.status == 0);
  auto stacks = entries(run.tracer.out, "@");
  CHECK(stacks.size() == 2);  // tag 1: the memfd copy, tag 2: the deleted file (dynamic_usdt.c)
  for (const auto& [key, count] : stacks) {
    // "1, \n\t7f.. usdt_lib_fire+12 (/memfd:rawprobe-dyn (deleted))\n"
    size_t name = key.find(" usdt_lib_fire+");
    REQUIRE_MESSAGE(name != std::string::npos, key);
    uint64_t offset = std::stoull(key.substr(name + 15));
    CHECK(offset < nm["usdt_lib_fire"].size);
    bool memfd = key.rfind("1, ", 0) == 0;
    CHECK(key.find(memfd ? "(/memfd:rawprobe-dyn (deleted))" : " (deleted))") != std::string::npos);
    CHECK(count == 2);
  }
}

TEST_SUITE_END();

}  // namespace rawprobe::cli_test
