#include "tests/kernel/sys_support.h"

#include <cerrno>
#include <cstdlib>
#include <optional>
#include <cstring>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <linux/bpf.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bpfasm/builder.h"
#include "engine/sys/bpf_map.h"
#include "engine/sys/bpf_prog.h"

namespace rawprobe::sys::ktest {

std::string test_binary_dir() {
  char self[4096];
  ssize_t len = ::readlink("/proc/self/exe", self, sizeof self - 1);
  std::string exe(self, len > 0 ? static_cast<size_t>(len) : 0);
  size_t slash = exe.rfind('/');
  return slash == std::string::npos ? std::string("build") : exe.substr(0, slash);
}

std::string sample_path(const std::string& name) {
  const char* dir = std::getenv("RAWPROBE_SAMPLES");
  if (dir && *dir) return std::string(dir) + "/" + name;
  // $(BUILD)/kernel-tests runs $(BUILD)/samples: the samples of the same build, whatever
  // BUILD is (tests/run-suites passes no RAWPROBE_SAMPLES).
  std::string samples = test_binary_dir() + "/samples";
  // The directory's own path, not a link to it (the sanitized build's samples link to the
  // plain build's): the kernel and /proc/PID/maps name files by that path.
  char real[4096];
  if (::realpath(samples.c_str(), real)) samples = real;
  return samples + "/" + name;
}

namespace {

// The file offset of virtual address `addr` through the PT_LOAD segment holding its bytes.
std::optional<uint64_t> file_offset_of(Elf* elf, uint64_t addr) {
  size_t phnum = 0;
  elf_getphdrnum(elf, &phnum);
  for (size_t i = 0; i < phnum; ++i) {
    GElf_Phdr ph;
    if (gelf_getphdr(elf, static_cast<int>(i), &ph) && ph.p_type == PT_LOAD && addr >= ph.p_vaddr &&
        addr < ph.p_vaddr + ph.p_filesz)
      return addr - ph.p_vaddr + ph.p_offset;
  }
  return std::nullopt;
}

}  // namespace

Result<std::vector<FunctionSymbol>> function_symbols(const std::string& path) {
  if (elf_version(EV_CURRENT) == EV_NONE) return make_error("libelf init", path);
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return syscall_error("open ELF", "open", errno, path, "build the samples: make samples");
  Fd owner(fd);
  Elf* elf = elf_begin(fd, ELF_C_READ, nullptr);
  if (!elf) return make_error("read ELF", path);
  std::vector<FunctionSymbol> functions;
  for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn; scn = elf_nextscn(elf, scn)) {
    GElf_Shdr shdr;
    if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_SYMTAB) continue;
    Elf_Data* data = elf_getdata(scn, nullptr);
    for (size_t i = 0; data && shdr.sh_entsize && i < shdr.sh_size / shdr.sh_entsize; ++i) {
      GElf_Sym sym;
      if (!gelf_getsym(data, static_cast<int>(i), &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
          sym.st_shndx == SHN_UNDEF)
        continue;
      const char* name = elf_strptr(elf, shdr.sh_link, sym.st_name);
      std::optional<uint64_t> offset = file_offset_of(elf, sym.st_value);
      if (name && offset) functions.push_back({name, *offset, sym.st_size});
    }
  }
  elf_end(elf);
  return functions;
}

Result<uint64_t> function_file_offset(const std::string& path, const std::string& symbol) {
  Result<std::vector<FunctionSymbol>> functions = function_symbols(path);
  if (!functions) return functions.error();
  for (const FunctionSymbol& f : *functions)
    if (f.name == symbol) return f.offset;
  return make_error("find function " + symbol, path);
}

HeldChild::HeldChild(std::vector<std::string> argv) {
  int go[2], err[2];
  if (::pipe2(go, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) return;
  pid_ = ::fork();
  if (pid_ == 0) {
    // Only the parent may hold the write end, or the read below never sees end-of-file.
    ::close(go[1]);
    ::close(err[0]);
    char byte;
    // Blocks until the parent closes its end: the tracer is attached by then.
    while (::read(go[0], &byte, 1) < 0 && errno == EINTR) {
    }
    ::dup2(err[1], 2);
    int devnull = ::open("/dev/null", O_WRONLY);  // fun prints "I'm bar" per call
    if (devnull >= 0) ::dup2(devnull, 1);
    std::vector<char*> args;
    for (std::string& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  ::close(go[0]);
  ::close(err[1]);
  go_fd_ = go[1];
  stderr_fd_ = err[0];
}

HeldChild::~HeldChild() {
  if (go_fd_ >= 0) ::close(go_fd_);
  if (stderr_fd_ >= 0) ::close(stderr_fd_);
  if (pid_ > 0 && status_ == -1) ::waitpid(pid_, nullptr, 0);
}

std::string HeldChild::release_and_wait() {
  ::close(go_fd_);
  go_fd_ = -1;
  std::string out;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(stderr_fd_, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
    if (n > 0) out.append(buf, static_cast<size_t>(n));
  int status = 0;
  ::waitpid(pid_, &status, 0);
  status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return out;
}

long reported_calls(const std::string& report, const std::string& function) {
  size_t line = report.find("fun.c calls:");
  if (line == std::string::npos) return -1;
  size_t at = report.find(" " + function + "=", line);
  if (at == std::string::npos) return -1;
  return std::strtol(report.c_str() + at + function.size() + 2, nullptr, 10);
}

uint64_t Counter::value() const {
  uint32_t key = 0;
  uint64_t value = 0;
  Result<bool> found = map_lookup(map.get(), &key, &value);
  return found && *found ? value : UINT64_MAX;
}

Result<Counter> make_counter(uint32_t prog_type, const std::string& name, pid_t only_tgid) {
  MapSpec spec;
  spec.type = BPF_MAP_TYPE_ARRAY;
  spec.key_size = sizeof(uint32_t);
  spec.value_size = sizeof(uint64_t);
  spec.max_entries = 1;
  spec.name = name;
  Result<Fd> map = map_create(spec);
  if (!map) return map.error();

  using namespace rawprobe::bpf;
  Builder b;
  Label done = b.new_label("done");
  if (only_tgid > 0) {
    b.call(Helper::get_current_pid_tgid);
    b.alu(Op::Rsh, R0, 32);  // the upper half is the tgid: the process, not the thread
    b.jump(Cond::Ne, R0, static_cast<int32_t>(only_tgid), done);
  }
  b.store_imm(Size::W, R10, -4, 0);  // key = 0
  b.load_map_fd(R1, MapHandle{0});
  b.mov(R2, R10);
  b.alu(Op::Add, R2, -4);
  b.call(Helper::map_lookup_elem);
  b.jump(Cond::Eq, R0, 0, done);
  b.mov(R1, 1);
  b.atomic(Atomic::Add, Size::DW, R0, 0, R1);  // lock *(u64 *)(r0 +0) += r1
  b.bind(done);
  b.mov(R0, 0);
  b.exit();
  int fds[] = {map->get()};
  Result<Program> program = b.finish(fds);
  if (!program) return program.error();
  std::vector<Insn> slots = program->slots();
  ProgSpec prog_spec;
  prog_spec.type = prog_type;
  prog_spec.insns = slots;
  prog_spec.name = name;
  Result<Fd> prog = prog_load(prog_spec);
  if (!prog) return prog.error();
  return Counter{std::move(*map), std::move(*prog)};
}

}  // namespace rawprobe::sys::ktest
