// The language's later additions against bpftrace 0.17, the oracle: tuple elements and tuples
// of mixed types in map keys and values, ternaries whose branches are statements, the builtins
// cpid, username, numaid and sargN, and the functions bswap, kptr, uptr, strerror, ntop, pton,
// strcontains, strftime, buf (printf's %r, %rx), cgroup_path, join, debugf, cat, system, signal and
// print(@m, top, div), with
// bpftrace's refusals of their misuse. Each script runs under both with the same flags: runs that work
// print the same stdout; runs bpftrace refuses are refused by rawprobe with the same first
// message at the same column. `jiffies` is not in 0.17: the kernel's own count in
// /proc/timer_list is its oracle.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <chrono>
#include <fstream>
#include <sstream>

#include "tests/kernel/cli_run.h"
#include "tests/kernel/oracle_compare.h"

using namespace rawprobe::cli_test;

namespace {

// The kernel's jiffies now, from /proc/timer_list ("jiffies: 4297688898").
uint64_t kernel_jiffies() {
  std::ifstream in("/proc/timer_list");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("jiffies: ", 0) == 0) return std::stoull(line.substr(9));
  return 0;
}

}  // namespace

TEST_SUITE_BEGIN("host-only");

TEST_CASE("oracle: tuple elements and tuples of mixed types in map keys and values, as bpftrace 0.17") {
  check_against_bpftrace({
      {{}, "BEGIN { $t = (1, \"abc\", (int8)-3); printf(\"%d %s %d\\n\", $t.0, $t.1, $t.2); exit(); }"},
      {{}, "BEGIN { @t = (5, \"x\"); @n[1, \"a\"] = (\"s\", (int16)-3); @q[7, \"z\"] = (1, (2, \"in\"));"
           " printf(\"%d %s %s %d %d\\n\", @t.0, @t.1, @q[7, \"z\"].1.1, @q[7, \"z\"].1.0, @n[1, \"a\"].1); exit(); }"},
      {{}, "BEGIN { $u = ((1, (uint8)200), \"s\", (\"x\", (int32)-7)); printf(\"%d %d %s %s %d\\n\", $u.0.0, $u.0.1,"
           " $u.1, $u.2.0, $u.2.1); @[$u.2.1, $u.1] = $u.0; exit(); }"},
      {{}, "BEGIN { $t = (\"a\", 1); $t = (\"abcdef\", 2); @m[$t.1] = ($t.0, $t.1 * 10); if ($t.1 == 2) {"
           " printf(\"%s\\n\", $t.0); } exit(); }"},
      {{}, "BEGIN { @a[(int8)-1, \"k\", (uint16)65535] = ((uint8)255, (int64)-1, \"v\"); @b = (@a[-1, \"k\", 65535].2,"
           " @a[-1, \"k\", 65535].0); exit(); }"},
      {{}, "BEGIN { $t = (1, 2); printf(\"%d\\n\", $t.2); }"},
      {{}, "BEGIN { $x = 1; printf(\"%d\\n\", $x.0); }"},
      {{}, "BEGIN { $t = (1, 2); $t.0 = 3; }"},
      {{}, "BEGIN { @t[1] = (1, \"a\"); @t[2] = (2, \"bb\"); printf(\"%s %d\\n\", @t[2].1, @t[1].0 + @t[2].0); exit(); }"},
  });
}

