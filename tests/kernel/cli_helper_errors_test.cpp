// -k and -kk against bpftrace 0.17 on this host: the same scripts warn about the same failed
// helper calls, in the same words, pointing at the same columns. bpftrace names an inline
// program "stdin" where rawprobe says "-e" (rawprobe's name for it in every message), and
// writes these warnings to stdout where rawprobe writes them to stderr; apart from that the
// lines are compared as bpftrace prints them. Also: the checks are all that -k adds to a
// program (engine/codegen/gen_helper_errors.cpp), so without it programs are what they were.
#include <doctest/doctest.h>

#include <map>

#include "engine/codegen/compiled_script.h"
#include "tests/kernel/cli_run.h"
#include "tests/kernel/codegen_test_support.h"

using namespace rawprobe;
using namespace rawprobe::cli_test;

namespace {

// Each helper warning as its three lines joined ("place: WARNING: ...\nline\n~~~"), in order.
std::vector<std::string> helper_warnings(const std::string& text, const std::string& source) {
  std::vector<std::string> lines;
  for (size_t at = 0; at < text.size();) {
    size_t nl = text.find('\n', at);
    lines.push_back(text.substr(at, nl == std::string::npos ? std::string::npos : nl - at));
    at = nl == std::string::npos ? text.size() : nl + 1;
  }
  std::vector<std::string> warnings;
  for (size_t i = 0; i + 2 < lines.size(); ++i) {
    if (lines[i].rfind(source + ":1:", 0) != 0 || lines[i].find(": WARNING: Failed to ") == std::string::npos) continue;
    // rawprobe's name for the script in place of bpftrace's.
    std::string place = "-e" + lines[i].substr(source.size());
    warnings.push_back(place + "\n" + lines[i + 1] + "\n" + lines[i + 2]);
    i += 2;
  }
  return warnings;
}

struct Runs {
  RunResult bpftrace, rawprobe;
  std::vector<std::string> theirs, ours;
};

// The script under both tools with `flags` (and `env`, e.g. a smaller map), warnings parsed.
Runs run_both(const std::vector<std::string>& flags, const std::string& script, const std::vector<std::string>& env = {},
              const std::string& command = {}) {
  std::vector<std::string> bt{"env"}, rp{"env"};
  for (const std::string& e : env) bt.push_back(e), rp.push_back(e);
  bt.push_back("bpftrace");
  rp.push_back(rawprobe_path());
  for (auto* argv : {&bt, &rp}) {
    argv->insert(argv->end(), flags.begin(), flags.end());
    if (!command.empty()) argv->insert(argv->end(), {"-c", command});
    argv->insert(argv->end(), {"-e", script});
  }
  Runs r{run(bt), run(rp), {}, {}};
  // bpftrace's warnings share stdout with the traced command's output, which may come
  // between any two of its lines: fun's printf is taken out first.
  std::string out = r.bpftrace.out;
  for (size_t at; (at = out.find("I'm bar")) != std::string::npos;) out.erase(at, 7);
  r.theirs = helper_warnings(out, "stdin");
  r.ours = helper_warnings(r.rawprobe.err, "-e");
  return r;
}

std::string joined(const std::vector<std::string>& warnings) {
  std::string text;
  for (const std::string& w : warnings) text += w + "\n";
  return text;
}

std::map<std::string, int> counted(const std::vector<std::string>& warnings) {
  std::map<std::string, int> counts;
  for (const std::string& w : warnings) ++counts[w];
  return counts;
}

}  // namespace

TEST_SUITE_BEGIN("host-only");

