// Every program compile() generates must pass this kernel's verifier: the seed's scripts
// (samples/*.bt) and scripts covering each construct codegen handles. The verifier is the
// oracle for stack initialisation, pointer checks, bounded loops and helper arguments.
#include <dirent.h>

#include <algorithm>

#include "tests/kernel/codegen_test_support.h"

using namespace rawprobe;
using namespace rawprobe::codegen;

namespace {

void check_loads(const std::string& name, const std::string& text, CompileOptions options = {},
                 const std::string& path = "test.bt") {
  CAPTURE(name);
  ktest::Compiled c;
  std::string err = ktest::compile_text(text, c, options, path);
  REQUIRE_MESSAGE(err.empty(), err);
  REQUIRE(!c.script.programs.empty());
  ktest::Loaded l;
  err = ktest::load(c.script, l);
  CHECK_MESSAGE(err.empty(), err);
  CHECK(l.progs.size() == c.script.programs.size());
}

}  // namespace

// These cases need what only the build host has (the dynamic build/rawprobe, the source
// tree's samples/*.bt, bpftrace or bpftool), so the VM guest leaves the suite "host-only"
// out (tests/vm/README.md).
TEST_SUITE_BEGIN("host-only");

TEST_CASE("codegen: every seed script loads") {
  DIR* dir = opendir("samples");
  REQUIRE(dir);
  std::vector<std::string> scripts;
  while (dirent* e = readdir(dir)) {
    std::string n = e->d_name;
    if (n.size() > 3 && n.substr(n.size() - 3) == ".bt" && n.find("typo") == std::string::npos) scripts.push_back(n);
  }
  closedir(dir);
  std::sort(scripts.begin(), scripts.end());
  REQUIRE(scripts.size() >= 5);
  for (const std::string& s : scripts) check_loads(s, test::read_text("samples/" + s), {}, "samples/" + s);
}