TEST_CASE("oracle: a ternary whose branches are statements, as bpftrace 0.17") {
  check_against_bpftrace({
      {{}, "BEGIN { $c = 1; $c ? printf(\"a\\n\") : printf(\"b\\n\"); $c == 0 ? printf(\"c\\n\") : printf(\"d\\n\"); exit(); }"},
      {{}, "BEGIN { @x = 1; @x > 0 ? exit() : printf(\"never\\n\"); printf(\"after\\n\"); }"},
      {{}, "BEGIN { $i = 0; while ($i < 4) { $i % 2 ? printf(\"odd %d\\n\", $i) : printf(\"even %d\\n\", $i); $i++; }"
           " 1 ? printf(\"const\\n\") : exit(); $i > 3 ? 4 : 5; exit(); }"},
      {{}, "BEGIN { $x = 1; $x ? printf(\"a\") : 5; exit(); }"},
      {{}, "BEGIN { $x = 0; $x ? @a++ : @b++; $x ? printf(\"a\\n\") : @c++; exit(); }"},
      {{}, "BEGIN { $x = 0; $x ? @a++ : @b++; exit(); }"},
  });
}

TEST_CASE("oracle: cpid, username and numaid, as bpftrace 0.17") {
  check_against_bpftrace({
      // cpid is the child's pid: the probe sees the child's own exit_group.
      {{"-c", "/bin/true"}, "tracepoint:syscalls:sys_enter_exit_group /pid == cpid/ { printf(\"child %d\\n\", args->error_code); }"},
      {{"-c", "/bin/true"}, "BEGIN { printf(\"%d %s %d\\n\", cpid > 0, username, numaid); @u[username] = count(); @n = numaid; exit(); }"},
      {{}, "BEGIN { printf(\"%d\\n\", cpid); exit(); }"},
  });
}

TEST_CASE("oracle: sarg0..sargN read the stack arguments of a uprobe, as bpftrace 0.17") {
  // Nine arguments: on x86_64 the last three are on the stack (sarg0..sarg2 == arg6..arg8).
  std::string dir = "/tmp/rawprobe-sarg-test";
  std::string src = dir + ".c", bin = dir + ".bin";
  {
    std::ofstream f(src);
    f << "__attribute__((noinline)) long many(long a, long b, long c, long d, long e, long f, long g, long h,"
         " long i) { return a + b + c + d + e + f + g + h + i; }\n"
         "int main(void) { volatile long x = 70; return (int)many(1, 2, 3, 4, 5, 6, x, x + 11, x + 22) & 1; }\n";
  }
  RunResult cc = run({"gcc", "-O1", "-o", bin, src});
  REQUIRE_MESSAGE(cc.status == 0, cc.err);
  check_against_bpftrace({
      {{"-c", bin}, "uprobe:" + bin + ":many { printf(\"%d %d %d\\n\", sarg0, sarg1, sarg2); @s[sarg1] = count(); }"},
      {{}, "BEGIN { printf(\"%d\\n\", sarg0); exit(); }"},
  });
}

TEST_CASE("jiffies reads the kernel's jiffies, or says the kernel lacks bpf_jiffies64") {
  uint64_t before = kernel_jiffies();
  REQUIRE(before > 0);
  RunResult r = run_rawprobe({"-e", "BEGIN { printf(\"%lu\\n\", jiffies); exit(); }"});
  uint64_t after = kernel_jiffies();
  REQUIRE_MESSAGE(r.status == 0, r.err);
  std::istringstream out(r.out);
  std::string attaching, value;
  std::getline(out, attaching);
  std::getline(out, value);
  uint64_t seen = std::stoull(value);
  CHECK(seen >= before);
  CHECK(seen <= after);

  RunResult old = run({"env", "RAWPROBE_PRETEND_MISSING=jiffies64", rawprobe_path(), "-e",
                       "BEGIN { printf(\"%d\\n\", jiffies); exit(); }"});
  CHECK(old.status == 1);
  CHECK(old.err.find("jiffies needs the kernel's bpf_jiffies64 helper (Linux 5.5)") != std::string::npos);
}

