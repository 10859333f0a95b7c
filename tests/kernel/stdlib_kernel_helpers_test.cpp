// socket_cookie, percpu_kaddr and write_user (engine/lang/semantic_kernel_helpers.cpp), run
// for real where this kernel lets them run, and refused with the reason where it does not. The
// kernel itself decides which: /proc/kallsyms (percpu_kaddr's variable must be there for the
// verifier to find its address) and a program of our own that calls bpf_probe_write_user.
//   percpu_kaddr: docs/stdlib.md (v0.26.1): the address of `name` for CPU `cpu`, NULL past the
//     CPUs. Oracle: /proc's list of processes. process_counts counts, per CPU, the processes
//     forked there and not yet gone (kernel/fork.c: copy_process() adds a thread-group leader,
//     __unhash_process() takes it away; nr_processes() sums it).
//   write_user: the traced program's own report of the value the script wrote.
// This host (6.18 without CONFIG_KALLSYMS_ALL, under lockdown) takes the refusal branches; the
// VM guests' Debian kernels (6.1, 6.12: CONFIG_KALLSYMS_ALL=y) run percpu_kaddr for real.
#include <doctest/doctest.h>
#include <linux/bpf.h>

#include <dirent.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>

#include "bpfasm/builder.h"
#include "engine/sys/bpf_prog.h"
#include "tests/kernel/cli_run.h"

using namespace rawprobe;
using namespace rawprobe::cli_test;

namespace {

bool in_kallsyms(const std::string& name) {
  std::ifstream in("/proc/kallsyms");
  for (std::string line; std::getline(in, line);)
    if (line.size() > name.size() && line.compare(line.size() - name.size(), name.size(), name) == 0 &&
        line[line.size() - name.size() - 1] == ' ')
      return true;
  return false;
}

// The processes /proc lists (its numeric directories).
uint64_t live_processes() {
  uint64_t n = 0;
  DIR* d = opendir("/proc");
  while (dirent* e = d ? readdir(d) : nullptr)
    if (std::all_of(e->d_name, e->d_name + std::strlen(e->d_name), [](char c) { return c >= '0' && c <= '9'; })) ++n;
  if (d) closedir(d);
  return n;
}

uint32_t possible_cpus() {
  std::ifstream in("/sys/devices/system/cpu/possible");
  std::string text;
  in >> text;  // "0-1", "0"
  size_t dash = text.rfind('-');
  return uint32_t(std::stoul(dash == std::string::npos ? text : text.substr(dash + 1))) + 1;
}

// Whether the kernel lets a kprobe-type program call bpf_probe_write_user: our own minimal,
// correct program, and the verifier's answer.
bool kernel_allows_write_user(std::string& log) {
  bpf::Builder b;
  b.store_imm(bpf::Size::DW, bpf::R10, -8, 0);
  b.mov(bpf::R1, 0);
  b.mov(bpf::R2, bpf::R10);
  b.alu(bpf::Op::Add, bpf::R2, -8);
  b.mov(bpf::R3, 8);
  b.call(bpf::Helper::probe_write_user);
  b.mov(bpf::R0, 0);
  b.exit();
  Result<bpf::Program> p = b.finish();
  REQUIRE(p);
  std::vector<bpf::Insn> insns = p->slots();
  sys::ProgSpec spec;
  spec.type = BPF_PROG_TYPE_KPROBE;
  spec.insns = insns;
  spec.name = "write_user_ok";
  return bool(sys::prog_load_logged(spec, 1, log));
}

}  // namespace

