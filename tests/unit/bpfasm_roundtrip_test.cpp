// Every row of the opcode table, every operand at its extremes: bytes -> decode gives the
// instruction back, and print -> parse gives the same bytes, in both dialects.
#include <doctest/doctest.h>

#include <set>

#include "bpfasm/decode.h"
#include "bpfasm/form.h"
#include "bpfasm/form_examples.h"
#include "bpfasm/parse.h"
#include "bpfasm/print.h"

using namespace rawprobe::bpf;

namespace {

void check_round_trip(const Instruction& insn) {
  std::vector<Insn> slots = encode(std::span(&insn, 1));
  CHECK(slots.size() == insn.width());
  auto decoded = decode_at(from_bytes(to_bytes(slots)), 0);
  REQUIRE_MESSAGE(decoded.ok(), decoded.error().message());
  CHECK(*decoded == insn);
  for (Dialect d : {Dialect::Verifier, Dialect::Llvm}) {
    std::string text = print(insn, d);
    auto parsed = parse_instruction(text);
    REQUIRE_MESSAGE(parsed.ok(), text, "\n", parsed.error().message());
    CHECK_MESSAGE(to_bytes(encode(std::span(&*parsed, 1))) == to_bytes(slots), text);
  }
}

}  // namespace

TEST_CASE("every table row round-trips through bytes, decode, print and parse") {
  size_t count = 0;
  for (const Form& f : forms()) {
    std::vector<Instruction> ex = examples(f);
    // Each row is reachable: its first example decodes to this row, not an earlier one.
    CHECK_MESSAGE(find_form(ex.front()) == &f, f.syntax);
    for (const Instruction& insn : ex) {
      CAPTURE(f.syntax);
      check_round_trip(insn);
      ++count;
    }
  }
  MESSAGE(count, " instructions over ", forms().size(), " rows");
}

TEST_CASE("every decodable slot among all opcodes and many field values round-trips") {
  // Independent of the examples: sweep the encoding space and round-trip what decodes.
  std::set<uint8_t> decodable_codes;
  const int32_t imms[] = {0, 1, 8, 16, 32, 64, 0x01, 0x40, 0x41, 0x50, 0x51, 0xa0, 0xa1, 0xe1, 0xf1, -7};
  const int16_t offs[] = {0, 1, 8, 16, 32, -3};
  for (int code = 0; code < 256; ++code)
    for (uint8_t dst : {0, 3})
    for (uint8_t src : {0, 1, 2, 3, 4, 5, 6, 9})
      for (int16_t off : offs)
        for (int32_t imm : imms) {
          Insn slots[2] = {{static_cast<uint8_t>(code), dst, src, off, imm}, {0, 0, 0, 0, 9}};
          auto d = decode_at(slots, 0);
          if (!d) continue;
          decodable_codes.insert(static_cast<uint8_t>(code));
          check_round_trip(*d);
          std::vector<Insn> again = encode(std::span(&*d, 1));
          CHECK(std::equal(again.begin(), again.end(), slots));
        }
  // Every opcode of the table was reached by the sweep.
  for (const Form& f : forms()) CHECK_MESSAGE(decodable_codes.count(f.code) == 1, f.syntax);
}