TEST_CASE("oracle: bswap, kptr, uptr, strerror, ntop and pton, as bpftrace 0.17") {
  check_against_bpftrace({
      {{}, "BEGIN { printf(\"%x %x %lx %d\\n\", bswap((uint16)0x1234), bswap((uint32)0x12345678),"
           " bswap((uint64)0x1122334455667788), bswap((int8)5)); @b = bswap((int16)-2); @c = bswap(1); exit(); }"},
      {{}, "BEGIN { printf(\"%d %d %d\\n\", kptr(5), uptr(-1), kptr((int8)-2)); @u = uptr(-1); exit(); }"},
      {{}, "BEGIN { printf(\"%s|%s|%s\\n\", strerror(2), strerror(1), strerror(0)); @v = strerror(110);"
           " exit(); }"},
      {{}, "BEGIN { printf(\"%s %s %s [%s]\\n\", ntop(0x0100007f), ntop(2, 0x0100007f), ntop(10, 1), ntop(3, 1));"
           " printf(\"%s %s %s\\n\", ntop(pton(\"::1\")), ntop(pton(\"10.1.2.3\")), ntop(pton(\"fe80::1:2\")));"
           " @n[ntop(2, 0x0101a8c0)] = count(); @v6 = ntop(pton(\"2001:db8::ff\")); exit(); }"},
      {{}, "BEGIN { printf(\"%s\\n\", strerror(\"a\")); }"},
      {{}, "BEGIN { printf(\"%d\\n\", bswap(\"a\")); }"},
      {{}, "BEGIN { printf(\"%s\\n\", macaddr(\"abcde\")); }"},
      {{}, "BEGIN { $x = kptr(\"a\"); }"},
      {{}, "BEGIN { $x = pton(\"zz\"); }"},
      {{}, "BEGIN { $x = pton(1); }"},
      {{}, "BEGIN { strerror(); }"},
      {{}, "BEGIN { printf(\"%s\", ntop()); }"},
      {{}, "BEGIN { bswap(1, 2); }"},
      {{}, "BEGIN { $x = ntop(1, 2, 3); }"},
      {{}, "BEGIN { $x = strcontains(\"a\"); }"},
      {{}, "BEGIN { cat(); }"},
      {{}, "BEGIN { join(); }"},
  });
}

TEST_CASE("oracle: strcontains, strftime and print(@m, top, div), as bpftrace 0.17") {
  check_against_bpftrace({
      {{}, "BEGIN { $h = \"hello\"; printf(\"%d %d %d %d %d %d %d\\n\", strcontains(\"hello\", \"\"), strcontains($h, \"lo\"),"
           " strcontains($h, \"low\"), strcontains(\"\", \"a\"), strcontains($h, $h), strcontains(\"aab\", \"ab\"),"
           " strcontains($h, \"hello!\")); $n = \"ll\"; $e = \"\"; @c = strcontains($h, $n) + strcontains($h, $e) * 10;"
           " exit(); }"},
      {{}, "BEGIN { printf(\"%d\\n\", strcontains(1, \"a\")); exit(); }"},
      {{}, "BEGIN { printf(\"%s|%s\\n\", strftime(\"%Y-%m-%d\", nsecs), strftime(\"%Y\", 0)); @y = strftime(\"%Y\", nsecs);"
           " exit(); }"},
      {{}, "BEGIN { printf(\"%s\\n\", strftime(1, nsecs)); exit(); }"},
      {{}, "BEGIN { printf(\"%s\\n\", strftime(\"%Y\", \"a\")); exit(); }"},
      {{}, "BEGIN { @a[1] = 10; @a[2] = 20; @a[3] = 30; print(@a, 2, 10); print(@a, 1); exit(); }"},
  });
}

