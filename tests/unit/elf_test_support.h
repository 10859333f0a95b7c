// Shared by the elf_* unit tests: where the samples are, and running the external oracles
// (readelf, objdump, nm, ldconfig) whose output the tests compare against.
#pragma once
#include <doctest/doctest.h>

#include <regex>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#ifndef RAWPROBE_TEST_BUILD_DIR
#define RAWPROBE_TEST_BUILD_DIR "build"
#endif

namespace rawprobe::elf::test {

inline std::string build_dir() {
  const char* env = getenv("RAWPROBE_TEST_BUILD_DIR");
  return env && *env ? env : RAWPROBE_TEST_BUILD_DIR;
}
// $(BUILD)/samples/elf/<name>, built by mk/elf.mk.
inline std::string elf_sample(const std::string& name) {
  return build_dir() + "/samples/elf/" + name;
}
// $(BUILD)/samples/<name>, the seed's samples built by mk/samples.mk.
inline std::string seed_sample(const std::string& name) { return build_dir() + "/samples/" + name; }

// Runs a shell command and returns its stdout; a failing command fails the test.
inline std::string run(const std::string& command) {
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE_MESSAGE(pipe != nullptr, command);
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
  int status = pclose(pipe);
  REQUIRE_MESSAGE(status == 0, "command failed: " << command);
  return out;
}

inline std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// A system library's path as the compiler driver finds it (libstdc++.so.6, libc.so.6).
inline std::string system_library(const std::string& name) {
  std::string path = run("gcc -print-file-name=" + name);
  while (!path.empty() && path.back() == '\n') path.pop_back();
  return path;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void write_file(const std::string& path, const std::string& data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << data;
  REQUIRE_MESSAGE(out.good(), "cannot write " << path);
}

// A scratch directory under the build dir, emptied first.
inline std::string scratch_dir(const std::string& name) {
  std::string dir = build_dir() + "/elf-test-scratch/" + name;
  run("rm -rf '" + dir + "' && mkdir -p '" + dir + "'");
  return dir;
}

}  // namespace rawprobe::elf::test
