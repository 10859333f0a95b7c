// Shared by the probes unit and kernel tests: a command's stdout (the oracles: nm, readelf,
// bpftrace) and what list_probes prints for a pattern.
#pragma once
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "engine/probes/listing.h"

namespace rawprobe::probes::test {

inline std::string command_output(const std::string& command) {
  std::string out;
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe);
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
  ::pclose(pipe);
  return out;
}

inline std::string listed(const std::string& pattern, bool verbose = false) {
  char* data = nullptr;
  size_t size = 0;
  FILE* out = ::open_memstream(&data, &size);
  ListOptions options;
  options.pattern = pattern;
  options.verbose = verbose;
  Status st = list_probes(options, out);
  std::fclose(out);
  std::string text(data, size);
  std::free(data);
  REQUIRE_MESSAGE(st, (st ? "" : st.error().message()));
  return text;
}

}  // namespace rawprobe::probes::test