TEST_CASE("percpu_kaddr sums to the processes /proc lists where kallsyms has the variable, else is refused") {
  const std::string script =
      "BEGIN { $t = 0; for $i : 0..$1 { $p = percpu_kaddr(\"process_counts\", $i); if ($p != 0) { $t += *$p; } }"
      " $here = percpu_kaddr(\"process_counts\"); $mine = percpu_kaddr(\"process_counts\", cpu);"
      " printf(\"sum %d this_cpu_matches %d\\n\", $t, *$here == *$mine); exit(); }";
  uint64_t before = live_processes();
  RunResult r = run_rawprobe({"-e", script, std::to_string(possible_cpus())});
  uint64_t after = live_processes();
  INFO(r.err);
  // At the name, the first call's first argument.
  const std::string at = "-e:1:" + std::to_string(script.find("\"process_counts\"") + 1) + ": ";
  if (!kernel_btf_present()) {
    CHECK(r.status == 1);
    CHECK(r.err.find(at + "error: percpu_kaddr() needs the kernel's BTF to find per-CPU variables") !=
          std::string::npos);
    return;
  }
  if (!in_kallsyms("process_counts")) {
    CHECK(r.status == 1);
    CHECK(r.err.find(at + "error: percpu_kaddr(\"process_counts\"): the kernel finds a per-CPU variable's address "
                     "through kallsyms, which has no 'process_counts' here") != std::string::npos);
    return;
  }
  REQUIRE(r.status == 0);
  std::vector<std::string> lines = lines_starting(r.out, "sum ");
  REQUIRE(lines.size() == 1);
  std::istringstream in(lines[0].substr(4));
  uint64_t sum = 0;
  in >> sum;
  // rawprobe itself was alive while it counted, and others may come and go around it.
  CHECK(sum >= std::min(before, after));
  CHECK(sum <= std::max(before, after) + 1);
  CHECK(lines[0].find("this_cpu_matches 1") != std::string::npos);
}

TEST_CASE("percpu_kaddr refuses what is not a per-CPU variable in the kernel's BTF, at its place") {
  RunResult r = run_rawprobe({"--dry-run", "-e", "BEGIN { $p = percpu_kaddr(\"no_such_percpu_var\"); }"});
  CHECK(r.status == 1);
  CHECK(r.err.find(kernel_btf_present()
                       ? "-e:1:27: error: no per-CPU kernel variable named 'no_such_percpu_var' in the kernel's BTF"
                       : "-e:1:27: error: percpu_kaddr() needs the kernel's BTF to find per-CPU variables") !=
        std::string::npos);
}

TEST_CASE("socket_cookie is refused outside fentry, fexit and iter, whose programs alone have the helper") {
  for (const char* script : {"tracepoint:syscalls:sys_enter_close { @[socket_cookie(curtask)] = count(); }",
                             "BEGIN { @[socket_cookie(curtask)] = count(); }"}) {
    CAPTURE(script);
    RunResult r = run_rawprobe({"--dry-run", "-e", script});
    CHECK(r.status == 1);
    CHECK(r.err.find("error: socket_cookie() calls bpf_get_socket_cookie(), which the kernel gives only to fentry, "
                     "fexit and iter programs") != std::string::npos);
  }
}

TEST_CASE("write_user needs --unsafe, and writes the traced program's memory where the kernel allows the helper") {
  // docs/stdlib.md: "unsafe helpers can have dangerous side effects ... the --unsafe flag is
  // required for use."
  const std::string target = sample("struct_arg");
  const std::string probe = "uprobe:" + target + ":visit";
  RunResult safe = run_rawprobe({"--dry-run", "-e", probe + " { $r = write_user(arg0, (int32)40); }"});
  CHECK(safe.status == 1);
  CHECK(safe.err.find("error: write_user() is an unsafe function being used in safe mode") != std::string::npos);

  // visit(r) returns r->id; the script sets r->id to K on every call before visit reads it, so
  // the program reports K times the number of calls rawprobe counted.
  const int k = 40;
  RunResult r = run_rawprobe({"--unsafe", "-c", target, "-e",
                              probe + " { @rc[write_user(arg0, (int32)" + std::to_string(k) + ")] = count(); @calls = count(); }"});
  std::string log;
  if (!kernel_allows_write_user(log)) {
    INFO(log);
    CHECK(log.find("cannot use helper bpf_probe_write_user") != std::string::npos);
    CHECK(r.status == 1);
    CHECK(r.err.find("write_user() needs bpf_probe_write_user, which this kernel withholds from tracing programs") !=
          std::string::npos);
    return;
  }
  INFO(r.err);
  REQUIRE(r.status == 0);
  std::vector<std::string> calls = lines_starting(r.out, "@calls: ");
  REQUIRE(calls.size() == 1);
  long n = std::stol(calls[0].substr(8));
  CHECK(lines_starting(r.out, "visited ") == std::vector<std::string>{"visited " + std::to_string(k * n)});
  CHECK(lines_starting(r.out, "@rc[0]: ") == std::vector<std::string>{"@rc[0]: " + std::to_string(n)});
}
