#include "tests/skip.h"
// Generated programs attached for real (engine/probes) to the samples, their maps read
// directly: counts must equal what the samples report about themselves, a USDT argument must
// equal the value the sample printed, and USDT argument forms must read what bpftrace 0.17
// reads from the same probes.
#include <unistd.h>

#include <regex>
#include <set>
#include <sstream>
#include <tuple>

#include "engine/output/hist_format.h"
#include "engine/probes/begin_end.h"
#include "tests/kernel/codegen_test_support.h"
#include "tests/unit/arch_oracle.h"

using namespace rawprobe;
using namespace rawprobe::codegen;

namespace {

struct Running {
  ktest::Compiled compiled;
  ktest::Loaded loaded;
  std::vector<std::unique_ptr<probes::Attachment>> attachments;
};

void compile_load_attach(const std::string& text, Running& r) {
  std::string err = ktest::compile_text(text, r.compiled);
  REQUIRE_MESSAGE(err.empty(), err);
  err = ktest::load(r.compiled.script, r.loaded);
  REQUIRE_MESSAGE(err.empty(), err);
  const CompiledScript& s = r.compiled.script;
  for (size_t i = 0; i < s.programs.size(); ++i) {
    const CompiledProgram& p = s.programs[i];
    std::vector<probes::AttachPoint> points;
    for (size_t index : p.points) points.push_back(r.compiled.points[p.block][index]);
    int fd = r.loaded.progs[i].get();
    auto a = probes::attach(points, std::span<const int>(&fd, 1), {});
    REQUIRE_MESSAGE(a, (a ? "" : a.error().message()));
    r.attachments.push_back(std::move(*a));
  }
}

int map_index(const Running& r, const std::string& name) {
  for (size_t i = 0; i < r.compiled.script.maps.size(); ++i)
    if (r.compiled.script.maps[i].name == name) return static_cast<int>(i);
  FAIL("no map " << name);
  return -1;
}

auto entries(const Running& r, const std::string& name) {
  int i = map_index(r, name);
  return ktest::dump_map(r.loaded.map_fds[i], r.compiled.script.maps[i], ktest::possible_cpus());
}

// The value of a map without keys (0 when never written).
uint64_t scalar(const Running& r, const std::string& name) {
  auto e = entries(r, name);
  return e.empty() ? 0 : e.front().second.front();
}

std::string run_sample(const std::string& command) {
  sys::ktest::HeldChild child({"/bin/sh", "-c", command});
  return child.release_and_wait();
}

}  // namespace

// These cases need what only the build host has (the dynamic build/rawprobe, the source
// tree's samples/*.bt, bpftrace or bpftool), so the VM guest leaves the suite "host-only"
// out (tests/vm/README.md).
TEST_SUITE_BEGIN("host-only");

TEST_CASE("codegen: uprobe counts per probe equal the calls fun makes") {
  Running r;
  compile_load_attach(test::read_text("samples/fun_counts.bt"), r);
  std::string report = run_sample("exec " + sys::ktest::sample_path("fun") + " 3 >/dev/null");
  REQUIRE(report.find("fun.c calls:") != std::string::npos);
  std::map<std::string, uint64_t> by_function;
  for (const auto& [key, value] : entries(r, "@calls")) {
    uint64_t id;
    std::memcpy(&id, key.data(), 8);
    REQUIRE(id < r.compiled.script.point_names.size());
    const std::string& name = r.compiled.script.point_names[id].probe;
    by_function[name.substr(name.rfind(':') + 1)] += value.front();
  }
  for (const char* f : {"fun", "foo", "bar"}) {
    CAPTURE(f);
    CHECK(by_function[f] == static_cast<uint64_t>(sys::ktest::reported_calls(report, f)));
  }
  // bar returns 'b' (98) every time: the uretprobe's predicate passes for each call.
  CHECK(scalar(r, "@bar_returned_b") == static_cast<uint64_t>(sys::ktest::reported_calls(report, "bar")));
}

TEST_CASE("codegen: the seed's USDT argument equals hello_usdt's own tv_sec") {
  Running r;
  compile_load_attach(
      "usdt:/tmp/usdt_hello:yeet-Im-a-USDT-probe:USDT-test-probe { @tv_sec = arg0; @hits = count();"
      " @neg = arg0 > 0 ? 0 : 1; }",
      r);
  std::string out = run_sample("exec " + sys::ktest::sample_path("hello_usdt") + " 1 1>&2");
  std::smatch m;
  REQUIRE_MESSAGE(std::regex_search(out, m, std::regex("tv_sec ([0-9]+)")), out);
  CHECK(scalar(r, "@tv_sec") == std::stoull(m[1]));
  CHECK(scalar(r, "@hits") == 1);
  CHECK(scalar(r, "@neg") == 0);
}

