// What the fault tests read back after a run: the legacy uprobe events tracefs holds now.
#pragma once
#include <doctest/doctest.h>

#include <string>

#include "engine/sys/tracefs.h"

namespace rawprobe::cli_test {

inline std::string uprobe_events() {
  Result<std::string> dir = sys::tracefs_dir();
  REQUIRE(dir);
  std::string text;
  sys::read_text_file(*dir + "/uprobe_events", text);
  return text;
}

}  // namespace rawprobe::cli_test