TEST_CASE("-k and -kk warn about the failed helper calls of a BEGIN block as bpftrace 0.17 does") {
  struct Case {
    std::string script;
    std::vector<std::string> env;
  };
  const Case cases[] = {
      // delete of a missing key; a read of one (a lookup that misses: -kk only)
      {"BEGIN { @a[1] = 1; $x = @a[5]; delete(@a[2]); exit(); }", {}},
      // lookups that miss before an aggregation's first value, ++ and += on a new key
      {"BEGIN { @c[1] = count(); @d = count(); @s[2] = sum(3); @h[1] = hist(5); @m[1] = max(3); "
       "@x = 1; @x++; @y[1]++; @z += 3; exit(); }",
       {}},
      // updates of a full map: an assignment, aggregations, a compound assignment, a string
      {"BEGIN { $i = 0; while ($i < 6) { @m[$i] = 1; @c[$i] = count(); @s[$i] = sum(5); @h[$i] = hist(3); "
       "@z[$i] = 1; @z[$i] += 2; @t[$i] = comm; $i++; } exit(); }",
       {"BPFTRACE_MAP_KEYS_MAX=4"}},
      // probe reads of a bad address (-kk only), through the helper of the space uptr() or
      // kptr() names
      {"BEGIN { printf(\"%s|\\n\", str(1)); printf(\"%r\\n\", buf(1, 4)); exit(); }", {}},
      {"BEGIN { printf(\"%s|\\n\", str(uptr(1))); printf(\"%s|\\n\", str(kptr(1))); @a[1] = 1; delete(@a[2]); "
       "exit(); }",
       {}},
  };
  for (const Case& c : cases) {
    for (const char* flag : {"-k", "-kk"}) {
      Runs r = run_both({flag}, c.script, c.env);
      INFO(flag, " ", c.script, "\nbpftrace:\n", r.bpftrace.out, r.bpftrace.err, "\nrawprobe:\n", r.rawprobe.err);
      REQUIRE(r.bpftrace.status == 0);
      CHECK(r.rawprobe.status == 0);
      CHECK(joined(r.ours) == joined(r.theirs));
    }
  }
  // Each case warns under -kk: none of them compares two empty lists.
  for (const Case& c : cases) CHECK(!run_both({"-kk"}, c.script, c.env).theirs.empty());
}

TEST_CASE("-k -k is -kk, and --no-warnings silences the helper warnings, as in bpftrace 0.17") {
  std::string script = "BEGIN { @a[1] = 1; $x = @a[5]; delete(@a[2]); exit(); }";
  Runs twice = run_both({"-k", "-k"}, script), kk = run_both({"-kk"}, script);
  CHECK(joined(twice.ours) == joined(twice.theirs));
  CHECK(joined(twice.ours) == joined(kk.ours));
  CHECK(twice.theirs.size() == 2);  // the lookup and the delete
  Runs quiet = run_both({"--no-warnings", "-kk"}, script);
  INFO("bpftrace:\n", quiet.bpftrace.out, "\nrawprobe:\n", quiet.rawprobe.err);
  REQUIRE(quiet.bpftrace.status == 0);
  CHECK(quiet.theirs.empty());
  CHECK(quiet.ours.empty());
  CHECK(quiet.rawprobe.out == kk.rawprobe.out);
}

TEST_CASE("-k and -kk in uprobes, uretprobes and tracepoints warn as bpftrace 0.17 does") {
  std::string bin = sample("fun");
  // fun 2 calls bar 6 times and foo 4 times; a stack key, a delete that misses, a lookup
  // that misses, reads at retval ('b', no address): a string, a dereference, an element.
  std::string uprobes = "BEGIN { @m[0] = 0; @none[0] = 0; } uprobe:" + bin +
                        ":bar { @u[ustack] = count(); delete(@m[1]); } uretprobe:" + bin +
                        ":foo { $x = @none[retval]; @r[retval] = 1; printf(\"%s|\\n\", str(retval)); "
                        "$p = (int8 *)retval; printf(\"%d %d\\n\", *$p, $p[3]); }";
  // The command's own openat calls: deletes that miss, a count() per new dfd.
  std::string tracepoint = "BEGIN { @m[0] = 0; } tracepoint:syscalls:sys_enter_openat /pid == cpid/ "
                           "{ delete(@m[args->flags]); @n[args->dfd] = count(); }";
  for (const auto& [script, command] : {std::pair{uprobes, bin + " 2"}, std::pair{tracepoint, std::string("/bin/true")}}) {
    for (const char* flag : {"-k", "-kk"}) {
      Runs r = run_both({flag}, script, {}, command);
      INFO(flag, " ", script, "\nbpftrace:\n", r.bpftrace.out, r.bpftrace.err, "\nrawprobe:\n", r.rawprobe.err);
      REQUIRE(r.bpftrace.status == 0);
      CHECK(r.rawprobe.status == 0);
      REQUIRE(!r.theirs.empty());
      // Events of several probes interleave differently from run to run: compare as sets.
      CHECK(counted(r.ours) == counted(r.theirs));
    }
  }
}

