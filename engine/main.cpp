// rawprobe command line entry point.
#include <cstdio>
#include <cstring>
#include <string_view>

#include "engine/sys/call.h"
#include "engine/sys/features.h"

namespace {

constexpr const char* kVersion = "rawprobe 0.1.0";

void print_usage(FILE* out) {
  std::fprintf(out,
               "usage: rawprobe [options] [FILE | -e PROGRAM]\n"
               "  --info             print the kernel version and which BPF features it has\n"
               "  --trace-syscalls   print every bpf(), perf_event_open(), ioctl() and tracefs\n"
               "                     write rawprobe makes, decoded, on stderr\n"
               "  --version          print the version\n"
               "  --help             this text\n");
}

}  // namespace

int main(int argc, char** argv) {
  bool info = false;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--version") {
      std::printf("%s\n", kVersion);
      return 0;
    }
    if (arg == "--help" || arg == "-h") {
      print_usage(stdout);
      return 0;
    }
    if (arg == "--trace-syscalls") {
      rawprobe::sys::trace_to_stderr();
      continue;
    }
    if (arg == "--info") {
      info = true;
      continue;
    }
    std::fprintf(stderr, "rawprobe: unknown option '%s'\n", argv[i]);
    print_usage(stderr);
    return 2;
  }
  if (info) {
    std::fputs(rawprobe::sys::info_report().c_str(), stdout);
    return 0;
  }
  print_usage(stderr);
  return 2;
}