TEST_CASE("oracle: buf() printed by printf's %r and %rx, print() and maps, as bpftrace 0.17") {
  check_against_bpftrace({
      {{}, "BEGIN { $b = buf(\"ab\\x01cd\", 5); printf(\"[%r] [%rx] [%s]\\n\", $b, $b, \"x\"); @b = buf(\"hi\\n\", 3);"
           " @c[buf(\"k\", 1)] = 1; print($b); exit(); }"},
      {{}, "BEGIN { $x = 3; printf(\"[%r]\\n\", buf(\"abcdef\", $x)); @t = (buf(\"xy\", 2), 1); exit(); }"},
      {{"-c", "/bin/true"}, "tracepoint:syscalls:sys_enter_execve /pid == cpid/ { printf(\"%r\\n\", buf(str(args->filename), 6));"
                            " printf(\"%rx\\n\", buf(args->filename, 4)); }"},
      {{}, "BEGIN { printf(\"[%r]\\n\", \"abc\"); exit(); }"},
      {{}, "BEGIN { printf(\"[%s]\\n\", buf(\"abc\", 2)); exit(); }"},
      {{}, "BEGIN { $b = buf(\"abcdef\"); exit(); }"},
  });
}

TEST_CASE("oracle: cgroup_path() names the cgroup in every hierarchy, as bpftrace 0.17") {
  std::string program = "BEGIN { printf(\"%s|%s\\n\", cgroup_path(cgroup), cgroup_path(1)); @p = cgroup_path(cgroup); exit(); }";
  check_against_bpftrace({{{}, program}});
  // From a nested cgroup2 group: the runs move themselves there first.
  std::vector<std::string> outs;
  for (const std::string& tool : {std::string("bpftrace"), rawprobe_path()}) {
    RunResult r = run_in_cgroup2_group("rawprobe-cgroup-path-test", tool, program);
    INFO(tool, ": ", r.err);
    CHECK(r.status == 0);
    CHECK(r.out.find("unified:/rawprobe-cgroup-path-test") != std::string::npos);
    outs.push_back(r.out);
  }
  CHECK(outs[1] == outs[0]);
}

TEST_CASE("oracle: join() prints execve's argv, as bpftrace 0.17") {
  // Every exec stays in the -c process, so other processes' execs do not count: sh runs the
  // script, which execs env, which execs sh -c, which execs true with an empty argument (where
  // join stops).
  std::string script = "/tmp/rawprobe-join-test.sh";
  std::ofstream(script) << "exec /usr/bin/env /bin/sh -c 'exec /bin/true \"\" x' a bb ccc\n";
  check_against_bpftrace({
      {{"-c", "/bin/sh " + script},
       "tracepoint:syscalls:sys_enter_execve /pid == cpid/ { join(args->argv); join(args->argv, \",\"); }"},
      {{"-f", "json", "-c", "/bin/sh " + script}, "tracepoint:syscalls:sys_enter_execve /pid == cpid/ { join(args->argv); }"},
      {{}, "tracepoint:syscalls:sys_enter_execve { join(args->argv, 5); }"},
      {{}, "tracepoint:syscalls:sys_enter_execve { $x = join(args->argv); }"},
  });
}

// debugf's lines as the kernel's trace buffer holds them: the text after "bpf_trace_printk: ".
static std::vector<std::string> debugf_lines(const std::string& tool, const std::string& program) {
  std::ofstream("/sys/kernel/tracing/trace") << "";  // clears the buffer
  RunResult r = run({tool, "-e", program});
  INFO(tool, ": ", r.err);
  CHECK(r.status == 0);
  std::vector<std::string> lines;
  std::istringstream trace(read_file("/sys/kernel/tracing/trace"));
  std::string line;
  while (std::getline(trace, line))
    if (size_t at = line.find("bpf_trace_printk: "); at != std::string::npos) lines.push_back(line.substr(at + 18));
  return lines;
}

TEST_CASE("oracle: debugf() writes bpftrace 0.17's lines to the trace buffer") {
  std::string program = "BEGIN { debugf(\"rawprobe debugf %d %s %x\", 42, \"abc\", 255); debugf(\"plain\"); exit(); }";
  std::vector<std::string> theirs = debugf_lines("bpftrace", program);
  std::vector<std::string> ours = debugf_lines(rawprobe_path(), program);
  REQUIRE(theirs.size() == 2);
  CHECK(ours == theirs);
  check_against_bpftrace({
      {{}, "BEGIN { debugf(\"x %d %d %d %d\", 1, 2, 3, 4); }"},
      {{}, "BEGIN { debugf(\"x %d\"); }"},
  });
}