TEST_CASE("codegen: scripts covering every construct load") {
  const std::pair<const char*, const char*> scripts[] = {
      {"integers",
       "BEGIN { $x = 1; $y = $x * 3 + 2; $z = $y / 0; $w = $y % 0; $m = $y % $x; $d = $y / $x;"
       " $s = (int8)$y; $u = (uint16)-1; $n = -$x; $b = ~$x; $c = !$x; $sh = $y << 3 >> 1;"
       " $cmp = ($x < $y) + ($x >= 2) + ((int8)$x > (int8)-1);"
       " printf(\"%d %d %d %d %d %d %d %d %d %d %d %d %d\\n\", $x, $y, $z, $w, $m, $d, $s, $u, $n, $b, $c, $sh, $cmp);"
       " $x += 4; $x -= 1; $x *= 2; $x /= 3; $x %= 5; $x <<= 2; $x >>= 1; $x &= 7; $x |= 8; $x ^= 1; $x++; --$x;"
       " exit(); }"},
      {"maps",
       "BEGIN { @a = 1; @b[1, \"x\"] = 2; @c[comm] = count(); @d[pid] = sum(5); @e = min(3); @f = max(-4);"
       " @g = avg(5); @h = stats(6); @i = hist(100); @j = lhist(55, 0, 100, 10); delete(@b[1, \"x\"]);"
       " print(@a); print(@e, 3, 2); clear(@f); zero(@g); @k[\"s\", 7] = \"str\"; @l = (1, \"two\", comm);"
       " @m[pid, comm] = @a + @d2; @d2++; @a += 3; print(@a + 1); print(comm); }"},
      {"control flow",
       "BEGIN { $i = 0; while ($i < 10) { $i++; if ($i == 5) { continue; } if ($i > 8) { break; } }"
       " unroll(3) { $i += 2; } if ($i > 3) { printf(\"big\\n\"); } else if ($i > 1) { printf(\"mid\\n\"); }"
       " else { return; } exit(); }"},
      {"builtins",
       "BEGIN { printf(\"%d %d %d %d %d %d %d %d %d %s %d\\n\", pid, tid, uid, gid, nsecs, elapsed, cpu, curtask,"
       " rand, comm, cgroup); time(\"%H:%M\\n\"); time(); @p[probe] = count(); }"},
      {"strings",
       "tracepoint:syscalls:sys_enter_read /comm == \"read_rand\" || comm != \"bash\"/ { $c = comm;"
       " if ($c == comm) { @same++; } @x[$c] = count(); $s = \"short\"; $s = comm; @y[$s, \"lit\"] = 1;"
       " if (\"abc\" == $s) { exit(); } }"},
      {"ternary and logic",
       "BEGIN { $a = 5; $b = $a > 3 && $a < 10 ? 1 : 2; $s = $a > 3 ? \"yes\" : \"no\"; $t = !($a == 5) || $b;"
       " printf(\"%d %s %d\\n\", $b, $s, $t); }"},
      {"register pressure",
       "BEGIN { printf(\"%d\\n\", (1 + pid) * ((2 + pid) * ((3 + pid) * ((4 + pid) * ((5 + pid) * ((6 + pid)"
       " * (7 + pid))))))); @[(1 + pid) * ((2 + tid) * ((3 + uid) * ((4 + gid) * (5 + cpu))))] = count(); }"},
      {"scratch map record",
       "BEGIN { printf(\"%s %s %s %s %s\\n\", str(0), str(0, 3), str(0), str(0), str(0)); }"},
      {"uprobe args",
       "uprobe:/tmp/fun:foo, uprobe:/tmp/fun:bar { @[arg0, arg1, arg7] = count(); @pr[probe] = count(); printf(\"%d\\n\", arg2);"
       " @f[func] = count(); @s = str(arg0); @t = str(arg1, arg2); }"},
      {"uretprobe", "uretprobe:/tmp/fun:bar /retval == 98/ { @r[pid] = sum(retval); @n[func] = count(); }"},
      {"tracepoint fields",
       "tracepoint:syscalls:sys_enter_openat { printf(\"%s %s %d\\n\", comm, str(args->filename), args->flags);"
       " @[str(args->filename, 8)] = count(); }"
       " tracepoint:syscalls:sys_exit_read /args->ret > 0/ { @ret = sum(args->ret); @neg = min(args->ret); }"},
      {"usdt seed", "usdt:/tmp/usdt_hello:yeet-Im-a-USDT-probe:USDT-test-probe { @v = arg0; printf(\"%d\\n\", arg0); }"},
      {"usdt forms O2",
       "usdt:USDT_ARGS_O2:usdt_args:scalars { printf(\"%d %d %d %d %d\\n\", arg0, arg1, arg2, arg3, arg4); }"
       " usdt:USDT_ARGS_O2:usdt_args:globals { printf(\"%d %d %d %d\\n\", arg0, arg1, arg2, arg3); }"
       " usdt:USDT_ARGS_O2:usdt_args:constant { @c[arg0, arg1] = count(); }"
       " usdt:USDT_ARGS_O2:usdt_args:inlined { @i[arg0] = count(); }"
       " usdt:USDT_ARGS_O2:usdt_args:many { @m = sum(arg13 + arg12 + arg6); }"},
      {"usdt forms O0",
       "usdt:USDT_ARGS_O0:usdt_args:scalars { printf(\"%d %d %d %d %d\\n\", arg0, arg1, arg2, arg3, arg4); }"
       " usdt:USDT_ARGS_O0:usdt_args:globals { printf(\"%d %d %d %d\\n\", arg0, arg1, arg2, arg3); }"},
      {"perf event programs",
       "interval:ms:100 { @ticks = count(); } profile:hz:99 { @p[cpu] = count(); }"
       " software:cpu-clock:100000 { @s = count(); exit(); }"},
      {"end", "END { printf(\"bye %d\\n\", elapsed); }"},
  };
  for (const auto& [name, text] : scripts) check_loads(name, text);
}

TEST_CASE("codegen: perf buffer events load where a kernel lacks ring buffers") {
  CompileOptions options;
  options.ringbuf = false;
  options.ncpus = ktest::possible_cpus();
  check_loads("perf buffer",
              "BEGIN { printf(\"%d %s\\n\", pid, comm); time(); exit(); } tracepoint:syscalls:sys_enter_read { print(@x); @x = count(); }",
              options);
}

TEST_CASE("codegen: a statement needing more than 512 bytes of stack is a clear error") {
  ktest::Compiled c;
  std::string err = ktest::compile_text(
      "BEGIN { @[str(0), str(1), str(2), str(3), str(4), str(5), str(6), str(7), str(8)] = count(); }", c);
  CHECK(err.find("512") != std::string::npos);
  CHECK(err.find("test.bt:1:") != std::string::npos);
}

TEST_SUITE_END();
