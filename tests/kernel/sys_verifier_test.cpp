// The verifier log policy, errno names and hints on real rejections, and --trace-syscalls
// showing the real calls (the teaching mode: what rawprobe asks of the kernel, as it asks it).
#include <doctest/doctest.h>

#include <capstone/capstone.h>
#include <cerrno>
#include <cstdio>
#include <optional>
#include <vector>
#include <unistd.h>
#include <linux/bpf.h>
#include <string>
#include <vector>

#include "bpfasm/builder.h"
#include "engine/sys/bpf_info.h"
#include "engine/sys/bpf_map.h"
#include "engine/sys/bpf_prog.h"
#include "engine/sys/call.h"
#include "engine/sys/perf.h"
#include "tests/kernel/cli_run.h"
#include "tests/kernel/sys_support.h"
#include "tests/unit/sys_trace_support.h"

using namespace rawprobe;
using namespace rawprobe::sys;

namespace {

using testing::TraceCapture;

std::vector<bpf::Insn> assemble(void (*body)(bpf::Builder&)) {
  bpf::Builder b;
  body(b);
  Result<bpf::Program> p = b.finish();
  REQUIRE_MESSAGE(p, (p ? "" : p.error().message()));
  return p->slots();
}

// exit without setting r0: the verifier rejects it ("R0 !read_ok").
void uninitialized_r0(bpf::Builder& b) { b.exit(); }

// A long valid program: its level-2 log (every instruction with register state) is larger
// than the first log buffer, so the buffer must grow.
void long_program(bpf::Builder& b) {
  b.mov(bpf::R0, 0);
  for (int i = 0; i < 6000; ++i) b.alu(bpf::Op::Add, bpf::R0, 1);
  b.exit();
}

std::string last_line(const std::string& text) {
  std::string t = text;
  while (!t.empty() && t.back() == '\n') t.pop_back();
  size_t nl = t.rfind('\n');
  return nl == std::string::npos ? t : t.substr(nl + 1);
}

}  // namespace

TEST_CASE("a rejected program: no log first, then a level-1 reload whose log is on the Error") {
  std::vector<bpf::Insn> insns = assemble(uninitialized_r0);
  ProgSpec spec;
  spec.type = BPF_PROG_TYPE_SOCKET_FILTER;
  spec.insns = insns;
  spec.name = "rejected";

  TraceCapture trace;
  Result<Fd> prog = prog_load(spec);
  REQUIRE_FALSE(prog);
  const Error& e = prog.error();
  CHECK(e.err == EACCES);
  CHECK(e.syscall == "bpf(BPF_PROG_LOAD)");
  CHECK(e.object == "rejected");
  CHECK(e.message().find(errno_name(EACCES)) != std::string::npos);
  CHECK(e.hint.find("verifier") != std::string::npos);
  // Exactly two loads: without a log, then with one.
  REQUIRE(trace.count("bpf(BPF_PROG_LOAD") == 2);
  CHECK(trace.lines[0].find("log_level=0") != std::string::npos);
  CHECK(trace.lines[1].find("log_level=1") != std::string::npos);
  CHECK(trace.lines[1].find("log_size=" + std::to_string(kVerifierLogStart)) != std::string::npos);

  // The oracle for the log's content is the kernel itself, asked directly.
  std::string log;
  Result<Fd> again = prog_load_logged(spec, 1, log);
  REQUIRE_FALSE(again);
  REQUIRE(!log.empty());
  CHECK(e.detail.find(last_line(log)) != std::string::npos);
}

TEST_CASE("the log buffer grows on ENOSPC until the whole log fits") {
  std::vector<bpf::Insn> insns = assemble(long_program);
  ProgSpec spec;
  spec.type = BPF_PROG_TYPE_SOCKET_FILTER;
  spec.insns = insns;
  spec.name = "long_log";
  TraceCapture trace;
  std::string log;
  Result<Fd> prog = prog_load_logged(spec, 2, log);
  REQUIRE_MESSAGE(prog, (prog ? "" : prog.error().message()));
  CHECK(log.size() > kVerifierLogStart);
  CHECK(trace.count("ENOSPC") >= 1);
  CHECK(trace.count("log_size=" + std::to_string(kVerifierLogStart * 4)) == 1);

  // And what the kernel made of it, read back.
  Result<ProgInfo> info = prog_info(prog->get());
  REQUIRE_MESSAGE(info, (info ? "" : info.error().message()));
  CHECK(info->type == BPF_PROG_TYPE_SOCKET_FILTER);
  CHECK(info->name == "long_log");
  CHECK(info->xlated.size() >= 1);
  // JITed, unless the kernel runs programs in its interpreter (bpf_jit_enable 0: Debian's armmp).
  CHECK((info->jited_size > 0) == !cli_test::kernel_interprets_bpf());
}