TEST_CASE("the usage error for a third -k begins with bpftrace 0.17's word") {
  RunResult bt = run({"bpftrace", "-kkk", "-e", "BEGIN { exit(); }"});
  RunResult rp = run_rawprobe({"-kkk", "-e", "BEGIN { exit(); }"});
  std::string theirs = bt.err.substr(0, bt.err.find('\n'));
  INFO("bpftrace: ", bt.err, "\nrawprobe: ", rp.err);
  CHECK(bt.status != 0);
  CHECK(rp.status == 2);
  REQUIRE(!theirs.empty());
  CHECK(rp.err.find("rawprobe: " + theirs) == 0);
}

TEST_CASE("a loop too complex for the verifier only with -k's branches gets a hint that says so") {
  // Without -k the loop loads: its updates have no branch (the count of failures is added).
  std::string script = "BEGIN { $i = 0; while ($i < 5000) { @m[$i] = 1; $i++; } exit(); }";
  RunResult plain = run_rawprobe({"-q", "-e", script});
  CHECK(plain.status == 0);
  CHECK(plain.out.find("@m[4095]: 1") != std::string::npos);
  for (const char* flag : {"-k", "-kk"}) {
    RunResult checked = run_rawprobe({flag, "-e", script});
    INFO(flag, "\n", checked.err);
    CHECK(checked.status == 1);
    CHECK(checked.err.find("the kernel's verifier rejected the program of BEGIN") != std::string::npos);
    CHECK(checked.err.find("\nhint: " + std::string(flag) + " adds a branch after each checked helper call") !=
          std::string::npos);
  }
}

TEST_SUITE_END();

namespace {

using namespace rawprobe::codegen;

// A program's instructions, with map loads naming their map (handles are numbered in order
// of first use, which a check may change) and the checks -k added taken out: a check is the
// conditional jump on r0 right after a call, up to its target, that begins by storing
// kAsyncHelperError.
std::vector<bpf::Instruction> without_checks(const CompiledScript& script, const CompiledProgram& p, size_t& checks,
                                             std::vector<std::string>& map_names) {
  std::vector<int> fds;
  for (size_t i = 0; i < script.maps.size(); ++i) fds.push_back(int(1000 + i));
  auto program = p.code.finish(fds);
  REQUIRE(program);
  const std::vector<bpf::Instruction>& in = program->insns;
  std::vector<size_t> slot_of(in.size() + 1, 0);
  for (size_t i = 0; i < in.size(); ++i) slot_of[i + 1] = slot_of[i] + in[i].width();
  std::vector<bpf::Instruction> out;
  for (size_t i = 0; i < in.size(); ++i) {
    const bpf::Instruction& insn = in[i];
    if (insn.code == bpf::op::LD_IMM64 && insn.src == bpf::op::PSEUDO_MAP_FD) map_names.push_back(script.maps[size_t(insn.imm - 1000)].name);
    if (insn.code == bpf::op::LD_IMM64 && insn.src == bpf::op::PSEUDO_MAP_VALUE)
      map_names.push_back(script.maps[size_t(static_cast<uint32_t>(insn.imm) - 1000)].name);
    out.push_back(insn);
    bool call = insn.code == (bpf::op::JMP | bpf::op::CALL);
    if (!call || i + 1 >= in.size()) continue;
    const bpf::Instruction& jump = in[i + 1];
    bool test = (jump.code == (bpf::op::JMP | bpf::op::JSGE | bpf::op::K) ||
                 jump.code == (bpf::op::JMP | bpf::op::JNE | bpf::op::K)) &&
                jump.dst == 0 && jump.imm == 0;
    if (!test) continue;
    size_t target_slot = slot_of[i + 2] + size_t(jump.off);
    size_t end = i + 2;
    while (end < in.size() && slot_of[end] < target_slot) ++end;
    // The block begins with the record's event id (an aggregation's own test of its lookup
    // also follows the call, and may jump over a check).
    bool sends = i + 2 < end && in[i + 2].code == (bpf::op::ST | bpf::op::MEM | bpf::op::DW) &&
                 in[i + 2].imm == int64_t(kAsyncHelperError);
    if (!sends) continue;
    ++checks;
    i = end - 1;  // the block [i + 1, end) is dropped
  }
  // Jump distances change with the blocks; map fds with the map order.
  for (bpf::Instruction& insn : out) {
    uint8_t cls = bpf::op::cls(insn.code);
    if ((cls == bpf::op::JMP || cls == bpf::op::JMP32) && insn.code != (bpf::op::JMP | bpf::op::CALL)) insn.off = 0;
    if (insn.code == bpf::op::LD_IMM64 && (insn.src == bpf::op::PSEUDO_MAP_FD || insn.src == bpf::op::PSEUDO_MAP_VALUE))
      insn.imm = static_cast<int64_t>(static_cast<uint64_t>(insn.imm) >> 32);  // the value offset
  }
  return out;
}

}  // namespace

