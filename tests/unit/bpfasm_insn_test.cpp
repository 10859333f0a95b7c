// The raw slot is the kernel's struct bpf_insn byte for byte, bit-fields included.
#include <doctest/doctest.h>
#include <linux/bpf.h>

#include <cstring>

#include "bpfasm/insn.h"

using namespace rawprobe::bpf;

TEST_CASE("Insn has the kernel's struct bpf_insn layout, register nibbles included") {
  struct bpf_insn k {};
  k.code = BPF_LDX | BPF_MEM | BPF_DW;
  k.dst_reg = 3;
  k.src_reg = 10;
  k.off = -8;
  k.imm = 0x12345678;
  Insn ours{BPF_LDX | BPF_MEM | BPF_DW, 3, 10, -8, 0x12345678};
  CHECK(std::memcmp(&k, &ours, sizeof k) == 0);
  // Our explicit little-endian bytes are the kernel struct's memory on this (LE) host.
  std::vector<uint8_t> bytes = to_bytes(std::span(&ours, 1));
  CHECK(std::memcmp(bytes.data(), &k, sizeof k) == 0);
  CHECK(from_bytes(bytes).front() == ours);
}

TEST_CASE("a 64-bit immediate load is one instruction of two slots") {
  Instruction ld{op::LD_IMM64, 1, 0, 0, static_cast<int64_t>(0x1122334455667788ull)};
  CHECK(ld.width() == 2);
  std::vector<Insn> slots = encode(std::span(&ld, 1));
  REQUIRE(slots.size() == 2);
  // The uapi's documented split: low half in the first slot, high half in the second.
  CHECK(static_cast<uint32_t>(slots[0].imm) == 0x55667788u);
  CHECK(static_cast<uint32_t>(slots[1].imm) == 0x11223344u);
  CHECK(slots[1].code == 0);
  Instruction one{BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 1};
  std::vector<Instruction> prog{ld, one};
  CHECK(slot_count(prog) == 3);
}