TEST_CASE("--trace-syscalls shows the real calls with their real results") {
  TraceCapture trace;
  MapSpec spec;
  spec.type = BPF_MAP_TYPE_ARRAY;
  spec.key_size = 4;
  spec.value_size = 8;
  spec.max_entries = 2;
  spec.name = "traced";
  Result<Fd> map = map_create(spec);
  REQUIRE_MESSAGE(map, (map ? "" : map.error().message()));
  REQUIRE(trace.lines.size() == 1);
  CHECK(trace.lines[0].find("bpf(BPF_MAP_CREATE, {map_type=BPF_MAP_TYPE_ARRAY, key_size=4, value_size=8, "
                            "max_entries=2") == 0);
  CHECK(trace.lines[0].find(") = " + std::to_string(map->get())) != std::string::npos);

  Result<MapInfo> info = map_info(map->get());
  REQUIRE(info);
  CHECK(info->max_entries == spec.max_entries);
  CHECK(info->name == spec.name);

  // A failing element call: key 5 is out of range for 2 entries.
  uint32_t key = 5;
  uint64_t value = 1;
  Status st = map_update(map->get(), &key, &value);
  REQUIRE_FALSE(st);
  CHECK(st.error().err == E2BIG);
  CHECK(trace.lines.back().find("bpf(BPF_MAP_UPDATE_ELEM, {map_fd=" + std::to_string(map->get())) == 0);
  CHECK(trace.lines.back().find("= -1 E2BIG") != std::string::npos);

  // A uprobe perf_event_open: path and offset as passed.
  std::string path = ktest::sample_path("fun");
  Result<uint64_t> offset = ktest::function_file_offset(path, "bar");
  REQUIRE_MESSAGE(offset, (offset ? "" : offset.error().message()));
  Result<Fd> event = open_uprobe({path, *offset});
  REQUIRE_MESSAGE(event, (event ? "" : event.error().message()));
  const std::string& line = trace.lines.back();
  CHECK(line.find("perf_event_open({type=") == 0);
  CHECK(line.find("/* uprobe */") != std::string::npos);
  CHECK(line.find("config1=\"" + path + "\"") != std::string::npos);
  char hex[32];
  std::snprintf(hex, sizeof hex, "config2=0x%llx", static_cast<unsigned long long>(*offset));
  CHECK(line.find(hex) != std::string::npos);
  CHECK(line.find("flags=PERF_FLAG_FD_CLOEXEC) = " + std::to_string(event->get())) != std::string::npos);
}

