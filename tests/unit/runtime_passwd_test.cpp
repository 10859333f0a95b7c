// user_name() against getent, which asks NSS (glibc's getpwuid): for every account in the
// local passwd file, both give the same name; an unknown uid is no name.
#include <doctest/doctest.h>

#include <cstdio>
#include <sstream>
#include <string>

#include "engine/runtime/passwd.h"

namespace {

std::string command_output(const std::string& command) {
  std::string out;
  FILE* p = popen(command.c_str(), "r");
  if (!p) return out;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  pclose(p);
  return out;
}

}  // namespace

TEST_CASE("user_name names every local account as getent does") {
  std::istringstream accounts(command_output("getent passwd 2>/dev/null"));
  size_t checked = 0;
  for (std::string line; std::getline(accounts, line);) {
    std::string name = line.substr(0, line.find(':'));
    size_t uid_at = line.find(':', line.find(':') + 1) + 1;
    uint32_t uid = static_cast<uint32_t>(std::stoul(line.substr(uid_at, line.find(':', uid_at) - uid_at)));
    // getent lists the first account of a uid first; user_name returns the first too.
    std::string first = command_output("getent passwd " + std::to_string(uid) + " | cut -d: -f1");
    if (!first.empty() && first.back() == '\n') first.pop_back();
    if (first != name) continue;
    CAPTURE(line);
    CHECK(rawprobe::runtime::user_name(uid).value_or("") == name);
    ++checked;
  }
  CHECK(checked > 0);
  CHECK_FALSE(rawprobe::runtime::user_name(4123456789u).has_value());
  CHECK_FALSE(rawprobe::runtime::user_name(0, "/nonexistent/passwd").has_value());
}