TEST_CASE("oracle: cat() and system() print a file and a command's output, as bpftrace 0.17") {
  std::string with_newline = "/tmp/rawprobe-cat-test-1", without = "/tmp/rawprobe-cat-test-2";
  std::ofstream(with_newline) << "first line\nsecond line\n";
  std::ofstream(without) << "no newline";
  check_against_bpftrace({
      {{}, "BEGIN { cat(\"" + with_newline + "\"); cat(\"/tmp/rawprobe-cat-test-%d\", 2); cat(\"%s\", \"" + without +
               "\"); exit(); }"},
      {{"--unsafe"}, "BEGIN { system(\"echo %d %s\", 5, \"x\"); system(\"printf abc\"); system(\"echo done\"); exit(); }"},
      {{"--unsafe", "-f", "json"}, "BEGIN { cat(\"" + without + "\"); system(\"echo %d\", 7); exit(); }"},
      {{}, "BEGIN { system(\"echo hi\"); exit(); }"},
  });
  // A file that cannot be opened: stderr names it in bpftrace's words, and the run goes on.
  std::string script = "BEGIN { cat(\"/nonexistent/file\"); printf(\"after\\n\"); exit(); }";
  RunResult oracle = run({"bpftrace", "-e", script});
  RunResult ours = run_rawprobe({"-e", script});
  std::string message = "ERROR: failed to open file '/nonexistent/file': No such file or directory";
  REQUIRE(oracle.err.find(message) != std::string::npos);
  CHECK(ours.err.find(message) != std::string::npos);
  CHECK(ours.out == oracle.out);
}

TEST_CASE("oracle: signal() signals the current task, with bpftrace 0.17's refusals") {
  // The child sleeps 5 s; its first nanosleep gets SIGKILL, so both runs end at once.
  std::string script = "tracepoint:syscalls:sys_enter_clock_nanosleep /pid == cpid/ { signal(\"KILL\");"
                       " printf(\"sent\\n\"); }";
  for (const std::string& tool : {std::string("bpftrace"), rawprobe_path()}) {
    CAPTURE(tool);
    auto start = std::chrono::steady_clock::now();
    RunResult r = run({tool, "--unsafe", "-c", "/bin/sleep 5", "-e", script});
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    INFO(r.err);
    CHECK(r.status == 0);
    CHECK(r.out.find("sent\n") != std::string::npos);
    CHECK(seconds < 4);
  }
  // A kernel without bpf_send_signal (before 5.3), as the feature probe would find it.
  RunResult old = run({"env", "RAWPROBE_PRETEND_MISSING=send_signal", rawprobe_path(), "--unsafe", "-c", "/bin/true", "-e", script});
  CHECK(old.status == 1);
  CHECK(old.err.find("signal() needs the kernel's bpf_send_signal helper (Linux 5.3)") != std::string::npos);
  check_against_bpftrace({
      {{}, "tracepoint:syscalls:sys_enter_getpid { signal(\"SIGUSR1\"); }"},
      {{"--unsafe"}, "BEGIN { signal(\"SIGUSR1\"); }"},
      {{"--unsafe"}, "tracepoint:syscalls:sys_enter_getpid { signal(\"SIGFOO\"); }"},
      {{"--unsafe"}, "tracepoint:syscalls:sys_enter_getpid { signal(99); }"},
      {{"--unsafe"}, "tracepoint:syscalls:sys_enter_getpid { override(1); }"},
      {{}, "tracepoint:syscalls:sys_enter_getpid { override(1); }"},
  });
}

TEST_SUITE_END();
