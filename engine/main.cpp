// rawprobe command line entry point.
#include <cstdio>
#include <cstring>
#include <string_view>

namespace {

constexpr const char* kVersion = "rawprobe 0.1.0";

void print_usage(FILE* out) {
  std::fprintf(out,
               "usage: rawprobe [options] [FILE | -e PROGRAM]\n"
               "  --version        print the version\n"
               "  --help           this text\n");
}

}  // namespace

int main(int argc, char** argv) {
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
    std::fprintf(stderr, "rawprobe: unknown option '%s'\n", argv[i]);
    print_usage(stderr);
    return 2;
  }
  print_usage(stderr);
  return 2;
}
