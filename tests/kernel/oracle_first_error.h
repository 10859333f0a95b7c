// The first error of a run that bpftrace 0.17 refuses and of rawprobe's, in one form, so the
// oracle tests compare message and position: bpftrace's "stdin:1:24-26: ERROR: MESSAGE" and
// rawprobe's "-e:1:24: error: MESSAGE" both become "1:24: MESSAGE". bpftrace then adds errors
// that follow from the first, which rawprobe does not.
#pragma once
#include <regex>
#include <string>

namespace rawprobe::cli_test {

inline std::string first_error(const std::string& err) {
  std::smatch m;
  static const std::regex theirs(R"((?:^|\n)stdin:(\d+):(\d+)(?:-\d+)?: ERROR: ([^\n]*))");
  static const std::regex ours(R"((?:^|\n)-e:(\d+):(\d+): error: ([^\n]*))");
  if (std::regex_search(err, m, theirs) || std::regex_search(err, m, ours))
    return std::string(m[1]) + ":" + std::string(m[2]) + ": " + std::string(m[3]);
  return "(no error in: " + err + ")";
}

}  // namespace rawprobe::cli_test