TEST_CASE("-k and -kk add their checks and nothing else: without them a program is unchanged") {
  std::string fun = sample("fun");
  const std::string scripts[] = {
      "BEGIN { @a[1] = 1; $x = @a[5]; delete(@a[2]); @c[comm] = count(); @h[2] = hist(3); @s = sum(4); "
      "@t[1] += 5; @t[2]++; exit(); }",
      "BEGIN { printf(\"%s %r\\n\", str(1), buf(1, 4)); $p = (int8 *)8; printf(\"%d\\n\", *$p); exit(); }",
      "uprobe:" + fun + ":bar { @u[ustack] = count(); @k[kstack] = count(); delete(@m[tid]); @m[tid] = nsecs; } "
      "uretprobe:" + fun + ":foo { printf(\"%s\\n\", str(retval)); @r[retval] = @m[tid]; }",
  };
  for (const std::string& text : scripts) {
    CAPTURE(text);
    ktest::Compiled plain;
    REQUIRE_MESSAGE(ktest::compile_text(text, plain).empty(), ktest::compile_text(text, plain));
    CHECK(plain.script.helper_errors.empty());
    for (uint32_t level : {1u, 2u}) {
      CAPTURE(level);
      ktest::Compiled checked;
      CompileOptions options;
      options.helper_checks = level;
      std::string err = ktest::compile_text(text, checked, options);
      REQUIRE_MESSAGE(err.empty(), err);
      REQUIRE(checked.script.programs.size() == plain.script.programs.size());
      size_t checks = 0;
      for (size_t i = 0; i < plain.script.programs.size(); ++i) {
        size_t none = 0;
        std::vector<std::string> plain_maps, checked_maps;
        auto a = without_checks(plain.script, plain.script.programs[i], none, plain_maps);
        auto b = without_checks(checked.script, checked.script.programs[i], checks, checked_maps);
        CHECK(none == 0);
        CHECK(a == b);
        CHECK(plain_maps == checked_maps);
      }
      CHECK(checks >= checked.script.helper_errors.size());
      if (level == 2) CHECK(!checked.script.helper_errors.empty());
      // And the kernel's verifier takes the programs with their checks.
      ktest::Loaded loaded;
      err = ktest::load(checked.script, loaded);
      CHECK_MESSAGE(err.empty(), err);
    }
  }
}