#if defined(__aarch64__)
// Every A64 instruction is 4 bytes and 4-byte aligned, and the breakpoint (BRK) is a whole
// instruction, so no breakpoint byte can sit inside one as int3 can on x86: the kernel's rule
// is alignment alone (arch_uprobe_analyze_insn() in arch/arm64/kernel/probes/uprobes.c answers
// EINVAL for an address that is not a multiple of 4).
TEST_CASE("uprobes inside instructions: arm64's kernel refuses every offset that is not 4-byte aligned") {
  const std::string path = "/proc/self/exe";
  Result<std::vector<ktest::FunctionSymbol>> functions = ktest::function_symbols(path);
  REQUIRE_MESSAGE(functions, (functions ? "" : functions.error().message()));
  std::optional<uint64_t> main_at;
  for (const ktest::FunctionSymbol& fn : *functions)
    if (fn.name == "main") main_at = fn.offset;
  REQUIRE(main_at);
  Result<Fd> entry = open_uprobe({path, *main_at});
  CHECK_MESSAGE(entry, (entry ? "" : entry.error().message()));
  for (uint64_t k = 1; k < 4; ++k) {
    CAPTURE(k);
    Result<Fd> event = open_uprobe({path, *main_at + k});
    REQUIRE_FALSE(event);
    CHECK(event.error().err == EINVAL);
    CHECK(event.error().syscall == "perf_event_open");
  }
}
// x86: instructions of any length, so an offset may fall inside one. (32-bit arm's kernel-tests
// is Thumb code, which arm uprobes cannot take at all; the A32 boundary refusal is checked by
// `make cross-test ARCH=arm` on a sample built as ARM code, and by the guests' uprobe tests.)
#elif defined(__x86_64__) || defined(__i386__)
TEST_CASE("uprobes inside instructions: an int3 byte is always refused, every refusal is hinted") {
  // The kernel checks the instruction only when it installs the probe in a process that maps
  // the file, so probe the file this process runs. /proc/self/exe, not the path it names: a
  // kernel-tests relinked at the same path is a new file that no process maps, where every
  // offset attaches without a check.
  const std::string path = "/proc/self/exe";
  Result<std::vector<ktest::FunctionSymbol>> functions = ktest::function_symbols(path);
  REQUIRE_MESSAGE(functions, (functions ? "" : functions.error().message()));
  std::FILE* f = std::fopen(path.c_str(), "rb");
  REQUIRE(f);
  csh cs;
  REQUIRE(cs_open(CS_ARCH_X86, CS_MODE_64, &cs) == CS_ERR_OK);
  // Capstone (the oracle) gives the instruction boundaries of each function, decoded from its
  // start. An offset inside an instruction whose byte is 0xcc (int3: e.g. in the immediate of
  // `imul ..., 0xcccccccd`, a division by 10) is refused by every kernel whatever its
  // decoder tables say: prepare_uprobe() in kernel/events/uprobes.c answers ENOTSUPP before
  // it lays its breakpoint over a breakpoint. Offsets inside main()'s first instructions are
  // tried too: the kernel decodes whatever bytes start there, so only some are refused, each
  // with the hint. Not all of main's: each offset the kernel takes costs a uprobe release
  // (about 100 ms), and every one of main's hundreds of interior bytes took 36 s.
  constexpr size_t kMainOffsets = 48;
  std::vector<uint64_t> traps, inside_main;
  for (const ktest::FunctionSymbol& fn : *functions) {
    bool is_main = fn.name == "main";
    if ((traps.size() >= 3 && !is_main) || fn.size == 0 || fn.size > (1u << 16)) continue;
    std::vector<uint8_t> code(fn.size);
    std::fseek(f, static_cast<long>(fn.offset), SEEK_SET);
    code.resize(std::fread(code.data(), 1, code.size(), f));
    cs_insn* insns = nullptr;
    size_t n = cs_disasm(cs, code.data(), code.size(), 0, 0, &insns);
    for (size_t i = 0; i < n; ++i)
      for (uint64_t b = insns[i].address + 1; b < insns[i].address + insns[i].size; ++b) {
        if (code[b] == 0xcc && traps.size() < 3) traps.push_back(fn.offset + b);
        if (is_main && inside_main.size() < kMainOffsets) inside_main.push_back(fn.offset + b);
      }
    cs_free(insns, n);
  }
  cs_close(&cs);
  std::fclose(f);
  REQUIRE_MESSAGE(!traps.empty(), "no 0xcc byte inside an instruction of any function of " << path);
  REQUIRE_FALSE(inside_main.empty());

  auto check_refusal = [](const Error& e) {
    CHECK(e.syscall == "perf_event_open");
    CHECK(e.hint.find("instruction boundary") != std::string::npos);
  };
  for (uint64_t at : traps) {
    CAPTURE(at);
    Result<Fd> event = open_uprobe({path, at});
    REQUIRE_FALSE(event);
    CHECK(event.error().err == kKernelEnotsupp);
    check_refusal(event.error());
  }
  size_t refused_inside_main = 0;
  for (uint64_t at : inside_main) {
    Result<Fd> event = open_uprobe({path, at});
    if (event) continue;
    ++refused_inside_main;
    CAPTURE(at);
    CAPTURE(event.error().message());
    CHECK((event.error().err == kKernelEnotsupp || event.error().err == ENOEXEC));
    check_refusal(event.error());
  }
  MESSAGE(refused_inside_main << " of " << inside_main.size() << " offsets inside main's first instructions refused");
}
#endif