TEST_CASE("codegen: thread timing gives one @ns entry per read_rand thread and @start ends empty") {
  Running r;
  compile_load_attach(test::read_text("samples/read_rand_threads.bt"), r);
  std::string out = run_sample("exec " + sys::ktest::sample_path("read_rand") + " >/dev/null");
  auto ns = entries(r, "@ns");
  // Thread ids in the keys are distinct, one per thread_fun call; the sample starts 4.
  std::set<uint64_t> tids;
  for (const auto& [key, value] : ns) {
    uint64_t tid;
    std::memcpy(&tid, key.data() + 8, 8);
    tids.insert(tid);
    CHECK(value.front() > 0);
  }
  CHECK(ns.size() == 4);
  CHECK(tids.size() == ns.size());
  CHECK(entries(r, "@start").empty());
}

namespace {

bool have_bpftrace() { return test::run_command("command -v bpftrace >/dev/null").status == 0; }

}  // namespace

TEST_CASE("codegen: USDT argument forms read the sample's values (register, memory, SIB, rip-relative, constant, 14 args)") {
  if (!have_bpftrace()) {
    RAWPROBE_SKIP("bpftrace not installed (tests/install-packages)");
    return;
  }
  const std::string bin = sys::ktest::sample_path("elf/usdt_args_O2");
  auto probe = [&](const char* name) { return "usdt:" + bin + ":usdt_args:" + name; };
  auto args = [](const char* prefix, int n) {
    std::string s;
    for (int i = 0; i < n; ++i) s += " @" + std::string(prefix) + std::to_string(i) + " = arg" + std::to_string(i) + ";";
    return s;
  };
  Running r;
  compile_load_attach(probe("scalars") + " {" + args("s", 5) + " } " + probe("globals") + " {" + args("g", 4) + " } " +
                          probe("constant") + " {" + args("c", 2) + " } " + probe("many") + " {" + args("m", 14) + " }",
                      r);
  std::string out = run_sample("exec " + bin + " 1 1>&2");
  auto value = [&](const std::string& name) { return static_cast<int64_t>(scalar(r, name)); };

  // Registers and constants: what bpftrace 0.17 reads from the same notes.
  for (auto [name, n, prefix] : {std::tuple{"scalars", 5, "s"}, std::tuple{"constant", 2, "c"}}) {
    CAPTURE(name);
    std::string fmt, list;
    for (int i = 0; i < n; ++i) {
      fmt += std::string(i ? " " : "") + "%ld";
      list += ", arg" + std::to_string(i);
    }
    auto oracle = test::run_command("timeout 60 bpftrace -e '" + probe(name) + " { printf(\"" + fmt + "\\n\"" + list +
                                        "); }' -c '" + bin + " 1'", false);
    std::vector<std::string> values;
    std::istringstream lines(oracle.output);
    for (std::string line; std::getline(lines, line);) {
      if (line.empty() || line[0] == 'A' || line[0] == 'u') continue;  // "Attaching", the sample's own line
      std::istringstream words(line);
      for (std::string w; words >> w;) values.push_back(w);
      break;
    }
    REQUIRE_MESSAGE(values.size() == static_cast<size_t>(n), oracle.output);
    for (int i = 0; i < n; ++i) {
      CAPTURE(i);
      CHECK(value("@" + std::string(prefix) + std::to_string(i)) == std::stoll(values[i]));
    }
  }
  // Memory, SIB and rip-relative (bpftrace 0.17 misreads `counter(%rip)` in a PIE): the sample
  // prints the sum of what fire_scalars and fire_globals return, which is the scalars' sum
  // plus counter + table[idx & 15] + p->y, the first three globals arguments.
  std::smatch m;
  REQUIRE_MESSAGE(std::regex_search(out, m, std::regex("sum (-?[0-9]+)")), out);
  int64_t scalars = 0;
  for (int i = 0; i < 5; ++i) scalars += value("@s" + std::to_string(i));
  CHECK(scalars + value("@g0") + value("@g1") + value("@g2") == std::stoll(m[1]));
  // origin.x is read like counter: both rip-relative globals of the same object.
  CHECK(value("@g3") != 0);
  // many: 14 register operands holding base + i (samples/usdt_args.c fire_many; round 0 has
  // base 0); bpftrace 0.17 stops at arg5 on x86_64, so the sample's own definition is the oracle.
  for (int i = 0; i < 14; ++i) {
    CAPTURE(i);
    CHECK(value("@m" + std::to_string(i)) - value("@m0") == i);
  }
}

