// Oracle: this machine's uapi <linux/bpf.h> (linux-libc-dev). Every helper its
// ___BPF_FUNC_MAPPER (FN(name, id, ...), Linux 6.2+) or __BPF_FUNC_MAPPER (FN(name) in id
// order, older headers) lists must have the same id and name in our table.
#include <doctest/doctest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "bpfasm/helpers.h"
#include "bpfasm/parse.h"
#include "bpfasm/print.h"

using namespace rawprobe::bpf;

namespace {

struct HeaderHelper {
  std::string name;
  int32_t id;
};

std::vector<HeaderHelper> helpers_in_header(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  std::string text = ss.str();
  std::vector<HeaderHelper> out;
  size_t start = text.find("#define ___BPF_FUNC_MAPPER(FN, ctx...)");
  bool with_ids = start != std::string::npos;
  if (!with_ids) start = text.find("#define __BPF_FUNC_MAPPER(FN)");
  if (start == std::string::npos) return out;
  size_t end = text.find("/* */", start);
  std::string list = text.substr(start, end - start);
  std::regex fn(with_ids ? R"(FN\((\w+), (\d+), ##ctx\))" : R"(FN\((\w+)\))");
  int32_t next = 0;
  for (std::sregex_iterator it(list.begin(), list.end(), fn), e; it != e; ++it)
    out.push_back({(*it)[1], with_ids ? std::stoi((*it)[2]) : next++});
  return out;
}

}  // namespace

TEST_CASE("every helper in the uapi header has its id and name in our table") {
  std::vector<HeaderHelper> header = helpers_in_header("/usr/include/linux/bpf.h");
  REQUIRE_MESSAGE(header.size() > 200, "no helper list found in /usr/include/linux/bpf.h");
  CHECK(helper_count() >= static_cast<int32_t>(header.size()));
  for (const HeaderHelper& h : header) {
    CAPTURE(h.name);
    CHECK(helper_name(h.id) == "bpf_" + h.name);
    CHECK(helper_id(h.name) == h.id);
    CHECK(helper_id("bpf_" + h.name) == h.id);
    // The printed call names the helper like the verifier, and reads back.
    Instruction call{op::JMP | op::CALL, 0, 0, 0, h.id};
    std::string text = print(call);
    CHECK(text == "call bpf_" + h.name + "#" + std::to_string(h.id));
    auto back = parse_instruction("call bpf_" + h.name);
    REQUIRE(back.ok());
    CHECK(*back == call);
  }
  CHECK(helper_name(helper_count()).empty());
  CHECK(helper_name(-1).empty());
  CHECK_FALSE(helper_id("no_such_helper").has_value());
}
