// The kprobe blacklist as the kernel prints it (kernel/kprobes.c, kprobe_blacklist_seq_show:
// "0x%px-0x%px\t%ps\n", where %ps of a module's symbol is "name [module]"), and where it is
// read from under a fixture root. The real file on real kernels: tests/vm/guest.d/
// kprobe-blacklist.sh.
#include <doctest/doctest.h>

#include "engine/probes/kprobe_blacklist.h"
#include "tests/unit/sys_fixture.h"

using namespace rawprobe;

TEST_CASE("kprobe blacklist lines: vmlinux entries by name, module entries by module and name") {
  // The first two lines as the Debian 6.1 guest prints them; the third as %ps prints a
  // module's symbol; the fourth as a reader without kallsyms permission sees it.
  probes::KprobeBlacklist b = probes::parse_kprobe_blacklist(
      "0xffffffff8d000990-0xffffffff8d0009b0\tasm_exc_divide_error\n"
      "0xffffffff8d0009b0-0xffffffff8d0009d0\tasm_exc_overflow\n"
      "0xffffffffc0a2b000-0xffffffffc0a2b0a0\tvmx_vmexit [kvm_intel]\n"
      "0x0000000000000000-0x0000000000000000\tdo_int3\n");
  CHECK(b.entries.size() == 4);
  CHECK(b.contains("", "asm_exc_divide_error"));
  CHECK(b.contains("", "asm_exc_overflow"));
  CHECK(b.contains("kvm_intel", "vmx_vmexit"));
  CHECK_FALSE(b.contains("", "vmx_vmexit"));
  CHECK_FALSE(b.contains("", "kvm_intel]"));
  CHECK(b.contains("", "do_int3"));
}

TEST_CASE("kprobe blacklist under a fixture root: read from its debugfs, never mounted for") {
  sys::testing::TempTree tree;
  REQUIRE_FALSE(tree.root().empty());
  tree.activate();
  const probes::KprobeBlacklist& none = probes::kprobe_blacklist();
  CHECK_FALSE(none.known());
  CHECK(none.why.find(tree.root() + "/sys/kernel/debug/kprobes/blacklist") != std::string::npos);

  sys::testing::TempTree mounted;
  mounted.write("/sys/kernel/debug/kprobes/blacklist", "0x0-0x0\tdo_int3\n");
  mounted.activate();
  const probes::KprobeBlacklist& b = probes::kprobe_blacklist();
  CHECK(b.known());
  CHECK(b.source == mounted.root() + "/sys/kernel/debug/kprobes/blacklist");
  CHECK(b.contains("", "do_int3"));
}
