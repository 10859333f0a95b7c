// Test support for the arch_* unit tests: asks a real C compiler, reading real kernel headers,
// for the numbers the arch/ tables claim. A generated C file emits each value as an assembler
// constant (`.ascii "KEY value"` through an "i" operand), compiled with -S and parsed back, so
// the values come from the compiler's own layout of the kernel's structs, for any target.
#pragma once
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <string>

namespace rawprobe::test {

struct CommandResult {
  int status = -1;  // exit status, -1 when it did not exit normally
  std::string output;
};

// Runs a shell command, capturing stdout (stderr too when merge_stderr).
inline CommandResult run_command(const std::string& command, bool merge_stderr = true) {
  CommandResult result;
  FILE* pipe = popen((command + (merge_stderr ? " 2>&1" : "")).c_str(), "r");
  if (!pipe) return result;
  char chunk[4096];
  size_t got;
  while ((got = fread(chunk, 1, sizeof chunk, pipe)) > 0) result.output.append(chunk, got);
  int raw = pclose(pipe);
  result.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return result;
}

// A fresh directory under $TMPDIR, removed when the object goes.
class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "rawprobe-arch-XXXXXX");
    if (mkdtemp(pattern.data())) path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// Line of C that makes the compiler print `KEY <value>` into its assembly output.
inline std::string emit_constant(const std::string& key, const std::string& c_expression) {
  return "  __asm__ volatile(\".ascii \\\"RAWPROBE " + key + " %c0\\\"\" :: \"i\"(" +
         c_expression + "));\n";
}

// Line of C that makes the compiler print `KEY <operand>` for a register operand as the
// compiler itself names it in assembly (what <sys/sdt.h> puts into a USDT note): `modifier`
// is empty or an operand modifier such as "h" (x86's high byte).
inline std::string emit_register(const std::string& key, const std::string& variable,
                                 const std::string& modifier = "") {
  return "  __asm__ volatile(\".ascii \\\"RAWPROBE " + key + " %" + modifier + "0\\\"\" :: \"r\"(" +
         variable + "));\n";
}

struct Emitted {
  std::string error;  // compiler diagnostics when it failed
  std::map<std::string, std::string> values;
};

// Compiles `body` (statements built with emit_constant/emit_register) after `includes` with
// `compiler` (a command line, without -S/-o/input) and returns what each KEY printed.
inline Emitted compile_and_read(const std::string& compiler, const std::string& includes,
                                const std::string& body) {
  Emitted emitted;
  ScratchDir dir;
  std::filesystem::path source = dir.path() / "probe.c";
  std::ofstream(source) << includes << "\nvoid rawprobe_constants(void) {\n" << body << "}\n";
  CommandResult compiled = run_command(compiler + " -S -o - " + source.string() + " 2>" +
                                           (dir.path() / "stderr").string(),
                                       false);
  if (compiled.status != 0) {
    std::ifstream errors(dir.path() / "stderr");
    emitted.error = compiler + " failed:\n" +
                    std::string(std::istreambuf_iterator<char>(errors), {});
    return emitted;
  }
  static const std::regex line(R"(RAWPROBE (\S+) ([^"\\]+))");
  for (std::sregex_iterator it(compiled.output.begin(), compiled.output.end(), line), end;
       it != end; ++it)
    emitted.values[(*it)[1]] = (*it)[2];
  return emitted;
}

struct Constants {
  std::string error;
  std::map<std::string, long> values;
};

// compile_and_read for emit_constant lines: the printed immediates as numbers.
inline Constants compile_constants(const std::string& compiler, const std::string& includes,
                                   const std::string& body) {
  Emitted emitted = compile_and_read(compiler, includes, body);
  Constants constants{emitted.error, {}};
  static const std::regex number(R"([$#]?(-?\d+))");
  std::smatch match;
  for (const auto& [key, text] : emitted.values)
    if (std::regex_match(text, match, number)) constants.values[key] = std::stol(match[1]);
  return constants;
}

// The installed Debian package linux-source-6.1 is the only packaged copy of loongarch's uapi
// headers on Debian 12 (there is no linux-libc-dev-loong64-cross). Extracts the uapi trees
// once (about 15 s of xz) into $TMPDIR and returns the source root; nullopt with a message
// when the tarball is missing.
inline std::optional<std::filesystem::path> linux_source_uapi(std::string& error) {
  const std::filesystem::path tarball = "/usr/src/linux-source-6.1.tar.xz";
  if (!std::filesystem::exists(tarball)) {
    error = tarball.string() + " is missing: install the Debian package linux-source-6.1 "
            "(make test-deps)";
    return std::nullopt;
  }
  auto stamp = std::to_string(std::filesystem::file_size(tarball));
  std::filesystem::path cache =
      std::filesystem::temp_directory_path() / ("rawprobe-linux-source-uapi-" + stamp);
  std::filesystem::path root = cache / "linux-source-6.1";
  if (std::filesystem::exists(cache / "complete")) return root;
  std::filesystem::create_directories(cache);
  CommandResult extracted = run_command(
      "tar -xJf " + tarball.string() + " -C " + cache.string() +
      " --wildcards 'linux-source-6.1/arch/*/include/uapi/*' 'linux-source-6.1/include/uapi/*'");
  if (extracted.status != 0) {
    error = "extracting uapi headers from " + tarball.string() + " failed: " + extracted.output;
    return std::nullopt;
  }
  std::ofstream(cache / "complete") << "ok\n";
  return root;
}

}  // namespace rawprobe::test
