// The `kernel BTF` line of --info on fixture trees (engine/sys/host_root.h): a BTF vmlinux
// file written by tests/unit/btf_builder.h, module files beside it, and the ways it can be
// missing or broken.
#include <doctest/doctest.h>

#include "engine/sys/feature_probes.h"
#include "tests/unit/btf_builder.h"
#include "tests/unit/sys_fixture.h"

using namespace rawprobe;

TEST_CASE("kernel BTF feature: present, with its size and module count, or why not") {
  btf::testing::BtfBuilder b;
  b.add_int("int", 4, BTF_INT_SIGNED);
  std::string blob = b.blob() + std::string(3000, '\0');  // a size that is not 0 KiB

  SUBCASE("vmlinux and two modules") {
    sys::testing::TempTree tree;
    tree.write("/sys/kernel/btf/vmlinux", blob);
    tree.write("/sys/kernel/btf/ext4", blob);
    tree.write("/sys/kernel/btf/xfs", blob);
    tree.activate();
    sys::FeatureState st = sys::probe_kernel_btf();
    CHECK(st.available);
    CHECK(st.detail == "vmlinux " + std::to_string(blob.size() / 1024) + " KiB, 2 modules");
  }
  SUBCASE("no /sys/kernel/btf") {
    sys::testing::TempTree tree;
    tree.mkdir("/sys/kernel");
    tree.activate();
    sys::FeatureState st = sys::probe_kernel_btf();
    CHECK_FALSE(st.available);
    CHECK(st.detail == "no /sys/kernel/btf/vmlinux");
  }
  SUBCASE("not BTF") {
    sys::testing::TempTree tree;
    tree.write("/sys/kernel/btf/vmlinux", std::string(64, 'x'));
    tree.activate();
    CHECK(sys::probe_kernel_btf().detail == "vmlinux is not BTF v1");
  }
  SUBCASE("shorter than a header") {
    sys::testing::TempTree tree;
    tree.write("/sys/kernel/btf/vmlinux", blob.substr(0, 10));
    tree.activate();
    CHECK(sys::probe_kernel_btf().detail == "vmlinux BTF header truncated");
  }
}
