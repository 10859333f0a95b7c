// Shared pieces of the engine/sys kernel tests: where the samples are, a function's file
// offset (a minimal libelf lookup, independent of elf/, so the syscall layer is tested on its
// own), a child process held before exec until the tracer is ready, and the counting program.
#pragma once
#include <cstdint>
#include <string>
#include <sys/types.h>
#include <vector>

#include "engine/base/result.h"
#include "engine/sys/fd.h"

namespace rawprobe::sys::ktest {

// The directory of the running test binary ("build", "build-fuzz/kernel"): its build's
// rawprobe and samples sit beside it.
std::string test_binary_dir();

// $RAWPROBE_SAMPLES/name, else samples/name next to the running test binary.
std::string sample_path(const std::string& name);

// A function of an ELF file's .symtab: its file offset (via the PT_LOAD segment containing
// its address) and its size in bytes.
struct FunctionSymbol {
  std::string name;
  uint64_t offset = 0;
  uint64_t size = 0;
};
// Every STT_FUNC symbol of .symtab that lies in a PT_LOAD segment's file bytes.
Result<std::vector<FunctionSymbol>> function_symbols(const std::string& path);

// File offset of the function `symbol` in the ELF file at `path`.
Result<uint64_t> function_file_offset(const std::string& path, const std::string& symbol);

// A child forked now, blocked until release(), then exec'ing `argv` with stderr captured.
class HeldChild {
 public:
  explicit HeldChild(std::vector<std::string> argv);
  ~HeldChild();
  pid_t pid() const { return pid_; }
  // Lets the child exec, waits for it and returns its stderr.
  std::string release_and_wait();
  int exit_status() const { return status_; }

 private:
  pid_t pid_ = -1;
  int go_fd_ = -1;      // write end: closing it releases the child
  int stderr_fd_ = -1;  // read end of the child's stderr
  int status_ = -1;
};

// The count fun.c reports for `function` in "fun.c calls: fun=1 foo=2 bar=3"; -1 if absent.
long reported_calls(const std::string& report, const std::string& function);

// An array map of one u64 and a program of `prog_type` that atomically adds 1 to it per run;
// with `only_tgid` > 0, only per run in that process (bpf_get_current_pid_tgid() >> 32).
struct Counter {
  Fd map;
  Fd prog;
  uint64_t value() const;
};
Result<Counter> make_counter(uint32_t prog_type, const std::string& name, pid_t only_tgid = 0);

}  // namespace rawprobe::sys::ktest
