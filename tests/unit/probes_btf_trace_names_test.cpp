// btf_trace_names: the btf_trace_NAME strings of BTF blobs laid out as uapi linux/btf.h's
// struct btf_header says (built here field by field), and of every file under a fixture
// /sys/kernel/btf. The real kernel's BTF is compared with bpftool's typedef dump in
// tests/kernel/probes_rawtracepoint_test.cpp.
#include <doctest/doctest.h>

#include <linux/btf.h>

#include <cstring>
#include <string>

#include "engine/probes/btf_trace_names.h"
#include "tests/unit/sys_fixture.h"

using namespace rawprobe;
using rawprobe::probes::btf_trace_names_in;

namespace {

// A BTF blob with no types and `strings` (NUL-separated, as BTF stores them) as its string
// section, placed `gap` bytes after the end of the header.
std::string btf_blob(const std::string& strings, uint32_t gap = 0, uint16_t magic = BTF_MAGIC) {
  btf_header h;
  std::memset(&h, 0, sizeof h);
  h.magic = magic;
  h.version = BTF_VERSION;
  h.hdr_len = sizeof h;
  h.str_off = gap;
  h.str_len = static_cast<uint32_t>(strings.size());
  return std::string(reinterpret_cast<const char*>(&h), sizeof h) + std::string(gap, '\x7f') + strings;
}

// BTF's string section: offset 0 is the empty string, then each string and its NUL.
std::string string_section(std::initializer_list<std::string> strings) {
  std::string out(1, '\0');
  for (const std::string& s : strings) out += s + '\0';
  return out;
}

const std::string kStrings =
    string_section({"int", "btf_trace_sched_switch", "btf_trace_", "task_struct", "btf_trace_pelt_cfs_tp"});

}  // namespace

TEST_CASE("btf_trace_names_in: the NAMEs of btf_trace_NAME strings, in blob order; not BTF gives none") {
  CHECK(btf_trace_names_in(btf_blob(kStrings)) == std::vector<std::string>{"sched_switch", "pelt_cfs_tp"});
  CHECK(btf_trace_names_in(btf_blob(kStrings, 12)) == std::vector<std::string>{"sched_switch", "pelt_cfs_tp"});
  CHECK(btf_trace_names_in(btf_blob(kStrings, 0, 0x9feb)).empty());  // the other byte order
  std::string blob = btf_blob(kStrings);
  CHECK(btf_trace_names_in(blob.substr(0, blob.size() - 1)).empty());  // string section cut short
  CHECK(btf_trace_names_in("").empty());
  // The last string without its NUL still counts.
  CHECK(btf_trace_names_in(btf_blob(std::string("\0btf_trace_x", 12))) == std::vector<std::string>{"x"});
}

TEST_CASE("btf_trace_names: every file under /sys/kernel/btf (vmlinux and modules), sorted, once each") {
  sys::testing::TempTree tree;
  tree.write("/sys/kernel/btf/vmlinux", btf_blob(kStrings));
  tree.write("/sys/kernel/btf/mod", btf_blob(string_section({"btf_trace_mod_event", "btf_trace_sched_switch"})));
  tree.activate();
  CHECK(probes::btf_trace_names() == std::vector<std::string>{"mod_event", "pelt_cfs_tp", "sched_switch"});

  sys::testing::TempTree empty;  // a kernel without BTF
  empty.activate();
  CHECK(probes::btf_trace_names().empty());
}