TEST_CASE("codegen: integer, logic and string results agree with bpftrace's (BEGIN, run in the kernel)") {
  if (!have_bpftrace()) {
    RAWPROBE_SKIP("bpftrace not installed (tests/install-packages)");
    return;
  }
  const std::string setup = "$a = 1; $m = -10; $z = 0; $big = 0xffffffff; $s = \"abc\"; $c = comm;";
  const std::vector<std::string> exprs = {
      "$a + 2 * 3", "$m / 3", "$m % 3", "$m >> 1", "$m << 2", "$a / $z", "$a % $z", "$big * $big", "-$a",
      "~$a", "!$a", "!$z", "(int8)($m * 30)", "(uint8)$m", "(uint16)$m", "(int32)$big", "(uint32)$m",
      "-(uint8)$a", "~(int16)$z", "$m < $a", "$m < 1", "(uint64)$m < 1", "$big > $m", "$m >= -10", "$m <= -11",
      "$a ? 7 : 9", "$z ? 7 : $m", "$a && $z", "$a || $z", "$z || $m", "$m == -10", "$a != 1",
      "$s == \"abc\"", "$s != \"abd\"", "$s == \"ab\"", "$s == \"abcd\"", "$c == comm", "\"abc\" == $s",
      "(1 + $a) * ((2 + $a) * ((3 + $a) * ((4 + $a) * ((5 + $a) * ((6 + $a) * (7 + $a))))))",
      "(($a + 1) * ($a + 2)) + (($a + 3) * ($a + 4)) + (($a + 5) * (($a + 6) + ($a + 7) * ($a + 8)))",
      "$m * $m - $a * 100 + ($big & 0xff00) | 3",
  };
  std::string ours = "BEGIN { " + setup;
  std::string theirs = "BEGIN { " + setup;
  for (size_t i = 0; i < exprs.size(); ++i) {
    ours += " @v[" + std::to_string(i) + "] = " + exprs[i] + ";";
    theirs += " printf(\"%ld\\n\", " + exprs[i] + ");";
  }
  ours += " }";
  theirs += " exit(); }";
  std::string quoted;
  for (char ch : theirs) quoted += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  auto oracle = test::run_command("timeout 60 bpftrace -e '" + quoted + "'", false);
  std::vector<std::string> lines;
  std::istringstream in(oracle.output);
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line.rfind("Attaching", 0) != 0) lines.push_back(line);
  REQUIRE_MESSAGE(lines.size() == exprs.size(), oracle.output);

  Running r;
  compile_load_attach(ours, r);
  probes::trigger_begin();
  std::map<uint64_t, int64_t> values;
  for (const auto& [key, value] : entries(r, "@v")) {
    uint64_t k;
    std::memcpy(&k, key.data(), 8);
    values[k] = static_cast<int64_t>(value.front());
  }
  for (size_t i = 0; i < exprs.size(); ++i) {
    CAPTURE(exprs[i]);
    CHECK(std::to_string(values[i]) == lines[i]);
  }
}

TEST_CASE("codegen: aggregations fill the slots engine/output decodes (hist/lhist buckets, min, max, avg, stats)") {
  const std::vector<int64_t> values = {-5, 0, 1, 2, 3, 4, 7, 8, 99, 100, 1000, 1 << 20, int64_t{1} << 40};
  std::string script = "BEGIN { $z = 0;";
  for (int64_t v : values) {
    std::string x = "(" + std::to_string(v) + " + $z)";  // through a variable: not folded
    script += " @h = hist(" + x + "); @l = lhist(" + x + ", 0, 100, 10); @mn = min(" + x + "); @mx = max(" + x +
              "); @a = avg(" + x + "); @s = stats(" + x + "); @c = count(); @sm = sum(" + x + ");";
  }
  Running r;
  compile_load_attach(script + " }", r);
  probes::trigger_begin();
  std::vector<uint64_t> hist(kHistBuckets, 0), lhist(lhist_bucket_count(0, 100, 10), 0);
  int64_t min = values[0], max = values[0], total = 0;
  for (int64_t v : values) {
    hist[hist_bucket(v)]++;
    lhist[lhist_bucket(v, 0, 100, 10)]++;
    min = std::min(min, v);
    max = std::max(max, v);
    total += v;
  }
  auto words = [&](const std::string& name) {
    auto e = entries(r, name);
    REQUIRE(e.size() == 1);
    return e.front().second;
  };
  CHECK(words("@h") == hist);
  CHECK(words("@l") == lhist);
  CHECK(static_cast<int64_t>(words("@mn")[0]) == min);
  CHECK(static_cast<int64_t>(words("@mx")[0]) == max);
  for (const char* name : {"@a", "@s"}) {
    CAPTURE(name);
    CHECK(words(name)[0] == values.size());
    CHECK(static_cast<int64_t>(words(name)[1]) == total);
  }
  CHECK(words("@c")[0] == values.size());
  CHECK(static_cast<int64_t>(words("@sm")[0]) == total);
}

TEST_SUITE_END();
